/* A call through a pointer chosen by a nondet value: dec(5) is 4. */
#include <assert.h>
extern _Bool __VERIFIER_nondet_bool(void);
int inc(int x) { return x + 1; }
int dec(int x) { return x - 1; }
int main(void)
{
    int (*f)(int) = __VERIFIER_nondet_bool() ? inc : dec;
    int r = f(5);
    assert(r == 4 || r == 6);
    assert(r == 6);
    return 0;
}
