/* C11 <threads.h>: mtx_t locks and thrd_create threads are handled like pthread's. */
#include <threads.h>
mtx_t a, b;
int f1(void *p) { mtx_lock(&a); mtx_lock(&b); mtx_unlock(&b); mtx_unlock(&a); return 0; }
int f2(void *p) { mtx_lock(&b); mtx_lock(&a); mtx_unlock(&a); mtx_unlock(&b); return 0; }
int main(void) {
    mtx_init(&a, mtx_plain); mtx_init(&b, mtx_plain | mtx_recursive);
    thrd_t t1, t2;
    thrd_create(&t1, f1, 0); thrd_create(&t2, f2, 0);
    thrd_join(t1, 0); thrd_join(t2, 0);
    return 0;
}
