/* Every operator with C's semantics: arithmetic conversions, compound
 * assignment, increments, short-circuit with and without side effects. */
int g;
int f(int x) { g = x; return x; }
int main(void)
{
    int a = 7, b = -3;
    unsigned u = 5u;
    char c = 'A';
    long l = 1L << 40;
    double d = 2.5;
    int *p = &a;
    a = a + b * 2 - b / 2 % 3;
    a = (a << 2) >> 1;
    a = ~a & (b | 6) ^ 1;
    a = u > (unsigned)b;
    c += 1;
    u -= a;
    l *= 3;
    d /= 2;
    a = a++ + ++b;
    a--;
    --b;
    p++;
    a = -a + +b;
    a = !a;
    a = (int)d;
    a = sizeof(long) + sizeof a;
    a = (b, 4);
    a = b ? 1 : 2;
    a = b ? f(1) : 2;
    a = a && b;
    a = a || f(3);
    a = p != 0 && *p > 1;
    return a + (int)c + (int)l;
}
