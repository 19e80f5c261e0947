#include <assert.h>
#include <pthread.h>
/* Store buffering under release/acquire: RA orders a write only before
 * what reads it, so both reads may miss the other thread's write. */
int data, flag, r1, r2;
void *producer(void *a) { (void)a; data = 1; r1 = flag; return 0; }
void *consumer(void *a) { (void)a; flag = 1; r2 = data; return 0; }
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(r1 == 0 && r2 == 0));
    return 0;
}
