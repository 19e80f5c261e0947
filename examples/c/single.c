/* One thread: the assertion holds for every input. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    int y = x > 0 ? x : -x;
    if (x > -1000 && x < 1000)
        assert(y >= 0);
    return 0;
}
