/* Two racing pairs of places, on a and on b: each is reported once. */
#include <pthread.h>

int a, b;

void *worker(void *arg)
{
    a = 1;
    b = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    a = 2;
    b = 2;
    return 0;
}
