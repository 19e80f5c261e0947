#include <assert.h>
#include <pthread.h>
int x;
void __VERIFIER_atomic_inc(void) { int t = x; x = t + 1; }
void *w(void *a) { (void)a; __VERIFIER_atomic_inc(); return 0; }
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, w, 0);
    pthread_create(&b, 0, w, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 2);
    return 0;
}
