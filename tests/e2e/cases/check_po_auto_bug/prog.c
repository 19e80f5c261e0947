#include <assert.h>
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg)
{
    (void)arg;
    /* the lock is gone: a lost update */
    counter = counter + 1;
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
