/* The twin of check_po_asm_memory_bounded: assembly with no outputs and no
 * "memory" clobber writes nothing the program can see (it lowers to skip),
 * so the proof stands. */
#include <assert.h>
#include <pthread.h>

int x;

void *worker(void *arg)
{
    (void)arg;
    __asm__ volatile("nop");
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
