/* C's integer semantics: every assertion holds. */
#include <assert.h>
int main(void)
{
    unsigned char c = 250;
    c += 10;
    assert(c == 4);
    unsigned u = 0;
    u--;
    assert(u == 4294967295u);
    signed char sc = (signed char)200;
    assert(sc == -56);
    assert((unsigned)-1 > 0);
    assert(-8 >> 1 == -4);
    assert((1u << 31) == 2147483648u);
    assert(-7 / 2 == -3);
    assert(-7 % 2 == -1);
    assert((unsigned)-7 / 2 == 2147483644u);
    long l = (int)-1;
    assert(l == -1);
    unsigned long ul = (unsigned)-1;
    assert(ul == 4294967295ul);
    unsigned short us = 65535;
    int promoted = us + 1;
    assert(promoted == 65536);
    _Bool b = 256;
    assert(b == 1);
    unsigned long long big = 0xffffffffffffffffull;
    assert(big + 1 == 0);
    assert((int)(big >> 33) == 0x7fffffff);
    return 0;
}
