/* A lock-free increment: read the counter, compute one more (unless that
 * would wrap around), and store it with an atomic compare-and-swap that
 * reports through a pointer to the caller's local whether it succeeded;
 * retry until it does. Every successful swap is non-decreasing, so after
 * its own swap a thread sees the counter past the value it read. */
extern void reach_error(void);
#include <pthread.h>

volatile unsigned counter;

void __VERIFIER_atomic_swap(volatile unsigned *at, unsigned expect, unsigned next, int *done)
{
    if (*at == expect) {
        *at = next;
        *done = 1;
    } else {
        *done = 0;
    }
}

void *worker(void *arg)
{
    unsigned seen, next;
    int ok;
    do {
        seen = counter;
        if (seen == 0u - 1)
            return 0;
        next = seen + 1;
        __VERIFIER_atomic_swap(&counter, seen, next, &ok);
    } while (ok == 0);
    if (!(counter > seen))
        reach_error();
    return 0;
}

int main(void)
{
    pthread_t t;
    while (1)
        pthread_create(&t, 0, worker, 0);
}
