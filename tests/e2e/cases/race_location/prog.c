#include <pthread.h>

int x, y;

void *worker(void *arg)
{
    x = x + 1;
    y = y + 1;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    return 0; /* no join: the races count all the same */
}
