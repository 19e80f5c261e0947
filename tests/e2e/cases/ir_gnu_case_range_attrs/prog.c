/* Case ranges, __attribute__((fallthrough)), __builtin_expect and __builtin_constant_p. */
int f(int x) {
    switch (x) {
    case 1 ... 3: x++; __attribute__((fallthrough));
    case 4: x--; break;
    default: break;
    }
    if (__builtin_expect(x > 0, 1)) x = 2;
    if (__builtin_constant_p(x)) x = 3;
    return x;
}
