/* Unit tests for tm's values: intervals at the IR type's width with
 * unsigned wraparound (exact when the whole interval wraps alike, else the
 * whole range) and signed overflow going to the whole range, pointer
 * target sets,
 * comparisons that are certain only when they must be, and guards that
 * narrow an interval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/intern.h"
#include "ir/ir.h"
#include "tm/tm_val.h"

static ir_program prog;
static base_intern_pool syms;

static int setup(void **state)
{
    (void)state;
    base_intern_init(&syms);
    ir_program_init(&prog, &syms);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ir_program_free(&prog);
    base_intern_free(&syms);
    return 0;
}

static void assert_range(tm_val v, int64_t lo, int64_t hi)
{
    assert_false(v.bot);
    assert_false(v.top);
    assert_false(v.ptr);
    assert_int_equal(v.lo, lo);
    assert_int_equal(v.hi, hi);
}

static void test_wraparound(void **state)
{
    (void)state;
    const ir_type *u8 = ir_type_int(&prog, 8, false), *u32 = ir_type_int(&prog, 32, false);
    const ir_type *i32 = ir_type_int(&prog, 32, true), *u64 = ir_type_int(&prog, 64, false);
    /* 255 + 1 in unsigned char wraps to 0 (modulo 256), never [256,256] */
    tm_val r = tm_val_binary(IR_OP_ADD, u8, tm_val_const(255), tm_val_const(1));
    assert_range(r, 0, 0);
    assert_true(tm_val_may_zero(r));
    /* an interval of which only a part wraps: the whole range */
    r = tm_val_binary(IR_OP_ADD, u8, tm_val_range(u8, 250, 255), tm_val_const(3));
    assert_range(r, 0, 255);
    /* all of it wraps by the same multiple: shifted */
    r = tm_val_binary(IR_OP_SUB, u8, tm_val_range(u8, 0, 2), tm_val_const(5));
    assert_range(r, 251, 253);
    /* 0u - 1 is UINT_MAX */
    r = tm_val_binary(IR_OP_SUB, u32, tm_val_const(0), tm_val_const(1));
    assert_range(r, UINT32_MAX, UINT32_MAX);
    /* INT_MAX + 1 (undefined) */
    r = tm_val_binary(IR_OP_ADD, i32, tm_val_const(INT32_MAX), tm_val_const(1));
    assert_range(r, INT32_MIN, INT32_MAX);
    /* in range: exact */
    assert_range(tm_val_binary(IR_OP_ADD, i32, tm_val_range(i32, 1, 3), tm_val_const(1)), 2, 4);
    /* 64-bit unsigned: no int64_t holds its top half */
    r = tm_val_binary(IR_OP_SUB, u64, tm_val_const(0), tm_val_const(1));
    assert_true(r.top);
    assert_true(tm_val_may_zero(r) && tm_val_may_nonzero(r));
    /* int64_t overflow itself */
    const ir_type *i64 = ir_type_int(&prog, 64, true);
    r = tm_val_binary(IR_OP_MUL, i64, tm_val_const(INT64_MAX), tm_val_const(2));
    assert_range(r, INT64_MIN, INT64_MAX);
}

static void test_casts(void **state)
{
    (void)state;
    const ir_type *u8 = ir_type_int(&prog, 8, false), *b1 = ir_type_int(&prog, 1, false);
    const ir_type *i32 = ir_type_int(&prog, 32, true);
    assert_range(tm_val_cast(u8, tm_val_const(200)), 200, 200);
    assert_range(tm_val_cast(u8, tm_val_const(300)), 0, 255); /* truncation */
    assert_range(tm_val_cast(u8, tm_val_const(-1)), 0, 255);
    assert_range(tm_val_cast(b1, tm_val_const(0)), 0, 0);
    assert_range(tm_val_cast(b1, tm_val_const(1)), 1, 1);
    assert_range(tm_val_cast(b1, tm_val_const(2)), 0, 1); /* either reading of _Bool */
    const ir_type *pi = ir_type_ptr(&prog, i32);
    tm_val n = tm_val_cast(pi, tm_val_const(0));
    assert_true(n.ptr && n.null && !n.unknown && n.nt == 0);
    tm_val q = tm_val_cast(pi, tm_val_const(4096));
    assert_true(q.ptr && q.unknown);
    assert_true(tm_val_cast(i32, tm_val_addr(3)).lo == INT32_MIN); /* pointer to int: anything */
}

static void test_compare(void **state)
{
    (void)state;
    const ir_type *i32 = ir_type_int(&prog, 32, true);
    tm_val a = tm_val_range(i32, 0, 3), c0 = tm_val_const(0);
    assert_range(tm_val_binary(IR_OP_EQ, i32, a, c0), 0, 1);
    assert_range(tm_val_binary(IR_OP_EQ, i32, c0, c0), 1, 1);
    assert_range(tm_val_binary(IR_OP_LT, i32, a, tm_val_const(4)), 1, 1);
    assert_range(tm_val_binary(IR_OP_GE, i32, a, tm_val_const(4)), 0, 0);
    assert_range(tm_val_binary(IR_OP_LE, i32, a, tm_val_const(3)), 1, 1);
    assert_range(tm_val_binary(IR_OP_LE, i32, a, tm_val_const(2)), 0, 1);
    assert_range(tm_val_binary(IR_OP_NE, i32, tm_val_const(4), tm_val_const(4)), 0, 0);
    assert_range(tm_val_unary(IR_OP_LNOT, i32, a), 0, 1);
    assert_range(tm_val_unary(IR_OP_LNOT, i32, tm_val_range(i32, 1, 9)), 0, 0);
    assert_range(tm_val_binary(IR_OP_LAND, i32, a, tm_val_const(1)), 0, 1);
    assert_range(tm_val_binary(IR_OP_LOR, i32, c0, c0), 0, 0);
    /* pointers: &g is never NULL; NULL == NULL */
    tm_val p = tm_val_addr(2);
    assert_range(tm_val_binary(IR_OP_EQ, i32, p, tm_val_null()), 0, 0);
    assert_range(tm_val_binary(IR_OP_EQ, i32, tm_val_null(), c0), 1, 1);
    assert_range(tm_val_binary(IR_OP_EQ, i32, p, tm_val_addr(3)), 0, 1);
    /* the top of a type compares as anything */
    tm_val t = tm_val_top(ir_type_int(&prog, 64, false));
    assert_range(tm_val_binary(IR_OP_EQ, i32, t, c0), 0, 1);
}

static void test_refine(void **state)
{
    (void)state;
    const ir_type *i32 = ir_type_int(&prog, 32, true);
    tm_val a = tm_val_range(i32, 0, 9);
    assert_range(tm_val_refine(IR_OP_NE, a, tm_val_const(0)), 1, 9);
    assert_range(tm_val_refine(IR_OP_NE, a, tm_val_const(5)), 0, 9);
    assert_range(tm_val_refine(IR_OP_EQ, a, tm_val_const(5)), 5, 5);
    assert_true(tm_val_refine(IR_OP_EQ, a, tm_val_const(10)).bot);
    assert_range(tm_val_refine(IR_OP_LT, a, tm_val_const(5)), 0, 4);
    assert_range(tm_val_refine(IR_OP_GE, a, tm_val_range(i32, 3, 7)), 3, 9);
    assert_true(tm_val_refine(IR_OP_GT, a, tm_val_const(9)).bot);
}

static void test_lattice(void **state)
{
    (void)state;
    const ir_type *i32 = ir_type_int(&prog, 32, true);
    tm_val a = tm_val_range(i32, 0, 1), b = tm_val_range(i32, 5, 6);
    assert_range(tm_val_join(a, b), 0, 6);
    assert_true(tm_val_leq(a, tm_val_join(a, b)));
    assert_false(tm_val_leq(tm_val_join(a, b), a));
    assert_range(tm_val_widen(i32, a, b), 0, INT32_MAX);
    assert_range(tm_val_widen(i32, b, a), INT32_MIN, 6);
    assert_true(tm_val_eq(tm_val_join(tm_val_bot(), a), a));
    /* pointer sets: more targets than a value holds become unknown */
    tm_val p = tm_val_addr(1);
    for (uint32_t g = 2; g <= TM_VAL_TARGETS; g++)
        p = tm_val_join(p, tm_val_addr(g));
    assert_int_equal(p.nt, TM_VAL_TARGETS);
    assert_false(p.unknown);
    p = tm_val_join(p, tm_val_addr(99));
    assert_true(p.unknown);
    assert_true(tm_val_leq(tm_val_addr(1), p));
    /* an integer joined with a pointer: anything */
    tm_val m = tm_val_join(tm_val_const(1), tm_val_addr(1));
    assert_true(m.ptr && m.unknown && m.null);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wraparound), cmocka_unit_test(test_casts),
        cmocka_unit_test(test_compare),    cmocka_unit_test(test_refine),
        cmocka_unit_test(test_lattice),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
