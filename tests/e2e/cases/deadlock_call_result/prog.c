/* Both threads reach the queue's mutex through what lookup() returns
 * (lookup has no body here). The lock is named lookup()->m in both, not
 * after the IR temporaries that hold the results, so the cycle with
 * `stats` is found, as a "may" (two calls may return two queues). Taking
 * lookup(1)'s and lookup(2)'s mutexes one after the other is no
 * self-deadlock: they may be two objects. */
#include <pthread.h>

struct queue {
    pthread_mutex_t m;
    int n;
};
struct queue *lookup(int id);
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
int total;

static void *producer(void *arg)
{
    pthread_mutex_lock(&lookup(1)->m);
    pthread_mutex_lock(&stats);
    total++;
    pthread_mutex_unlock(&stats);
    pthread_mutex_unlock(&lookup(1)->m);
    return arg;
}

static void *auditor(void *arg)
{
    pthread_mutex_lock(&stats);
    pthread_mutex_lock(&lookup(1)->m);
    total = lookup(1)->n;
    pthread_mutex_unlock(&lookup(1)->m);
    pthread_mutex_unlock(&stats);
    return arg;
}

static void *mover(void *arg)
{
    struct queue *from = lookup(1), *to = lookup(2);
    pthread_mutex_lock(&from->m);
    pthread_mutex_lock(&to->m);
    to->n += from->n;
    pthread_mutex_unlock(&to->m);
    pthread_mutex_unlock(&from->m);
    return arg;
}

int main(void)
{
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, producer, 0);
    pthread_create(&t2, 0, auditor, 0);
    pthread_create(&t3, 0, mover, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}
