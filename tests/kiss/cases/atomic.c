/* No scheduling or raising inside atomic sections and atomic functions. */
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void __VERIFIER_atomic_swap(void) { int t = x; x = y; y = t; }
int main(void)
{
    __VERIFIER_atomic_begin();
    x = 1;
    y = 2;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_swap();
    return x;
}
