/* Unit tests for base/arena: alignment, zeroing, growth, strdup, reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdalign.h>
#include <string.h>

#include "base/arena.h"
#include "base/xalloc.h"

static int is_aligned(const void *p)
{
    return ((uintptr_t)p % alignof(max_align_t)) == 0;
}

static void test_init_is_empty(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    assert_null(a.head);
    assert_int_equal(a.used, 0);
    assert_int_equal(a.total, 0);
    base_arena_free(&a); /* freeing an empty arena is fine */
    assert_null(a.head);
}

static void test_alignment_of_odd_sizes(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    static const size_t sizes[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 4095, 4097 };
    for (int round = 0; round < 50; round++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            void *p = base_arena_alloc(&a, sizes[i]);
            assert_non_null(p);
            assert_true(is_aligned(p));
        }
    base_arena_free(&a);
}

static void test_zalloc_zeroes(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    /* Dirty a chunk first so zalloc has something to clear if it reuses memory. */
    for (int i = 0; i < 100; i++)
        memset(base_arena_alloc(&a, 64), 0xab, 64);
    for (size_t n = 1; n < 300; n += 7) {
        unsigned char *p = base_arena_zalloc(&a, n);
        for (size_t j = 0; j < n; j++)
            assert_int_equal(p[j], 0);
    }
    base_arena_free(&a);
}

/* Every block stays valid and distinct until the arena is freed, across many
 * chunk growths. */
static void test_blocks_live_until_free(void **state)
{
    (void)state;
    enum { N = 20000 };
    base_arena a;
    base_arena_init(&a);
    static unsigned char *blocks[N];
    size_t expect_total = 0;
    for (size_t i = 0; i < N; i++) {
        size_t n = 1 + i % 97;
        blocks[i] = base_arena_alloc(&a, n);
        memset(blocks[i], (int)(i & 0xff), n);
        size_t al = alignof(max_align_t);
        expect_total += (n + al - 1) / al * al;
    }
    for (size_t i = 0; i < N; i++) {
        size_t n = 1 + i % 97;
        for (size_t j = 0; j < n; j++)
            assert_int_equal(blocks[i][j], i & 0xff);
    }
    assert_int_equal(a.total, expect_total);
    base_arena_free(&a);
    assert_null(a.head);
    assert_int_equal(a.total, 0);
}

/* Chunks grow geometrically: after many small allocations the newest chunk
 * holds far more than the first (minimum-size) chunk could. */
static void test_chunks_grow(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    size_t max_used = 0;
    for (int i = 0; i < 65536; i++) { /* 1 MiB in 16-byte blocks */
        (void)base_arena_alloc(&a, 16);
        if (a.used > max_used)
            max_used = a.used;
    }
    assert_true(max_used >= 256 * 1024);
    base_arena_free(&a);
}

static void test_large_block(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    (void)base_arena_alloc(&a, 10);
    size_t big = 3u << 20; /* far larger than a chunk */
    unsigned char *p = base_arena_zalloc(&a, big);
    assert_true(is_aligned(p));
    assert_int_equal(p[0], 0);
    assert_int_equal(p[big - 1], 0);
    memset(p, 1, big);
    unsigned char *q = base_arena_alloc(&a, 16); /* and allocation continues */
    assert_non_null(q);
    assert_true(q + 16 <= p || q >= p + big);
    base_arena_free(&a);
}

static void test_strdup(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    char src[] = "hello, arena";
    char *d = base_arena_strdup(&a, src);
    assert_ptr_not_equal(d, src);
    assert_string_equal(d, "hello, arena");
    src[0] = 'J'; /* a copy, not an alias */
    assert_string_equal(d, "hello, arena");

    char *n = base_arena_strndup(&a, "abcdef", 3);
    assert_string_equal(n, "abc");
    assert_int_equal(n[3], '\0');

    char *e = base_arena_strdup(&a, "");
    assert_string_equal(e, "");
    base_arena_free(&a);
}

typedef struct point {
    long x, y;
    double w;
} point;

static void test_typed_macros(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    point *p = BASE_ARENA_NEW(&a, point);
    assert_int_equal(p->x, 0);
    assert_int_equal(p->y, 0);
    point *arr = BASE_ARENA_ARRAY(&a, point, 1000);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(arr[i].x, 0);
        arr[i].x = i;
    }
    assert_int_equal(arr[999].x, 999);
    base_arena_free(&a);
}

static void test_reuse_after_free(void **state)
{
    (void)state;
    base_arena a;
    base_arena_init(&a);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 1000; i++)
            assert_non_null(base_arena_strdup(&a, "again and again"));
        assert_true(a.total > 0);
        base_arena_free(&a);
        assert_int_equal(a.total, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_is_empty),
        cmocka_unit_test(test_alignment_of_odd_sizes),
        cmocka_unit_test(test_zalloc_zeroes),
        cmocka_unit_test(test_blocks_live_until_free),
        cmocka_unit_test(test_chunks_grow),
        cmocka_unit_test(test_large_block),
        cmocka_unit_test(test_strdup),
        cmocka_unit_test(test_typed_macros),
        cmocka_unit_test(test_reuse_after_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
