/* Unit tests for smt_term.c, the term layer both smt back ends build on:
 *  - hash-consing: one node per key, however the key is split, and the
 *    handles of equal terms equal through smt.h on both back ends;
 *  - word-level folding: SMT-LIB's results (division by zero, signed
 *    overflow, over-wide shifts), comparisons, the unit operands;
 *  - ite trees over constants: leaves, the cap, splitting, distribution
 *    of operations over them (the same leaves on both back ends);
 *  - the select memo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bmc/smt.h"
#include "bmc/smt_term.h"

static void test_intern_identity(void **state)
{
    (void)state;
    bmc_smt_terms t;
    bmc_smt_terms_init(&t);
    assert_int_equal(bmc_smt_terms_count(&t), 0);
    int k[4] = { 7, -3, 0, 42 };
    bool fresh;
    bmc_smt_term a = bmc_smt_terms_intern(&t, k, 4, NULL, 0, &fresh);
    assert_true(fresh);
    assert_int_not_equal(a, 0); /* 0 is no term */
    bmc_smt_terms_node(&t, a)->width = 9;
    /* the same key, split another way: the same node, not remade */
    bmc_smt_term b = bmc_smt_terms_intern(&t, k, 1, k + 1, 3, &fresh);
    assert_false(fresh);
    assert_int_equal(a, b);
    assert_int_equal(bmc_smt_terms_node(&t, b)->width, 9);
    assert_memory_equal(bmc_smt_terms_key(&t, a), k, sizeof k);
    /* a prefix, a longer key, one int changed: three other nodes */
    int k2[5] = { 7, -3, 0, 42, 1 };
    bmc_smt_term c = bmc_smt_terms_intern(&t, k, 3, NULL, 0, &fresh);
    assert_true(fresh);
    bmc_smt_term d = bmc_smt_terms_intern(&t, k2, 5, NULL, 0, &fresh);
    assert_true(fresh);
    k2[1] = 3;
    bmc_smt_term e = bmc_smt_terms_intern(&t, k2, 4, NULL, 0, &fresh);
    assert_true(fresh);
    assert_true(a != c && a != d && a != e && c != d && c != e && d != e);
    assert_int_equal(bmc_smt_terms_count(&t), 4);
    /* many nodes (the table grows): each found again by its key */
    bmc_smt_term h[2000];
    for (int i = 0; i < 2000; i++) {
        int key[2] = { i, i * 7 };
        h[i] = bmc_smt_terms_intern(&t, key, 2, NULL, 0, &fresh);
        assert_true(fresh);
    }
    for (int i = 0; i < 2000; i++) {
        int key[2] = { i, i * 7 };
        assert_int_equal(bmc_smt_terms_intern(&t, key, 1, key + 1, 1, &fresh), h[i]);
        assert_false(fresh);
    }
    assert_int_equal(bmc_smt_terms_count(&t), 2004);
    bmc_smt_terms_free(&t);
}

static void test_fold_bvop(void **state)
{
    (void)state;
    struct { bmc_smt_bvop op; uint32_t w; uint64_t a, b, r; } c[] = {
        { BMC_SMT_BV_ADD, 8, 0xff, 2, 1 },       { BMC_SMT_BV_SUB, 8, 1, 2, 0xff },
        { BMC_SMT_BV_MUL, 8, 16, 17, 0x10 },     { BMC_SMT_BV_MUL, 64, UINT64_MAX, 2, UINT64_MAX - 1 },
        { BMC_SMT_BV_UDIV, 8, 7, 0, 0xff },      { BMC_SMT_BV_UREM, 8, 7, 0, 7 },
        { BMC_SMT_BV_UDIV, 8, 200, 7, 28 },      { BMC_SMT_BV_UREM, 8, 200, 7, 4 },
        { BMC_SMT_BV_SDIV, 8, 7, 0, 0xff },      { BMC_SMT_BV_SDIV, 8, 0xf9, 0, 1 },
        { BMC_SMT_BV_SDIV, 8, 0x80, 0xff, 0x80 },{ BMC_SMT_BV_SDIV, 8, 0xf9, 2, 0xfd },
        { BMC_SMT_BV_SREM, 8, 0xf9, 0, 0xf9 },   { BMC_SMT_BV_SREM, 8, 0xf9, 2, 0xff },
        { BMC_SMT_BV_SREM, 8, 7, 0xfe, 1 },      { BMC_SMT_BV_SREM, 8, 0x80, 0xff, 0 },
        { BMC_SMT_BV_SHL, 8, 1, 8, 0 },          { BMC_SMT_BV_SHL, 8, 0x81, 1, 0x02 },
        { BMC_SMT_BV_LSHR, 8, 0x80, 7, 1 },      { BMC_SMT_BV_LSHR, 8, 0x80, 200, 0 },
        { BMC_SMT_BV_ASHR, 8, 0x80, 9, 0xff },   { BMC_SMT_BV_ASHR, 8, 0x80, 3, 0xf0 },
        { BMC_SMT_BV_ASHR, 8, 0x40, 9, 0 },      { BMC_SMT_BV_ASHR, 64, 1ull << 63, 63, UINT64_MAX },
        { BMC_SMT_BV_AND, 4, 0xc, 0xa, 0x8 },    { BMC_SMT_BV_OR, 4, 0xc, 0xa, 0xe },
        { BMC_SMT_BV_XOR, 4, 0xc, 0xa, 0x6 },    { BMC_SMT_BV_ADD, 1, 1, 1, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint64_t r = 12345;
        assert_true(bmc_smt_fold_bvop(c[i].op, c[i].w, c[i].a, c[i].b, &r));
        if (r != c[i].r)
            fail_msg("case %zu: op %d width %u: %#llx, expected %#llx", i, (int)c[i].op, c[i].w,
                     (unsigned long long)r, (unsigned long long)c[i].r);
    }
    uint64_t r;
    assert_false(bmc_smt_fold_bvop((bmc_smt_bvop)99, 8, 1, 2, &r));
    assert_int_equal(bmc_smt_mask(3), 7);
    assert_true(bmc_smt_mask(64) == UINT64_MAX);
    assert_int_equal(bmc_smt_signed(0x80, 8), -128);
    assert_int_equal(bmc_smt_signed(0x7f, 8), 127);
    /* comparisons: unsigned and signed differ on the sign bit */
    assert_true(bmc_smt_fold_cmp(BMC_SMT_ULT, 8, 1, 0x80));
    assert_false(bmc_smt_fold_cmp(BMC_SMT_SLT, 8, 1, 0x80));
    assert_true(bmc_smt_fold_cmp(BMC_SMT_SLE, 8, 0x80, 0x80));
    assert_false(bmc_smt_fold_cmp(BMC_SMT_ULE, 8, 0x81, 0x80));
    assert_true(bmc_smt_fold_cmp(BMC_SMT_SLT, 64, UINT64_MAX, 0));
}

static bmc_smt_solver *mk(bmc_smt_backend b)
{
    return bmc_smt_new_of(b);
}

/* Hash-consing and folding as smt.h's user sees them, on both back ends:
 * equal terms have equal handles, and what folds folds to the term it
 * must. */
static void check_consing(bmc_smt_backend be)
{
    bmc_smt_solver *s = mk(be);
    bmc_smt_term x = bmc_smt_bv_var(s, 8, "x"), y = bmc_smt_bv_var(s, 8, "y");
    bmc_smt_term p = bmc_smt_bool_var(s, "p");
    assert_int_not_equal(x, y);
    assert_int_equal(bmc_smt_bv_const(s, 8, 5), bmc_smt_bv_const(s, 8, 5));
    assert_int_equal(bmc_smt_bv_const(s, 8, 0x105), bmc_smt_bv_const(s, 8, 5)); /* masked */
    assert_int_not_equal(bmc_smt_bv_const(s, 8, 5), bmc_smt_bv_const(s, 16, 5));
    bmc_smt_term xy = bmc_smt_bv_op(s, BMC_SMT_BV_ADD, x, y);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_ADD, x, y), xy);
    size_t n = bmc_smt_num_terms(s);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_ADD, x, y), xy);
    assert_int_equal(bmc_smt_num_terms(s), n); /* found, not made */
    /* units */
    bmc_smt_term zero = bmc_smt_bv_const(s, 8, 0);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_ADD, x, zero), x);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_OR, zero, x), x);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_SHL, x, zero), x);
    assert_int_equal(bmc_smt_bv_op(s, BMC_SMT_BV_SUB, x, zero), x);
    /* constants */
    uint64_t v;
    assert_true(bmc_smt_bv_value(s, bmc_smt_bv_op(s, BMC_SMT_BV_MUL, bmc_smt_bv_const(s, 8, 16),
                                                  bmc_smt_bv_const(s, 8, 17)), &v));
    assert_int_equal(v, 0x10);
    assert_true(bmc_smt_bv_value(s, bmc_smt_bv_op(s, BMC_SMT_BV_UDIV, bmc_smt_bv_const(s, 8, 7),
                                                  zero), &v));
    assert_int_equal(v, 0xff);
    assert_true(bmc_smt_bv_value(s, bmc_smt_sext(s, 8, bmc_smt_bv_const(s, 8, 0x80)), &v));
    assert_int_equal(v, 0xff80);
    assert_true(bmc_smt_bv_value(s, bmc_smt_extract(s, 11, 4, bmc_smt_bv_const(s, 16, 0xabcd)), &v));
    assert_int_equal(v, 0xbc);
    assert_true(bmc_smt_is_true(s, bmc_smt_bv_cmp(s, BMC_SMT_SLT, bmc_smt_bv_const(s, 8, 0x80),
                                                  bmc_smt_bv_const(s, 8, 1))));
    assert_false(bmc_smt_bv_value(s, x, &v));
    assert_int_equal(bmc_smt_width(s, x), 8);
    assert_int_equal(bmc_smt_width(s, p), 0);
    /* Booleans */
    bmc_smt_term t = bmc_smt_true(s), f = bmc_smt_false(s);
    assert_true(bmc_smt_is_true(s, t) && bmc_smt_is_false(s, f));
    assert_int_equal(bmc_smt_and(s, p, t), p);
    assert_int_equal(bmc_smt_or(s, p, f), p);
    assert_int_equal(bmc_smt_and(s, p, f), f);
    assert_int_equal(bmc_smt_not(s, bmc_smt_not(s, t)), t);
    assert_int_equal(bmc_smt_eq(s, x, x), t);
    assert_int_equal(bmc_smt_eq(s, p, t), p);
    assert_int_equal(bmc_smt_ite(s, p, x, x), x);
    assert_int_equal(bmc_smt_ite(s, t, x, y), x);
    assert_int_equal(bmc_smt_ite(s, f, x, y), y);
    bmc_smt_free(s);
}

static void test_consing_z3(void **state)
{
    (void)state;
    check_consing(BMC_SMT_Z3);
}

static void test_consing_cadical(void **state)
{
    (void)state;
    check_consing(BMC_SMT_CADICAL);
}

/* ite trees over constants: the leaves in tree order, distribution of an
 * operation over them, the cap, and splitting. */
static void check_leaves(bmc_smt_backend be)
{
    bmc_smt_solver *s = mk(be);
    bmc_smt_term p = bmc_smt_bool_var(s, "p"), q = bmc_smt_bool_var(s, "q");
    bmc_smt_term c3 = bmc_smt_bv_const(s, 32, 3), c5 = bmc_smt_bv_const(s, 32, 5);
    bmc_smt_term t = bmc_smt_ite(s, p, c3, c5);
    uint64_t out[32];
    assert_int_equal(bmc_smt_bv_leaves(s, c3, out, 32), 1);
    assert_int_equal(out[0], 3);
    assert_int_equal(bmc_smt_bv_leaves(s, t, out, 32), 2);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 5);
    assert_int_equal(bmc_smt_bv_leaves(s, t, out, 1), 0); /* more than max */
    /* t + 10 distributes: ite(p, 13, 15) */
    bmc_smt_term u = bmc_smt_bv_op(s, BMC_SMT_BV_ADD, t, bmc_smt_bv_const(s, 32, 10));
    assert_int_equal(bmc_smt_bv_leaves(s, u, out, 32), 2);
    assert_int_equal(out[0], 13);
    assert_int_equal(out[1], 15);
    assert_int_equal(u, bmc_smt_ite(s, p, bmc_smt_bv_const(s, 32, 13), bmc_smt_bv_const(s, 32, 15)));
    /* over one condition, the pairs go together: ite(p, 3+3, 5+5) */
    assert_int_equal(bmc_smt_bv_leaves(s, bmc_smt_bv_op(s, BMC_SMT_BV_ADD, t, t), out, 32), 2);
    assert_int_equal(out[0], 6);
    assert_int_equal(out[1], 10);
    /* comparisons fold leaf by leaf: ite(p, 3 == 3, 5 == 3) = p */
    assert_int_equal(bmc_smt_eq(s, t, c3), p);
    /* two conditions: the product */
    bmc_smt_term w = bmc_smt_ite(s, q, bmc_smt_bv_const(s, 32, 100), bmc_smt_bv_const(s, 32, 200));
    size_t n = bmc_smt_bv_leaves(s, bmc_smt_bv_op(s, BMC_SMT_BV_ADD, t, w), out, 32);
    assert_int_equal(n, 4);
    assert_int_equal(out[0], 103);
    assert_int_equal(out[1], 203);
    assert_int_equal(out[2], 105);
    assert_int_equal(out[3], 205);
    /* beyond BMC_SMT_MAX_LEAVES a tree is a plain term */
    bmc_smt_term big = bmc_smt_bv_const(s, 32, 0);
    for (uint32_t i = 1; i <= BMC_SMT_MAX_LEAVES; i++) {
        bmc_smt_term v = bmc_smt_bv_var(s, 1, "b");
        bmc_smt_term c = bmc_smt_eq(s, v, bmc_smt_bv_const(s, 1, 1));
        big = bmc_smt_ite(s, c, bmc_smt_bv_const(s, 32, i), big);
        assert_int_equal(bmc_smt_bv_leaves(s, big, out, 32), i < BMC_SMT_MAX_LEAVES ? i + 1 : 0);
    }
    /* a variable leaf: not a tree over constants */
    bmc_smt_term x = bmc_smt_bv_var(s, 32, "x");
    assert_int_equal(bmc_smt_bv_leaves(s, bmc_smt_ite(s, p, c3, x), out, 32), 0);
    bmc_smt_free(s);
}

static void test_leaves_z3(void **state)
{
    (void)state;
    check_leaves(BMC_SMT_Z3);
}

static void test_leaves_cadical(void **state)
{
    (void)state;
    check_leaves(BMC_SMT_CADICAL);
}

/* The table's own view of ite trees: the leaves ite would give, the splits
 * an operation is distributed over, the select memo. */
static void test_split_and_memo(void **state)
{
    (void)state;
    bmc_smt_terms t;
    bmc_smt_terms_init(&t);
    bool fresh;
    bmc_smt_term h[8];
    for (int i = 0; i < 8; i++) {
        int key = i;
        h[i] = bmc_smt_terms_intern(&t, &key, 1, NULL, 0, &fresh);
        bmc_smt_terms_node(&t, h[i])->kind = BMC_SMT_K_BV;
        bmc_smt_terms_node(&t, h[i])->width = 8;
    }
    /* h[0], h[1]: constants; h[2]: a condition; h[3] = ite(h[2], h[0], h[1]);
     * h[4]: a plain bit-vector; h[5] = ite(h[2], h[1], h[0]); h[6]: a tree
     * of 12 leaves on another condition h[7] */
    for (int i = 0; i < 2; i++) {
        bmc_smt_terms_node(&t, h[i])->is_const = true;
        bmc_smt_terms_node(&t, h[i])->val = 3 + 2 * (uint64_t)i;
        bmc_smt_terms_node(&t, h[i])->leaves = 1;
    }
    bmc_smt_terms_node(&t, h[2])->kind = BMC_SMT_K_BOOL;
    bmc_smt_node *n3 = bmc_smt_terms_node(&t, h[3]);
    *n3 = (bmc_smt_node){ .kind = BMC_SMT_K_BV, .op = BMC_SMT_OP_ITE, .width = 8, .leaves = 2,
                          .a = h[2], .b = h[0], .c = h[1], .key = n3->key, .nkey = n3->nkey };
    bmc_smt_node *n5 = bmc_smt_terms_node(&t, h[5]);
    *n5 = (bmc_smt_node){ .kind = BMC_SMT_K_BV, .op = BMC_SMT_OP_ITE, .width = 8, .leaves = 2,
                          .a = h[2], .b = h[1], .c = h[0], .key = n5->key, .nkey = n5->nkey };
    bmc_smt_node *n6 = bmc_smt_terms_node(&t, h[6]);
    *n6 = (bmc_smt_node){ .kind = BMC_SMT_K_BV, .op = BMC_SMT_OP_ITE, .width = 8, .leaves = 12,
                          .a = h[7], .b = h[3], .c = h[5], .key = n6->key, .nkey = n6->nkey };
    assert_int_equal(bmc_smt_terms_ite_leaves(&t, h[0], h[1]), 2);
    assert_int_equal(bmc_smt_terms_ite_leaves(&t, h[3], h[5]), 4);
    assert_int_equal(bmc_smt_terms_ite_leaves(&t, h[6], h[3]), 14);
    assert_int_equal(bmc_smt_terms_ite_leaves(&t, h[6], h[6]), 0); /* 24 > the cap */
    assert_int_equal(bmc_smt_terms_ite_leaves(&t, h[4], h[0]), 0); /* not a constant */
    bmc_smt_term c, a1, a2, b1, b2;
    /* two constants, a plain term: nothing to split */
    assert_false(bmc_smt_terms_split2(&t, h[0], h[1], &c, &a1, &a2, &b1, &b2));
    assert_false(bmc_smt_terms_split2(&t, h[3], h[4], &c, &a1, &a2, &b1, &b2));
    assert_false(bmc_smt_terms_split1(&t, h[0], &c, &a1, &a2));
    assert_false(bmc_smt_terms_split1(&t, h[4], &c, &a1, &a2));
    /* tree and constant, either side */
    assert_true(bmc_smt_terms_split2(&t, h[3], h[0], &c, &a1, &a2, &b1, &b2));
    assert_true(c == h[2] && a1 == h[0] && a2 == h[1] && b1 == h[0] && b2 == h[0]);
    assert_true(bmc_smt_terms_split2(&t, h[0], h[3], &c, &a1, &a2, &b1, &b2));
    assert_true(c == h[2] && a1 == h[0] && a2 == h[0] && b1 == h[0] && b2 == h[1]);
    /* two trees on one condition: split together */
    assert_true(bmc_smt_terms_split2(&t, h[3], h[5], &c, &a1, &a2, &b1, &b2));
    assert_true(c == h[2] && a1 == h[0] && a2 == h[1] && b1 == h[1] && b2 == h[0]);
    /* a tree whose leaves are trees on another condition: split on its
     * own, the constant whole */
    assert_false(bmc_smt_terms_split2(&t, h[3], h[6], &c, &a1, &a2, &b1, &b2)); /* 24 leaves */
    assert_true(bmc_smt_terms_split2(&t, h[6], h[0], &c, &a1, &a2, &b1, &b2));
    assert_true(c == h[7] && a1 == h[3] && a2 == h[5] && b1 == h[0] && b2 == h[0]);
    assert_true(bmc_smt_terms_split1(&t, h[5], &c, &a1, &a2));
    assert_true(c == h[2] && a1 == h[1] && a2 == h[0]);
    /* the memo */
    bmc_smt_term r = 0;
    assert_false(bmc_smt_terms_memo_get(&t, h[4], h[0], &r));
    bmc_smt_terms_memo_put(&t, h[4], h[0], h[1]);
    assert_true(bmc_smt_terms_memo_get(&t, h[4], h[0], &r));
    assert_int_equal(r, h[1]);
    assert_false(bmc_smt_terms_memo_get(&t, h[0], h[4], &r));
    /* units: x + 0, 0 | x, x >> 0; not x + 3, 0 - x, x * 0 */
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_ADD, h[4], h[0]), 0);
    bmc_smt_terms_node(&t, h[0])->val = 0;
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_ADD, h[4], h[0]), h[4]);
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_OR, h[0], h[4]), h[4]);
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_ASHR, h[4], h[0]), h[4]);
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_SUB, h[0], h[4]), 0);
    assert_int_equal(bmc_smt_terms_fold_unit(&t, BMC_SMT_BV_MUL, h[4], h[0]), 0);
    bmc_smt_terms_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intern_identity), cmocka_unit_test(test_fold_bvop),
        cmocka_unit_test(test_consing_z3),      cmocka_unit_test(test_consing_cadical),
        cmocka_unit_test(test_leaves_z3),       cmocka_unit_test(test_leaves_cadical),
        cmocka_unit_test(test_split_and_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
