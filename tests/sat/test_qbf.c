/* Unit tests for sat/qbf and sat/qbf_io: known small QBFs, thousands of
 * random QBFs against brute-force expansion (fixed seeds), the outermost
 * existential assignment, assumptions and incremental clauses, budgets,
 * and the QDIMACS/QCIR writers with the QDIMACS reader. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/strbuf.h"
#include "sat/qbf.h"
#include "sat/qbf_io.h"
#include "sat/qbf_random.h"

static sat_qbf *make(const char *prefix, const int *clauses)
{
    /* prefix: "e1 2 a3 e4" style; clauses: 0-terminated, ending in 0 0 */
    sat_qbf *q = sat_qbf_new();
    for (const char *p = prefix; *p;) {
        if (*p == 'e' || *p == 'a') {
            assert_true(sat_qbf_add_block(q, *p == 'e' ? SAT_QBF_EXISTS : SAT_QBF_FORALL, NULL, 0));
            p++;
        } else if (*p == ' ') {
            p++;
        } else {
            char *end;
            long v = strtol(p, &end, 10);
            assert_true(sat_qbf_add_var(q, (int)v));
            p = end;
        }
    }
    for (const int *c = clauses; *c;) {
        const int *s = c;
        while (*c)
            c++;
        sat_qbf_add_clause(q, s, (size_t)(c - s));
        c++;
    }
    return q;
}

static void test_known(void **state)
{
    (void)state;
    struct { const char *prefix; int clauses[32]; sat_result want; } cases[] = {
        /* ∃x∀y. (x|y)(x|-y): x = 1 */
        { "e1 a2", { 1, 2, 0, 1, -2, 0, 0 }, SAT_SAT },
        /* ∀y∃x. x <-> y */
        { "a2 e1", { 1, -2, 0, -1, 2, 0, 0 }, SAT_SAT },
        /* ∃x∀y. x <-> y */
        { "e1 a2", { 1, -2, 0, -1, 2, 0, 0 }, SAT_UNSAT },
        /* ∀x. x */
        { "a1", { 1, 0, 0 }, SAT_UNSAT },
        /* ∀x. x | -x */
        { "a1", { 1, -1, 0, 0 }, SAT_SAT },
        /* no clauses */
        { "e1 a2", { 0 }, SAT_SAT },
        /* free variables only: a plain SAT problem, then an UNSAT one */
        { "", { 1, 2, 0, -1, 0, 0 }, SAT_SAT },
        { "", { 1, 0, -1, 0, 0 }, SAT_UNSAT },
        /* ∀a∃b∀c∃d: d <-> (a xor c), b irrelevant */
        { "a1 e2 a3 e4", { -4, 1, 3, 0, -4, -1, -3, 0, 4, -1, 3, 0, 4, 1, -3, 0, 0 }, SAT_SAT },
        /* ∃b∀a∃d. d <-> a, and b | a: b must be true */
        { "e2 a1 e4", { -4, 1, 0, 4, -1, 0, 2, 1, 0, 0 }, SAT_SAT },
        /* universal reduction: ∃x∀y. (x | y) (-x | y) is false */
        { "e1 a2", { 1, 2, 0, -1, 2, 0, 0 }, SAT_UNSAT },
        /* innermost universal: ∃x∀y∃z∀w. (z | w) is true, (z | w)(-z | w) false */
        { "e1 a2 e3 a4", { 3, 4, 0, 0 }, SAT_SAT },
        { "e1 a2 e3 a4", { 3, 4, 0, -3, 4, 0, 0 }, SAT_UNSAT },
        /* empty blocks and repeated kinds */
        { "e a e1 e2 a a3", { 1, 3, 0, 2, -3, 0, 0 }, SAT_SAT },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sat_qbf *q = make(cases[i].prefix, cases[i].clauses);
        sat_result r = sat_qbf_solve(q);
        if (r != cases[i].want)
            fail_msg("case %zu (%s): got %d, want %d", i, cases[i].prefix, r, cases[i].want);
        assert_int_equal(qbf_brute(q, NULL), cases[i].want == SAT_SAT);
        sat_qbf_free(q);
    }
    /* The outer assignment. */
    sat_qbf *q = make("e1 a2", (int[]){ 1, 2, 0, 1, -2, 0, 0 });
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    assert_true(sat_qbf_value(q, 1));
    assert_false(sat_qbf_value(q, -1));
    sat_qbf_free(q);
    q = make("e2 a1 e4", (int[]){ -4, 1, 0, 4, -1, 0, 2, 1, 0, 0 });
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    assert_true(sat_qbf_value(q, 2));
    sat_qbf_free(q);
    /* The empty clause. */
    q = make("e1", (int[]){ 1, 0, 0 });
    sat_qbf_add_clause(q, NULL, 0);
    assert_int_equal(sat_qbf_solve(q), SAT_UNSAT);
    sat_qbf_free(q);
}

static void test_api_errors(void **state)
{
    (void)state;
    sat_qbf *q = sat_qbf_new();
    assert_false(sat_qbf_add_var(q, 1)); /* no block yet */
    assert_true(sat_qbf_add_block(q, SAT_QBF_EXISTS, (int[]){ 1, 2 }, 2));
    assert_false(sat_qbf_add_block(q, SAT_QBF_FORALL, (int[]){ 3, 1 }, 2)); /* 1 twice */
    assert_false(sat_qbf_add_block(q, SAT_QBF_FORALL, (int[]){ 3, 3 }, 2));
    assert_false(sat_qbf_add_block(q, SAT_QBF_FORALL, (int[]){ 0 }, 1));
    assert_false(sat_qbf_add_block(q, SAT_QBF_FORALL, (int[]){ -3 }, 1));
    assert_int_equal(sat_qbf_num_blocks(q), 1);
    assert_true(sat_qbf_add_block(q, SAT_QBF_FORALL, (int[]){ 3 }, 1));
    assert_false(sat_qbf_add_var(q, 2));
    assert_int_equal(sat_qbf_var_block(q, 3), 1);
    assert_int_equal(sat_qbf_var_block(q, 4), -1);
    sat_qbf_add_clause(q, (int[]){ 1, 3 }, 2);
    /* An assumption on a universal variable cannot be honoured. */
    sat_qbf_assume(q, 3);
    assert_int_equal(sat_qbf_solve(q), SAT_UNKNOWN);
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    sat_qbf_free(q);
}

static const qbf_random_params small = {
    .min_vars = 1, .max_vars = 12, .min_blocks = 2, .max_blocks = 4, .min_len = 2,
    .max_len = 4, .min_ratio = 0.5, .max_ratio = 3.0, .free_vars = true,
};

/* Checks q's answer and outer assignment against brute force. */
static void check_against_brute(sat_qbf *q, unsigned long inst, int *nsat)
{
    bool want = qbf_brute(q, NULL);
    sat_result r = sat_qbf_solve(q);
    if (r != (want ? SAT_SAT : SAT_UNSAT)) {
        base_strbuf b = { 0 };
        sat_qbf_write_qdimacs(q, &b);
        fail_msg("instance %lu: got %d, want %s\n%s", inst, r, want ? "SAT" : "UNSAT",
                 base_strbuf_cstr(&b));
    }
    if (!want)
        return;
    (*nsat)++;
    int maxv = sat_qbf_max_var(q);
    bool *outer = calloc((size_t)maxv + 1, 1);
    signed char *fixed = malloc((size_t)maxv + 1);
    qbf_outer_vars(q, outer);
    for (int v = 1; v <= maxv; v++)
        fixed[v] = outer[v] ? (signed char)sat_qbf_value(q, v) : -1;
    if (!qbf_brute(q, fixed))
        fail_msg("instance %lu: the outer assignment does not win", inst);
    free(outer);
    free(fixed);
}

static void test_random_vs_brute(void **state)
{
    (void)state;
    uint64_t seed = 0x7261766c71626631ULL;
    int nsat = 0, n = 6000;
    for (int i = 0; i < n; i++) {
        sat_qbf *q = qbf_random(&seed, &small);
        check_against_brute(q, (unsigned long)i, &nsat);
        sat_qbf_free(q);
    }
    print_message("random: %d instances, %d true, %d false\n", n, nsat, n - nsat);
    /* The generator must give both answers often, or the test proves little. */
    assert_true(nsat > n / 5 && n - nsat > n / 5);
}

/* Longer clauses, more blocks: more iterations per instance. */
static void test_random_deep(void **state)
{
    (void)state;
    qbf_random_params p = { .min_vars = 8, .max_vars = 12, .min_blocks = 3, .max_blocks = 6,
                            .min_len = 3, .max_len = 5, .min_ratio = 0.5, .max_ratio = 3.0,
                            .free_vars = false };
    uint64_t seed = 42;
    int nsat = 0, n = 2000;
    for (int i = 0; i < n; i++) {
        sat_qbf *q = qbf_random(&seed, &p);
        check_against_brute(q, (unsigned long)i, &nsat);
        sat_qbf_free(q);
    }
    print_message("deep: %d instances, %d true\n", n, nsat);
    assert_true(nsat > n / 10 && n - nsat > n / 10);
}

/* Solving again after adding outer clauses, and under assumptions, agrees
 * with brute force on the grown formula. */
static void test_incremental(void **state)
{
    (void)state;
    uint64_t seed = 7;
    int nsat = 0, steps = 0;
    for (int i = 0; i < 800; i++) {
        sat_qbf *q = qbf_random(&seed, &small);
        int maxv = sat_qbf_max_var(q);
        bool *outer = calloc((size_t)maxv + 1, 1);
        qbf_outer_vars(q, outer);
        int nouter = 0, ov[16];
        for (int v = 1; v <= maxv; v++)
            if (outer[v] && nouter < 16)
                ov[nouter++] = v;
        /* Enumerate winning outer assignments by blocking each one. */
        for (int round = 0; round < 6; round++) {
            check_against_brute(q, (unsigned long)i, &nsat);
            steps++;
            if (sat_qbf_solve(q) != SAT_SAT || nouter == 0)
                break;
            int block[16];
            for (int k = 0; k < nouter; k++)
                block[k] = sat_qbf_value(q, ov[k]) ? -ov[k] : ov[k];
            sat_qbf_add_clause(q, block, (size_t)nouter);
        }
        /* Assumptions: the answer under a unit assumption is that of the
         * formula with the unit clause. */
        if (nouter > 0) {
            int lit = qbf_rand(&seed) & 1 ? ov[0] : -ov[0];
            sat_qbf_assume(q, lit);
            sat_result r = sat_qbf_solve(q);
            sat_qbf_add_clause(q, &lit, 1);
            bool want = qbf_brute(q, NULL);
            assert_int_equal(r, want ? SAT_SAT : SAT_UNSAT);
            if (want)
                assert_true(sat_qbf_value(q, lit));
        }
        free(outer);
        sat_qbf_free(q);
    }
    print_message("incremental: %d solves, %d true\n", steps, nsat);
}

/* Clauses and assumptions with variables first seen after a solve. */
static void test_grow_after_solve(void **state)
{
    (void)state;
    /* Level 0 existential: new free variables join it incrementally. */
    sat_qbf *q = make("e1 a2 e3", (int[]){ 1, 2, 3, 0, -3, 2, 1, 0, 0 });
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    sat_qbf_add_clause(q, (int[]){ -1, 50 }, 2);
    sat_qbf_add_clause(q, (int[]){ -50, 60 }, 2);
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    assert_true(sat_qbf_value(q, 1) && sat_qbf_value(q, 50) && sat_qbf_value(q, 60));
    sat_qbf_assume(q, -70); /* never seen before */
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    assert_false(sat_qbf_value(q, 70));
    /* -60 forces -50, -1, and then y = 0 makes (3)(-3). (No brute force
     * here: it would expand all 70 variables.) */
    sat_qbf_add_clause(q, (int[]){ -60 }, 1);
    assert_int_equal(sat_qbf_solve(q), SAT_UNSAT);
    sat_qbf_free(q);
    /* Level 0 universal: a new free variable makes a new outer level. */
    q = make("a1 e2", (int[]){ 1, 2, 0, -1, -2, 0, 0 });
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    sat_qbf_add_clause(q, (int[]){ 3, 1 }, 2);
    assert_int_equal(sat_qbf_solve(q), SAT_SAT); /* 3 = true */
    assert_true(sat_qbf_value(q, 3));
    sat_qbf_add_clause(q, (int[]){ -3, 2 }, 2);
    assert_int_equal(sat_qbf_solve(q), SAT_UNSAT);
    assert_int_equal(qbf_brute(q, NULL), false);
    /* A new inner variable rebuilds the levels. */
    assert_true(sat_qbf_add_block(q, SAT_QBF_EXISTS, (int[]){ 9 }, 1));
    sat_qbf_free(q);
}

static void test_budget(void **state)
{
    (void)state;
    /* ∀a∃b∀c∃d with d <-> a xor c needs several iterations. */
    sat_qbf *q = make("a1 e2 a3 e4", (int[]){ -4, 1, 3, 0, -4, -1, -3, 0, 4, -1, 3, 0, 4, 1, -3,
                                              0, 0 });
    sat_qbf_set_budget(q, 1);
    assert_int_equal(sat_qbf_solve(q), SAT_UNKNOWN);
    sat_qbf_set_budget(q, 0);
    assert_int_equal(sat_qbf_solve(q), SAT_SAT);
    sat_qbf_stats st = sat_qbf_get_stats(q);
    assert_int_equal(st.levels, 4);
    assert_true(st.iterations >= 2);
    sat_qbf_set_deadline(q, 1e-9); /* long past */
    assert_int_equal(sat_qbf_solve(q), SAT_UNKNOWN);
    sat_qbf_free(q);
}

static void same_query(const sat_qbf *a, const sat_qbf *b)
{
    assert_int_equal(sat_qbf_num_clauses(a), sat_qbf_num_clauses(b));
    for (size_t c = 0; c < sat_qbf_num_clauses(a); c++) {
        size_t na, nb;
        const int *la = sat_qbf_clause(a, c, &na), *lb = sat_qbf_clause(b, c, &nb);
        assert_int_equal(na, nb);
        if (na)
            assert_memory_equal(la, lb, na * sizeof(int));
    }
    base_strbuf x = { 0 }, y = { 0 };
    sat_qbf_write_qdimacs(a, &x);
    sat_qbf_write_qdimacs(b, &y);
    assert_string_equal(base_strbuf_cstr(&x), base_strbuf_cstr(&y));
    base_strbuf_free(&x);
    base_strbuf_free(&y);
}

static void test_qdimacs_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 99;
    for (int i = 0; i < 500; i++) {
        sat_qbf *q = qbf_random(&seed, &small);
        base_strbuf b = { 0 };
        sat_qbf_write_qdimacs(q, &b);
        base_diag d;
        base_diag_init(&d);
        sat_qbf *r = sat_qbf_read_qdimacs("rt.qdimacs", b.data, b.len, &d);
        if (!r) {
            char msg[512];
            base_diag_format(&d.msgs[0], msg, sizeof msg);
            fail_msg("%s\n%s", msg, base_strbuf_cstr(&b));
        }
        same_query(q, r);
        assert_int_equal(sat_qbf_solve(q), sat_qbf_solve(r));
        base_diag_free(&d);
        base_strbuf_free(&b);
        sat_qbf_free(q);
        sat_qbf_free(r);
    }
}

static void test_writers_exact(void **state)
{
    (void)state;
    sat_qbf *q = make("a3 e a e1", (int[]){ 1, -3, 0, 2, 0, 0 }); /* 2 is free */
    base_strbuf b = { 0 };
    sat_qbf_write_qdimacs(q, &b);
    assert_string_equal(base_strbuf_cstr(&b), "p cnf 3 2\n"
                                              "e 2 0\n"
                                              "a 3 0\n"
                                              "e 1 0\n"
                                              "1 -3 0\n"
                                              "2 0\n");
    base_strbuf_clear(&b);
    sat_qbf_write_qcir(q, &b);
    assert_string_equal(base_strbuf_cstr(&b), "#QCIR-G14 6\n"
                                              "exists(2)\n"
                                              "forall(3)\n"
                                              "exists(1)\n"
                                              "output(6)\n"
                                              "4 = or(1, -3)\n"
                                              "5 = or(2)\n"
                                              "6 = and(4, 5)\n");
    base_strbuf_free(&b);
    sat_qbf_free(q);
}

static void expect_error(const char *text, const char *want)
{
    base_diag d;
    base_diag_init(&d);
    sat_qbf *q = sat_qbf_read_qdimacs("t.qdimacs", text, strlen(text), &d);
    if (q)
        fail_msg("accepted: %s", text);
    assert_true(d.count >= 1);
    char msg[512];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    if (!strstr(msg, want))
        fail_msg("for %s: message '%s' lacks '%s'", text, msg, want);
    base_diag_free(&d);
}

static void test_qdimacs_reader(void **state)
{
    (void)state;
    const char *ok = "c a comment\nc another\np cnf 4 3\ne 1 2 0\na 3 0\ne 4 0\n"
                     "1 -3 4 0\n-1\n 2 0 c\n"
                     "-4 3 0\n";
    base_diag d;
    base_diag_init(&d);
    /* "c" after a literal is not a comment: an error. */
    assert_null(sat_qbf_read_qdimacs("t", ok, strlen(ok), &d));
    base_diag_free(&d);
    const char *good = "c a comment\np cnf 4 3\ne 1 2 0\na 3 0\ne 4 0\n"
                       "1 -3 4 0\n-1\n 2 0\nc late comment\n-4 3 0\n";
    base_diag_init(&d);
    sat_qbf *q = sat_qbf_read_qdimacs("t", good, strlen(good), &d);
    assert_non_null(q);
    assert_int_equal(d.count, 0);
    assert_int_equal(sat_qbf_num_clauses(q), 3);
    assert_int_equal(sat_qbf_num_blocks(q), 3);
    size_t n;
    const int *l = sat_qbf_clause(q, 1, &n);
    assert_int_equal(n, 2);
    assert_int_equal(l[0], -1);
    assert_int_equal(l[1], 2);
    assert_int_equal(sat_qbf_solve(q), qbf_brute(q, NULL) ? SAT_SAT : SAT_UNSAT);
    sat_qbf_free(q);
    base_diag_free(&d);

    expect_error("", "expected the problem line");
    expect_error("p dnf 1 1\n", "expected 'cnf'");
    expect_error("p cnf x 1\n", "expected a number, found 'x'");
    expect_error("p cnf 1 1 7\n", "junk after the problem line");
    expect_error("p cnf 99999999999 1\n", "out of range");
    expect_error("p cnf 2 1\ne 1 0\ne 1 0\n1 0\n", "quantified twice");
    expect_error("p cnf 2 1\ne 3 0\n1 0\n", "not in 1..2");
    expect_error("p cnf 2 1\ne 1\n", "not ended by 0");
    expect_error("p cnf 2 1\n1 0\ne 2 0\n", "after the first clause");
    expect_error("p cnf 2 1\n1 3 0\n", "variable not in 1..2");
    expect_error("p cnf 2 1\n1 2\n", "not ended by 0");
    expect_error("p cnf 2 1\n1 0\n2 0\n", "more clauses");
    expect_error("p cnf 2 2\n1 0\n", "declares 2");
    expect_error("p cnf 2 1\n1x 0\n", "junk after the digits");
    expect_error("p cnf 2 1\nex 1 0\n", "expected 'a' or 'e'");
    expect_error("p cnf 2 1\n-0- 0\n", "junk after the digits");
    /* Location of the message. */
    base_diag_init(&d);
    assert_null(sat_qbf_read_qdimacs("f.q", "p cnf 2 1\n\n  1 9 0\n", 19, &d));
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_non_null(strstr(msg, "f.q:3:5: error:"));
    base_diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_api_errors),
        cmocka_unit_test(test_random_vs_brute),
        cmocka_unit_test(test_random_deep),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_grow_after_solve),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_qdimacs_round_trip),
        cmocka_unit_test(test_writers_exact),
        cmocka_unit_test(test_qdimacs_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
