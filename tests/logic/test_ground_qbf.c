/* Unit tests for QBF mode in logic/ground: formulas with universal
 * second-order quantifiers, grounded to a QBF (logic_ground_qbf) and solved
 * by sat/qbf, against truth values known by hand or by enumerating
 * relations directly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "logic/combinators.h"
#include "logic/ground.h"
#include "sat/qbf.h"

typedef struct fixture {
    logic_structure st;
    logic_builder b;
    sat_solver *s;
    sat_circuit c;
    logic_grounder g;
    uint32_t E, C; /* binary relations of the structure */
} fixture;

/* Whether the circuit defers its gates (one-directional definitions, as
 * ravel litmus grounds QBFs) or emits both directions: both must agree. */
static bool defer;

static int set_defer(void **state)
{
    (void)state;
    defer = true;
    return 0;
}

static int set_full(void **state)
{
    (void)state;
    defer = false;
    return 0;
}

/* n elements; E = the given pairs, C = the 3-cycle 0->1->2->0 (if n >= 3). */
static void start(fixture *f, uint32_t n, const int *pairs, int npairs)
{
    logic_structure_init(&f->st, n);
    f->E = logic_structure_add(&f->st, "E", 2);
    f->C = logic_structure_add(&f->st, "C", 2);
    for (int i = 0; i < npairs; i++)
        logic_rel_set2(&f->st, f->E, (uint32_t)pairs[2 * i], (uint32_t)pairs[2 * i + 1]);
    if (n >= 3) {
        logic_rel_set2(&f->st, f->C, 0, 1);
        logic_rel_set2(&f->st, f->C, 1, 2);
        logic_rel_set2(&f->st, f->C, 2, 0);
    }
    logic_builder_init(&f->b, &f->st);
    f->s = sat_solver_new_recorder();
    sat_circuit_init(&f->c, f->s);
    f->c.defer = defer;
    logic_grounder_init(&f->g, &f->b, &f->c);
    f->g.qbf = true;
}

static void finish(fixture *f)
{
    logic_grounder_free(&f->g);
    sat_circuit_free(&f->c);
    sat_solver_free(f->s);
    logic_builder_free(&f->b);
    logic_structure_free(&f->st);
}

/* Grounds phi as an assertion and solves the QBF. */
static sat_result decide(fixture *f, const logic_formula *phi, sat_qbf **keep)
{
    logic_ground_assert(&f->g, phi);
    assert_int_equal(f->g.status, LOGIC_GROUND_OK);
    sat_qbf *q = logic_ground_qbf(&f->g, NULL, 0);
    sat_result r = sat_qbf_solve(q);
    if (keep)
        *keep = q;
    else
        sat_qbf_free(q);
    return r;
}

/* Acyclicity of r in second-order form: every nonempty set S has an
 * r-minimal element. ∀S. (∃x. S(x)) → ∃x. S(x) ∧ ∀y. S(y) → ¬r(y, x). */
static const logic_formula *acyclic_so(logic_builder *b, const logic_rexpr *r)
{
    logic_sovar *S = logic_new_sovar(b, "S", 1);
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    const logic_formula *nonempty = logic_exists(b, x, logic_sov1(b, S, x));
    const logic_formula *minimal = logic_exists(b, x, logic_and2(b, logic_sov1(b, S, x),
        logic_forall(b, y, logic_implies(b, logic_sov1(b, S, y),
                                         logic_not(b, logic_apply(b, r, y, x))))));
    return logic_so_forall(b, S, logic_implies(b, nonempty, minimal));
}

static void test_known_truth_values(void **state)
{
    (void)state;
    const int path[] = { 0, 1, 1, 2 };
    for (int k = 0; k < 11; k++) {
        fixture f;
        start(&f, 3, path, 2);
        logic_builder *b = &f.b;
        const logic_rexpr *E = logic_r_rel(b, f.E);
        logic_sovar *R = logic_new_sovar(b, "R", 2);
        R->bound = E;
        logic_sovar *S = logic_new_sovar(b, "S", 1);
        logic_sovar *U = logic_new_sovar(b, "U", 1);
        int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
        const logic_formula *phi = NULL;
        sat_result want = SAT_UNSAT;
        switch (k) {
        case 0: /* ∀R ⊆ E. ∀x y. R(x,y) → E(x,y): true */
            phi = logic_so_forall(b, R, logic_forall(b, x, logic_forall(b, y,
                      logic_implies(b, logic_sov2(b, R, x, y), logic_rel2(b, f.E, x, y)))));
            want = SAT_SAT;
            break;
        case 1: /* ∀R ⊆ E. ∃x y. R(x,y): false (R empty) */
            phi = logic_so_forall(b, R, logic_exists(b, x, logic_exists(b, y,
                      logic_sov2(b, R, x, y))));
            break;
        case 2: /* ∃S. ∀R ⊆ E. ∀x y. R(x,y) → S(x): true (S ⊇ {0, 1}) */
        case 3: /* the same with S ⊆ {2} as well: false */
            phi = logic_so_exists(b, S, logic_so_forall(b, R, logic_forall(b, x, logic_forall(b, y,
                      logic_implies(b, logic_sov2(b, R, x, y), logic_sov1(b, S, x))))));
            if (k == 3)
                phi = logic_so_exists(b, S, logic_and2(b, phi->kids[0],
                          logic_forall(b, x, logic_implies(b, logic_sov1(b, S, x),
                                                          logic_eq(b, x, logic_const(2))))));
            want = k == 2 ? SAT_SAT : SAT_UNSAT;
            break;
        case 4: /* ∀U. ∃S. ∀x. S(x) ↔ ¬U(x): true, three levels */
        case 5: /* the same with S bounded by {0}: false (U empty) */
            if (k == 5)
                S->bound = logic_r_formula(b, 1, x, -1, logic_eq(b, x, logic_const(0)));
            phi = logic_so_forall(b, U, logic_so_exists(b, S, logic_forall(b, y,
                      logic_iff(b, logic_sov1(b, S, y), logic_not(b, logic_sov1(b, U, y))))));
            want = k == 4 ? SAT_SAT : SAT_UNSAT;
            break;
        case 6: /* ¬∃S. S(0) ∧ ¬S(0), a universal by polarity: true */
            phi = logic_not(b, logic_so_exists(b, S, logic_and2(b, logic_sov1(b, S, logic_const(0)),
                      logic_not(b, logic_sov1(b, S, logic_const(0))))));
            want = SAT_SAT;
            break;
        case 7: /* ¬∃S. ∀x. S(x): false */
            phi = logic_not(b, logic_so_exists(b, S, logic_forall(b, x, logic_sov1(b, S, x))));
            break;
        case 8: /* E (a path) is acyclic: true */
            phi = acyclic_so(b, E);
            want = SAT_SAT;
            break;
        case 9: /* C (a 3-cycle) is acyclic: false */
            phi = acyclic_so(b, logic_r_rel(b, f.C));
            break;
        case 10: /* ∃R ⊆ C. R(0,1) ∧ R(1,2) ∧ acyclic(R): true, ∃∀∃ */
            R->bound = logic_r_rel(b, f.C);
            phi = logic_so_exists(b, R, logic_and2(b,
                      logic_and2(b, logic_sov2(b, R, logic_const(0), logic_const(1)),
                                 logic_sov2(b, R, logic_const(1), logic_const(2))),
                      acyclic_so(b, logic_r_sov(b, R))));
            want = SAT_SAT;
            break;
        }
        sat_qbf *q;
        sat_result got = decide(&f, phi, &q);
        if (got != want)
            fail_msg("formula %d: got %d, want %d", k, got, want);
        if (k == 2) {
            /* The outer assignment: S contains 0 and 1. */
            const int *t = logic_ground_table(&f.g, S);
            assert_true(sat_qbf_value(q, t[0]));
            assert_true(sat_qbf_value(q, t[1]));
        }
        if (k == 10) {
            const int *t = logic_ground_table(&f.g, R);
            assert_false(sat_qbf_value(q, t[2 * 3 + 0])); /* R(2,0) would close the cycle */
            assert_int_equal(sat_qbf_get_stats(q).levels, 3);
        }
        sat_qbf_free(q);
        finish(&f);
    }
}

/* Outside QBF mode, a universal quantifier is still refused; in QBF mode one
 * under <-> (no polarity) is. */
static void test_refusals(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fixture f;
        start(&f, 2, NULL, 0);
        logic_builder *b = &f.b;
        logic_sovar *S = logic_new_sovar(b, "S", 1);
        int32_t x = logic_fresh_var(b);
        const logic_formula *all = logic_so_forall(b, S, logic_exists(b, x, logic_sov1(b, S, x)));
        if (k == 0) {
            f.g.qbf = false;
            logic_ground_assert(&f.g, all);
        } else {
            logic_ground_assert(&f.g, logic_iff(b, all, logic_true(b)));
        }
        assert_int_equal(f.g.status, LOGIC_GROUND_NEEDS_QBF);
        finish(&f);
    }
}

/* Direct check: does the relation (bitmask over n*n pairs) have a cycle? */
static bool has_cycle(uint32_t rel, uint32_t n)
{
    uint32_t reach = rel; /* transitive closure by Warshall on bits */
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++)
            if (reach >> (i * n + k) & 1)
                for (uint32_t j = 0; j < n; j++)
                    if (reach >> (k * n + j) & 1)
                        reach |= 1u << (i * n + j);
    for (uint32_t i = 0; i < n; i++)
        if (reach >> (i * n + i) & 1)
            return true;
    return false;
}

/* Random graphs E on 4 nodes: (1) acyclic_so(E) against a direct check;
 * (2) ∃R ⊆ E. every node with an E-successor keeps an R-successor, and R is
 * acyclic (∃∀∃) against enumerating every subset R of E. */
static void test_random_graphs(void **state)
{
    (void)state;
    const uint32_t n = 4;
    uint64_t seed = 12345;
    int nacyc = 0, nsub = 0;
    for (int i = 0; i < 120; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t rel = (uint32_t)(seed >> 33) & ((1u << (n * n)) - 1);
        if (i % 2) /* sparser graphs have more acyclic sub-relations */
            rel &= (uint32_t)(seed >> 17);
        int pairs[32], np = 0;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t c = 0; c < n; c++)
                if (rel >> (a * n + c) & 1) {
                    pairs[2 * np] = (int)a;
                    pairs[2 * np + 1] = (int)c;
                    np++;
                }
        /* (1) */
        fixture f;
        start(&f, n, pairs, np);
        bool want = !has_cycle(rel, n);
        nacyc += want;
        assert_int_equal(decide(&f, acyclic_so(&f.b, logic_r_rel(&f.b, f.E)), NULL),
                         want ? SAT_SAT : SAT_UNSAT);
        finish(&f);

        /* (2) */
        uint32_t out_mask = 0; /* nodes with an E-successor */
        for (uint32_t a = 0; a < n; a++)
            if (rel >> (a * n) & ((1u << n) - 1))
                out_mask |= 1u << a;
        want = false;
        for (uint32_t sub = rel;; sub = (sub - 1) & rel) {
            bool keeps = true;
            for (uint32_t a = 0; a < n && keeps; a++)
                if (out_mask >> a & 1)
                    keeps = (sub >> (a * n) & ((1u << n) - 1)) != 0;
            if (keeps && !has_cycle(sub, n)) {
                want = true;
                break;
            }
            if (sub == 0)
                break;
        }
        nsub += want;
        start(&f, n, pairs, np);
        logic_builder *b = &f.b;
        logic_sovar *R = logic_new_sovar(b, "R", 2);
        R->bound = logic_r_rel(b, f.E);
        int32_t x = logic_fresh_var(b), y = logic_fresh_var(b), z = logic_fresh_var(b);
        const logic_formula *keep = logic_forall(b, x, logic_implies(b,
            logic_exists(b, y, logic_rel2(b, f.E, x, y)),
            logic_exists(b, z, logic_sov2(b, R, x, z))));
        const logic_formula *phi = logic_so_exists(b, R, logic_and2(b, keep,
            acyclic_so(b, logic_r_sov(b, R))));
        sat_result got = decide(&f, phi, NULL);
        if (got != (want ? SAT_SAT : SAT_UNSAT))
            fail_msg("graph %d (mask %#x): got %d, want %d", i, rel, got, want);
        finish(&f);
    }
    print_message("graphs: %d of 120 acyclic, %d with an acyclic keeping sub-relation\n", nacyc,
                  nsub);
    assert_true(nacyc > 5 && nacyc < 115);
    assert_true(nsub > 5 && nsub < 115);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_known_truth_values, set_full),
        cmocka_unit_test_setup(test_known_truth_values, set_defer),
        cmocka_unit_test_setup(test_refusals, set_full),
        cmocka_unit_test_setup(test_random_graphs, set_full),
        cmocka_unit_test_setup(test_random_graphs, set_defer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
