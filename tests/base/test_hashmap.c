/* Unit tests for base/hashmap: put/get/overwrite, growth, many keys,
 * colliding keys (same home slot, wrap-around probing), clear, hashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "base/hashmap.h"

/* The load-factor invariant from hashmap.h: at most 3/4 full, cap a power of two. */
static void check_invariants(const base_hashmap *m)
{
    if (m->cap == 0) {
        assert_int_equal(m->count, 0);
        return;
    }
    assert_int_equal(m->cap & (m->cap - 1), 0);
    assert_true(m->count * 4 <= m->cap * 3);
    size_t live = 0;
    for (size_t i = 0; i < m->cap; i++)
        live += m->keys[i] != BASE_HASHMAP_EMPTY;
    assert_int_equal(live, m->count);
}

static void test_empty(void **state)
{
    (void)state;
    base_hashmap m;
    base_hashmap_init(&m);
    uint64_t v = 77;
    assert_false(base_hashmap_get(&m, 0, &v));
    assert_false(base_hashmap_get(&m, 12345, NULL));
    assert_int_equal(v, 77); /* untouched on a miss */
    assert_int_equal(m.count, 0);
    check_invariants(&m);
    base_hashmap_clear(&m); /* clearing an empty map is fine */
    base_hashmap_free(&m);
}

static void test_put_get_overwrite(void **state)
{
    (void)state;
    base_hashmap m;
    base_hashmap_init(&m);
    base_hashmap_put(&m, 1, 100);
    base_hashmap_put(&m, 2, 200);
    base_hashmap_put(&m, 0, 7);                      /* key 0 is an ordinary key */
    base_hashmap_put(&m, UINT64_MAX - 1, UINT64_MAX); /* so is the largest legal one */
    assert_int_equal(m.count, 4);
    uint64_t v = 0;
    assert_true(base_hashmap_get(&m, 1, &v));
    assert_int_equal(v, 100);
    assert_true(base_hashmap_get(&m, 2, &v));
    assert_int_equal(v, 200);
    assert_true(base_hashmap_get(&m, 0, &v));
    assert_int_equal(v, 7);
    assert_true(base_hashmap_get(&m, UINT64_MAX - 1, &v));
    assert_true(v == UINT64_MAX);
    assert_true(base_hashmap_get(&m, 2, NULL));
    assert_false(base_hashmap_get(&m, 3, &v));

    base_hashmap_put(&m, 1, 111); /* overwrite keeps the count */
    assert_int_equal(m.count, 4);
    assert_true(base_hashmap_get(&m, 1, &v));
    assert_int_equal(v, 111);
    check_invariants(&m);
    base_hashmap_free(&m);
    assert_int_equal(m.cap, 0);
    assert_null(m.keys);
}

static void test_growth(void **state)
{
    (void)state;
    base_hashmap m;
    base_hashmap_init(&m);
    size_t grows = 0, cap = 0;
    for (uint64_t k = 0; k < 5000; k++) {
        base_hashmap_put(&m, k * 1000003u, k);
        assert_int_equal(m.count, k + 1);
        assert_true(m.count * 4 <= m.cap * 3);
        if (m.cap != cap) {
            assert_true(m.cap > cap);
            grows++;
            cap = m.cap;
            /* everything inserted so far survives the rehash */
            for (uint64_t j = 0; j <= k; j++) {
                uint64_t v;
                assert_true(base_hashmap_get(&m, j * 1000003u, &v));
                assert_int_equal(v, j);
            }
        }
    }
    assert_true(grows >= 5 && grows <= 20);
    check_invariants(&m);
    base_hashmap_free(&m);
}

static void test_many_keys(void **state)
{
    (void)state;
    enum { N = 200000 };
    base_hashmap m;
    base_hashmap_init(&m);
    uint64_t *keys = malloc(N * sizeof *keys);
    assert_non_null(keys);
    uint64_t x = 0x1234;
    for (size_t i = 0; i < N; i++) {
        x = base_hash64(x); /* pseudo-random, distinct with overwhelming likelihood */
        if (x == BASE_HASHMAP_EMPTY)
            x = 0;
        keys[i] = x;
        base_hashmap_put(&m, x, i);
    }
    assert_int_equal(m.count, N);
    for (size_t i = 0; i < N; i++) {
        uint64_t v;
        assert_true(base_hashmap_get(&m, keys[i], &v));
        assert_int_equal(v, i);
    }
    /* Absent keys stay absent (sequential small keys: not in the random set). */
    size_t false_hits = 0;
    for (uint64_t k = 1; k < 10000; k++)
        false_hits += base_hashmap_get(&m, k, NULL);
    assert_int_equal(false_hits, 0);
    check_invariants(&m);
    free(keys);
    base_hashmap_free(&m);
}

/* Keys whose hashes agree in the low `bits` bits share their home slot in
 * every table of up to 2^bits slots. `target` picks the slot. */
static size_t colliding_keys(uint64_t *out, size_t n, unsigned bits, uint64_t target)
{
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    size_t got = 0;
    for (uint64_t k = 0; got < n; k++)
        if ((base_hash64(k) & mask) == (target & mask))
            out[got++] = k;
    return got;
}

static void test_collisions(void **state)
{
    (void)state;
    enum { N = 300 };
    uint64_t keys[N];
    colliding_keys(keys, N, 12, 5);
    base_hashmap m;
    base_hashmap_init(&m);
    for (size_t i = 0; i < N; i++) {
        base_hashmap_put(&m, keys[i], i + 1);
        for (size_t j = 0; j <= i; j += 17) { /* earlier keys still found mid-way */
            uint64_t v;
            assert_true(base_hashmap_get(&m, keys[j], &v));
            assert_int_equal(v, j + 1);
        }
    }
    assert_int_equal(m.count, N);
    for (size_t i = 0; i < N; i++) {
        uint64_t v;
        assert_true(base_hashmap_get(&m, keys[i], &v));
        assert_int_equal(v, i + 1);
    }
    /* A key colliding with all of them, never inserted, is not found. */
    uint64_t more[N + 1];
    colliding_keys(more, N + 1, 12, 5);
    assert_false(base_hashmap_get(&m, more[N], NULL));
    check_invariants(&m);
    base_hashmap_free(&m);
}

/* Home slot is the last slot: probing must wrap around to slot 0. */
static void test_collisions_wrap_around(void **state)
{
    (void)state;
    enum { N = 10 }; /* fits a 16-slot table without growing */
    uint64_t keys[N];
    colliding_keys(keys, N, 4, 15);
    base_hashmap m;
    base_hashmap_init(&m);
    for (size_t i = 0; i < N; i++)
        base_hashmap_put(&m, keys[i], 1000 + i);
    assert_int_equal(m.cap, 16);
    for (size_t i = 0; i < N; i++) {
        uint64_t v;
        assert_true(base_hashmap_get(&m, keys[i], &v));
        assert_int_equal(v, 1000 + i);
    }
    base_hashmap_put(&m, keys[3], 3); /* overwrite inside a wrapped chain */
    assert_int_equal(m.count, N);
    uint64_t v;
    assert_true(base_hashmap_get(&m, keys[3], &v));
    assert_int_equal(v, 3);
    check_invariants(&m);
    base_hashmap_free(&m);
}

static void test_clear(void **state)
{
    (void)state;
    base_hashmap m;
    base_hashmap_init(&m);
    for (uint64_t k = 0; k < 100; k++)
        base_hashmap_put(&m, k, k);
    size_t cap = m.cap;
    base_hashmap_clear(&m);
    assert_int_equal(m.count, 0);
    assert_int_equal(m.cap, cap);
    for (uint64_t k = 0; k < 100; k++)
        assert_false(base_hashmap_get(&m, k, NULL));
    base_hashmap_put(&m, 5, 55);
    uint64_t v;
    assert_true(base_hashmap_get(&m, 5, &v));
    assert_int_equal(v, 55);
    assert_int_equal(m.count, 1);
    check_invariants(&m);
    base_hashmap_free(&m);
}

static void test_hash_functions(void **state)
{
    (void)state;
    assert_true(base_hash64(1) == base_hash64(1));
    /* small consecutive inputs spread out: no two equal, low bits vary */
    base_hashmap seen;
    base_hashmap_init(&seen);
    unsigned low_bits_seen = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t h = base_hash64(i);
        assert_false(base_hashmap_get(&seen, h, NULL));
        base_hashmap_put(&seen, h, i);
        low_bits_seen |= 1u << (h & 15);
    }
    assert_int_equal(low_bits_seen, 0xffff);
    base_hashmap_free(&seen);

    assert_true(base_hash_bytes("abc", 3) == base_hash_bytes("abc", 3));
    assert_true(base_hash_bytes("abc", 3) != base_hash_bytes("abd", 3));
    assert_true(base_hash_bytes("abc", 3) != base_hash_bytes("acb", 3));
    assert_true(base_hash_bytes("a", 1) != base_hash_bytes("a\0", 2)); /* length matters */
    assert_true(base_hash_bytes("", 0) == base_hash_bytes("xyz", 0));
    /* every bit of every byte matters */
    for (int bit = 0; bit < 8; bit++) {
        unsigned char x[3] = { 'a', 'b', 'c' }, y[3] = { 'a', 'b', 'c' };
        y[1] ^= (unsigned char)(1u << bit);
        assert_true(base_hash_bytes(x, 3) != base_hash_bytes(y, 3));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_put_get_overwrite),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_many_keys),
        cmocka_unit_test(test_collisions),
        cmocka_unit_test(test_collisions_wrap_around),
        cmocka_unit_test(test_clear),
        cmocka_unit_test(test_hash_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
