/* main starts the worker inside its critical section of `setup` and takes
 * a then b before leaving it; the worker first waits for `setup` (takes
 * and releases it), then takes b then a. The worker's b -> a comes after
 * main released setup, so after main's a -> b: no deadlock. */
#include <pthread.h>
pthread_mutex_t setup = PTHREAD_MUTEX_INITIALIZER, a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int table, ready;
static void *worker(void *arg)
{
    pthread_mutex_lock(&setup);
    ready = 1;
    pthread_mutex_unlock(&setup);
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    table++;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}
int main(void)
{
    pthread_t t;
    pthread_mutex_lock(&setup);
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    table = 0;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&setup);
    pthread_join(t, 0);
    return 0;
}
