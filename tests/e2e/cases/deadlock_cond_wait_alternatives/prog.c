/* A consumer waits on whichever queue its pointer names: the wait
 * releases that queue's mutex and takes the same mutex back, so the
 * consumer never holds one queue's mutex while it waits for the other's.
 * The mover takes q2's mutex, then q1's: no cycle. */
#include <pthread.h>

struct queue {
    pthread_mutex_t m;
    pthread_cond_t c;
    int n;
} q1 = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 },
  q2 = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
int urgent;

static void *consumer(void *arg)
{
    struct queue *q = urgent ? &q1 : &q2;
    pthread_mutex_lock(&q->m);
    do
        pthread_cond_wait(&q->c, &q->m);
    while (q->n == 0);
    q->n--;
    pthread_mutex_unlock(&q->m);
    return arg;
}

static void *mover(void *arg)
{
    pthread_mutex_lock(&q2.m);
    pthread_mutex_lock(&q1.m);
    q1.n += q2.n;
    q2.n = 0;
    pthread_cond_signal(&q1.c);
    pthread_mutex_unlock(&q1.m);
    pthread_mutex_unlock(&q2.m);
    return arg;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_create(&c, 0, mover, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
