/* x * 2 is even for every x, with or without wraparound: never 51. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x * 2 == 51)
        reach_error();
    return 0;
}
