#include <assert.h>
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x;
void *t(void *a) { (void)a; __VERIFIER_atomic_begin(); x = x + 1; __VERIFIER_atomic_end(); return 0; }
int main(void)
{
    pthread_t a;
    pthread_create(&a, 0, t, 0);
    pthread_join(a, 0);
    assert(x == 1);
    return 0;
}
