/* Heap memory is outside what tm models: no proof, and why. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *cell;

void *worker(void *arg)
{
    (void)arg;
    return 0;
}

int main(void)
{
    pthread_t t;
    cell = malloc(sizeof *cell);
    pthread_create(&t, 0, worker, 0);
    assert(cell != 0 || cell == 0);
    return 0;
}
