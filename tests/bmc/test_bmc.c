/* Unit tests for bmc: each program in tests/bmc/cases is lowered with
 * cfront and checked; the expected verdicts come from what C says the
 * program does (each case's comment argues it), never from what the tool
 * printed. Traces are checked for the facts that make them a
 * counterexample (the nondet input, the failing assertion's line, the
 * function a pointer called). RAVEL_BMC_VERBOSE=1 prints every result. */
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

static char cases_dir[4096];

typedef struct lowered {
    base_intern_pool syms;
    ir_program p;
} lowered;

static lowered *lower(const char *name, bool m32)
{
    lowered *l = calloc(1, sizeof *l);
    base_intern_init(&l->syms);
    ir_program_init(&l->p, &l->syms);
    base_diag d;
    base_diag_init(&d);
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", cases_dir, name);
    const char *files[] = { path };
    static const char *const args[] = { "-Wno-unused-value" };
    cfront_opts o = { .clang_args = args, .nclang_args = 1, .m32 = m32 };
    size_t errors = cfront_lower(&l->p, files, 1, &o, &d);
    if (errors) {
        base_diag_print(&d, stderr);
        fail_msg("%s did not lower", name);
    }
    base_diag_free(&d);
    return l;
}

static void unlower(lowered *l)
{
    ir_program_free(&l->p);
    base_intern_free(&l->syms);
    free(l);
}

/* Checks name's main with the given bound; r must be freed. */
static void run_opts(const char *name, const bmc_opts *o, bool m32, lowered **lp, trace_result *r)
{
    lowered *l = lower(name, m32);
    const ir_func *main_f = ir_find_func(&l->p, "main");
    assert_non_null(main_f);
    bmc_check(&l->p, main_f, o, r);
    if (getenv("RAVEL_BMC_VERBOSE")) {
        base_strbuf out = { 0 };
        trace_format_result(&out, &l->p, r);
        fprintf(stderr, "--- %s (unwind %u): %zu terms, %.3f s encode, %.3f s solve\n%s", name,
                o ? o->unwind : 3, r->stats.terms, r->stats.encode_s, r->stats.solve_s,
                base_strbuf_cstr(&out));
        base_strbuf_free(&out);
    }
    *lp = l;
}

static void run(const char *name, uint32_t unwind, lowered **lp, trace_result *r)
{
    bmc_opts o;
    bmc_opts_init(&o);
    o.unwind = unwind;
    o.timeout_s = 60;
    run_opts(name, &o, false, lp, r);
}

static void dump_fail(const lowered *l, const trace_result *r, const char *name, const char *what)
{
    base_strbuf out = { 0 };
    trace_format_result(&out, &l->p, r);
    fprintf(stderr, "--- %s\n%s", name, base_strbuf_cstr(&out));
    base_strbuf_free(&out);
    fail_msg("%s: %s", name, what);
}

/* Expects SAFE_WITHIN_BOUNDS with unwinding assertions that hold (ok) or
 * fail (!ok). */
static void expect_safe(const char *name, uint32_t unwind, bool ok)
{
    lowered *l;
    trace_result r;
    run(name, unwind, &l, &r);
    if (r.verdict != TRACE_SAFE_WITHIN_BOUNDS)
        dump_fail(l, &r, name, "expected safe within bounds");
    assert_true(r.unwinding_checked);
    if (r.unwinding_ok != ok)
        dump_fail(l, &r, name, ok ? "expected the unwinding assertions to hold"
                                  : "expected an unwinding assertion to fail");
    trace_result_free(&r);
    unlower(l);
}

/* Expects BUG at the given line; returns the result for trace checks. */
static void expect_bug(const char *name, uint32_t unwind, uint32_t line, lowered **lp,
                       trace_result *r)
{
    run(name, unwind, lp, r);
    if (r->verdict != TRACE_BUG)
        dump_fail(*lp, r, name, "expected bug");
    if (r->loc.line != line)
        dump_fail(*lp, r, name, "the failing assertion is on another line");
    assert_true(r->nsteps > 0);
    const trace_step *last = &r->steps[r->nsteps - 1];
    assert_int_equal(last->kind, TRACE_STEP_ASSERT);
    assert_int_equal(last->loc.line, line);
}

static void expect_bug_only(const char *name, uint32_t unwind, uint32_t line)
{
    lowered *l;
    trace_result r;
    expect_bug(name, unwind, line, &l, &r);
    trace_result_free(&r);
    unlower(l);
}

/* The first NONDET step whose lhs is the variable `var`. */
static const trace_step *nondet_of(const lowered *l, const trace_result *r, const char *var)
{
    for (size_t i = 0; i < r->nsteps; i++) {
        const trace_step *s = &r->steps[i];
        if ((s->kind == TRACE_STEP_NONDET || s->kind == TRACE_STEP_ASSIGN) && s->var &&
            strcmp(base_sym_str(l->p.syms, s->var->name), var) == 0)
            return s;
    }
    return NULL;
}

static void test_nondet_input(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("nondet_input.c", 3, 9, &l, &r);
    assert_string_equal(r.message, "reach_error()");
    /* x = t.1 where t.1 = nondet: x's value is the input that fails */
    const trace_step *x = nondet_of(l, &r, "x");
    assert_non_null(x);
    assert_string_equal(x->value.text, "17");
    assert_int_equal(x->value.bits, 17);
    bool saw_nondet = false;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].kind == TRACE_STEP_NONDET) {
            saw_nondet = true;
            assert_int_equal(r.steps[i].value.bits, 17);
        }
    assert_true(saw_nondet);
    assert_true(r.stats.terms > 0 && r.stats.assertions >= 1);
    trace_result_free(&r);
    unlower(l);
    expect_safe("nondet_even.c", 3, true);
}

static void test_wraparound(void **state)
{
    (void)state;
    expect_safe("wrap_safe.c", 3, true);
    expect_bug_only("wrap_bug.c", 3, 9);
}

static void test_unsigned_comparison(void **state)
{
    (void)state;
    expect_safe("unsigned_cmp.c", 3, true);
    expect_bug_only("signed_cmp.c", 3, 8);
}

static void test_pointers(void **state)
{
    (void)state;
    expect_safe("pointers.c", 6, true);
    expect_safe("pointers.c", 5, false); /* the five-iteration loop is cut */
    expect_bug_only("pointers_bug.c", 3, 10);
}

static void test_linked_list(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("list.c", 5, 22, &l, &r);
    const trace_step *n = nondet_of(l, &r, "n");
    assert_non_null(n);
    assert_int_equal(n->value.bits, 3);
    size_t allocs = 0;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].kind == TRACE_STEP_ALLOC) {
            allocs++;
            assert_int_equal(r.steps[i].alloc_size, 16);
        }
    assert_int_equal(allocs, 3);
    trace_result_free(&r);
    unlower(l);
    /* unwind 4 runs each loop body at most 4 times: n = 3 still fits */
    expect_bug_only("list.c", 4, 22);
}

static void test_loop_bound(void **state)
{
    (void)state;
    expect_safe("loop5.c", 3, false);
    expect_safe("loop5.c", 5, false);
    expect_safe("loop5.c", 6, true);
    expect_safe("loop5_bug.c", 3, false); /* the bug lies beyond the bound */
    expect_bug_only("loop5_bug.c", 6, 8);
    expect_safe("continue.c", 4, false);
    expect_safe("continue.c", 5, true);
}

static void test_recursion(void **state)
{
    (void)state;
    expect_safe("recursion.c", 3, false);
    expect_safe("recursion.c", 4, true);
    expect_safe("recursion_bug.c", 3, false);
    expect_bug_only("recursion_bug.c", 4, 5);
}

static void test_function_pointers(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("funptr.c", 3, 11, &l, &r);
    bool called_dec = false;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].kind == TRACE_STEP_CALL && r.steps[i].callee &&
            strcmp(base_sym_str(l->p.syms, r.steps[i].callee->name), "dec") == 0) {
            called_dec = true;
            assert_int_equal(r.steps[i].nargs, 1);
            assert_string_equal(r.steps[i].args[0].text, "5");
        }
    assert_true(called_dec);
    const trace_step *rr = nondet_of(l, &r, "r");
    assert_non_null(rr);
    assert_string_equal(rr->value.text, "4");
    trace_result_free(&r);
    unlower(l);
}

static void test_assume_and_reach_error(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("assume.c", 3, 12, &l, &r);
    assert_string_equal(r.message, "reach_error()");
    assert_int_equal(nondet_of(l, &r, "x")->value.bits, 15);
    trace_result_free(&r);
    unlower(l);
    expect_safe("assume_safe.c", 3, true);
}

static void test_aggregates(void **state)
{
    (void)state;
    expect_safe("aggregates.c", 6, true);
}

/* One deterministic path through many constructs: every assertion but the
 * final assert(0) holds, and that one is reached. */
static void test_semantics(void **state)
{
    (void)state;
    expect_bug_only("semantics.c", 5, 92);
    /* a loop that runs 4 times (first_over with no match) is cut at 4 */
    expect_safe("semantics.c", 4, false);
    expect_bug_only("semantics2.c", 5, 57);
    expect_safe("semantics2.c", 4, false); /* the 4-iteration inner loop */
}

static void test_symbolic_choice(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("choice.c", 3, 21, &l, &r);
    assert_int_equal(nondet_of(l, &r, "i")->value.bits, 2);
    trace_result_free(&r);
    unlower(l);
}

static void test_big_array(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    expect_bug("bigarray.c", 3, 18, &l, &r);
    assert_int_equal(nondet_of(l, &r, "i")->value.bits, 42);
    trace_result_free(&r);
    unlower(l);
}

/* The shape the KISS translation gives: schedule() calls pending thread
 * functions through pointers, recursively. */
static void test_kiss_shape(void **state)
{
    (void)state;
    expect_safe("kiss_like.c", 2, false);
    lowered *l;
    trace_result r;
    expect_bug("kiss_like.c", 3, 45, &l, &r);
    /* the trace is an execution that fails: at the end nts == 0 and
     * count != 2 (count starts 0; any counterexample will do) */
    const trace_step *last_count = NULL, *last_nts = NULL;
    for (size_t i = 0; i < r.nsteps; i++) {
        const char *v = r.steps[i].var ? base_sym_str(l->p.syms, r.steps[i].var->name) : "";
        if (strcmp(v, "count") == 0)
            last_count = &r.steps[i];
        if (strcmp(v, "nts") == 0)
            last_nts = &r.steps[i];
    }
    assert_non_null(last_nts);
    assert_string_equal(last_nts->value.text, "0");
    if (last_count)
        assert_true(last_count->value.bits != 2);
    trace_result_free(&r);
    unlower(l);
}

static void test_external(void **state)
{
    (void)state;
    expect_bug_only("external.c", 3, 10);
    lowered *l;
    trace_result r;
    run("external_write.c", 3, &l, &r);
    if (r.verdict != TRACE_UNKNOWN)
        dump_fail(l, &r, "external_write.c", "expected unknown");
    assert_non_null(strstr(r.reason, "pointer argument"));
    assert_int_equal(r.reason_loc.line, 9);
    trace_result_free(&r);
    unlower(l);
    expect_bug_only("external_write2.c", 3, 12);
}

static void test_unknown(void **state)
{
    (void)state;
    lowered *l;
    trace_result r;
    run("float.c", 3, &l, &r);
    if (r.verdict != TRACE_UNKNOWN)
        dump_fail(l, &r, "float.c", "expected unknown");
    assert_non_null(strstr(r.reason, "floating-point"));
    assert_int_equal(r.reason_loc.line, 8);
    trace_result_free(&r);
    unlower(l);
    run("threads.c", 3, &l, &r);
    assert_int_equal(r.verdict, TRACE_UNKNOWN);
    assert_non_null(strstr(r.reason, "unsupported construct"));
    assert_int_equal(r.reason_loc.line, 6);
    trace_result_free(&r);
    unlower(l);
}

/* ILP32 (SV-COMP's -m32): pointers are 32 bits wide. */
static void test_m32(void **state)
{
    (void)state;
    bmc_opts o;
    bmc_opts_init(&o);
    o.unwind = 6;
    lowered *l;
    trace_result r;
    run_opts("pointers.c", &o, true, &l, &r);
    assert_int_equal(l->p.ptr_bytes, 4);
    assert_int_equal(r.verdict, TRACE_SAFE_WITHIN_BOUNDS);
    assert_true(r.unwinding_ok);
    trace_result_free(&r);
    unlower(l);
    o.unwind = 5;
    run_opts("list.c", &o, true, &l, &r);
    assert_int_equal(r.verdict, TRACE_BUG);
    trace_result_free(&r);
    unlower(l);
}

/* A GOTO with several targets (no C construct gives one; the KISS
 * translation may): a nondeterministic choice among them, built here with
 * the IR's own constructors.
 *   0: x = 0; 1: goto {2, 4, 6}; 2: x = 1; 3: goto 7; 4: x = 2; 5: goto 7;
 *   6: x = 3; 7: assert(x != bad) */
static void multi_goto(int bad, trace_verdict want, int64_t want_x)
{
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    p.ptr_bytes = 8;
    base_srcloc loc = base_srcloc_make("multi.c", 1, 1);
    const ir_type *i32 = ir_type_int(&p, 32, true);
    ir_func *f = ir_add_func(&p, "main", ir_type_func(&p, i32, NULL, 0, false), loc);
    ir_var *x = ir_add_local(&p, f, "x", i32, loc);
    const ir_expr *xe = ir_var_ref(&p, x);
    static const int64_t vals[] = { 0, -1, 1, -1, 2, -1, 3 };
    for (uint32_t i = 0; i < 7; i++) {
        loc.line = i + 1;
        if (vals[i] >= 0) {
            uint32_t k = ir_emit(&p, f, IR_S_ASSIGN, loc);
            f->stmts[k].lhs = xe;
            f->stmts[k].rhs = ir_const(&p, i32, vals[i]);
        } else {
            uint32_t k = ir_emit(&p, f, IR_S_GOTO, loc);
            uint32_t *t = BASE_ARENA_ARRAY(&p.arena, uint32_t, 3);
            if (i == 1) {
                t[0] = 2, t[1] = 4, t[2] = 6;
                f->stmts[k].ntargets = 3;
            } else {
                t[0] = 7;
                f->stmts[k].ntargets = 1;
            }
            f->stmts[k].targets = t;
        }
    }
    loc.line = 8;
    uint32_t k = ir_emit(&p, f, IR_S_ASSERT, loc);
    f->stmts[k].rhs = ir_binary(&p, IR_OP_NE, i32, xe, ir_const(&p, i32, bad));
    f->stmts[k].message = "x != bad";
    trace_result r;
    bmc_check(&p, f, NULL, &r);
    assert_int_equal(r.verdict, want);
    if (want == TRACE_BUG) {
        const trace_step *last_x = NULL;
        for (size_t i = 0; i < r.nsteps; i++)
            if (r.steps[i].var == x)
                last_x = &r.steps[i];
        assert_non_null(last_x);
        assert_int_equal((int64_t)last_x->value.bits, want_x);
        assert_int_equal(r.loc.line, 8);
    }
    trace_result_free(&r);
    ir_program_free(&p);
    base_intern_free(&syms);
}

static void test_multi_target_goto(void **state)
{
    (void)state;
    multi_goto(1, TRACE_BUG, 1);
    multi_goto(2, TRACE_BUG, 2);
    multi_goto(3, TRACE_BUG, 3);
    multi_goto(0, TRACE_SAFE_WITHIN_BOUNDS, 0);
}

/* A formula beyond the size limit is unknown, with the reason. */
static void test_limits(void **state)
{
    (void)state;
    bmc_opts o;
    bmc_opts_init(&o);
    o.unwind = 5;
    o.max_terms = 1000;
    lowered *l;
    trace_result r;
    run_opts("kiss_like.c", &o, false, &l, &r);
    assert_int_equal(r.verdict, TRACE_UNKNOWN);
    assert_non_null(strstr(r.reason, "memory"));
    trace_result_free(&r);
    unlower(l);
    bmc_opts_init(&o);
    o.unwind = 9;
    o.timeout_s = 0.5;
    run_opts("kiss_like.c", &o, false, &l, &r);
    assert_int_equal(r.verdict, TRACE_UNKNOWN);
    assert_non_null(strstr(r.reason, "timeout"));
    trace_result_free(&r);
    unlower(l);
}

/* Unwinding assertions off: the cut paths are dropped silently. */
static void test_no_unwinding_assertions(void **state)
{
    (void)state;
    bmc_opts o;
    bmc_opts_init(&o);
    o.unwinding_assertions = false;
    lowered *l;
    trace_result r;
    run_opts("loop5.c", &o, false, &l, &r);
    assert_int_equal(r.verdict, TRACE_SAFE_WITHIN_BOUNDS);
    assert_false(r.unwinding_checked);
    trace_result_free(&r);
    unlower(l);
}

int main(void)
{
    const char *data = getenv("RAVEL_TEST_DATA");
    snprintf(cases_dir, sizeof cases_dir, "%s/bmc/cases", data ? data : "tests");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nondet_input),
        cmocka_unit_test(test_wraparound),
        cmocka_unit_test(test_unsigned_comparison),
        cmocka_unit_test(test_pointers),
        cmocka_unit_test(test_linked_list),
        cmocka_unit_test(test_loop_bound),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_function_pointers),
        cmocka_unit_test(test_assume_and_reach_error),
        cmocka_unit_test(test_aggregates),
        cmocka_unit_test(test_semantics),
        cmocka_unit_test(test_symbolic_choice),
        cmocka_unit_test(test_big_array),
        cmocka_unit_test(test_kiss_shape),
        cmocka_unit_test(test_external),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_m32),
        cmocka_unit_test(test_no_unwinding_assertions),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_multi_target_goto),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
