/* The environment of a `ravel seq` program for random testing: nondet
 * values from a seeded generator (small integers often, so scheduler picks
 * land in range), assume ends an infeasible run quietly (exit 0), and
 * reach_error reports the bug (exit 1).
 *   RAVEL_SEED (default 1) and RAVEL_BIAS (percent of nondet bools that are
 *   true, default 20) come from the environment. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;
static int bias = 20;

static unsigned long long next(void)
{
    if (!state) {
        const char *s = getenv("RAVEL_SEED"), *b = getenv("RAVEL_BIAS");
        state = (s ? strtoull(s, NULL, 10) : 1) * 0x9E3779B97F4A7C15ull + 1;
        if (b)
            bias = atoi(b);
    }
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static long long small(void)
{
    unsigned long long r = next();
    if (r % 4 != 0)
        return (long long)(r >> 8) % 5 - 1; /* -1 .. 3 */
    return (long long)(r >> 2);
}

void reach_error(void)
{
    puts("reach_error");
    exit(1);
}

void __VERIFIER_assume(int c)
{
    if (!c)
        exit(0);
}

_Bool __VERIFIER_nondet_bool(void) { return (int)(next() % 100) < bias; }
char __VERIFIER_nondet_char(void) { return (char)small(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)small(); }
short __VERIFIER_nondet_short(void) { return (short)small(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)small(); }
int __VERIFIER_nondet_int(void) { return (int)small(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)small(); }
long long __VERIFIER_nondet_longlong(void) { return small(); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return (unsigned long long)small(); }
float __VERIFIER_nondet_float(void) { return (float)small(); }
double __VERIFIER_nondet_double(void) { return (double)small(); }
void *__VERIFIER_nondet_pointer(void) { return 0; }
