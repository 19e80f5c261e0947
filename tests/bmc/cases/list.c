/* A malloc'd linked list of n nodes holding 1..n: the sum is 6 exactly
 * when n == 3, so the assertion fails for n == 3 only. */
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
struct node { int v; struct node *next; };
int main(void)
{
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 4);
    struct node *head = NULL;
    for (int i = n; i >= 1; i--) {
        struct node *x = malloc(sizeof *x);
        x->v = i;
        x->next = head;
        head = x;
    }
    int sum = 0;
    for (struct node *it = head; it; it = it->next)
        sum += it->v;
    assert(sum != 6);
    return 0;
}
