/* Writing outside an array is undefined behaviour: the bounded check ends
 * such a path rather than guess where the write lands. With i == 5 an
 * encoding that mapped the write to the last element would make
 * a[1] == 1 with i != 1 and report a bug that no defined execution has. */
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int a[2] = { 0, 0 };
    int i = __VERIFIER_nondet_int();
    a[i] = 1;
    assert(a[1] == 0 || i == 1);
    return 0;
}
