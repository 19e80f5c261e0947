/* A function without a body returns any value and (bmc.h) leaves memory
 * alone when it gets no pointer: g stays 5, r may be 42. */
#include <assert.h>
int ext(int x);
int g = 5;
int main(void)
{
    int r = ext(g);
    assert(g == 5);
    assert(r != 42);
    return 0;
}
