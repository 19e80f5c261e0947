/* The lock-free increment of check_tm_cas_true without the wraparound
 * guard: the swap from the largest value stores 0, below what was read. */
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
