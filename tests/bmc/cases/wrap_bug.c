/* 250 + 10 wraps to 4 in an unsigned char, so c != 4 is false: the second
 * assertion fails (the first holds). */
#include <assert.h>
int main(void)
{
    unsigned char c = 250;
    c += 10;
    assert(c < 250);
    assert(c != 4);
    return 0;
}
