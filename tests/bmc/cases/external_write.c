/* fill() has no body and gets &v: it might write v, so the failure of the
 * assertion is not claimed (unknown); a bug that does not depend on the
 * call is still found (external_write2.c). */
#include <assert.h>
void fill(int *p);
int main(void)
{
    int v = 5;
    fill(&v);
    assert(v == 5);
    return 0;
}
