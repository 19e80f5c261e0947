/* One deterministic path through many C semantics; every assertion holds
 * (gcc -fwrapv on x86-64 agrees) and the last line is reached, which the
 * final assert(0) proves: the expected verdict is a bug at that line and
 * nowhere else. */
#include <assert.h>
#include <stdlib.h>
struct pair { int a; long b; };
struct wrap { int n; int v[3]; };
int *gp;
int gx = 41;
static int counter(void) { static int calls; return ++calls; }
static struct pair mkpair(int a, long b) { struct pair p = { a, b }; return p; }
static int sum3(struct wrap w) { return w.v[0] + w.v[1] + w.v[2]; }
static void bump(int *p) { (*p)++; }
static int addr_param(int x) { int *p = &x; *p += 1; return x; }
static int first_over(const int *a, int n, int lim)
{
    for (int i = 0; i < n; i++)
        if (a[i] > lim)
            return i;
    return -1;
}
static int inner_loops(void)
{
    int total = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            total += i * 2 + j;
    return total;
}
int main(void)
{
    char c = (char)200;
    assert(c < 0);
    unsigned long long one = 1;
    int n = 40;
    assert((one << n) == 1099511627776ull);
    long big = -1099511627776l;
    assert((big >> 40) == -1);
    assert((unsigned)(big >> 8) == 0);
    assert((short)70000 == 4464);
    assert((unsigned short)-1 == 65535);
    assert(0u - 1u == 4294967295u); /* unsigned wraps (signed overflow would end the path) */
    int x = 7;
    switch (x) {
    case 1: x = 10; break;
    case 7: x = 20; /* fall through */
    case 8: x += 1; break;
    default: x = 0;
    }
    assert(x == 21);
    int k = 0;
    do
        k += 3;
    while (k < 9);
    assert(k == 9);
again:
    k--;
    if (k > 6)
        goto again;
    assert(k == 6);
    assert(counter() == 1 && counter() == 2);
    struct pair p = mkpair(3, -4);
    assert(p.a == 3 && p.b == -4);
    struct wrap w = { 3, { 1, 2, 4 } };
    assert(sum3(w) == 7);
    bump(&w.v[1]);
    assert(w.v[1] == 3);
    assert(addr_param(4) == 5);
    int arr[4] = { 5, 9, 2, 11 };
    assert(first_over(arr, 4, 8) == 1);
    assert(first_over(arr, 4, 20) == -1);
    assert(inner_loops() == 6);
    gp = &gx;
    *gp += 1;
    assert(gx == 42);
    int **pp = &gp;
    **pp = 7;
    assert(gx == 7);
    struct pair ps[3];
    ps[2].b = 99;
    struct pair *q = ps;
    assert((q + 2)->b == 99);
    assert((char *)&ps[1] - (char *)&ps[0] == sizeof(struct pair));
    int *h = calloc(4, sizeof(int));
    assert(h[3] == 0);
    h[3] = 8;
    int *h2 = malloc(2 * sizeof(int));
    h2[0] = 1;
    assert(h[3] == 8 && h2[0] == 1 && h != h2);
    free(h);
    assert(0); /* reached */
    return 0;
}
