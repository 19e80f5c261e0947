/* A worker holds x while it waits on a condition with m: the wait gives m
 * up and must take it back while x is still held. Another worker that got
 * m meanwhile and wants x blocks, and the first one, once woken (even
 * spuriously), waits for m: a deadlock, reported as a "may" (it needs the
 * wakeup) with the re-take named. The waits that hold nothing else (the
 * helper called with m held, the loop in main) add no dependency. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, x = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

static void wait_ready(void)
{
    while (!ready)
        pthread_cond_wait(&c, &m);
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    wait_ready();
    pthread_mutex_lock(&x);
    while (ready < 2)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&x);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_mutex_lock(&m);
    ready = 2;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
