/* The twin of deadlock_return_value with a real deadlock: one caller
 * does not test prepare()'s value, so on its error path it still holds a
 * when it takes b, while the flusher takes b then a. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int ready, setup, pending;

static int prepare(void)
{
    pthread_mutex_lock(&a);
    if (!ready)
        return -1; /* a is still held: the caller releases it */
    setup++;
    pthread_mutex_unlock(&a);
    return 0;
}

static void *worker(void *arg)
{
    int rc = prepare();
    pthread_mutex_lock(&b);
    pending++;
    pthread_mutex_unlock(&b);
    if (rc < 0)
        pthread_mutex_unlock(&a);
    return arg;
}

static void *flusher(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pending = 0;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
