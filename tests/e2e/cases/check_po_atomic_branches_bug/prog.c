#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
/* An atomic section that ends in two branches (as in qw2004), and one
 * nested in an atomic function. */
int stopping, pending = 1, stopped;
int inc(void)
{
    /* the bug: the test and the increment are not atomic */
    if (stopping) {
        return -1;
    } else {
        pending = pending + 1;
    }
    return 0;
}
void __VERIFIER_atomic_dec(void)
{
    __VERIFIER_atomic_begin(); /* nested: the section is the function's */
    pending = pending - 1;
    __VERIFIER_atomic_end();
    if (pending == 0)
        stopped = 1;
}
void *stop(void *a)
{
    (void)a;
    stopping = 1;
    __VERIFIER_atomic_dec();
    return 0;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, stop, 0);
    if (inc() == 0) {
        assert(!stopped);
        __VERIFIER_atomic_dec();
    }
    return 0;
}
