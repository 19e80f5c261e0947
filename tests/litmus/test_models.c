/* Unit tests for the models ra and c11 (logic/mm_ra.c, logic/mm_c11.c)
 * through litmus/simulate: verdicts, execution counts and state counts of
 * classic shapes, in both modes, against answers worked out by hand from
 * the axioms (and, for rseq, herd7's rc11.cat answer on the C original);
 * and c11's undefined behaviour on data races. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"

#define TWO(name, a0, a1, b0, b1, cond)                                                    \
    "LISA " name "\n{x=0; y=0;}\n P0 | P1 ;\n " a0 " | " b0 " ;\n " a1 " | " b1 " ;\n" \
    "exists (" cond ")\n"

static const char SB[] = TWO("SB", "w[] x 1", "r[] r0 y", "w[] y 1", "r[] r0 x", "0:r0=0 /\\ 1:r0=0");
static const char MP[] = TWO("MP", "w[] x 1", "w[] y 1", "r[] r0 y", "r[] r1 x", "1:r0=1 /\\ 1:r1=0");
static const char LB[] = TWO("LB", "r[] r0 x", "w[] y 1", "r[] r0 y", "w[] x 1", "0:r0=1 /\\ 1:r0=1");
static const char TWO2W[] = TWO("2+2W", "w[] x 1", "w[] y 2", "w[] y 1", "w[] x 2", "x=1 /\\ y=1");
static const char CORR[] = "LISA CoRR\n{x=0;}\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\n | r[] r1 x ;\n"
                           "exists (1:r0=1 /\\ 1:r1=0)\n";

static const char MP_RELACQ[] = TWO("MP+rel+acq", "w[rlx] x 1", "w[rel] y 1", "r[acq] r0 y",
                                    "r[rlx] r1 x", "1:r0=1 /\\ 1:r1=0");
static const char MP_RLX[] = TWO("MP+rlx", "w[rlx] x 1", "w[rlx] y 1", "r[rlx] r0 y", "r[rlx] r1 x",
                                 "1:r0=1 /\\ 1:r1=0");
static const char MP_FENCES[] = "LISA MP+fences\n{x=0; y=0;}\n P0 | P1 ;\n w[rlx] x 1 | r[rlx] r0 y ;\n"
                                " f[rel] | f[acq] ;\n w[rlx] y 1 | r[rlx] r1 x ;\n"
                                "exists (1:r0=1 /\\ 1:r1=0)\n";
static const char SB_SC[] = TWO("SB+sc", "w[sc] x 1", "r[sc] r0 y", "w[sc] y 1", "r[sc] r0 x",
                                "0:r0=0 /\\ 1:r0=0");
static const char SB_RELACQ[] = TWO("SB+rel+acq", "w[rel] x 1", "r[acq] r0 y", "w[rel] y 1",
                                    "r[acq] r0 x", "0:r0=0 /\\ 1:r0=0");
static const char SB_RLX[] = TWO("SB+rlx", "w[rlx] x 1", "r[rlx] r0 y", "w[rlx] y 1", "r[rlx] r0 x",
                                 "0:r0=0 /\\ 1:r0=0");
static const char SB_SCF[] = "LISA SB+scfences\n{x=0; y=0;}\n P0 | P1 ;\n w[rlx] x 1 | w[rlx] y 1 ;\n"
                             " f[sc] | f[sc] ;\n r[rlx] r0 y | r[rlx] r0 x ;\n"
                             "exists (0:r0=0 /\\ 1:r0=0)\n";
static const char SB_ONESCF[] = "LISA SB+scfence+po\n{x=0; y=0;}\n P0 | P1 ;\n w[rlx] x 1 | w[rlx] y 1 ;\n"
                                " f[sc] | ;\n r[rlx] r0 y | r[rlx] r0 x ;\n"
                                "exists (0:r0=0 /\\ 1:r0=0)\n";
static const char LB_RLX[] = TWO("LB+rlx", "r[rlx] r0 x", "w[rlx] y 1", "r[rlx] r0 y", "w[rlx] x 1",
                                 "0:r0=1 /\\ 1:r0=1");
static const char IRIW_SC[] = "LISA IRIW+sc\n{x=0; y=0;}\n P0 | P1 | P2 | P3 ;\n"
                              " w[sc] x 1 | r[sc] r0 x | w[sc] y 1 | r[sc] r0 y ;\n"
                              " | r[sc] r1 y | | r[sc] r1 x ;\n"
                              "exists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)\n";
static const char IRIW_ACQ[] = "LISA IRIW+acq\n{x=0; y=0;}\n P0 | P1 | P2 | P3 ;\n"
                               " w[rel] x 1 | r[acq] r0 x | w[rel] y 1 | r[acq] r0 y ;\n"
                               " | r[acq] r1 y | | r[acq] r1 x ;\n"
                               "exists (1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)\n";
static const char INCS[] = "LISA 2inc\n{x=0;}\n P0 | P1 ;\n rmw[rlx] r0 (add r0 1) x | rmw[rlx] r0 (add r0 1) x ;\n"
                           "exists (x=1)\n";
/* herd-c11popl15/rseq_weak: the release sequence of x=1 goes on through
 * P1's own later relaxed x=3 (RC11's rs), so reading 3 synchronises and the
 * plain read of y does not race. herd7 with rc11.cat: Sometimes 8 4, two
 * states, Ok. */
static const char RSEQ[] = "LISA rseq\n{x=0; y=0;}\n P0 | P1 | P2 ;\n"
                           " w[rlx] x 2 | w[na] y 1 | r[acq] r0 x ;\n"
                           " | w[rel] x 1 | mov r9 (ne r0 3) ;\n"
                           " | w[rlx] x 3 | b[] r9 END ;\n"
                           " | | r[na] r1 y ;\n"
                           " | | END: ;\n"
                           "exists (x=3 /\\ y=1)\n";
/* Plain data guarded by an acquire read of the flag: race free. */
static const char MP_NA_GUARDED[] = "LISA MP+na+guarded\n{x=0; y=0;}\n P0 | P1 ;\n"
                                    " w[na] x 1 | r[acq] r0 y ;\n"
                                    " w[rel] y 1 | mov r9 (eq r0 0) ;\n"
                                    " | b[] r9 END ;\n"
                                    " | r[na] r1 x ;\n"
                                    " | END: ;\n"
                                    "exists (1:r0=1 /\\ 1:r1=0)\n";
/* The same without the guard: when the flag is not seen, the plain read of
 * x races with the plain write. */
static const char MP_NA_RACY[] = TWO("MP+na", "w[na] x 1", "w[rel] y 1", "r[acq] r0 y", "r[na] r1 x",
                                     "1:r0=1 /\\ 1:r1=0");

typedef struct run {
    base_intern_pool syms;
    base_diag diag;
    litmus_test *t;
    litmus_result res;
} run;

static void simulate(run *r, const char *src, const char *model, bool verdict_only)
{
    base_intern_init(&r->syms);
    base_diag_init(&r->diag);
    r->t = litmus_parse_lisa("t.litmus", src, strlen(src), &r->syms, &r->diag);
    assert_non_null(r->t);
    litmus_options opt = { .model = logic_mm_find(model), .verdict_only = verdict_only,
                           .want_witness = true,
                           .limits = { .unroll = 2, .max_events = 10000, .max_values = 16 } };
    assert_non_null(opt.model);
    assert_true(litmus_simulate(r->t, &opt, &r->res, &r->diag));
    assert_int_equal(r->res.status, LITMUS_DECIDED);
}

static void finish(run *r)
{
    litmus_result_free(&r->res);
    litmus_test_free(r->t);
    base_diag_free(&r->diag);
    base_intern_free(&r->syms);
}

/* Full mode: observation, counts, states, the undefined flag; verdict-only
 * mode: the same observation and flag. */
static void expect(const char *src, const char *model, litmus_observation obs, uint64_t pos,
                   uint64_t neg, uint32_t states, bool undefined)
{
    run r;
    simulate(&r, src, model, false);
    assert_int_equal(r.res.obs, obs);
    assert_int_equal(r.res.positive, pos);
    assert_int_equal(r.res.negative, neg);
    assert_int_equal(r.res.nstates, states);
    assert_int_equal(r.res.undefined, undefined);
    finish(&r);
    simulate(&r, src, model, true);
    assert_int_equal(r.res.obs, obs);
    assert_int_equal(r.res.undefined, undefined);
    finish(&r);
}

static void expect_obs(const char *src, const char *model, litmus_observation obs)
{
    for (int k = 0; k < 2; k++) {
        run r;
        simulate(&r, src, model, k == 1);
        assert_int_equal(r.res.obs, obs);
        finish(&r);
    }
}

static void test_ra(void **state)
{
    (void)state;
    expect(SB, "ra", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect(MP, "ra", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(LB, "ra", LITMUS_OBS_NEVER, 0, 3, 3, false);
    /* 2+2W: no hb path from one write of y to the other: all four co choices. */
    expect(TWO2W, "ra", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect(CORR, "ra", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(INCS, "ra", LITMUS_OBS_NEVER, 0, 2, 1, false);
    /* ra ignores annotations and has no undefined behaviour. */
    expect(MP_NA_RACY, "ra", LITMUS_OBS_NEVER, 0, 3, 3, false);
    run r;
    simulate(&r, MP_NA_RACY, "ra", false);
    assert_false(r.res.undef_checked);
    finish(&r);
}

static void test_c11_message_passing(void **state)
{
    (void)state;
    expect(MP_RELACQ, "c11", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(MP_RLX, "c11", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect(MP_FENCES, "c11", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(RSEQ, "c11", LITMUS_OBS_SOMETIMES, 8, 4, 2, false);
}

static void test_c11_sc(void **state)
{
    (void)state;
    expect(SB_SC, "c11", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(SB_RELACQ, "c11", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect(SB_RLX, "c11", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect(SB_SCF, "c11", LITMUS_OBS_NEVER, 0, 3, 3, false);
    expect(SB_ONESCF, "c11", LITMUS_OBS_SOMETIMES, 1, 3, 4, false);
    expect_obs(IRIW_SC, "c11", LITMUS_OBS_NEVER);
    expect_obs(IRIW_ACQ, "c11", LITMUS_OBS_SOMETIMES);
}

static void test_c11_thin_air_and_atomicity(void **state)
{
    (void)state;
    /* RC11 forbids po | rf cycles, even relaxed load buffering. */
    expect(LB_RLX, "c11", LITMUS_OBS_NEVER, 0, 3, 3, false);
    /* Two relaxed increments never lose one. */
    expect(INCS, "c11", LITMUS_OBS_NEVER, 0, 2, 1, false);
}

static void test_c11_races(void **state)
{
    (void)state;
    expect(MP_NA_GUARDED, "c11", LITMUS_OBS_NEVER, 0, 2, 2, false);
    expect(MP_NA_RACY, "c11", LITMUS_OBS_NEVER, 0, 3, 3, true);
    /* Unannotated accesses are non-atomic: plain SB races. */
    expect(SB, "c11", LITMUS_OBS_SOMETIMES, 1, 3, 4, true);
    run r;
    simulate(&r, SB_SC, "c11", true);
    assert_true(r.res.undef_checked);
    assert_false(r.res.undefined);
    finish(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ra),
        cmocka_unit_test(test_c11_message_passing),
        cmocka_unit_test(test_c11_sc),
        cmocka_unit_test(test_c11_thin_air_and_atomicity),
        cmocka_unit_test(test_c11_races),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
