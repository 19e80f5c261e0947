/* The twin of deadlock_create_in_cs: main releases `setup` right after
 * starting the worker, so its a -> b may run while the worker holds b
 * and waits for a: the deadlock is found. */
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
    pthread_mutex_unlock(&setup);
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    table = 0;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    pthread_join(t, 0);
    return 0;
}
