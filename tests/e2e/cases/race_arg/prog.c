#include <pthread.h>

void *worker(void *arg)
{
    int *p = arg;
    *p = 42;
    return 0;
}

int main(void)
{
    int x = 0;
    pthread_t t;
    pthread_create(&t, 0, worker, &x);
    int seen = x;
    pthread_join(t, 0);
    return seen;
}
