#include <pthread.h>

int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return count;
}
