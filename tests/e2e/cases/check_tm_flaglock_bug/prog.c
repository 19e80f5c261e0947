/* A lock built from an int and two atomic functions (wait for 0 and set
 * 1; check 1 and set 0). Endless helpers move the counter away from 0 and
 * back while they hold it; the checker, holding it, sees 0. The bug: a
 * helper lets go of the lock before it puts the counter back. */
extern void reach_error(void);
extern void abort(void);
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

int busy;
int level;

void __VERIFIER_atomic_enter(int *flag)
{
    if (!(*flag == 0))
        abort();
    *flag = 1;
}

void __VERIFIER_atomic_leave(int *flag)
{
    if (!(*flag == 1))
        abort();
    *flag = 0;
}

void *helper(void *arg)
{
    (void)arg;
    if (__VERIFIER_nondet_int()) {
        __VERIFIER_atomic_enter(&busy);
        level = level + 2;
        __VERIFIER_atomic_leave(&busy);
        level = level - 2;
    }
    return 0;
}

void *checker(void *arg)
{
    (void)arg;
    while (1) {
        __VERIFIER_atomic_enter(&busy);
        if (level != 0)
            reach_error();
        __VERIFIER_atomic_leave(&busy);
    }
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, checker, 0);
    while (1)
        pthread_create(&t, 0, helper, 0);
}
