#include <pthread.h>

int count;

void *worker(void *arg)
{
    count = count + 1;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
