/* IRIW: two writers, two readers that read the writes in opposite orders.
 * Forbidden under sc and tso (multi-copy atomic), allowed under ra and c11
 * for plain accesses? plain accesses race; the assertion asks only the
 * outcome. */
#include <assert.h>
#include <pthread.h>
int x, y, r1, r2, r3, r4;
void *w1(void *a) { x = 1; return 0; }
void *w2(void *a) { y = 1; return 0; }
void *rd1(void *a) { r1 = x; r2 = y; return 0; }
void *rd2(void *a) { r3 = y; r4 = x; return 0; }
int main(void)
{
    pthread_t a, b, c, d;
    pthread_create(&a, 0, w1, 0);
    pthread_create(&b, 0, w2, 0);
    pthread_create(&c, 0, rd1, 0);
    pthread_create(&d, 0, rd2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    assert(!(r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0));
    return 0;
}
