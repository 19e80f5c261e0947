/* Stores and loads through a symbolic index into a small array and
 * through a pointer to one of two variables. Both assertions hold for
 * every input; the error is reached exactly when i == 2. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int x, y;
int main(void)
{
    int a[4] = { 0 };
    int i = __VERIFIER_nondet_int();
    __VERIFIER_assume(i >= 0 && i < 4);
    a[i] = 5;
    int *p = __VERIFIER_nondet_bool() ? &x : &y;
    *p = 3;
    assert(x + y == 3);
    assert(a[0] + a[1] + a[2] + a[3] == 5);
    if (a[2] == 5)
        reach_error();
    return 0;
}
