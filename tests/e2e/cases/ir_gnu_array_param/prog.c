/* coreutils (src/expr.c, src/factor.c: gmp's mpz_t parameter with mpz_sgn): "internal: no field '_mp_size' in this struct or union" */
/* reduced further: `int f(struct big i[1]) { return i->size; }` fails the same; a `struct big *i` parameter lowers */
typedef struct {
    int alloc;
    int size;
    unsigned long *d;
} big_struct;
typedef big_struct big_t[1];

#define big_sgn(z) ((z)->size < 0 ? -1 : (z)->size > 0)

int sign_of(big_t i)
{
    return big_sgn(i);
}

int main(void)
{
    big_t x = { { 1, -1, 0 } };
    return sign_of(x) < 0 ? 0 : 1;
}
