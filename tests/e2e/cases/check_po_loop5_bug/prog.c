/* Two threads take turns in atomic sections for five rounds each (the
 * shape of SV-COMP's triangular): j and i can reach 16 (the bug: the bound is one too low), which needs the
 * loops unwound 6 times (5 iterations and the exit test). */
#include <assert.h>
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int i = 3, j = 6;
void *t1(void *arg)
{
    (void)arg;
    for (int k = 0; k < 5; k++) {
        __VERIFIER_atomic_begin();
        i = j + 1;
        __VERIFIER_atomic_end();
    }
    return 0;
}
void *t2(void *arg)
{
    (void)arg;
    for (int k = 0; k < 5; k++) {
        __VERIFIER_atomic_begin();
        j = i + 1;
        __VERIFIER_atomic_end();
    }
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    __VERIFIER_atomic_begin();
    int ci = i >= 16;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    int cj = j >= 16;
    __VERIFIER_atomic_end();
    assert(!(ci || cj));
    return 0;
}
