/* The worker updates only when trylock succeeds. -DBUG ignores
 * trylock's result and updates anyway. */
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
#ifdef BUG
    pthread_mutex_trylock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
#else
    if (pthread_mutex_trylock(&m) == 0) {
        x = x + 1;
        pthread_mutex_unlock(&m);
    }
#endif
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    x = 2;
    pthread_mutex_unlock(&m);
    return 0;
}
