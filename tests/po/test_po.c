/* Unit tests for po: on sequential programs (bmc's cases) the partial-
 * order encoding of memory must give bmc's answers, bounds included; on
 * small concurrent programs it must give exactly SC's answers (the
 * litmus shapes SB, MP, LB, IRIW as assertions over the outcomes), and a
 * bug's trace must be an interleaving: steps in clock order, each tagged
 * with its thread, ending at the failed assertion. RAVEL_PO_VERBOSE=1
 * prints the results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "cfront/cfront.h"
#include "logic/mm.h"
#include "po/po.h"

typedef struct lowered {
    base_intern_pool syms;
    ir_program p;
    const ir_func *entry;
} lowered;

static lowered *lower(const char *name, const char *source)
{
    lowered *l = calloc(1, sizeof *l);
    base_intern_init(&l->syms);
    ir_program_init(&l->p, &l->syms);
    base_diag d;
    base_diag_init(&d);
    const char *files[] = { name };
    static const char *const args[] = { "-Wno-unused-value", "-w" };
    cfront_unsaved u = { name, source, source ? strlen(source) : 0 };
    cfront_opts o = { .clang_args = args, .nclang_args = 2, .unsaved = source ? &u : NULL,
                      .nunsaved = source ? 1 : 0 };
    if (cfront_lower(&l->p, files, 1, &o, &d)) {
        base_diag_print(&d, stderr);
        fail_msg("%s did not lower", name);
    }
    l->entry = ir_find_func(&l->p, "main");
    base_diag_free(&d);
    return l;
}

static void unlower(lowered *l)
{
    ir_program_free(&l->p);
    base_intern_free(&l->syms);
    free(l);
}

/* The memory model of the runs (NULL: SC by clocks), whether it is
 * grounded eagerly rather than refined lazily, and the last run's stats. */
static const logic_mm *cur_mm;
static bool cur_eager;
static po_stats last_st;

static trace_verdict run_po(lowered *l, uint32_t unwind, trace_result *r, bool *exact)
{
    po_opts o;
    po_opts_init(&o);
    o.mm = cur_mm;
    o.mm_lazy = !cur_eager;
    o.bo.unwind = unwind;
    o.bo.timeout_s = 60;
    po_stats st;
    const char *why;
    trace_verdict v = po_check(&l->p, l->entry, &o, r, &st, exact, &why);
    last_st = st;
    if (getenv("RAVEL_PO_VERBOSE")) {
        base_strbuf out = { 0 };
        trace_format_result(&out, &l->p, r);
        fprintf(stderr, "--- %zu threads, %zu events, %zu rf choices\n%s", st.threads, st.events,
                st.rf_choices, base_strbuf_cstr(&out));
        base_strbuf_free(&out);
    }
    return v;
}

/* bmc's sequential cases: the same verdict and the same bound answer. */
static void test_agrees_with_bmc(void **state)
{
    (void)state;
    static const char *const cases[] = {
        /* the rest of bmc's cases (heap lists, long loops) take minutes with
         * byte-level reads: not a unit test's budget */
        "aggregates.c", "assume.c", "assume_safe.c", "choice.c", "continue.c",
    };
    const char *data = getenv("RAVEL_TEST_DATA");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bmc/cases/%s", data ? data : "tests", cases[i]);
        lowered *l = lower(path, NULL);
        for (uint32_t unwind = 2; unwind <= 6; unwind += 4) {
            bmc_opts bo;
            bmc_opts_init(&bo);
            bo.unwind = unwind;
            bo.timeout_s = 60;
            trace_result br, pr;
            trace_verdict bv = bmc_check(&l->p, l->entry, &bo, &br);
            bool exact;
            trace_verdict pv = run_po(l, unwind, &pr, &exact);
            if (getenv("RAVEL_PO_VERBOSE"))
                fprintf(stderr, "%s unwind %u: bmc %s, po %s\n", cases[i], unwind,
                        trace_verdict_name(bv), trace_verdict_name(pv));
            if (bv != TRACE_UNKNOWN) {
                assert_int_equal(pv, bv);
                if (bv == TRACE_SAFE_WITHIN_BOUNDS)
                    assert_int_equal(pr.unwinding_ok, br.unwinding_ok);
                if (bv == TRACE_BUG) {
                    assert_true(pr.nsteps > 0);
                    assert_int_equal(pr.steps[pr.nsteps - 1].kind, TRACE_STEP_ASSERT);
                    assert_int_equal(pr.loc.line, br.loc.line);
                }
            }
            trace_result_free(&br);
            trace_result_free(&pr);
        }
        unlower(l);
    }
}

/* Under SC: the outcome is reachable (bug) or not (safe, and a proof). */
static void expect(const char *name, const char *src, bool reachable)
{
    lowered *l = lower(name, src);
    trace_result r;
    bool exact;
    trace_verdict v = run_po(l, 3, &r, &exact);
    assert_int_equal(v, reachable ? TRACE_BUG : TRACE_SAFE_WITHIN_BOUNDS);
    if (!reachable) {
        assert_true(r.unwinding_checked && r.unwinding_ok);
        assert_true(exact);
    } else {
        /* an interleaving: threads tagged, the failed assertion last */
        assert_true(r.nsteps > 0);
        assert_int_equal(r.steps[r.nsteps - 1].kind, TRACE_STEP_ASSERT);
        bool other = false;
        for (size_t i = 0; i < r.nsteps; i++)
            other |= r.steps[i].thread != 0;
        assert_true(other);
    }
    trace_result_free(&r);
    unlower(l);
}

#define TWO_THREADS(body1, body2, check)                                                       \
    "#include <assert.h>\n#include <pthread.h>\n"                                               \
    "int x, y, r1, r2, r3, r4;\n"                                                               \
    "void *t1(void *a) { " body1 " return 0; }\n"                                               \
    "void *t2(void *a) { " body2 " return 0; }\n"                                               \
    "int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0);\n"                          \
    "  pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0);\n"                \
    "  assert(" check "); return 0; }\n"

static void litmus_shapes(bool bytes)
{
    /* SB: both reads 0 is not SC; each other outcome is */
    expect("sb.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 0 && r2 == 0)"), false);
    expect("sb1.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 1 && r2 == 0)"), true);
    expect("sb2.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 1 && r2 == 1)"), true);
    /* MP: flag seen, data not, is not SC */
    expect("mp.c", TWO_THREADS("x = 1; y = 1;", "r1 = y; r2 = x;", "!(r1 == 1 && r2 == 0)"), false);
    expect("mp1.c", TWO_THREADS("x = 1; y = 1;", "r1 = y; r2 = x;", "!(r1 == 0 && r2 == 1)"), true);
    /* LB: both reads see the later writes is not SC */
    expect("lb.c", TWO_THREADS("r1 = x; y = 1;", "r2 = y; x = 1;", "!(r1 == 1 && r2 == 1)"), false);
    expect("lb1.c", TWO_THREADS("r1 = x; y = 1;", "r2 = y; x = 1;", "!(r1 == 0 && r2 == 1)"), true);
    /* coherence: two writes to x are seen in one order */
    expect("corr.c", TWO_THREADS("x = 1; x = 2;", "r1 = x; r2 = x;", "!(r1 == 2 && r2 == 1)"), false);
    expect("corr1.c", TWO_THREADS("x = 1; x = 2;", "r1 = x; r2 = x;", "!(r1 == 1 && r2 == 2)"), true);
    if (!bytes)
        return;
    /* a byte of an int: mixed sizes read byte by byte */
    expect("bytes.c", TWO_THREADS("x = 0x0102;", "r1 = *(unsigned char *)&x;",
                                  "r1 == 0 || r1 == 2"), false);
    expect("bytes1.c", TWO_THREADS("x = 0x0102;", "r1 = *(unsigned char *)&x;", "r1 == 0"), true);
}

static void test_litmus_shapes(void **state)
{
    (void)state;
    litmus_shapes(true);
}

/* IRIW: four threads; under SC the two readers agree on the order. */
static const char *const iriw_src =
        "#include <assert.h>\n#include <pthread.h>\n"
        "int x, y, r1, r2, r3, r4;\n"
        "void *w1(void *a) { x = 1; return 0; }\n"
        "void *w2(void *a) { y = 1; return 0; }\n"
        "void *rd1(void *a) { r1 = x; r2 = y; return 0; }\n"
        "void *rd2(void *a) { r3 = y; r4 = x; return 0; }\n"
        "int main(void) { pthread_t a, b, c, d; pthread_create(&a, 0, w1, 0);\n"
        "  pthread_create(&b, 0, w2, 0); pthread_create(&c, 0, rd1, 0);\n"
        "  pthread_create(&d, 0, rd2, 0); pthread_join(a, 0); pthread_join(b, 0);\n"
        "  pthread_join(c, 0); pthread_join(d, 0);\n"
        "  assert(!(r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0)); return 0; }\n";

static void test_iriw(void **state)
{
    (void)state;
    expect("iriw.c", iriw_src, false);
}

/* SC by the shared formula (logic/mm_sc.c) instead of clocks: the same
 * answers on every shape (mixed sizes are not supported there). */
static void test_sc_formula(void **state)
{
    (void)state;
    cur_mm = logic_mm_find("sc");
    litmus_shapes(false);
    expect("iriw.c", iriw_src, false);
    cur_mm = NULL;
}

#define MP_C11(wmo, rmo)                                                                        \
    "#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n"                       \
    "int x, r1, r2; atomic_int y;\n"                                                            \
    "void *t1(void *a) { x = 1; atomic_store_explicit(&y, 1, " wmo "); return 0; }\n"           \
    "void *t2(void *a) { r1 = atomic_load_explicit(&y, " rmo "); if (r1) r2 = x; return 0; }\n" \
    "int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0);\n"                          \
    "  pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0);\n"                \
    "  assert(!(r1 == 1 && r2 == 0)); return 0; }\n"

/* The weak models: each shape as the model's litmus answer says. */
static const struct {
    const char *mm, *name, *src;
    bool reachable;
} weak_cases[] = {
        { "tso", "sb.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 0 && r2 == 0)"), true },
        { "tso", "mp.c", TWO_THREADS("x = 1; y = 1;", "r1 = y; r2 = x;", "!(r1 == 1 && r2 == 0)"), false },
        { "tso", "lb.c", TWO_THREADS("r1 = x; y = 1;", "r2 = y; x = 1;", "!(r1 == 1 && r2 == 1)"), false },
        { "tso", "iriw.c", NULL, false },
        { "ra", "sb.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 0 && r2 == 0)"), true },
        { "ra", "mp.c", TWO_THREADS("x = 1; y = 1;", "r1 = y; r2 = x;", "!(r1 == 1 && r2 == 0)"), false },
        { "ra", "iriw.c", NULL, true },
        { "c11", "mp.c", TWO_THREADS("x = 1; y = 1;", "r1 = y; r2 = x;", "!(r1 == 1 && r2 == 0)"), true },
        { "c11", "corr.c", TWO_THREADS("x = 1; x = 2;", "r1 = x; r2 = x;", "!(r1 == 2 && r2 == 1)"), false },
        { "c11", "mp_relacq.c", MP_C11("memory_order_release", "memory_order_acquire"), false },
        { "c11", "mp_rel_rlx.c", MP_C11("memory_order_release", "memory_order_relaxed"), true },
        { "c11", "mp_sc.c", MP_C11("memory_order_seq_cst", "memory_order_seq_cst"), false },
        { "sc", "iriw.c", NULL, false },
        { "sc", "sb.c", TWO_THREADS("x = 1; r1 = y;", "y = 1; r2 = x;", "!(r1 == 0 && r2 == 0)"), false },
};

static void test_weak_models(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof weak_cases / sizeof *weak_cases; i++) {
        cur_mm = logic_mm_find(weak_cases[i].mm);
        if (getenv("RAVEL_PO_VERBOSE"))
            fprintf(stderr, "--- %s %s\n", weak_cases[i].mm, weak_cases[i].name);
        expect(weak_cases[i].name, weak_cases[i].src ? weak_cases[i].src : iriw_src,
               weak_cases[i].reachable);
    }
    cur_mm = NULL;
}

/* The lazy refinement (the default) and the eager grounding give the same
 * answers on every shape, and the lazy path is taken: it refines (rounds
 * that add clauses) where the eager one grounds everything at once. */
static void test_lazy_eager_agree(void **state)
{
    (void)state;
    size_t rounds = 0;
    for (int eager = 0; eager < 2; eager++) {
        cur_eager = eager;
        for (size_t i = 0; i < sizeof weak_cases / sizeof *weak_cases; i++) {
            cur_mm = logic_mm_find(weak_cases[i].mm);
            expect(weak_cases[i].name, weak_cases[i].src ? weak_cases[i].src : iriw_src,
                   weak_cases[i].reachable);
            if (eager)
                assert_int_equal(last_st.mm_rounds, 0);
            rounds += last_st.mm_rounds;
        }
        if (!eager)
            assert_true(rounds > 0);
    }
    cur_eager = false;
    cur_mm = NULL;
}

/* Outside the models' encoding: unknown, never an answer. */
static void test_mm_unsupported(void **state)
{
    (void)state;
    cur_mm = logic_mm_find("tso");
    lowered *l = lower("bytes.c", TWO_THREADS("x = 0x0102;", "r1 = *(unsigned char *)&x;", "r1 == 0"));
    trace_result r;
    bool exact;
    assert_int_equal(run_po(l, 3, &r, &exact), TRACE_UNKNOWN);
    assert_non_null(strstr(r.reason, "unsupported under a memory model"));
    trace_result_free(&r);
    unlower(l);
    cur_mm = NULL;
}

/* The front end: a C11 operation's section carries its order, a fence is
 * an empty section with its order, a relaxed fence is nothing. */
static void test_ir_orders(void **state)
{
    (void)state;
    lowered *l = lower("mo.c", "#include <stdatomic.h>\natomic_int y; int e;\n"
                               "int main(void) { atomic_load_explicit(&y, memory_order_acquire);\n"
                               "  atomic_thread_fence(memory_order_seq_cst);\n"
                               "  atomic_thread_fence(memory_order_relaxed);\n"
                               "  atomic_compare_exchange_strong_explicit(&y, &e, 1,\n"
                               "    memory_order_acq_rel, memory_order_relaxed);\n"
                               "  return atomic_fetch_add(&y, 1); }\n");
    uint8_t want[] = { IR_MO_ACQUIRE, IR_MO_SEQ_CST, IR_MO_ACQ_REL | IR_MO_RELAXED << 4, IR_MO_SEQ_CST };
    size_t k = 0;
    for (uint32_t i = 0; i < l->entry->nstmts; i++) {
        const ir_stmt *s = &l->entry->stmts[i];
        if (s->kind != IR_S_ATOMIC_BEGIN)
            continue;
        assert_true(k < sizeof want);
        assert_int_equal(s->mo, want[k]);
        if (k == 1) /* the fence: nothing inside */
            assert_int_equal(l->entry->stmts[i + 1].kind, IR_S_ATOMIC_END);
        k++;
    }
    assert_int_equal(k, sizeof want);
    unlower(l);
}

/* The auto solver: CaDiCaL under its clause cap, Z3 when the cap is hit
 * (the check redone), the same verdicts as either back end alone. */
static void test_auto_solver(void **state)
{
    (void)state;
    uint64_t cap;
    assert_int_equal(po_solver_choice(BMC_SMT_AUTO, true, 500, &cap), BMC_SMT_CADICAL);
    assert_int_equal(cap, 500);
    assert_int_equal(po_solver_choice(BMC_SMT_AUTO, false, 500, &cap), BMC_SMT_Z3);
    assert_int_equal(cap, 0);
    assert_int_equal(po_solver_choice(BMC_SMT_AUTO, true, 0, &cap), BMC_SMT_Z3);
    assert_int_equal(po_solver_choice(BMC_SMT_Z3, true, 500, &cap), BMC_SMT_Z3);
    assert_int_equal(cap, 0);
    assert_int_equal(po_solver_choice(BMC_SMT_CADICAL, true, 500, &cap), BMC_SMT_CADICAL);
    assert_int_equal(cap, 0);
    static const char *const src[2] = {
        "#include <pthread.h>\n#include <assert.h>\nint x;\n"
        "void *t(void *a) { x = x + 1; return 0; }\n"
        "int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); x = x + 1;\n"
        "  pthread_join(a, 0); assert(x == 2); return 0; }\n",
        "#include <pthread.h>\n#include <assert.h>\nint x; pthread_mutex_t m;\n"
        "void *t(void *a) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }\n"
        "int main(void) { pthread_t a; pthread_create(&a, 0, t, 0);\n"
        "  pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m);\n"
        "  pthread_join(a, 0); assert(x == 2); return 0; }\n",
    };
    for (int k = 0; k < 2; k++) {
        lowered *l = lower("auto.c", src[k]);
        trace_verdict want = k == 0 ? TRACE_BUG : TRACE_SAFE_WITHIN_BOUNDS;
        static const struct { bmc_smt_backend b; uint64_t cap; bool redone; } runs[] = {
            { BMC_SMT_Z3, 0, false },     { BMC_SMT_CADICAL, 0, false },
            { BMC_SMT_AUTO, 10, true },   /* far too small: Z3 decides */
            { BMC_SMT_AUTO, 0, false },   /* the default cap: CaDiCaL decides */
        };
        for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
            po_opts o;
            po_opts_init(&o);
            o.bo.unwind = 2;
            o.bo.timeout_s = 60;
            o.bo.solver = runs[i].b;
            o.auto_clause_cap = runs[i].cap;
            trace_result r;
            po_stats st;
            bool exact;
            const char *why;
            trace_verdict v = po_check(&l->p, l->entry, &o, &r, &st, &exact, &why);
            assert_int_equal(v, want);
            assert_int_equal(st.redone, runs[i].redone);
            if (runs[i].b != BMC_SMT_Z3)
                assert_true(st.clauses >= 10);
            if (v == TRACE_BUG)
                assert_true(r.nsteps > 0);
            else
                assert_true(r.unwinding_checked && r.unwinding_ok);
            trace_result_free(&r);
        }
        unlower(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_bmc),
        cmocka_unit_test(test_litmus_shapes),
        cmocka_unit_test(test_iriw),
        cmocka_unit_test(test_sc_formula),
        cmocka_unit_test(test_weak_models),
        cmocka_unit_test(test_lazy_eager_agree),
        cmocka_unit_test(test_mm_unsupported),
        cmocka_unit_test(test_ir_orders),
        cmocka_unit_test(test_auto_solver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
