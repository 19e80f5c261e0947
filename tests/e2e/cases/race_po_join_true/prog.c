/* Ordered only by join: the worker writes result, main reads it after
 * pthread_join. -DBUG reads it before the join. */
#include <pthread.h>

int result;

void *worker(void *arg)
{
    result = 42;
    return 0;
}

int main(void)
{
    pthread_t t;
    int r = 0;
    pthread_create(&t, 0, worker, 0);
#ifdef BUG
    r = result;
#endif
    pthread_join(t, 0);
#ifndef BUG
    r = result;
#endif
    return r;
}
