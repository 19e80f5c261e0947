/* The twin of deadlock_cond_wait_alternatives with a real deadlock: the
 * consumer holds x across the wait (on whichever queue its pointer names)
 * and then takes y; the auditor takes y, then x. The wait's release and
 * re-take of q->m must not erase x from the held locks. */
#include <pthread.h>

struct queue {
    pthread_mutex_t m;
    pthread_cond_t c;
    int n;
} q1 = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 },
  q2 = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
pthread_mutex_t x = PTHREAD_MUTEX_INITIALIZER, y = PTHREAD_MUTEX_INITIALIZER;
int urgent, done;

static void *consumer(void *arg)
{
    struct queue *q = urgent ? &q1 : &q2;
    pthread_mutex_lock(&x);
    pthread_mutex_lock(&q->m);
    do
        pthread_cond_wait(&q->c, &q->m);
    while (q->n == 0);
    q->n--;
    pthread_mutex_unlock(&q->m);
    pthread_mutex_lock(&y);
    done++;
    pthread_mutex_unlock(&y);
    pthread_mutex_unlock(&x);
    return arg;
}

static void *auditor(void *arg)
{
    pthread_mutex_lock(&y);
    pthread_mutex_lock(&x);
    done = 0;
    pthread_mutex_unlock(&x);
    pthread_mutex_unlock(&y);
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, auditor, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
