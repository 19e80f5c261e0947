/* A second deterministic path (see semantics.c): records holding arrays
 * and function pointers, 2-D arrays, pointer comparisons and round trips
 * through integers, 128-bit and 64-bit arithmetic, mutual recursion
 * through pointers, a goto into a loop. Every assertion holds (gcc -fwrapv
 * on x86-64 agrees) and the final assert(0) is reached. */
#include <assert.h>
#include <stdint.h>
struct inner { short s[3]; char tag; };
struct outer { struct inner in[2]; int (*op)(int); long last; };
static int twice(int x) { return 2 * x; }
static int is_even(int n);
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n)
{
    int (*f)(int) = is_odd;
    return n == 0 ? 1 : f(n - 1);
}
int grid[3][4];
int main(void)
{
    struct outer a = { .in = { { { 1, 2, 3 }, 'x' }, { { -4, 5, 6 }, 'y' } }, .op = twice, .last = -9 };
    struct outer b;
    b = a;
    a.in[1].s[0] = 100;
    assert(b.in[1].s[0] == -4 && b.in[0].tag == 'x' && b.op(21) == 42 && b.last == -9);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            grid[i][j] = i * 10 + j;
    int *flat = &grid[0][0];
    assert(flat[6] == 12 && grid[2][3] == 23);
    int *lo = &grid[0][1], *hi = &grid[1][0];
    assert(lo < hi && hi - lo == 3 && !(hi <= lo));
    uintptr_t u = (uintptr_t)hi;
    int *back = (int *)(u + sizeof(int));
    assert(*back == 11);
    __int128 w = (__int128)1 << 100;
    assert((long)(w >> 98) == 4);
    long m = -7L;
    assert(m % 3 == -1 && m / 3 == -2);
    unsigned long ul = 18446744073709551615ul;
    assert(ul / 10 == 1844674407370955161ul && ul % 10 == 5);
    unsigned char sh = 3;
    assert((0x80u >> sh) == 0x10 && (1 << sh) == 8);
    char ch = 'a';
    assert(ch + 1 == 98 && (char)(ch - 32) == 'A');
    assert(is_even(4) && is_odd(3) && !is_odd(2));
    int k = 0, n = 0;
    goto inside;
    while (k < 3) {
        n += 10;
    inside:
        k++;
    }
    assert(k == 3 && n == 20);
    int *pick = k > 2 ? &grid[1][1] : 0;
    assert(pick && *pick == 11);
    assert(0);
    return 0;
}
