/* Unit tests for base/intern: symbol 0, equality exactly on equal strings,
 * stable strings across growth, many strings, embedded NULs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

static void test_empty_string_is_symbol_zero(void **state)
{
    (void)state;
    base_intern_pool p;
    base_intern_init(&p);
    assert_int_equal(base_intern_cstr(&p, ""), 0);
    assert_int_equal(base_intern(&p, "ignored", 0), 0);
    assert_string_equal(base_sym_str(&p, 0), "");
    assert_int_equal(base_sym_len(&p, 0), 0);
    base_intern_free(&p);
}

static void test_equality(void **state)
{
    (void)state;
    base_intern_pool p;
    base_intern_init(&p);
    base_sym a = base_intern_cstr(&p, "alpha");
    base_sym b = base_intern_cstr(&p, "beta");
    char buf[] = "alpha";
    base_sym a2 = base_intern_cstr(&p, buf); /* equal string, different pointer */
    base_sym a3 = base_intern(&p, "alphabet", 5);
    assert_int_not_equal(a, 0);
    assert_int_not_equal(a, b);
    assert_int_equal(a, a2);
    assert_int_equal(a, a3);
    assert_int_not_equal(base_intern_cstr(&p, "alph"), a);
    assert_int_not_equal(base_intern_cstr(&p, "alphaa"), a);
    assert_int_not_equal(base_intern_cstr(&p, "Alpha"), a);
    assert_string_equal(base_sym_str(&p, a), "alpha");
    assert_int_equal(base_sym_len(&p, a), 5);
    assert_string_equal(base_sym_str(&p, b), "beta");
    buf[0] = 'X'; /* the pool keeps its own copy */
    assert_string_equal(base_sym_str(&p, a), "alpha");
    base_intern_free(&p);
}

static void test_embedded_nul(void **state)
{
    (void)state;
    base_intern_pool p;
    base_intern_init(&p);
    base_sym s1 = base_intern(&p, "a\0b", 3);
    base_sym s2 = base_intern(&p, "a\0c", 3);
    base_sym s3 = base_intern_cstr(&p, "a");
    assert_int_not_equal(s1, s2);
    assert_int_not_equal(s1, s3);
    assert_int_equal(base_intern(&p, "a\0b", 3), s1);
    assert_int_equal(base_sym_len(&p, s1), 3);
    assert_memory_equal(base_sym_str(&p, s1), "a\0b", 4); /* NUL-terminated too */
    base_intern_free(&p);
}

static void test_out_of_range_symbol(void **state)
{
    (void)state;
    base_intern_pool p;
    base_intern_init(&p);
    assert_string_equal(base_sym_str(&p, 12345), "");
    assert_int_equal(base_sym_len(&p, 12345), 0);
    base_intern_free(&p);
}

static void test_many_strings(void **state)
{
    (void)state;
    enum { N = 50000 };
    base_intern_pool p;
    base_intern_init(&p);
    const char *first_str = NULL;
    base_sym first = 0;
    char buf[64];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "name_%d", i);
        base_sym s = base_intern_cstr(&p, buf);
        assert_int_equal(s, (base_sym)(i + 1)); /* dense, in order of first use */
        if (i == 0) {
            first = s;
            first_str = base_sym_str(&p, s);
        }
    }
    /* Strings stay valid and at the same address after growth. */
    assert_ptr_equal(base_sym_str(&p, first), first_str);
    assert_string_equal(first_str, "name_0");
    for (int i = N - 1; i >= 0; i--) {
        snprintf(buf, sizeof buf, "name_%d", i);
        base_sym s = base_intern_cstr(&p, buf);
        assert_int_equal(s, (base_sym)(i + 1));
        assert_string_equal(base_sym_str(&p, s), buf);
        assert_int_equal(base_sym_len(&p, s), strlen(buf));
    }
    assert_int_equal(p.count, N + 1);
    base_intern_free(&p);
}

/* Strings of one length differing in a single byte, a worst case for weak hashes. */
static void test_similar_strings(void **state)
{
    (void)state;
    base_intern_pool p;
    base_intern_init(&p);
    base_sym syms[256];
    char s[9] = "xxxxxxxx";
    for (int c = 1; c < 256; c++) {
        s[4] = (char)c;
        syms[c] = base_intern(&p, s, 8);
        for (int d = 1; d < c; d++)
            assert_int_not_equal(syms[c], syms[d]);
    }
    for (int c = 1; c < 256; c++) {
        s[4] = (char)c;
        assert_int_equal(base_intern(&p, s, 8), syms[c]);
    }
    base_intern_free(&p);
}

/* Two 8-byte strings whose hashes agree in the 63 bits the pool indexes by
 * (base_hash_bytes(s, 8) & ~0 >> 1 == 0x3ded7b2d616f5ef9 for both), found
 * with Brent's cycle detection on x -> hash63(bytes of x) in a few minutes.
 * They share one index entry, so only the collision chain and the byte
 * comparison keep them apart. If base_hash_bytes changes, find a new pair. */
static const char collide_a[8] = { '\x35', '\x27', '\xfc', '\x32', '\x96', '\x05', '\x35', '\x33' };
static const char collide_b[8] = { '\xb2', '\xd3', '\xe9', '\x02', '\x2c', '\x87', '\xb9', '\x01' };

static void test_hash_collision(void **state)
{
    (void)state;
    uint64_t mask = ~(uint64_t)0 >> 1;
    assert_true((base_hash_bytes(collide_a, 8) & mask) == (base_hash_bytes(collide_b, 8) & mask));
    assert_memory_not_equal(collide_a, collide_b, 8);

    for (int order = 0; order < 2; order++) {
        base_intern_pool p;
        base_intern_init(&p);
        const char *first = order ? collide_b : collide_a;
        const char *second = order ? collide_a : collide_b;
        base_sym s1 = base_intern(&p, first, 8);
        base_sym s2 = base_intern(&p, second, 8);
        assert_int_not_equal(s1, s2);
        assert_int_equal(base_intern(&p, first, 8), s1);
        assert_int_equal(base_intern(&p, second, 8), s2);
        assert_memory_equal(base_sym_str(&p, s1), first, 8);
        assert_memory_equal(base_sym_str(&p, s2), second, 8);
        /* more strings after them do not disturb the chain */
        for (int i = 0; i < 1000; i++) {
            char buf[16];
            snprintf(buf, sizeof buf, "k%d", i);
            (void)base_intern_cstr(&p, buf);
        }
        assert_int_equal(base_intern(&p, first, 8), s1);
        assert_int_equal(base_intern(&p, second, 8), s2);
        base_intern_free(&p);
    }
}

static void test_pools_are_independent(void **state)
{
    (void)state;
    base_intern_pool p, q;
    base_intern_init(&p);
    base_intern_init(&q);
    base_sym a = base_intern_cstr(&p, "one");
    base_sym b = base_intern_cstr(&p, "two");
    base_sym c = base_intern_cstr(&q, "two");
    assert_int_equal(a, 1);
    assert_int_equal(b, 2);
    assert_int_equal(c, 1);
    assert_string_equal(base_sym_str(&q, c), "two");
    base_intern_free(&p);
    base_intern_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_string_is_symbol_zero),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_embedded_nul),
        cmocka_unit_test(test_out_of_range_symbol),
        cmocka_unit_test(test_many_strings),
        cmocka_unit_test(test_similar_strings),
        cmocka_unit_test(test_hash_collision),
        cmocka_unit_test(test_pools_are_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
