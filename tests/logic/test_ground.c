/* Unit tests for logic/formula, combinators and ground: small structures
 * whose answers are known by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "logic/combinators.h"
#include "logic/exec.h"
#include "logic/ground.h"
#include "logic/vocab.h"

typedef struct fixture {
    logic_structure st;
    logic_builder b;
    sat_solver *s;
    sat_circuit c;
    logic_grounder g;
} fixture;

static void setup_n(fixture *f, uint32_t n)
{
    logic_structure_init(&f->st, n);
}

static void start(fixture *f)
{
    logic_builder_init(&f->b, &f->st);
    f->s = sat_solver_new();
    sat_circuit_init(&f->c, f->s);
    logic_grounder_init(&f->g, &f->b, &f->c);
}

static void finish(fixture *f)
{
    logic_grounder_free(&f->g);
    sat_circuit_free(&f->c);
    sat_solver_free(f->s);
    logic_builder_free(&f->b);
    logic_structure_free(&f->st);
}

/* The paper's foretaste: three events ordered 1 < 2, 1 < 3, with 2 and 3 in
 * conflict; is there a downward-closed conflict-free set containing 3? */
static void test_downward_closed_set(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 3);
    uint32_t ord = logic_structure_add(&f.st, "ord", 2);
    uint32_t cf = logic_structure_add(&f.st, "conflict", 2);
    logic_rel_set2(&f.st, ord, 0, 1);
    logic_rel_set2(&f.st, ord, 0, 2);
    logic_rel_set2(&f.st, cf, 1, 2);
    logic_rel_set2(&f.st, cf, 2, 1);
    start(&f);
    logic_builder *b = &f.b;
    logic_sovar *X = logic_new_sovar(b, "X", 1);
    const logic_rexpr *x = logic_r_sov(b, X);
    int32_t p = logic_fresh_var(b), q = logic_fresh_var(b);
    const logic_formula *closed = logic_forall(b, p, logic_forall(b, q, logic_implies(b,
        logic_and2(b, logic_rel2(b, ord, p, q), logic_apply(b, x, q, 0)), logic_apply(b, x, p, 0))));
    const logic_formula *cfree = logic_empty(b, logic_inter(b, logic_r_rel(b, cf), logic_prod(b, x, x)));
    logic_ground_assert(&f.g, logic_so_exists(b, X, logic_and2(b, closed, cfree)));
    assert_int_equal(f.g.status, LOGIC_GROUND_OK);
    const int *t = logic_ground_table(&f.g, X);
    assert_non_null(t);
    sat_assume(f.s, t[2]);
    assert_int_equal(sat_solve(f.s), SAT_SAT);
    assert_true(sat_value(f.s, t[0]));
    assert_false(sat_value(f.s, t[1]));
    sat_assume(f.s, t[1]);
    sat_assume(f.s, t[2]);
    assert_int_equal(sat_solve(f.s), SAT_UNSAT);
    finish(&f);
}

static int acyclic_sat(const int *edges, int nedges, uint32_t n)
{
    fixture f;
    setup_n(&f, n);
    uint32_t r = logic_structure_add(&f.st, "r", 2);
    for (int i = 0; i < nedges; i++)
        logic_rel_set2(&f.st, r, (uint32_t)edges[2 * i], (uint32_t)edges[2 * i + 1]);
    start(&f);
    logic_ground_assert(&f.g, logic_acyclic(&f.b, "T", logic_r_rel(&f.b, r), NULL));
    int res = sat_solve(f.s);
    finish(&f);
    return res;
}

static void test_acyclic(void **state)
{
    (void)state;
    int chain[] = { 0, 1, 1, 2, 2, 3 };
    assert_int_equal(acyclic_sat(chain, 3, 4), SAT_SAT);
    int cycle[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
    assert_int_equal(acyclic_sat(cycle, 4, 4), SAT_UNSAT);
    int loop[] = { 2, 2 };
    assert_int_equal(acyclic_sat(loop, 1, 3), SAT_UNSAT);
    int none[] = { 0 };
    assert_int_equal(acyclic_sat(none, 0, 3), SAT_SAT);
}

/* The bound is r's fill graph: a chain needs no edge beyond its own (its
 * ends go first, adding nothing); a 3-cycle gets one fill edge from its
 * first eliminated vertex (the closure would have all 9 pairs). */
static void test_acyclic_bound_is_fill(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        fixture f;
        setup_n(&f, 5);
        uint32_t r = logic_structure_add(&f.st, "r", 2);
        logic_rel_set2(&f.st, r, 0, 1);
        logic_rel_set2(&f.st, r, 1, 2);
        if (k)
            logic_rel_set2(&f.st, r, 2, 0);
        start(&f);
        logic_ground_assert(&f.g, logic_acyclic(&f.b, "T", logic_r_rel(&f.b, r), NULL));
        assert_int_equal(f.g.so_vars, k ? 4 : 2);
        assert_int_equal(sat_solve(f.s), k ? SAT_UNSAT : SAT_SAT);
        finish(&f);
    }
}

static bool has_cycle_from(const int *adj, uint32_t n, uint32_t v, int *mark)
{
    mark[v] = 1;
    for (uint32_t w = 0; w < n; w++) {
        if (!adj[v * n + w])
            continue;
        if (mark[w] == 1 || (mark[w] == 0 && has_cycle_from(adj, n, w, mark)))
            return true;
    }
    mark[v] = 2;
    return false;
}

/* The elimination encoding against depth-first search on random graphs of
 * 2 to 9 vertices and every density: SAT exactly when there is no cycle. */
static void test_acyclic_random(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 600; round++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        uint32_t n = 2 + (uint32_t)(seed % 8);
        uint32_t density = (uint32_t)(seed >> 8) % 40 + 5; /* percent */
        int adj[81] = { 0 }, edges[2 * 81], ne = 0;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t c = 0; c < n; c++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if (a != c && (seed >> 20) % 100 < density) {
                    adj[a * n + c] = 1;
                    edges[2 * ne] = (int)a;
                    edges[2 * ne + 1] = (int)c;
                    ne++;
                }
            }
        int mark[9] = { 0 };
        bool cyclic = false;
        for (uint32_t v = 0; v < n && !cyclic; v++)
            cyclic = mark[v] == 0 && has_cycle_from(adj, n, v, mark);
        assert_int_equal(acyclic_sat(edges, ne, n), cyclic ? SAT_UNSAT : SAT_SAT);
    }
}

/* A strict total order on a set must exist, and is unique for two elements
 * once one pair is fixed. */
static void test_total_order(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 3);
    uint32_t s = logic_structure_add(&f.st, "S", 1);
    logic_rel_set1(&f.st, s, 0);
    logic_rel_set1(&f.st, s, 2);
    start(&f);
    logic_builder *b = &f.b;
    logic_sovar *o = logic_new_sovar(b, "o", 2);
    o->bound = logic_prod(b, logic_r_rel(b, s), logic_r_rel(b, s));
    const logic_rexpr *or_ = logic_r_sov(b, o);
    logic_ground_assert(&f.g, logic_so_exists(b, o,
        logic_total_on(b, or_, logic_r_rel(b, s), logic_r_all(b, 2))));
    const int *t = logic_ground_table(&f.g, o);
    assert_int_equal(t[0 * 3 + 1], SAT_FALSE);
    sat_assume(f.s, -t[0 * 3 + 2]);
    assert_int_equal(sat_solve(f.s), SAT_SAT);
    assert_true(sat_value(f.s, t[2 * 3 + 0]));
    sat_assume(f.s, -t[0 * 3 + 2]);
    sat_assume(f.s, -t[2 * 3 + 0]);
    assert_int_equal(sat_solve(f.s), SAT_UNSAT);
    finish(&f);
}

/* A universal SO quantifier is reported, not silently grounded. */
static void test_universal_needs_qbf(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 2);
    start(&f);
    logic_builder *b = &f.b;
    logic_sovar *Y = logic_new_sovar(b, "Y", 1);
    int32_t x = logic_fresh_var(b);
    logic_ground_assert(&f.g, logic_so_forall(b, Y, logic_exists(b, x, logic_sov1(b, Y, x))));
    assert_int_equal(f.g.status, LOGIC_GROUND_NEEDS_QBF);
    finish(&f);
    setup_n(&f, 2);
    start(&f);
    b = &f.b;
    Y = logic_new_sovar(b, "Y", 1);
    x = logic_fresh_var(b);
    logic_ground_assert(&f.g, logic_not(b, logic_so_exists(b, Y, logic_exists(b, x, logic_sov1(b, Y, x)))));
    assert_int_equal(f.g.status, LOGIC_GROUND_NEEDS_QBF);
    finish(&f);
}

/* Relational algebra: (a;b) and inverse ground to the right constants. */
static void test_rexpr_constants(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 3);
    uint32_t a = logic_structure_add(&f.st, "a", 2);
    uint32_t s = logic_structure_add(&f.st, "S", 1);
    logic_rel_set2(&f.st, a, 0, 1);
    logic_rel_set2(&f.st, a, 1, 2);
    logic_rel_set1(&f.st, s, 1);
    start(&f);
    logic_builder *b = &f.b;
    const logic_rexpr *ra = logic_r_rel(b, a);
    const logic_rexpr *aa = logic_seq(b, ra, ra);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, aa, logic_const(0), logic_const(2))), SAT_TRUE);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, aa, logic_const(0), logic_const(1))), SAT_FALSE);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, logic_inv(b, ra), logic_const(1), logic_const(0))), SAT_TRUE);
    const logic_rexpr *via = logic_seq(b, ra, logic_seq(b, logic_id(b, logic_r_rel(b, s)), ra));
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, via, logic_const(0), logic_const(2))), SAT_TRUE);
    const logic_rexpr *d = logic_diff(b, logic_r_all(b, 2), ra);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, d, logic_const(0), logic_const(1))), SAT_FALSE);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, d, logic_const(1), logic_const(0))), SAT_TRUE);
    assert_int_equal(logic_ground_lit(&f.g, logic_apply(b, logic_named(b, "missing", 2), logic_const(0), logic_const(0))), SAT_FALSE);
    finish(&f);
}

/* Bounds are computed through the relational algebra: sequences, inverses,
 * differences (only a known tuple is removed), SO variables (a possible
 * tuple stays possible), exclusions; logic_over's variable contains its
 * definition. */
static void test_bounds_through_algebra(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 4);
    uint32_t a = logic_structure_add(&f.st, "a", 2);
    logic_rel_set2(&f.st, a, 0, 1);
    logic_rel_set2(&f.st, a, 1, 2);
    logic_rel_set2(&f.st, a, 2, 3);
    start(&f);
    logic_builder *b = &f.b;
    const logic_rexpr *ra = logic_r_rel(b, a);
    const logic_formula *c;
    const logic_sovar *v;
    const logic_rexpr *aa = logic_over(b, "aa", logic_seq(b, ra, ra), NULL, &c, &v);
    logic_ground_assert(&f.g, logic_so_exists(b, v, c));
    assert_int_equal(f.g.so_vars, 2); /* (0,2) (1,3) */
    const int *t = logic_ground_table(&f.g, v);
    sat_assume(f.s, -t[0 * 4 + 2]);
    assert_int_equal(sat_solve(f.s), SAT_UNSAT);
    (void)aa;

    /* U may hold on a's pairs; U;U^-1 may hold only on the diagonal. */
    logic_sovar *u = logic_new_sovar(b, "U", 2);
    u->bound = ra;
    const logic_rexpr *ru = logic_r_sov(b, u);
    logic_sovar *w = logic_new_sovar(b, "W", 2);
    w->bound = logic_seq(b, ru, logic_inv(b, ru));
    logic_sovar *d1 = logic_new_sovar(b, "D1", 2);
    d1->bound = logic_diff(b, ra, ru); /* U is not known to hold: a stays */
    logic_sovar *d2 = logic_new_sovar(b, "D2", 2);
    d2->bound = logic_diff(b, ra, ra);
    logic_sovar *e = logic_new_sovar(b, "E", 2);
    e->bound = logic_r_all(b, 2);
    e->exclude = ra;
    uint64_t before = f.g.so_vars;
    logic_ground_assert(&f.g, logic_so_exists(b, u, logic_true(b)));
    assert_int_equal(f.g.so_vars - before, 3);
    before = f.g.so_vars;
    logic_ground_assert(&f.g, logic_so_exists(b, w, logic_true(b)));
    assert_int_equal(f.g.so_vars - before, 3); /* (0,0) (1,1) (2,2) */
    assert_int_not_equal(logic_ground_table(&f.g, w)[1 * 4 + 1], SAT_FALSE);
    assert_int_equal(logic_ground_table(&f.g, w)[3 * 4 + 3], SAT_FALSE);
    before = f.g.so_vars;
    logic_ground_assert(&f.g, logic_so_exists(b, d1, logic_true(b)));
    assert_int_equal(f.g.so_vars - before, 3);
    before = f.g.so_vars;
    logic_ground_assert(&f.g, logic_so_exists(b, d2, logic_true(b)));
    assert_int_equal(f.g.so_vars - before, 0);
    before = f.g.so_vars;
    logic_ground_assert(&f.g, logic_so_exists(b, e, logic_true(b)));
    assert_int_equal(f.g.so_vars - before, 16 - 3);
    finish(&f);
}

/* The events every maximal configuration runs are X's constants: 0 < 1 < 2,
 * then a branch, 3 or 4 (in conflict), and 5 after 3. Only 0, 1, 2 run
 * always; X may hold 3 and 5 or 4 (the test fails if an event under the
 * branch, or after it, were made a constant). */
static void test_exec_always_run(void **state)
{
    (void)state;
    fixture f;
    setup_n(&f, 6);
    uint32_t po = logic_structure_add(&f.st, LOGIC_V_PO, 2);
    uint32_t cf = logic_structure_add(&f.st, LOGIC_V_CONFLICT, 2);
    static const uint32_t pairs[][2] = { {0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}, {0, 4},
                                         {1, 4}, {2, 4}, {0, 5}, {1, 5}, {2, 5}, {3, 5} };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        logic_rel_set2(&f.st, po, pairs[i][0], pairs[i][1]);
    logic_rel_set2(&f.st, cf, 3, 4);
    logic_rel_set2(&f.st, cf, 4, 3);
    logic_rel_set2(&f.st, cf, 5, 4);
    logic_rel_set2(&f.st, cf, 4, 5);
    start(&f);
    logic_exec e;
    logic_exec_build(&f.b, &e);
    assert_non_null(e.X->must_bits);
    assert_int_equal(e.X->must_bits[0], 0x7);
    logic_ground_assert(&f.g, logic_exec_close(&f.b, &e, logic_true(&f.b)));
    const int *x = logic_ground_table(&f.g, e.X);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(x[i], SAT_TRUE);
    for (uint32_t i = 3; i < 6; i++)
        assert_true(x[i] != SAT_TRUE && x[i] != SAT_FALSE);
    sat_assume(f.s, x[4]);
    assert_int_equal(sat_solve(f.s), SAT_SAT);
    sat_assume(f.s, x[5]);
    assert_int_equal(sat_solve(f.s), SAT_SAT);
    finish(&f);
}

/* A variable with a definition is its definition's literals: constant where
 * the structure fixes it, A's own literal where it is A's; in QBF mode
 * (fresh variables) the same answers. */
static void test_def_inlined(void **state)
{
    (void)state;
    for (int qbf = 0; qbf < 2; qbf++) {
        fixture f;
        setup_n(&f, 3);
        uint32_t r = logic_structure_add(&f.st, "r", 2);
        logic_rel_set2(&f.st, r, 0, 1);
        start(&f);
        f.g.qbf = qbf;
        logic_builder *b = &f.b;
        logic_sovar *A = logic_new_sovar(b, "A", 2);
        logic_sovar *w = logic_new_sovar(b, "w", 2);
        w->def = logic_union(b, logic_r_rel(b, r), logic_r_sov(b, A));
        const logic_formula *wa = logic_sov2(b, w, logic_const(1), logic_const(2));
        const logic_formula *aa = logic_sov2(b, A, logic_const(1), logic_const(2));
        const logic_formula *w01 = logic_sov2(b, w, logic_const(0), logic_const(1));
        /* w(1,2) without A(1,2), or w(0,1) false: impossible */
        const logic_formula *bad[2] = { logic_and2(b, wa, logic_not(b, aa)), logic_not(b, w01) };
        for (int k = 0; k < 2; k++) {
            int l = logic_ground_lit(&f.g, logic_so_exists(b, A, logic_so_exists(b, w, bad[k])));
            sat_assume(f.s, l);
            assert_int_equal(sat_solve(f.s), SAT_UNSAT);
        }
        int l = logic_ground_lit(&f.g, logic_so_exists(b, A, logic_so_exists(b, w, wa)));
        sat_assume(f.s, l);
        assert_int_equal(sat_solve(f.s), SAT_SAT);
        if (!qbf) {
            const int *t = logic_ground_table(&f.g, w), *ta = logic_ground_table(&f.g, A);
            assert_int_equal(t[0 * 3 + 1], SAT_TRUE);
            assert_int_equal(t[1 * 3 + 2], ta[1 * 3 + 2]);
        }
        finish(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_downward_closed_set),
        cmocka_unit_test(test_acyclic),
        cmocka_unit_test(test_acyclic_bound_is_fill),
        cmocka_unit_test(test_acyclic_random),
        cmocka_unit_test(test_bounds_through_algebra),
        cmocka_unit_test(test_total_order),
        cmocka_unit_test(test_universal_needs_qbf),
        cmocka_unit_test(test_rexpr_constants),
        cmocka_unit_test(test_exec_always_run),
        cmocka_unit_test(test_def_inlined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
