/* Any number of workers bump a counter and put it back, each pair of
 * steps under an outer mutex, each step under an inner one. Whoever holds
 * both mutexes sees 0. */
#include <assert.h>
#include <pthread.h>

int count;
pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&outer);
    pthread_mutex_lock(&inner);
    count = count + 1;
    pthread_mutex_unlock(&inner);
    pthread_mutex_lock(&inner);
    count = count - 1;
    pthread_mutex_unlock(&inner);
    pthread_mutex_unlock(&outer);
    return 0;
}

int main(void)
{
    pthread_t ids[100];
    for (int i = 0; i < 100; i++)
        pthread_create(&ids[i], 0, worker, 0);
    pthread_mutex_lock(&outer);
    pthread_mutex_lock(&inner);
    assert(count == 0);
    pthread_mutex_unlock(&inner);
    pthread_mutex_unlock(&outer);
    return 0;
}
