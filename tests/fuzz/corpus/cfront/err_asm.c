/* Inline assembly cannot be lowered: an error with its location. */
int f(void)
{
    int x = 1;
    __asm__ volatile("nop");
    return x;
}
int main(void) { return f(); }
