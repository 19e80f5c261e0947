/* The assertion fails whatever fill() does: only on the path that does
 * not call it (n == 0). */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
void fill(int *p);
int main(void)
{
    int v = 5;
    int n = __VERIFIER_nondet_int();
    if (n)
        fill(&v);
    assert(n != 0);
    return 0;
}
