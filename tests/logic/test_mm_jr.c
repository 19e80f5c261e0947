/* Unit tests for the jr model (logic/mm_jr.c) and what it needs from the
 * event structure: the unrolling bound (logic_mm_jr_read_depth), jf-cand
 * across branches, every written value as a read value
 * (litmus_es_limits.every_write_value), configuration-only executions; and
 * its answers through litmus/simulate in both modes on shapes worked out by
 * hand from the definitions (mm_jr.c's comment). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/encode.h"
#include "litmus/evstruct.h"
#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"
#include "logic/mm.h"
#include "logic/vocab.h"

static const char LB[] = "LISA LB\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r0 y ;\n"
                         " w[] y 1 | w[] x 1 ;\nexists (0:r0=1 /\\ 1:r0=1)\n";
static const char SB[] = "LISA SB\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
                         " r[] r0 y | r[] r0 x ;\nexists (0:r0=0 /\\ 1:r0=0)\n";
static const char MP[] = "LISA MP\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | r[] r0 y ;\n"
                         " w[] y 1 | r[] r1 x ;\nexists (1:r0=1 /\\ 1:r1=0)\n";
/* Thin air: 1 is never written, so no read event has it. */
static const char LB_DATAS[] = "LISA LB+datas\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r0 y ;\n"
                               " w[] y r0 | w[] x r0 ;\nexists (0:r0=1 /\\ 1:r0=1)\n";
/* Thin air with 1 in the structure (P2 copies z=1 to x), but not when P2
 * reads z=0: JCTC5's shape. Forbidden: from any configuration, the
 * adversary can run P2 reading 0 and P0, P1 reading 0, and nothing writes
 * x=1 or y=1 after that. */
static const char LB_DATAS_W[] = "LISA LB+datas+w\n{x=0; y=0; z=0;}\n P0 | P1 | P2 | P3 ;\n"
                                 " r[] r0 y | r[] r0 x | r[] r0 z | w[] z 1 ;\n"
                                 " w[] x r0 | w[] y r0 | w[] x r0 | ;\n"
                                 "exists (0:r0=1 /\\ 1:r0=1 /\\ 2:r0=0)\n";
/* P1 writes x=1 on both branches of its read of y (JCTC6's shape):
 * whatever the adversary does, x=1 is eventually written, which justifies
 * P0's read of 1 first; then P0 writes y=1 and P1 reads it. Allowed. */
static const char LB_CTRL_BOTH[] = "LISA LB+ctrl\n{x=0; y=0;}\n P0 | P1 ;\n"
                                   " r[] r0 x | r[] r0 y ;\n"
                                   " w[] y r0 | mov r1 (ne r0 1) ;\n"
                                   " | b[] r1 L1 ;\n | w[] x 1 ;\n | L1: ;\n"
                                   " | mov r1 (ne r0 0) ;\n | b[] r1 L2 ;\n | w[] x 1 ;\n | L2: ;\n"
                                   "exists (0:r0=1 /\\ 1:r0=1)\n";
/* One thread, r0 = x; if (r0 == 0) x = 1: the read of 1 is justified by the
 * write on the branch not taken (the adversary cannot avoid it: from any
 * configuration, reading 0 and writing 1 remains possible), so J+R allows
 * r0=1 — in an execution where no write of 1 happens. SC forbids it. */
static const char OWN_BRANCH[] = "LISA R+own-branch\n{x=0;}\n P0 ;\n r[] r0 x ;\n"
                                 " mov r1 (ne r0 0) ;\n b[] r1 END ;\n w[] x 1 ;\n END: ;\n"
                                 "exists (0:r0=1)\n";
static const char TWO_TWO_W[] = "LISA 2+2W\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
                                " w[] y 2 | w[] x 2 ;\nexists (x=1 /\\ y=1)\n";

typedef struct run {
    base_intern_pool syms;
    base_diag diag;
    litmus_test *t;
    litmus_result res;
} run;

static void parse(run *r, const char *src)
{
    base_intern_init(&r->syms);
    base_diag_init(&r->diag);
    r->t = litmus_parse_lisa("t.litmus", src, strlen(src), &r->syms, &r->diag);
    assert_non_null(r->t);
}

static void simulate(run *r, const char *src, const char *model, bool verdict_only)
{
    parse(r, src);
    litmus_options opt = { .model = logic_mm_find(model), .verdict_only = verdict_only,
                           .want_witness = true,
                           .limits = { .unroll = 2, .max_events = 10000, .max_values = 16 } };
    assert_non_null(opt.model);
    assert_true(litmus_simulate(r->t, &opt, &r->res, &r->diag));
}

static void finish(run *r)
{
    litmus_result_free(&r->res);
    litmus_test_free(r->t);
    base_diag_free(&r->diag);
    base_intern_free(&r->syms);
}

/* Full mode (executions are configurations: pos and neg count them) and
 * verdict-only mode. */
static void expect(const char *src, litmus_observation obs, uint64_t pos, uint64_t neg)
{
    run r;
    simulate(&r, src, "jr", false);
    assert_int_equal(r.res.status, LITMUS_DECIDED);
    assert_int_equal(r.res.obs, obs);
    assert_int_equal(r.res.positive, pos);
    assert_int_equal(r.res.negative, neg);
    finish(&r);
    simulate(&r, src, "jr", true);
    assert_int_equal(r.res.status, LITMUS_DECIDED);
    assert_int_equal(r.res.obs, obs);
    finish(&r);
}

static void test_registry(void **state)
{
    (void)state;
    const logic_mm *m = logic_mm_find("jr");
    assert_non_null(m);
    assert_true(m->needs_qbf);
    assert_true(m->config_only);
    assert_false(logic_mm_find("sc")->config_only);
}

/* The structure as jr sees it, and the bound. */
static void structure(run *r, const char *src, bool every, litmus_evstruct *es, logic_structure *st)
{
    parse(r, src);
    litmus_es_limits lim = { .unroll = 2, .max_events = 10000, .max_values = 16,
                             .every_write_value = every };
    assert_true(litmus_evstruct_build(r->t, &lim, es, &r->diag));
    litmus_encode_structure(r->t, es, st);
}

static uint32_t count_reads(const litmus_evstruct *es, uint32_t thread, int64_t value)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < es->nevents; i++)
        n += es->events[i].kind == LITMUS_EV_READ && es->events[i].thread == thread &&
             es->events[i].value.num == value;
    return n;
}

static void test_read_depth(void **state)
{
    (void)state;
    const char *srcs[] = { LB, SB, MP, LB_DATAS_W };
    uint32_t want[] = { 2, 2, 2, 3 }; /* one read a thread; MP's P1 reads twice */
    for (int k = 0; k < 4; k++) {
        run r;
        litmus_evstruct es;
        logic_structure st;
        structure(&r, srcs[k], true, &es, &st);
        assert_int_equal(logic_mm_jr_read_depth(&st), want[k]);
        logic_structure_free(&st);
        litmus_evstruct_free(&es);
        litmus_test_free(r.t);
        base_diag_free(&r.diag);
        base_intern_free(&r.syms);
    }
}

/* OWN_BRANCH: the read of 1 exists only with every_write_value (the write
 * is its own thread's, po-after the read); jf-cand relates that write to
 * the read on the other branch, rf-cand does not. */
static void test_every_write_value_and_jf(void **state)
{
    (void)state;
    for (int every = 0; every < 2; every++) {
        run r;
        litmus_evstruct es;
        logic_structure st;
        structure(&r, OWN_BRANCH, every, &es, &st);
        assert_int_equal(count_reads(&es, 0, 1), every ? 1 : 0);
        if (every) {
            uint32_t w = LITMUS_NONE, rd = LITMUS_NONE;
            for (uint32_t i = 0; i < es.nevents; i++) {
                if (es.events[i].kind == LITMUS_EV_WRITE)
                    w = i;
                if (es.events[i].kind == LITMUS_EV_READ && es.events[i].value.num == 1)
                    rd = i;
            }
            assert_int_not_equal(w, LITMUS_NONE);
            assert_int_not_equal(rd, LITMUS_NONE);
            int jf = logic_structure_find(&st, LOGIC_V_JF_CAND);
            int rf = logic_structure_find(&st, LOGIC_V_RF_CAND);
            int cf = logic_structure_find(&st, LOGIC_V_CONFLICT);
            assert_true(logic_rel_get2(&st, (uint32_t)cf, w, rd));
            assert_true(logic_rel_get2(&st, (uint32_t)jf, w, rd));
            assert_false(logic_rel_get2(&st, (uint32_t)rf, w, rd));
        }
        logic_structure_free(&st);
        litmus_evstruct_free(&es);
        litmus_test_free(r.t);
        base_diag_free(&r.diag);
        base_intern_free(&r.syms);
    }
}

static void test_relaxed_shapes(void **state)
{
    (void)state;
    /* No coherence and no ordering: every outcome of these is justified. */
    expect(LB, LITMUS_OBS_SOMETIMES, 1, 3);
    expect(SB, LITMUS_OBS_SOMETIMES, 1, 3);
    expect(MP, LITMUS_OBS_SOMETIMES, 1, 3);
}

static void test_thin_air(void **state)
{
    (void)state;
    expect(LB_DATAS, LITMUS_OBS_NEVER, 0, 1);
    expect(LB_DATAS_W, LITMUS_OBS_NEVER, 0, 4);
}

static void test_other_branch(void **state)
{
    (void)state;
    expect(LB_CTRL_BOTH, LITMUS_OBS_SOMETIMES, 1, 2);
    expect(OWN_BRANCH, LITMUS_OBS_SOMETIMES, 1, 1);
    run r;
    simulate(&r, OWN_BRANCH, "sc", true);
    assert_int_equal(r.res.obs, LITMUS_OBS_NEVER);
    finish(&r);
}

/* jr has no coherence order: a condition on memory is unknown, never a guess. */
static void test_locations_unknown(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        run r;
        simulate(&r, TWO_TWO_W, "jr", k == 1);
        assert_int_equal(r.res.status, LITMUS_UNKNOWN);
        assert_non_null(strstr(r.res.reason, "coherence"));
        finish(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_read_depth),
        cmocka_unit_test(test_every_write_value_and_jf),
        cmocka_unit_test(test_relaxed_shapes),
        cmocka_unit_test(test_thin_air),
        cmocka_unit_test(test_other_branch),
        cmocka_unit_test(test_locations_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
