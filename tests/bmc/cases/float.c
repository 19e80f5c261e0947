/* Floating-point arithmetic is not modelled: an assertion that may fail
 * only through it gives unknown, never bug. */
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void)
{
    double d = __VERIFIER_nondet_double();
    if (d * 2.0 > 1.0 && d < 0.0)
        reach_error();
    return 0;
}
