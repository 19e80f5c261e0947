/* The twin of deadlock_fold_path: counter takes out then in. The cycle
 * on the two folded names is found, a "may" (a folded path stands for
 * every path that repeats its folded part). */
#include <pthread.h>
struct node {
    struct node *next;
    pthread_mutex_t in, out;
    int n;
};
struct node *head;
#define FAR(h) h->next->next->next->next->next->next->next->next->next->next
static void *mover(void *arg)
{
    struct node *h = head;
    pthread_mutex_lock(&FAR(h)->in);
    pthread_mutex_lock(&FAR(h)->out);
    FAR(h)->n++;
    pthread_mutex_unlock(&FAR(h)->out);
    pthread_mutex_unlock(&FAR(h)->in);
    return arg;
}
static void *counter(void *arg)
{
    struct node *h = head;
    pthread_mutex_lock(&FAR(h)->out);
    pthread_mutex_lock(&FAR(h)->in);
    FAR(h)->n--;
    pthread_mutex_unlock(&FAR(h)->in);
    pthread_mutex_unlock(&FAR(h)->out);
    return arg;
}
int main(void)
{
    pthread_t t, u;
    pthread_create(&t, 0, mover, 0);
    pthread_create(&u, 0, counter, 0);
    pthread_join(t, 0);
    pthread_join(u, 0);
    return 0;
}
