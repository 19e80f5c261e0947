/* Threads created without end each publish the same value in an atomic
 * section and read it back in another: after its own write a thread can
 * only see values some thread wrote, never main's unknown initial one. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>

int s;

void *thr(void *arg)
{
    (void)arg;
    int mine = 4;
    __VERIFIER_atomic_begin();
    s = mine;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    if (s != mine)
        reach_error();
    __VERIFIER_atomic_end();
    return 0;
}

int main(void)
{
    s = __VERIFIER_nondet_int();
    pthread_t t;
    while (1)
        pthread_create(&t, 0, thr, 0);
}
