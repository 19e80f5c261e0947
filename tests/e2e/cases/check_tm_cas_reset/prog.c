/* The lock-free increment of check_tm_cas_true, and one thread that sets
 * the counter back to 0 in an atomic section: a worker's check fails. */
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
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

void *reset(void *arg)
{
    __VERIFIER_atomic_begin();
    counter = 0;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, reset, 0);
    while (1)
        pthread_create(&t, 0, worker, 0);
}
