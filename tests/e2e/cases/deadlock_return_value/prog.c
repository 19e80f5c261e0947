/* prepare() returns -1 with `a` still held on its error path (the caller
 * releases it) and 0 without it. The caller tests the value: on the path
 * that goes on to take b, a is not held, so there is no a -> b order and
 * no cycle with the flusher, which takes b then a like the worker. */
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
    if (prepare() < 0) {
        setup = -1;
        pthread_mutex_unlock(&a);
        return arg;
    }
    int rc = prepare();
    if (rc != 0) {
        pthread_mutex_unlock(&a);
        return arg;
    }
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pending++;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
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
