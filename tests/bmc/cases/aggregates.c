/* Struct assignment, `= {0}`, globals' initialisers, string literals,
 * bit-fields and unions. */
#include <assert.h>
struct s { int x, y; char name[4]; };
struct bf { unsigned a : 3; int b : 5; unsigned c : 1; };
union u { unsigned w; unsigned char b[4]; };
struct s gs = { 1, 2, "ab" };
int garr[4] = { [2] = 7 };
int gzero;
int main(void)
{
    struct s a = { 3, 4 }, b;
    b = a;
    assert(b.x == 3 && b.y == 4 && b.name[0] == 0);
    int arr[8] = { 0 };
    assert(arr[5] == 0);
    assert(gs.name[1] == 'b' && gs.y == 2 && garr[2] == 7 && garr[3] == 0 && gzero == 0);
    const char *str = "hello";
    int n = 0;
    while (str[n])
        n++;
    assert(n == 5);
    struct bf f = { 0 };
    f.a = 9;
    f.b = -3;
    f.c = 1;
    assert(f.a == 1 && f.b == -3 && f.c == 1);
    union u x;
    x.w = 0x01020304u;
    assert(x.b[0] == 4 && x.b[3] == 1);
    return 0;
}
