/* C11 <threads.h> and <stdatomic.h>, GCC __atomic and __sync builtins:
 * read-modify-writes become atomic blocks. */
#include <stdatomic.h>
#include <threads.h>
atomic_int x;
int y;
mtx_t m;
int f(void *a) { (void)a; mtx_lock(&m); y++; mtx_unlock(&m); return 0; }
int main(void) {
  int e = 0;
  atomic_store(&x, 1);
  int v = atomic_load_explicit(&x, memory_order_acquire);
  atomic_fetch_add(&x, 2);
  atomic_compare_exchange_strong(&x, &e, 5);
  __atomic_fetch_add(&y, 1, __ATOMIC_SEQ_CST);
  __sync_fetch_and_add(&y, 3);
  if (__sync_bool_compare_and_swap(&y, 1, 2)) y = 0;
  x++;
  thrd_t t; mtx_init(&m, mtx_recursive); thrd_create(&t, f, 0); thrd_join(t, 0);
  return v;
}
