/* Two threads increment a shared counter without a lock (a lost update); main checks the
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
    
    count = count + 1;
    
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
