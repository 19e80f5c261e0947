/* __VERIFIER_assume restricts x to 11..19: 15 reaches the error, 5 cannot. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 10 && x < 20);
    if (x == 5)
        reach_error();
    if (x == 15)
        reach_error();
    return 0;
}
