/* Threads created in a loop with their handles in an array, and joined. */
#include <pthread.h>
#define N 3
int shared;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
void *work(void *arg)
{
    long id = (long)arg;
    pthread_mutex_lock(&lock);
    shared += (int)id;
    pthread_mutex_unlock(&lock);
    return 0;
}
int main(void)
{
    pthread_t ts[N];
    for (long i = 0; i < N; i++)
        pthread_create(&ts[i], 0, work, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(ts[i], 0);
    return shared;
}
