/* Unit tests for litmus/simulate: verdicts, counts and states of classic
 * tests under SC and TSO, in both modes, checked against hand answers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"

static const char SB[] = "LISA SB\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
                         " r[] r0 y | r[] r0 x ;\nexists (0:r0=0 /\\ 1:r0=0)\n";
static const char SBF[] = "LISA SB+mb\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n f[mb] | f[mb] ;\n"
                          " r[] r0 y | r[] r0 x ;\nexists (0:r0=0 /\\ 1:r0=0)\n";
static const char MP[] = "LISA MP\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | r[] r0 y ;\n"
                         " w[] y 1 | r[] r1 x ;\nexists (1:r0=1 /\\ 1:r1=0)\n";
static const char TWO2W[] = "LISA 2+2W\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
                            " w[] y 2 | w[] x 2 ;\nexists (x=1 /\\ y=1)\n";
static const char FILTERED[] = "LISA f\n{x=0;}\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\n"
                               "filter (1:r0=1)\nforall (1:r0=1)\n";

typedef struct run {
    base_intern_pool syms;
    base_diag diag;
    litmus_test *t;
    litmus_result res;
} run;

static void simulate_fork(run *r, const char *src, const char *model, bool verdict_only, bool fork)
{
    base_intern_init(&r->syms);
    base_diag_init(&r->diag);
    r->t = litmus_parse_lisa("t.litmus", src, strlen(src), &r->syms, &r->diag);
    assert_non_null(r->t);
    litmus_options opt = { .model = logic_mm_find(model), .verdict_only = verdict_only,
                           .want_witness = true,
                           .limits = { .unroll = 2, .max_events = 10000, .max_values = 16,
                                       .fork_all_reads = fork } };
    assert_non_null(opt.model);
    assert_true(litmus_simulate(r->t, &opt, &r->res, &r->diag));
    assert_int_equal(r->res.status, LITMUS_DECIDED);
}

static void simulate(run *r, const char *src, const char *model, bool verdict_only)
{
    simulate_fork(r, src, model, verdict_only, false);
}

static void finish(run *r)
{
    litmus_result_free(&r->res);
    litmus_test_free(r->t);
    base_diag_free(&r->diag);
    base_intern_free(&r->syms);
}

static void expect(const char *src, const char *model, litmus_observation obs, uint64_t pos,
                   uint64_t neg, uint32_t states)
{
    run r;
    simulate(&r, src, model, false);
    assert_int_equal(r.res.obs, obs);
    assert_int_equal(r.res.positive, pos);
    assert_int_equal(r.res.negative, neg);
    assert_int_equal(r.res.nstates, states);
    assert_true(r.res.witness.present);
    finish(&r);
    simulate(&r, src, model, true);
    assert_int_equal(r.res.obs, obs);
    finish(&r);
}

/* --explain: SB+mb under tso is forbidden by the check 'tso' alone; the
 * witness has the outcome (both reads from the initial writes) and X holds
 * every event; SB itself is allowed, and asking about 0:r0=5 finds no
 * candidate at all. */
static void explain(run *r, const char *src, const char *model)
{
    base_intern_init(&r->syms);
    base_diag_init(&r->diag);
    r->t = litmus_parse_lisa("t.litmus", src, strlen(src), &r->syms, &r->diag);
    assert_non_null(r->t);
    litmus_options opt = { .model = logic_mm_find(model), .verdict_only = true, .explain = true,
                           .limits = { .unroll = 2, .max_events = 10000, .max_values = 16 } };
    assert_true(litmus_simulate(r->t, &opt, &r->res, &r->diag));
    assert_int_equal(r->res.status, LITMUS_DECIDED);
    assert_true(r->res.explain.asked);
}

static void test_explain(void **state)
{
    (void)state;
    run r;
    explain(&r, SBF, "tso");
    const litmus_explanation *x = &r.res.explain;
    assert_int_equal(x->kind, LITMUS_EXPLAIN_CHECKS);
    assert_int_equal(x->nchecks, 3);
    assert_string_equal(x->checks[0], "uniproc");
    assert_string_equal(x->checks[1], "atomic");
    assert_string_equal(x->checks[2], "tso");
    assert_int_equal(x->nsets, 1);
    assert_int_equal(x->sets[0], 1u << 2);
    assert_true(x->witness.present && x->witness.positive);
    assert_int_equal(x->witness.nrf, 2);
    for (uint32_t i = 0; i < x->witness.nrf; i++)
        assert_int_equal(r.res.es.events[x->witness.rf[2 * i]].kind, LITMUS_EV_INIT);
    assert_int_equal(x->state[0].num, 0);
    assert_int_equal(x->state[1].num, 0);
    finish(&r);

    explain(&r, SB, "tso");
    assert_int_equal(r.res.explain.kind, LITMUS_EXPLAIN_ALLOWED);
    assert_false(r.res.explain.witness.present);
    finish(&r);

    static const char NONE[] = "LISA n\n{x=0;}\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\nexists (1:r0=5)\n";
    explain(&r, NONE, "sc");
    assert_int_equal(r.res.explain.kind, LITMUS_EXPLAIN_NO_CANDIDATE);
    finish(&r);
}

static void test_sb(void **state)
{
    (void)state;
    expect(SB, "sc", LITMUS_OBS_NEVER, 0, 3, 3);
    expect(SB, "tso", LITMUS_OBS_SOMETIMES, 1, 3, 4);
    expect(SBF, "tso", LITMUS_OBS_NEVER, 0, 3, 3);
}

static void test_mp_and_2plus2w(void **state)
{
    (void)state;
    expect(MP, "sc", LITMUS_OBS_NEVER, 0, 3, 3);
    expect(MP, "tso", LITMUS_OBS_NEVER, 0, 3, 3);
    /* 2+2W under SC: co orders of x and y, 3 consistent of 4. */
    expect(TWO2W, "sc", LITMUS_OBS_NEVER, 0, 3, 3);
}

/* States are sorted as herd prints them, and the condition is evaluated on
 * each. */
static void test_states_sorted(void **state)
{
    (void)state;
    run r;
    simulate(&r, SB, "tso", false);
    assert_int_equal(r.t->nobs, 2);
    for (uint32_t i = 0; i + 1 < r.res.nstates; i++) {
        const litmus_value *a = r.res.states + i * 2, *b = a + 2;
        int c = litmus_value_cmp(a[0], b[0]);
        assert_true(c < 0 || (c == 0 && litmus_value_cmp(a[1], b[1]) < 0));
    }
    assert_true(litmus_prop_eval(r.t, r.t->cond, r.res.states));
    assert_false(litmus_prop_eval(r.t, r.t->cond, r.res.states + 2));
    finish(&r);
}

static void test_filter_and_forall(void **state)
{
    (void)state;
    run r;
    simulate(&r, FILTERED, "sc", false);
    assert_int_equal(r.res.positive, 1);
    assert_int_equal(r.res.negative, 0);
    assert_true(r.res.ok);
    assert_int_equal(r.res.obs, LITMUS_OBS_ALWAYS);
    finish(&r);
    simulate(&r, FILTERED, "sc", true);
    assert_true(r.res.ok);
    assert_int_equal(r.res.obs, LITMUS_OBS_ALWAYS);
    finish(&r);
}

static void test_timeout_is_unknown(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_diag diag;
    base_intern_init(&syms);
    base_diag_init(&diag);
    litmus_test *t = litmus_parse_lisa("t.litmus", SB, strlen(SB), &syms, &diag);
    litmus_options opt = { .model = logic_mm_find("sc"), .deadline = 1e-9,
                           .limits = { .unroll = 2, .max_events = 10000, .max_values = 16 } };
    litmus_result res;
    assert_true(litmus_simulate(t, &opt, &res, &diag));
    assert_int_equal(res.status, LITMUS_UNKNOWN);
    litmus_result_free(&res);
    litmus_test_free(t);
    base_diag_free(&diag);
    base_intern_free(&syms);
}

/* Symbolic reads (evstruct.h) against the forked tree: the same verdict,
 * the same execution counts and the same final states, row for row, in
 * both modes and under every SAT model and one QBF one. P1's r0 feeds a
 * write (forked), its r1 and r4 only the condition (symbolic); P0's r5 is
 * overwritten unread; the condition mixes registers and a location, and a
 * filter looks at a symbolic register. */
static const char MIXED[] =
    "LISA mixed\n{x=0; y=0; z=0;}\n P0 | P1 | P2 ;\n"
    " w[] x 1 | r[] r0 y | rmw[] r2 (add r2 1) z ;\n"
    " w[] y 2 | r[] r1 x | w[] x 2 ;\n"
    " r[] r5 z | w[] z r0 | r[] r3 y ;\n"
    " mov r5 7 | r[] r4 z | ;\n"
    "filter (~(2:r3=1))\n"
    "exists (1:r0=2 /\\ 1:r1=0 \\/ 1:r4=3 /\\ z=3)\n";
static const char IRIW[] =
    "LISA IRIW\n{x=0; y=0;}\n P0 | P1 | P2 | P3 ;\n w[] x 1 | r[] r0 x | w[] y 1 | r[] r0 y ;\n"
    " | r[] r1 y | | r[] r1 x ;\nexists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)\n";

static void same_answers(const char *src, const char *model, bool verdict_only)
{
    run f, sy;
    simulate_fork(&f, src, model, verdict_only, true);
    simulate_fork(&sy, src, model, verdict_only, false);
    assert_int_equal(f.res.es.nsymbolic, 0);
    assert_true(sy.res.es.nsymbolic > 0);
    assert_true(sy.res.es.nevents < f.res.es.nevents);
    assert_int_equal(f.res.obs, sy.res.obs);
    assert_int_equal(f.res.ok, sy.res.ok);
    assert_int_equal(f.res.positive, sy.res.positive);
    assert_int_equal(f.res.negative, sy.res.negative);
    assert_int_equal(f.res.nstates, sy.res.nstates);
    assert_int_equal(f.t->nobs, sy.t->nobs);
    if (f.res.nstates)
        assert_memory_equal(f.res.states, sy.res.states,
                            (size_t)f.res.nstates * f.t->nobs * sizeof *f.res.states);
    assert_int_equal(f.res.witness.present, sy.res.witness.present);
    finish(&f);
    finish(&sy);
}

static void test_symbolic_same_as_forked(void **state)
{
    (void)state;
    const char *models[] = { "sc", "tso", "ra", "c11" };
    const char *srcs[] = { MIXED, IRIW, SB, MP };
    for (size_t m = 0; m < sizeof models / sizeof *models; m++)
        for (size_t k = 0; k < sizeof srcs / sizeof *srcs; k++)
            for (int v = 0; v < 2; v++)
                same_answers(srcs[k], models[m], v);
    same_answers(MIXED, "sc-so", false);
    same_answers(IRIW, "sc-so", true);
    /* The mixed test has states to compare: allowed and forbidden ones. */
    run r;
    simulate(&r, MIXED, "sc", false);
    assert_true(r.res.nstates > 4);
    assert_true(r.res.positive > 0 && r.res.negative > 0);
    finish(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb),
        cmocka_unit_test(test_mp_and_2plus2w),
        cmocka_unit_test(test_states_sorted),
        cmocka_unit_test(test_filter_and_forall),
        cmocka_unit_test(test_timeout_is_unknown),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_symbolic_same_as_forked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
