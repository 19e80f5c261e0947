/* The assertion fails only for x == 17 (x * 3 == 51 has no other 32-bit
 * solution: 3 is invertible modulo 2^32). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x * 3 == 51)
        reach_error();
    return 0;
}
