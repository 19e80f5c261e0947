/* Unit tests for smt_cadical.c, the bit-blasting back end of smt.h, against
 * the Z3 back end in the same binary:
 *  - every operator on constants folds to a constant, the value Z3's
 *    folding gives (itself checked against SMT-LIB's definitions for the
 *    division-by-zero and overflow corners);
 *  - every operator on variables fixed to constants: the model's value is
 *    that constant, and asserting any other value is unsat (the circuit,
 *    not the folding);
 *  - random small formulas built in both back ends: the same sat/unsat
 *    answer, and the CaDiCaL model, fed back to Z3 as equalities, satisfies
 *    Z3's formula;
 *  - arrays (stores at symbolic indices, Ackermann's constraints), push/pop
 *    and assumptions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bmc/smt.h"

static bmc_smt_solver *mk(bmc_smt_backend b)
{
    bmc_smt_set_backend(b);
    bmc_smt_solver *s = bmc_smt_new();
    bmc_smt_set_backend(BMC_SMT_DEFAULT);
    return s;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t mask(uint32_t w)
{
    return w >= 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
}

/* Interesting values of width w: 0, 1, -1, the sign bit, its neighbours,
 * random ones. */
static uint64_t pick(uint32_t w)
{
    uint64_t m = mask(w), sb = (uint64_t)1 << (w - 1);
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return 1 & m;
    case 2: return m;
    case 3: return sb;
    case 4: return (sb - 1) & m;
    case 5: return (sb + 1) & m;
    default: return rnd() & m;
    }
}

static const uint32_t widths[] = { 1, 2, 3, 4, 5, 7, 8, 13, 16, 32, 33, 64 };
#define NW (sizeof widths / sizeof widths[0])
#define NOPS 13

/* SMT-LIB's corners the Z3 back end's folding must give (so that the
 * comparison below compares against the standard, not only against Z3). */
static void test_z3_corners(void **state)
{
    (void)state;
    bmc_smt_solver *z = mk(BMC_SMT_Z3);
    uint64_t v;
    struct { bmc_smt_bvop op; uint64_t a, b, r; } c[] = {
        { BMC_SMT_BV_UDIV, 7, 0, 0xff }, { BMC_SMT_BV_UREM, 7, 0, 7 },
        { BMC_SMT_BV_SDIV, 7, 0, 0xff }, { BMC_SMT_BV_SDIV, 0xf9, 0, 1 },
        { BMC_SMT_BV_SREM, 0xf9, 0, 0xf9 }, { BMC_SMT_BV_SDIV, 0x80, 0xff, 0x80 },
        { BMC_SMT_BV_SREM, 0xf9, 2, 0xff }, { BMC_SMT_BV_SREM, 7, 0xfe, 1 },
        { BMC_SMT_BV_ASHR, 0x80, 9, 0xff }, { BMC_SMT_BV_SHL, 1, 8, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        bmc_smt_term r = bmc_smt_bv_op(z, c[i].op, bmc_smt_bv_const(z, 8, c[i].a), bmc_smt_bv_const(z, 8, c[i].b));
        assert_true(bmc_smt_bv_value(z, r, &v));
        assert_int_equal(v, c[i].r);
    }
    bmc_smt_free(z);
}

static void test_fold(void **state)
{
    (void)state;
    bmc_smt_solver *z = mk(BMC_SMT_Z3), *k = mk(BMC_SMT_CADICAL);
    for (int round = 0; round < 40; round++)
        for (size_t wi = 0; wi < NW; wi++) {
            uint32_t w = widths[wi];
            uint64_t a = pick(w), b = pick(w), vz, vk;
            for (int op = 0; op < NOPS; op++) {
                bmc_smt_term rz = bmc_smt_bv_op(z, op, bmc_smt_bv_const(z, w, a), bmc_smt_bv_const(z, w, b));
                bmc_smt_term rk = bmc_smt_bv_op(k, op, bmc_smt_bv_const(k, w, a), bmc_smt_bv_const(k, w, b));
                assert_true(bmc_smt_bv_value(z, rz, &vz));
                if (!bmc_smt_bv_value(k, rk, &vk) || vk != vz)
                    fail_msg("op %d width %u: %#llx, %#llx: z3 %#llx, cadical %#llx", op, w,
                             (unsigned long long)a, (unsigned long long)b, (unsigned long long)vz,
                             (unsigned long long)vk);
            }
            for (int op = 0; op < 4; op++) {
                bmc_smt_term cz = bmc_smt_bv_cmp(z, op, bmc_smt_bv_const(z, w, a), bmc_smt_bv_const(z, w, b));
                bmc_smt_term ck = bmc_smt_bv_cmp(k, op, bmc_smt_bv_const(k, w, a), bmc_smt_bv_const(k, w, b));
                assert_true(bmc_smt_is_true(z, cz) || bmc_smt_is_false(z, cz));
                assert_int_equal(bmc_smt_is_true(z, cz), bmc_smt_is_true(k, ck));
                assert_int_equal(bmc_smt_is_false(z, cz), bmc_smt_is_false(k, ck));
            }
            bmc_smt_term x = bmc_smt_bv_const(k, w, a);
            assert_true(bmc_smt_bv_value(k, bmc_smt_bv_not(k, x), &vk));
            assert_int_equal(vk, ~a & mask(w));
            assert_true(bmc_smt_bv_value(k, bmc_smt_bv_neg(k, x), &vk));
            assert_int_equal(vk, (0 - a) & mask(w));
            if (w < 64) {
                assert_true(bmc_smt_bv_value(k, bmc_smt_sext(k, 64 - w, x), &vk));
                bmc_smt_term ez = bmc_smt_sext(z, 64 - w, bmc_smt_bv_const(z, w, a));
                assert_true(bmc_smt_bv_value(z, ez, &vz));
                assert_int_equal(vk, vz);
                assert_true(bmc_smt_bv_value(k, bmc_smt_zext(k, 64 - w, x), &vk));
                assert_int_equal(vk, a);
            }
            uint32_t lo = (uint32_t)(rnd() % w), hi = lo + (uint32_t)(rnd() % (w - lo));
            assert_true(bmc_smt_bv_value(k, bmc_smt_extract(k, hi, lo, x), &vk));
            assert_int_equal(vk, (a >> lo) & mask(hi - lo + 1));
            if (w <= 32) {
                assert_true(bmc_smt_bv_value(k, bmc_smt_concat(k, x, bmc_smt_bv_const(k, w, b)), &vk));
                assert_int_equal(vk, a << w | b);
            }
        }
    /* Booleans and ite fold, hash-consing gives equal terms one handle */
    bmc_smt_term p = bmc_smt_bool_var(k, "p"), t = bmc_smt_true(k), f = bmc_smt_false(k);
    assert_true(bmc_smt_is_false(k, bmc_smt_and(k, p, bmc_smt_not(k, p))));
    assert_true(bmc_smt_is_true(k, bmc_smt_or(k, p, bmc_smt_not(k, p))));
    assert_true(bmc_smt_is_true(k, bmc_smt_implies(k, f, p)));
    assert_int_equal(bmc_smt_and(k, p, t), p);
    assert_int_equal(bmc_smt_ite(k, p, t, f), p);
    assert_int_equal(bmc_smt_not(k, bmc_smt_not(k, p)), p);
    bmc_smt_term x = bmc_smt_bv_var(k, 16, "x");
    assert_true(bmc_smt_is_true(k, bmc_smt_eq(k, bmc_smt_bv_op(k, BMC_SMT_BV_ADD, x, bmc_smt_bv_const(k, 16, 3)),
                                              bmc_smt_bv_op(k, BMC_SMT_BV_ADD, x, bmc_smt_bv_const(k, 16, 3)))));
    assert_true(bmc_smt_is_true(k, bmc_smt_bv_cmp(k, BMC_SMT_ULE, x, x)));
    uint64_t vk;
    assert_true(bmc_smt_bv_value(k, bmc_smt_bv_op(k, BMC_SMT_BV_XOR, x, x), &vk));
    assert_int_equal(vk, 0);
    assert_false(bmc_smt_bv_value(k, x, &vk));
    /* ite trees over constants keep their leaves through operations */
    bmc_smt_term ptr = bmc_smt_ite(k, p, bmc_smt_bv_const(k, 64, 0x1000), bmc_smt_bv_const(k, 64, 0x2000));
    bmc_smt_term q = bmc_smt_bv_op(k, BMC_SMT_BV_ADD, ptr, bmc_smt_bv_const(k, 64, 8));
    uint64_t leaves[4];
    assert_int_equal(bmc_smt_bv_leaves(k, q, leaves, 4), 2);
    assert_int_equal(leaves[0], 0x1008);
    assert_int_equal(leaves[1], 0x2008);
    assert_int_equal(bmc_smt_bv_leaves(k, x, leaves, 4), 0);
    assert_int_equal(bmc_smt_width(k, x), 16);
    assert_int_equal(bmc_smt_width(k, p), 0);
    bmc_smt_free(z);
    bmc_smt_free(k);
}

/* The circuits: variables fixed to constants by assertions. */
static void test_circuits(void **state)
{
    (void)state;
    for (int round = 0; round < 6; round++)
        for (size_t wi = 0; wi < NW; wi++) {
            uint32_t w = widths[wi];
            bmc_smt_solver *z = mk(BMC_SMT_Z3), *k = mk(BMC_SMT_CADICAL);
            uint64_t a = pick(w), b = pick(w), vz;
            bmc_smt_term x = bmc_smt_bv_var(k, w, "x"), y = bmc_smt_bv_var(k, w, "y");
            bmc_smt_assert(k, bmc_smt_eq(k, x, bmc_smt_bv_const(k, w, a)));
            bmc_smt_assert(k, bmc_smt_eq(k, y, bmc_smt_bv_const(k, w, b)));
            bmc_smt_term r[NOPS + 4];
            for (int op = 0; op < NOPS; op++)
                r[op] = bmc_smt_bv_op(k, op, x, y);
            for (int op = 0; op < 4; op++)
                r[NOPS + op] = bmc_smt_bv_cmp(k, op, x, y);
            assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_SAT);
            for (int op = 0; op < NOPS + 4; op++) {
                bmc_smt_term rz = op < NOPS ? bmc_smt_bv_op(z, op, bmc_smt_bv_const(z, w, a), bmc_smt_bv_const(z, w, b))
                                            : bmc_smt_bv_cmp(z, op - NOPS, bmc_smt_bv_const(z, w, a),
                                                             bmc_smt_bv_const(z, w, b));
                if (op < NOPS) {
                    assert_true(bmc_smt_bv_value(z, rz, &vz));
                    if (w <= 64 && bmc_smt_model_bv(k, r[op]) != vz)
                        fail_msg("op %d width %u: %#llx, %#llx: model %#llx, expected %#llx", op, w,
                                 (unsigned long long)a, (unsigned long long)b,
                                 (unsigned long long)bmc_smt_model_bv(k, r[op]), (unsigned long long)vz);
                } else {
                    assert_int_equal(bmc_smt_model_bool(k, r[op]), bmc_smt_is_true(z, rz));
                }
            }
            /* no other value: the circuit determines the result */
            uint64_t got[NOPS];
            for (int op = 0; op < NOPS; op++)
                got[op] = bmc_smt_model_bv(k, r[op]);
            for (int op = 0; op < NOPS; op++) {
                bmc_smt_term other = bmc_smt_not(k, bmc_smt_eq(k, r[op], bmc_smt_bv_const(k, w, got[op])));
                assert_int_equal(bmc_smt_check(k, &other, 1, 0), BMC_SMT_UNSAT);
            }
            bmc_smt_free(z);
            bmc_smt_free(k);
        }
}

/* Random formulas over a few small variables, built in both back ends. */
typedef struct pair {
    bmc_smt_term z, k;
} pair;

#define NV 3
static void test_random_formulas(void **state)
{
    (void)state;
    int sat = 0, unsat = 0;
    for (int round = 0; round < 300; round++) {
        bmc_smt_solver *z = mk(BMC_SMT_Z3), *k = mk(BMC_SMT_CADICAL);
        uint32_t w = 1 + (uint32_t)(rnd() % 6);
        pair pool[64];
        size_t n = 0;
        pair vars[NV];
        for (int i = 0; i < NV; i++) {
            vars[i] = (pair){ bmc_smt_bv_var(z, w, "v"), bmc_smt_bv_var(k, w, "v") };
            pool[n++] = vars[i];
        }
        for (int i = 0; i < 3; i++) {
            uint64_t c = pick(w);
            pool[n++] = (pair){ bmc_smt_bv_const(z, w, c), bmc_smt_bv_const(k, w, c) };
        }
        while (n < 40) {
            pair a = pool[rnd() % n], b = pool[rnd() % n];
            uint64_t kind = rnd() % 10;
            if (kind < 7) {
                int op = (int)(rnd() % NOPS);
                pool[n++] = (pair){ bmc_smt_bv_op(z, op, a.z, b.z), bmc_smt_bv_op(k, op, a.k, b.k) };
            } else if (kind == 7) {
                int op = (int)(rnd() % 4);
                pair c = pool[rnd() % n];
                pool[n++] = (pair){ bmc_smt_ite(z, bmc_smt_bv_cmp(z, op, a.z, b.z), c.z, a.z),
                                    bmc_smt_ite(k, bmc_smt_bv_cmp(k, op, a.k, b.k), c.k, a.k) };
            } else if (kind == 8) {
                pool[n++] = (pair){ bmc_smt_bv_neg(z, a.z), bmc_smt_bv_neg(k, a.k) };
            } else {
                /* through a wider width and back */
                pair e = { bmc_smt_sext(z, 3, a.z), bmc_smt_sext(k, 3, a.k) };
                pair f = { bmc_smt_zext(z, 3, b.z), bmc_smt_zext(k, 3, b.k) };
                pair m = { bmc_smt_bv_op(z, BMC_SMT_BV_MUL, e.z, f.z), bmc_smt_bv_op(k, BMC_SMT_BV_MUL, e.k, f.k) };
                pool[n++] = (pair){ bmc_smt_extract(z, w + 1, 2, m.z), bmc_smt_extract(k, w + 1, 2, m.k) };
            }
        }
        /* a few constraints relating the last terms */
        for (int i = 0; i < 3; i++) {
            pair a = pool[n - 1 - rnd() % 10], b = pool[rnd() % n];
            int op = (int)(rnd() % 5);
            pair c = op == 4 ? (pair){ bmc_smt_eq(z, a.z, b.z), bmc_smt_eq(k, a.k, b.k) }
                             : (pair){ bmc_smt_bv_cmp(z, op, a.z, b.z), bmc_smt_bv_cmp(k, op, a.k, b.k) };
            if (rnd() & 1)
                c = (pair){ bmc_smt_not(z, c.z), bmc_smt_not(k, c.k) };
            bmc_smt_assert(z, c.z);
            bmc_smt_assert(k, c.k);
        }
        bmc_smt_result rz = bmc_smt_check(z, NULL, 0, 0), rk = bmc_smt_check(k, NULL, 0, 0);
        assert_int_not_equal(rz, BMC_SMT_UNKNOWN);
        if (rz != rk)
            fail_msg("round %d: z3 %d, cadical %d", round, rz, rk);
        if (rk == BMC_SMT_SAT) {
            sat++;
            /* the CaDiCaL model satisfies Z3's formula */
            bmc_smt_term fix[NV];
            for (int i = 0; i < NV; i++)
                fix[i] = bmc_smt_eq(z, vars[i].z, bmc_smt_bv_const(z, w, bmc_smt_model_bv(k, vars[i].k)));
            assert_int_equal(bmc_smt_check(z, fix, NV, 0), BMC_SMT_SAT);
            /* and every term's value agrees with Z3's under it */
            for (size_t i = 0; i < n; i++)
                assert_int_equal(bmc_smt_model_bv(k, pool[i].k), bmc_smt_model_bv(z, pool[i].z));
        } else {
            unsat++;
        }
        bmc_smt_free(z);
        bmc_smt_free(k);
    }
    /* the generator exercises both answers */
    assert_true(sat > 20);
    assert_true(unsat > 5);
}

static void test_arrays(void **state)
{
    (void)state;
    bmc_smt_solver *k = mk(BMC_SMT_CADICAL);
    bmc_smt_term m = bmc_smt_array_var(k, 8, 8, "m");
    bmc_smt_term i = bmc_smt_bv_var(k, 8, "i"), j = bmc_smt_bv_var(k, 8, "j");
    bmc_smt_term si = bmc_smt_select(k, m, i), sj = bmc_smt_select(k, m, j);
    assert_int_equal(bmc_smt_select(k, m, i), si); /* memoised */
    /* Ackermann: equal indices read equal values */
    bmc_smt_term a[2] = { bmc_smt_eq(k, i, j), bmc_smt_not(k, bmc_smt_eq(k, si, sj)) };
    assert_int_equal(bmc_smt_check(k, a, 2, 0), BMC_SMT_UNSAT);
    a[0] = bmc_smt_not(k, a[0]);
    assert_int_equal(bmc_smt_check(k, a, 2, 0), BMC_SMT_SAT);
    assert_int_not_equal(bmc_smt_model_bv(k, si), bmc_smt_model_bv(k, sj));
    /* read over write at a symbolic index */
    bmc_smt_term st = bmc_smt_store(k, m, i, bmc_smt_bv_const(k, 8, 42));
    bmc_smt_term r = bmc_smt_select(k, st, j);
    bmc_smt_term b[2] = { bmc_smt_eq(k, i, j), bmc_smt_not(k, bmc_smt_eq(k, r, bmc_smt_bv_const(k, 8, 42))) };
    assert_int_equal(bmc_smt_check(k, b, 2, 0), BMC_SMT_UNSAT);
    b[0] = bmc_smt_not(k, b[0]);
    b[1] = bmc_smt_not(k, bmc_smt_eq(k, r, sj));
    assert_int_equal(bmc_smt_check(k, b, 2, 0), BMC_SMT_UNSAT);
    /* constant arrays and constant indices fold */
    bmc_smt_term zero = bmc_smt_array_const(k, 8, bmc_smt_bv_const(k, 8, 7));
    bmc_smt_term s2 = bmc_smt_store(k, bmc_smt_store(k, zero, bmc_smt_bv_const(k, 8, 1), bmc_smt_bv_const(k, 8, 9)),
                                    bmc_smt_bv_const(k, 8, 2), j);
    uint64_t v;
    assert_true(bmc_smt_bv_value(k, bmc_smt_select(k, s2, bmc_smt_bv_const(k, 8, 1)), &v));
    assert_int_equal(v, 9);
    assert_true(bmc_smt_bv_value(k, bmc_smt_select(k, s2, bmc_smt_bv_const(k, 8, 5)), &v));
    assert_int_equal(v, 7);
    assert_int_equal(bmc_smt_select(k, s2, bmc_smt_bv_const(k, 8, 2)), j);
    /* ite-merged arrays */
    bmc_smt_term p = bmc_smt_bool_var(k, "p");
    bmc_smt_term mm = bmc_smt_ite(k, p, s2, zero);
    bmc_smt_term c[2] = { p, bmc_smt_not(k, bmc_smt_eq(k, bmc_smt_select(k, mm, bmc_smt_bv_const(k, 8, 1)),
                                                          bmc_smt_bv_const(k, 8, 9))) };
    assert_int_equal(bmc_smt_check(k, c, 2, 0), BMC_SMT_UNSAT);
    c[0] = bmc_smt_not(k, p);
    assert_int_equal(bmc_smt_check(k, c, 2, 0), BMC_SMT_SAT);
    assert_true(bmc_smt_num_array_selects(k) >= 2);
    bmc_smt_free(k);
}

static void test_push_pop_assumptions(void **state)
{
    (void)state;
    bmc_smt_solver *k = mk(BMC_SMT_CADICAL);
    bmc_smt_term x = bmc_smt_bv_var(k, 8, "x");
    bmc_smt_term lt5 = bmc_smt_bv_cmp(k, BMC_SMT_ULT, x, bmc_smt_bv_const(k, 8, 5));
    bmc_smt_assert(k, lt5);
    bmc_smt_push(k);
    bmc_smt_assert(k, bmc_smt_bv_cmp(k, BMC_SMT_ULT, bmc_smt_bv_const(k, 8, 3), x));
    assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_SAT);
    assert_int_equal(bmc_smt_model_bv(k, x), 4);
    bmc_smt_push(k);
    bmc_smt_assert(k, bmc_smt_eq(k, x, bmc_smt_bv_const(k, 8, 3)));
    assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_UNSAT);
    bmc_smt_pop(k);
    assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_SAT);
    bmc_smt_pop(k);
    bmc_smt_term is3 = bmc_smt_eq(k, x, bmc_smt_bv_const(k, 8, 3));
    assert_int_equal(bmc_smt_check(k, &is3, 1, 0), BMC_SMT_SAT);
    assert_int_equal(bmc_smt_model_bv(k, x), 3);
    /* a term made after the check reads its value through its gates */
    bmc_smt_term later = bmc_smt_bv_op(k, BMC_SMT_BV_MUL, x, bmc_smt_bv_const(k, 8, 7));
    assert_int_equal(bmc_smt_model_bv(k, later), 21);
    assert_true(bmc_smt_model_bool(k, bmc_smt_bv_cmp(k, BMC_SMT_SLT, x, bmc_smt_bv_const(k, 8, 4))));
    bmc_smt_term no[2] = { is3, bmc_smt_false(k) };
    assert_int_equal(bmc_smt_check(k, no, 2, 0), BMC_SMT_UNSAT);
    bmc_smt_assert(k, bmc_smt_false(k));
    assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_UNSAT);
    assert_true(bmc_smt_num_terms(k) > 0);
    assert_int_equal(bmc_smt_num_asserts(k), 4);
    bmc_smt_free(k);
}

static void test_backend_names(void **state)
{
    (void)state;
    bmc_smt_backend b;
    assert_true(bmc_smt_parse_backend("z3", &b));
    assert_int_equal(b, BMC_SMT_Z3);
    assert_true(bmc_smt_parse_backend("cadical", &b));
    assert_int_equal(b, BMC_SMT_CADICAL);
    assert_true(bmc_smt_parse_backend("auto", &b));
    assert_int_equal(b, BMC_SMT_AUTO);
    assert_false(bmc_smt_parse_backend("minisat", &b));
    bmc_smt_set_backend(BMC_SMT_CADICAL);
    assert_int_equal(bmc_smt_current_backend(), BMC_SMT_CADICAL);
    bmc_smt_set_backend(BMC_SMT_DEFAULT);
    /* the clause cap: beyond it, checks answer unknown and say why */
    bmc_smt_solver *k = mk(BMC_SMT_CADICAL);
    bmc_smt_set_clause_cap(k, 8);
    bmc_smt_term x = bmc_smt_bv_var(k, 8, "x"), y = bmc_smt_bv_var(k, 8, "y");
    assert_false(bmc_smt_over_cap(k));
    bmc_smt_assert(k, bmc_smt_eq(k, bmc_smt_bv_op(k, BMC_SMT_BV_MUL, x, y), bmc_smt_bv_const(k, 8, 77)));
    assert_true(bmc_smt_over_cap(k));
    assert_int_equal(bmc_smt_num_clauses(k), 8);
    assert_int_equal(bmc_smt_check(k, NULL, 0, 0), BMC_SMT_UNKNOWN);
    assert_string_equal(bmc_smt_reason(k), BMC_SMT_TOO_LARGE);
    bmc_smt_free(k);
    bmc_smt_solver *z = mk(BMC_SMT_Z3);
    bmc_smt_set_clause_cap(z, 8); /* Z3 has no cap */
    assert_false(bmc_smt_over_cap(z));
    assert_int_equal(bmc_smt_num_clauses(z), 0);
    bmc_smt_free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_z3_corners),
        cmocka_unit_test(test_fold),
        cmocka_unit_test(test_circuits),
        cmocka_unit_test(test_random_formulas),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_push_pop_assumptions),
        cmocka_unit_test(test_backend_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
