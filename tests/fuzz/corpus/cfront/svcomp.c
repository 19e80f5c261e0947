/* SV-COMP's conventions: nondet values, assume, atomic blocks and
 * functions, the error functions, assert, abort and exit. */
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void) { assert(0); }
int x;
void __VERIFIER_atomic_inc(void) { x++; }
int main(void)
{
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n > 0 && n < 10);
    __VERIFIER_atomic_begin();
    x = x + n;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_inc();
    if (__VERIFIER_nondet_bool())
        abort();
    if (x < 0) {
    ERROR: { reach_error(); abort(); }
    }
    assert(x != 5);
    if (n == 3)
        exit(0);
    return 0;
}
