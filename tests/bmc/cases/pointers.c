/* Pointers into arrays and structs, pointer arithmetic and differences. */
#include <assert.h>
struct pt { char tag; int x; int y; };
struct pt g;
int main(void)
{
    int a[5];
    int *p = a;
    for (int i = 0; i < 5; i++)
        p[i] = i * i;
    int *q = &a[2];
    assert(*(q + 1) == 9);
    assert(q - p == 2);
    struct pt s;
    struct pt *ps = &s;
    ps->y = 7;
    int *py = &s.y;
    *py += 1;
    assert(s.y == 8);
    g = s;
    assert(g.y == 8);
    struct pt *pg = &g;
    pg->x = -3;
    assert(g.x < 0 && g.y == 8);
    return 0;
}
