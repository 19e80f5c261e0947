/* Unit tests for base/vec: the typed growable array macros. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/vec.h"

typedef BASE_VEC(int) int_vec;

static void test_zero_vec_is_empty(void **state)
{
    (void)state;
    int_vec v = { 0 };
    assert_null(v.data);
    assert_int_equal(v.len, 0);
    assert_int_equal(v.cap, 0);
    base_vec_free(&v); /* freeing an empty vec is fine */
    assert_null(v.data);
}

static void test_push_many(void **state)
{
    (void)state;
    enum { N = 100000 };
    int_vec v = { 0 };
    size_t reallocs = 0, last_cap = 0;
    for (int i = 0; i < N; i++) {
        base_vec_push(&v, i * 3);
        assert_true(v.len <= v.cap);
        assert_non_null(v.data);
        if (v.cap != last_cap) {
            reallocs++;
            last_cap = v.cap;
        }
    }
    assert_int_equal(v.len, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(v.data[i], i * 3);
    /* Geometric growth: a handful of reallocations, not one per push. */
    assert_true(reallocs < 40);
    base_vec_free(&v);
    assert_null(v.data);
    assert_int_equal(v.len, 0);
    assert_int_equal(v.cap, 0);
}

static void test_pop_last_clear(void **state)
{
    (void)state;
    int_vec v = { 0 };
    for (int i = 1; i <= 5; i++)
        base_vec_push(&v, i);
    assert_int_equal(base_vec_last(&v), 5);
    assert_int_equal(base_vec_pop(&v), 5);
    assert_int_equal(base_vec_pop(&v), 4);
    assert_int_equal(v.len, 3);
    assert_int_equal(base_vec_last(&v), 3);
    size_t cap = v.cap;
    base_vec_clear(&v);
    assert_int_equal(v.len, 0);
    assert_int_equal(v.cap, cap); /* clear keeps the storage */
    base_vec_push(&v, 42);
    assert_int_equal(v.data[0], 42);
    base_vec_free(&v);
}

static void test_reserve(void **state)
{
    (void)state;
    int_vec v = { 0 };
    base_vec_reserve(&v, 1000);
    assert_true(v.cap >= 1000);
    assert_int_equal(v.len, 0);
    int *data = v.data;
    for (int i = 0; i < 1000; i++)
        base_vec_push(&v, i);
    assert_ptr_equal(v.data, data); /* no reallocation within the reservation */
    size_t cap = v.cap;
    base_vec_reserve(&v, 10); /* smaller: nothing happens */
    assert_int_equal(v.cap, cap);
    assert_ptr_equal(v.data, data);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(v.data[i], i);
    base_vec_free(&v);
}

typedef struct item {
    char name[24];
    double weight;
    uint64_t id;
} item;

static void test_struct_elements(void **state)
{
    (void)state;
    BASE_VEC(item) v = { 0 };
    for (uint64_t i = 0; i < 5000; i++) {
        item it = { .weight = (double)i / 2, .id = i * 7 };
        snprintf(it.name, sizeof it.name, "item%llu", (unsigned long long)i);
        base_vec_push(&v, it);
    }
    assert_int_equal(v.len, 5000);
    assert_string_equal(v.data[4321].name, "item4321");
    assert_int_equal(v.data[4321].id, 4321 * 7);
    assert_true(v.data[10].weight == 5.0);
    item last = base_vec_pop(&v);
    assert_string_equal(last.name, "item4999");
    base_vec_free(&v);
}

static void test_pointer_elements(void **state)
{
    (void)state;
    BASE_VEC(const char *) v = { 0 };
    base_vec_push(&v, "a");
    base_vec_push(&v, "bc");
    base_vec_push(&v, NULL);
    assert_int_equal(v.len, 3);
    assert_string_equal(v.data[1], "bc");
    assert_null(base_vec_last(&v));
    base_vec_free(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_vec_is_empty),
        cmocka_unit_test(test_push_many),
        cmocka_unit_test(test_pop_last_clear),
        cmocka_unit_test(test_reserve),
        cmocka_unit_test(test_struct_elements),
        cmocka_unit_test(test_pointer_elements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
