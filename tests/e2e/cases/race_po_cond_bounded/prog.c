/* Ordered only by a condition variable and its flag: the producer writes
 * data, then sets ready under the mutex and signals; the consumer waits in
 * a loop until ready, then reads data. -DBUG waits with `if` instead of
 * `while`: a spurious wake-up (POSIX allows them) reads data unordered. */
#include <pthread.h>

int data, ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *producer(void *arg)
{
    data = 42;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    pthread_mutex_lock(&m);
#ifdef BUG
    if (!ready)
#else
    while (!ready)
#endif
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return data;
}
