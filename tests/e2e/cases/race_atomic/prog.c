#include <pthread.h>

int a, b;
void __VERIFIER_atomic_inc_a(void) { a = a + 1; }
void __VERIFIER_atomic_inc_b(void) { b = b + 1; }

void *t1(void *arg)
{
    __VERIFIER_atomic_inc_a();
    __VERIFIER_atomic_inc_b();
    return 0;
}

void *t2(void *arg)
{
    __VERIFIER_atomic_inc_a(); /* atomic against atomic: no race */
    b = 5;                     /* plain against atomic: a race */
    return 0;
}

int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t1, 0);
    pthread_create(&y, 0, t2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
