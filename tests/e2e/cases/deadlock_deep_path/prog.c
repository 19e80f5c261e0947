/* Two different mutexes of the fifth node of a list, reached through
 * nine selectors: their names must not be cut to a common prefix (which
 * made them one lock taken twice, a false self-deadlock). */
#include <pthread.h>

struct node {
    struct node *next;
    pthread_mutex_t in, out;
    int n;
};
struct node *head;

static void *mover(void *arg)
{
    struct node *h = head;
    pthread_mutex_lock(&h->next->next->next->next->in);
    pthread_mutex_lock(&h->next->next->next->next->out);
    h->next->next->next->next->n++;
    pthread_mutex_unlock(&h->next->next->next->next->out);
    pthread_mutex_unlock(&h->next->next->next->next->in);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, mover, 0);
    pthread_join(t, 0);
    return 0;
}
