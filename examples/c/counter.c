/* Two threads increment a shared counter under a lock; main checks the
 * result after joining both. */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 2
#endif

int count;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    count = count + 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert(count == N);
    return 0;
}
