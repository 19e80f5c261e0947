/* malloc, calloc and free; string literals; statement expressions;
 * variadic calls; sizeof; compound literals. */
#include <stdio.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
int sum(int n, ...);
int main(void)
{
    struct node *h = malloc(sizeof *h);
    h->next = calloc(2, sizeof(struct node));
    h->next->v = ({ int t = 3; t * 2; });
    const char *s = "a\tb\"c";
    printf("%s %d\n", s, h->next->v);
    int *arr = (int[]){ 1, 2, 3 };
    int r = sum(3, arr[0], arr[1], arr[2]);
    free(h->next);
    free(h);
    return r;
}
