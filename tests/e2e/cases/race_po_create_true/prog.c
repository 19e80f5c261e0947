/* Ordered by creation: main writes config before it starts the worker,
 * which reads it. -DBUG writes it after the start. */
#include <pthread.h>

int config;

void *worker(void *arg)
{
    return (void *)(long)config;
}

int main(void)
{
    pthread_t t;
#ifndef BUG
    config = 7;
#endif
    pthread_create(&t, 0, worker, 0);
#ifdef BUG
    config = 7;
#endif
    return 0;
}
