extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 10 && x < 20);
    if (x == 5 || x == 25)
        reach_error();
    return 0;
}
