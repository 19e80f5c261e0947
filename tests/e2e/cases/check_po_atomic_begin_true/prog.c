#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void *w(void *a)
{
    (void)a;
    __VERIFIER_atomic_begin();
    x = x + 1;
    y = y + 1;
    __VERIFIER_atomic_end();
    return 0;
}
void *r(void *a)
{
    (void)a;
    __VERIFIER_atomic_begin();
    int u = x, v = y;
    __VERIFIER_atomic_end();
    assert(u == v);
    return 0;
}
int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, 0, w, 0);
    pthread_create(&b, 0, w, 0);
    pthread_create(&c, 0, r, 0);
    return 0;
}
