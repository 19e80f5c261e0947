#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *w(void *a)
{
    (void)a;
    int v = atomic_load(&x); /* load and store: not one RMW */
    atomic_store(&x, v + 1);
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, w, 0);
    pthread_create(&b, 0, w, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int v = atomic_load(&x);
    assert(v == 2);
    return 0;
}
