/* The twin of deadlock_deep_path with a real deadlock: the drainer takes
 * the fifth node's mutexes in the other order. The full names (nine
 * selectors) meet, and the cycle is found. */
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

static void *drainer(void *arg)
{
    struct node *h = head;
    pthread_mutex_lock(&h->next->next->next->next->out);
    pthread_mutex_lock(&h->next->next->next->next->in);
    h->next->next->next->next->n = 0;
    pthread_mutex_unlock(&h->next->next->next->next->in);
    pthread_mutex_unlock(&h->next->next->next->next->out);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, mover, 0);
    pthread_create(&t2, 0, drainer, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
