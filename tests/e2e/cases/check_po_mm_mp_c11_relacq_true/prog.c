#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
/* Message passing: the release store of the flag and the acquire load that
 * reads it synchronise, so the data written before is seen. */
int data;
atomic_int flag;
int r1, r2 = -1;
void *producer(void *a)
{
    (void)a;
    data = 42;
    atomic_store_explicit(&flag, 1, memory_order_release);
    return 0;
}
void *consumer(void *a)
{
    (void)a;
    r1 = atomic_load_explicit(&flag, memory_order_acquire);
    if (r1 == 1)
        r2 = data;
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(r1 == 1 && r2 != 42));
    return 0;
}
