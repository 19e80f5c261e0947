/* Inline assembly with a "memory" clobber writes x behind the compiler's
 * back: the partial-order engine does not model what it writes, so it must
 * not prove the assertion. */
#include <assert.h>
#include <pthread.h>

int x;

void *worker(void *arg)
{
    (void)arg;
    __asm__ volatile("movl $1, x(%%rip)" ::: "memory");
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(x == 0);
    return 0;
}
