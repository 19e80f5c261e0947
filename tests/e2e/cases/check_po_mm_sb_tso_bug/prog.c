#include <assert.h>
#include <pthread.h>
/* Store buffering: under x86-TSO each write may wait in its thread's store
 * buffer while the other thread's read runs, so both reads may see 0. */
int x, y, r1, r2;
void *t1(void *a) { (void)a; x = 1; r1 = y; return 0; }
void *t2(void *a) { (void)a; y = 1; r2 = x; return 0; }
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(r1 == 0 && r2 == 0)); /* reachable under tso, not under sc */
    return 0;
}
