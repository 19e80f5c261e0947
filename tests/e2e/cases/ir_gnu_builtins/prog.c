/* Overflow builtins (exact, in 128 bits), offsetof with an array index, choose_expr, types_compatible_p, __atomic/__sync, unreachable. */
#include <stddef.h>
struct s { int a; int b[4]; };
int g;
int f(int a, int b) {
    int r;
    if (__builtin_add_overflow(a, b, &r)) return -1;
    if (__builtin_mul_overflow(a, b, &r)) return -2;
    size_t o = __builtin_offsetof(struct s, b[2]);
    int t = __builtin_types_compatible_p(int, long);
    int u = __builtin_choose_expr(1, 5, 6.0);
    __atomic_fetch_add(&g, 1, __ATOMIC_SEQ_CST);
    __sync_fetch_and_add(&g, 1);
    __sync_synchronize();
    if (a < 0) __builtin_unreachable();
    return r + (int)o + t + u;
}
