#include <pthread.h>

int config = 7;
int out1, out2;

void *r1(void *arg)
{
    out1 = config;
    return 0;
}

void *r2(void *arg)
{
    out2 = config;
    return 0;
}

int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, r1, 0);
    pthread_create(&y, 0, r2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return out1 + out2;
}
