#include <assert.h>
#include <pthread.h>
/* The twin of check_po_three_switches_bug: a is never 4. */
int a, b;
void *ta(void *p)
{
    (void)p;
    a = 1;
    if (b == 1) {
        a = 2;
        if (b == 2)
            a = 3;
    }
    return 0;
}
void *tb(void *p)
{
    (void)p;
    if (a == 1) {
        b = 1;
        if (a == 2) {
            b = 2;
            if (a == 4) /* a is never 4 */
                assert(0);
        }
    }
    return 0;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, ta, 0);
    pthread_create(&y, 0, tb, 0);
    return 0;
}
