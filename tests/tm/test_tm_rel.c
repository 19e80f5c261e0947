/* Unit tests for tm's difference constraints: assignments relate
 * exactly, added constraints close (and report infeasibility), joins keep
 * what both sides say, widening drops what grew, and forgetting upper
 * bounds keeps the lower ones (a global other threads only increase). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tm/tm_rel.h"

#define N 3
#define AT(d, i, j) ((d)[(i) * N + (j)])

static void test_assign(void **state)
{
    (void)state;
    int64_t d[N * N];
    tm_rel_top(d, N);
    assert_int_equal(AT(d, 0, 0), 0);
    assert_true(AT(d, 0, 1) == TM_REL_INF);
    tm_rel_assign(d, N, 1, 0, 0);  /* x1 := x0 */
    tm_rel_assign(d, N, 2, 1, 1);  /* x2 := x1 + 1 */
    assert_int_equal(AT(d, 2, 0), 1);  /* x2 - x0 <= 1 */
    assert_int_equal(AT(d, 0, 2), -1); /* x0 - x2 <= -1 */
    tm_rel_assign(d, N, 2, 2, 3);  /* x2 := x2 + 3 */
    assert_int_equal(AT(d, 2, 0), 4);
    assert_int_equal(AT(d, 1, 2), -4);
    tm_rel_forget(d, N, 2);
    assert_true(AT(d, 2, 0) == TM_REL_INF && AT(d, 0, 2) == TM_REL_INF);
    assert_int_equal(AT(d, 1, 0), 0);
}

static void test_constrain(void **state)
{
    (void)state;
    int64_t d[N * N];
    tm_rel_top(d, N);
    assert_true(tm_rel_constrain(d, N, 0, 1, 0));  /* x0 <= x1 */
    assert_true(tm_rel_constrain(d, N, 1, 2, -1)); /* x1 < x2 */
    assert_int_equal(AT(d, 0, 2), -1);             /* closed: x0 < x2 */
    assert_false(tm_rel_constrain(d, N, 2, 0, 0)); /* x2 <= x0: infeasible */
    /* a weaker constraint changes nothing */
    assert_true(tm_rel_constrain(d, N, 0, 2, 5));
    assert_int_equal(AT(d, 0, 2), -1);
    int64_t e[N * N];
    tm_rel_top(e, N);
    AT(e, 0, 1) = 2;
    AT(e, 1, 2) = 3;
    assert_true(tm_rel_close(e, N));
    assert_int_equal(AT(e, 0, 2), 5);
    AT(e, 2, 0) = -6;
    assert_false(tm_rel_close(e, N));
}

static void test_join_widen(void **state)
{
    (void)state;
    int64_t a[N * N], b[N * N];
    tm_rel_top(a, N);
    tm_rel_top(b, N);
    tm_rel_assign(a, N, 1, 0, 1);
    tm_rel_assign(b, N, 1, 0, 2);
    int64_t j[N * N];
    for (int k = 0; k < N * N; k++)
        j[k] = a[k];
    assert_true(tm_rel_join(j, b, N, false));
    assert_int_equal(AT(j, 1, 0), 2);  /* x1 - x0 in [1, 2] */
    assert_int_equal(AT(j, 0, 1), -1);
    assert_false(tm_rel_join(j, b, N, false));
    assert_true(tm_rel_join(a, b, N, true));
    assert_true(AT(a, 1, 0) == TM_REL_INF); /* grew: dropped */
    assert_int_equal(AT(a, 0, 1), -1);      /* kept */
}

static void test_forget_upper(void **state)
{
    (void)state;
    int64_t d[N * N];
    tm_rel_top(d, N);
    tm_rel_assign(d, N, 0, 1, 1); /* g := l + 1 */
    tm_rel_forget_upper(d, N, 0); /* g may grow */
    assert_true(AT(d, 0, 1) == TM_REL_INF);
    assert_int_equal(AT(d, 1, 0), -1); /* l - g <= -1 still */
}

static void test_saturation(void **state)
{
    (void)state;
    assert_true(tm_rel_add(TM_REL_INF, -5) == TM_REL_INF);
    assert_true(tm_rel_add(TM_REL_MAX, 1) == TM_REL_INF);
    assert_int_equal(tm_rel_add(-TM_REL_MAX, -1), -TM_REL_MAX);
    assert_int_equal(tm_rel_add(3, -5), -2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assign),      cmocka_unit_test(test_constrain),
        cmocka_unit_test(test_join_widen),  cmocka_unit_test(test_forget_upper),
        cmocka_unit_test(test_saturation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
