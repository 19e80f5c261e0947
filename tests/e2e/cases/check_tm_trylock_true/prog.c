/* main spins on trylock until it holds the mutex; the workers keep their
 * temporary value inside their critical section. */
#include <assert.h>
#include <pthread.h>

int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    shared = 42;
    shared = 0;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    for (int i = 0; i < 1000; i++)
        pthread_create(&t, 0, worker, 0);
    while (pthread_mutex_trylock(&m) != 0) {
    }
    assert(shared == 0);
    pthread_mutex_unlock(&m);
    return 0;
}
