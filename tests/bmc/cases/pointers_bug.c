/* Writes through an alias: a[1] is 5, so the assertion fails. */
#include <assert.h>
struct box { int v[3]; };
int main(void)
{
    struct box b = { { 1, 2, 3 } };
    int *p = &b.v[0];
    p++;
    *p = 5;
    assert(b.v[1] == 2);
    return 0;
}
