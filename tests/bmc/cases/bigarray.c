/* A symbolic index into an array too large to split: the store and the
 * loads go through the solver's array theory. a[42] is 7 exactly when
 * i == 42 (the other elements stay 0: a is a global). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int a[100];
int main(void)
{
    int i = __VERIFIER_nondet_int();
    __VERIFIER_assume(i >= 0 && i < 100);
    a[i] = 7;
    int j = __VERIFIER_nondet_int();
    __VERIFIER_assume(j >= 0 && j < 100 && j != i);
    if (a[j] != 0)
        reach_error();
    if (a[42] == 7)
        reach_error();
    return 0;
}
