/* A function without a body returns any value and leaves memory alone. */
#include <assert.h>
int ext(int *p);
int main(void)
{
    int v = 5;
    int r = ext(&v);
    assert(v == 5);
    assert(r != 42);
    return 0;
}
