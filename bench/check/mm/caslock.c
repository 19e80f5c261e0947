/* Two threads increment a counter under a spin lock made of a C11
 * compare-exchange (acquire) and a release store: safe under every model. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int l;
int n;
void *t(void *a)
{
    int z = 0;
    while (!atomic_compare_exchange_strong_explicit(&l, &z, 1, memory_order_acquire,
                                                    memory_order_relaxed))
        z = 0;
    n = n + 1;
    atomic_store_explicit(&l, 0, memory_order_release);
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(n == 2);
    return 0;
}
