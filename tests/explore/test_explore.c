/* Unit tests for explore: small C programs are lowered (from strings, or
 * the files of tests/bmc/cases), KISS-translated where they are
 * concurrent, and explored. A bug must be a real one (the locked counter
 * and programs with undefined behaviour never report), must be found
 * where random runs find it quickly, agree with bmc on bmc's cases, and
 * come with a trace of bmc's shape. RAVEL_EXPLORE_VERBOSE=1 prints the
 * results. */
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
#include "explore/explore.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"

typedef struct lowered {
    base_intern_pool syms;
    ir_program p;
    const ir_func *entry;
} lowered;

/* Lowers source (or the file path when source is NULL); with kiss, the
 * entry is the KISS translation's. */
static lowered *lower(const char *name, const char *source, bool kiss)
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
    if (kiss) {
        kiss_opts ko = { .pending = 2, .max_threads = 16 };
        l->entry = kiss_translate(&l->p, &ko, NULL, &d);
        assert_non_null(l->entry);
        assert_int_equal(ir_check(&l->p, &d), 0);
    } else {
        l->entry = ir_find_func(&l->p, "main");
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

static trace_verdict explore(lowered *l, uint64_t runs, double timeout, trace_result *r,
                             explore_stats *st)
{
    explore_opts o;
    explore_opts_init(&o);
    o.max_runs = runs;
    o.timeout_s = timeout;
    explore_check_stats(&l->p, l->entry, &o, r, st);
    if (getenv("RAVEL_EXPLORE_VERBOSE")) {
        base_strbuf out = { 0 };
        trace_format_result(&out, &l->p, r);
        fprintf(stderr, "--- %llu runs, %.3f s\n%s", (unsigned long long)st->runs, st->seconds,
                base_strbuf_cstr(&out));
        base_strbuf_free(&out);
    }
    return r->verdict;
}

static const char lost_update[] =
    "#include <pthread.h>\n"
    "#include <assert.h>\n"
    "int count;\n"
    "void *inc(void *a) { count++; return 0; }\n"
    "int main(void)\n"
    "{\n"
    "    pthread_t t1, t2;\n"
    "    pthread_create(&t1, 0, inc, 0);\n"
    "    pthread_create(&t2, 0, inc, 0);\n"
    "    pthread_join(t1, 0);\n"
    "    pthread_join(t2, 0);\n"
    "    assert(count == 2);\n" /* line 12 */
    "    return 0;\n"
    "}\n";

static const char locked_counter[] =
    "#include <pthread.h>\n"
    "#include <assert.h>\n"
    "int count;\n"
    "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
    "void *inc(void *a) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); return 0; }\n"
    "int main(void)\n"
    "{\n"
    "    pthread_t t1, t2;\n"
    "    pthread_create(&t1, 0, inc, 0);\n"
    "    pthread_create(&t2, 0, inc, 0);\n"
    "    pthread_join(t1, 0);\n"
    "    pthread_join(t2, 0);\n"
    "    assert(count == 2);\n"
    "    return 0;\n"
    "}\n";

static bool is_kiss_cur(const lowered *l, const trace_step *s)
{
    return s->kind == TRACE_STEP_ASSIGN && s->var && s->var->kind == IR_V_GLOBAL &&
           strcmp(base_sym_str(l->p.syms, s->var->name), KISS_CUR) == 0;
}

/* The facts of bmc's trace shape the reports rely on. */
static void check_trace_shape(const lowered *l, const trace_result *r, uint32_t line)
{
    assert_true(r->nsteps > 0);
    const trace_step *last = &r->steps[r->nsteps - 1];
    assert_int_equal(last->kind, TRACE_STEP_ASSERT);
    assert_int_equal(last->loc.line, line);
    assert_int_equal(r->loc.line, line);
    assert_ptr_equal(r->func, last->func);
    assert_int_equal(r->stmt, last->stmt);
    for (size_t i = 0; i < r->nsteps; i++) {
        const trace_step *s = &r->steps[i];
        assert_non_null(s->func);
        assert_true(s->stmt <= s->func->nstmts);
        if (s->kind == TRACE_STEP_ASSIGN || s->kind == TRACE_STEP_NONDET ||
            s->kind == TRACE_STEP_ALLOC) {
            assert_non_null(s->lhs);
            assert_non_null(s->value.text);
        }
        if (s->kind == TRACE_STEP_CALL && s->callee->has_body && i + 1 < r->nsteps)
            assert_int_equal(r->steps[i + 1].depth, s->depth + 1);
        if (s->kind == TRACE_STEP_RETURN)
            assert_non_null(s->callee);
        if (is_kiss_cur(l, s))
            assert_true(s->value.bits < 16);
    }
}

static void test_lost_update(void **state)
{
    (void)state;
    lowered *l = lower("lost.c", lost_update, true);
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 200000, 30, &r, &st), TRACE_BUG);
    check_trace_shape(l, &r, 12);
    /* two threads ran: kiss.cur took the values 1 and 2 */
    bool t1 = false, t2 = false;
    for (size_t i = 0; i < r.nsteps; i++)
        if (is_kiss_cur(l, &r.steps[i])) {
            t1 |= r.steps[i].value.bits == 1;
            t2 |= r.steps[i].value.bits == 2;
            assert_string_equal(r.steps[i].lhs, KISS_CUR);
        }
    assert_true(t1 && t2);
    /* the same trace shape as bmc's: both end at the assertion, both switch threads */
    trace_result b;
    bmc_opts bo;
    bmc_opts_init(&bo);
    bo.timeout_s = 60;
    assert_int_equal(bmc_check(&l->p, l->entry, &bo, &b), TRACE_BUG);
    check_trace_shape(l, &b, 12);
    bool bcur = false;
    for (size_t i = 0; i < b.nsteps; i++)
        bcur |= is_kiss_cur(l, &b.steps[i]);
    assert_true(bcur);
    trace_result_free(&b);
    trace_result_free(&r);
    unlower(l);
}

static void test_reproducible(void **state)
{
    (void)state;
    lowered *l = lower("lost.c", lost_update, true);
    trace_result r1, r2;
    explore_stats s1, s2;
    explore(l, 200000, 0, &r1, &s1);
    explore(l, 200000, 0, &r2, &s2);
    assert_int_equal(r1.verdict, TRACE_BUG);
    assert_int_equal(s1.bug_run, s2.bug_run);
    assert_int_equal(s1.steps, s2.steps);
    assert_int_equal(r1.nsteps, r2.nsteps);
    for (size_t i = 0; i < r1.nsteps; i++)
        assert_string_equal(r1.steps[i].value.text ? r1.steps[i].value.text : "",
                            r2.steps[i].value.text ? r2.steps[i].value.text : "");
    trace_result_free(&r1);
    trace_result_free(&r2);
    unlower(l);
}

static void test_locked_counter(void **state)
{
    (void)state;
    lowered *l = lower("locked.c", locked_counter, true);
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 30000, 0, &r, &st), TRACE_UNKNOWN);
    assert_int_equal(st.runs, 30000);
    assert_true(st.done > 0); /* runs did reach the assertion */
    assert_non_null(strstr(r.reason, "no assertion failure in 30000 random runs"));
    trace_result_free(&r);
    unlower(l);
}

static void test_pool_constant(void **state)
{
    (void)state;
    static const char src[] =
        "extern int __VERIFIER_nondet_int(void);\n"
        "extern void __assert_fail(const char *, const char *, unsigned, const char *);\n"
        "int main(void)\n"
        "{\n"
        "    int x = __VERIFIER_nondet_int();\n"
        "    if (x == 48611) __assert_fail(\"x\", \"f\", 6, \"main\");\n" /* line 6 */
        "    return 0;\n"
        "}\n";
    lowered *l = lower("pool.c", src, false);
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 100000, 0, &r, &st), TRACE_BUG);
    assert_int_equal(r.loc.line, 6);
    bool seen = false;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].lhs && strcmp(r.steps[i].lhs, "x") == 0)
            seen = strcmp(r.steps[i].value.text, "48611") == 0;
    assert_true(seen);
    trace_result_free(&r);
    unlower(l);
}

static void test_undefined_abandons(void **state)
{
    (void)state;
    /* every path that reaches the assertion has undefined behaviour first */
    static const char src[] =
        "#include <assert.h>\n"
        "#include <stdlib.h>\n"
        "extern int __VERIFIER_nondet_int(void);\n"
        "int a[4];\n"
        "int main(void)\n"
        "{\n"
        "    int *p = 0;\n"
        "    int k = __VERIFIER_nondet_int();\n"
        "    if (k == 1) { *p = 1; assert(0); }\n"
        "    if (k == 2) { int x = 2147483647; x = x + k; assert(0); }\n"
        "    if (k == 3) { int z = 0; k = k / z; assert(0); }\n"
        "    if (k == 4) { k = a[k]; assert(0); }\n"
        "    if (k == 5) { int *q = malloc(sizeof *q); free(q); *q = 1; assert(0); }\n"
        "    if (k == 6) { k = 1 << 40; assert(0); }\n"
        "    return 0;\n"
        "}\n";
    lowered *l = lower("ub.c", src, false);
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 20000, 0, &r, &st), TRACE_UNKNOWN);
    assert_true(st.undefined > 0);
    assert_true(st.done > 0);
    trace_result_free(&r);
    unlower(l);
}

static void test_spinning_runs_cut(void **state)
{
    (void)state;
    /* once the third thread runs it spins for ever (inside an atomic
     * function it cannot raise, and nothing sets flag), and it mostly runs
     * at once, the two idle threads filling the pending slots; the runs
     * that schedule an idle thread first, making room, may end. The limit (8 times the length of most runs that ended,
     * at least 2^16 steps; every 16th run 2^20, every 256th and the first
     * four max_steps) keeps the spinning runs cheap: 128 runs cost at most
     * 4 + 8 runs of a million steps and 116 of 2^16 (about 20 million),
     * where a limit of max_steps for every run costs up to 128 million. */
    static const char src[] =
        "#include <pthread.h>\n"
        "int flag, x;\n"
        "void __VERIFIER_atomic_wait(void) { while (flag == 0) ; }\n"
        "void *spin(void *a) { __VERIFIER_atomic_wait(); return a; }\n"
        "void *idle(void *a) { return a; }\n"
        "int main(void)\n"
        "{\n"
        "    pthread_t t;\n"
        "    pthread_create(&t, 0, idle, 0);\n"
        "    pthread_create(&t, 0, idle, 0);\n"
        "    pthread_create(&t, 0, spin, 0); /* no room: runs at once */\n"
        "    x = 1;\n"
        "    return 0;\n"
        "}\n";
    lowered *l = lower("spin.c", src, true);
    explore_opts o;
    explore_opts_init(&o);
    o.max_runs = 128;
    o.max_steps = 1000000;
    trace_result r;
    explore_stats st;
    assert_int_equal(explore_check_stats(&l->p, l->entry, &o, &r, &st), TRACE_UNKNOWN);
    if (getenv("RAVEL_EXPLORE_VERBOSE"))
        fprintf(stderr, "--- %llu steps, %llu runs at the limit, %llu to the end\n",
                (unsigned long long)st.steps, (unsigned long long)st.limits,
                (unsigned long long)st.done);
    assert_int_equal(st.runs, 128);
    assert_true(st.limits >= 32); /* most runs do spin */
    assert_true(st.done > 0);
    assert_true(st.steps < 24000000);
    trace_result_free(&r);
    unlower(l);
}

static void test_unsupported(void **state)
{
    (void)state;
    lowered *l = lower("lost.c", lost_update, false); /* not translated */
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 10, 0, &r, &st), TRACE_UNKNOWN);
    assert_non_null(strstr(r.reason, "unsupported construct"));
    assert_true(r.reason_loc.line > 0);
    trace_result_free(&r);
    unlower(l);
}

static void test_semantics(void **state)
{
    (void)state;
    /* structs, unions, bit-fields, arrays, pointers, malloc, calls through
     * pointers, recursion and floating point, computed as C does: the one
     * failing assertion is the last (line 40) */
    static const char src[] =
        "#include <assert.h>\n"
        "#include <stdlib.h>\n"
        "struct s { char c; int i; struct s *next; unsigned b : 3; int sb : 4; };\n"
        "union u { unsigned x; unsigned char b[4]; };\n"
        "static int twice(int x) { return 2 * x; }\n"
        "static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
        "static struct s mk(int i) { struct s r = { 'a', i, 0, 5, -3 }; return r; }\n"
        "int g[3] = { 1, 2, 3 };\n"
        "int main(void)\n"
        "{\n"
        "    struct s a = mk(7), b;\n"
        "    b = a;\n"
        "    assert(b.i == 7 && b.c == 'a' && b.b == 5 && b.sb == -3);\n"
        "    b.b = 9; /* truncated to 3 bits */\n"
        "    assert(b.b == 1 && a.b == 5);\n"
        "    union u x; x.x = 0x01020304u;\n"
        "    assert(x.b[0] == 4 && x.b[3] == 1);\n"
        "    int *p = g; p += 2;\n"
        "    assert(*p == 3 && p - g == 2);\n"
        "    int (*f)(int) = twice;\n"
        "    assert(f(21) == 42 && fact(5) == 120);\n"
        "    struct s *n = malloc(sizeof *n);\n"
        "    n->next = &a; n->next->i = 9;\n"
        "    assert(a.i == 9);\n"
        "    unsigned char uc = 250; uc += 10;\n"
        "    assert(uc == 4);\n"
        "    assert(-7 / 2 == -3 && -7 % 2 == -1 && (-8 >> 1) == -4);\n"
        "    unsigned u = 0; u--;\n"
        "    assert(u == 4294967295u && (int)u == -1);\n"
        "    double d = 0.1 + 0.2;\n"
        "    assert(d != 0.3 && (float)d == 0.3f && (int)2.9 == 2);\n"
        "    long long ll = -1; unsigned long long ull = (unsigned long long)ll;\n"
        "    assert(ull == 18446744073709551615ull && (ll < 0));\n"
        "    signed char sc = (signed char)200;\n"
        "    assert(sc == -56);\n"
        "    int *q = calloc(4, sizeof *q);\n"
        "    assert(q[3] == 0);\n"
        "    free(q); free(n);\n"
        "    assert(g[0] + g[1] == 3);\n"
        "    assert(b.i == 6);\n" /* line 40: fails, b.i is 7 */
        "    return 0;\n"
        "}\n";
    lowered *l = lower("sem.c", src, false);
    trace_result r;
    explore_stats st;
    assert_int_equal(explore(l, 50, 0, &r, &st), TRACE_BUG);
    if (r.loc.line != 40) {
        base_strbuf out = { 0 };
        trace_format_result(&out, &l->p, &r);
        fprintf(stderr, "%s", base_strbuf_cstr(&out));
        base_strbuf_free(&out);
    }
    assert_int_equal(r.loc.line, 40);
    /* the struct copy is shown as bmc shows it */
    bool shown = false;
    for (size_t i = 0; i < r.nsteps; i++)
        if (r.steps[i].kind == TRACE_STEP_ASSIGN && strcmp(r.steps[i].lhs, "b") == 0)
            shown |= strstr(r.steps[i].value.text, ".i = 7") != NULL;
    assert_true(shown);
    trace_result_free(&r);
    unlower(l);
}

/* bmc's cases: where bmc finds a bug (quickly), the explorer must too;
 * where bmc proves the program safe for every input, it must not. */
static void test_agree_with_bmc(void **state)
{
    (void)state;
    const char *data = getenv("RAVEL_TEST_DATA");
    /* semantics2.c computes with __int128, which the explorer does not
     * implement (undefined behaviour ends paths in both engines alike) */
    static const struct { const char *name; unsigned unwind; bool bug; } cases[] = {
        { "nondet_input.c", 3, true },  { "nondet_even.c", 3, false },
        { "wrap_safe.c", 3, false },    { "unsigned_cmp.c", 3, false },
        { "signed_cmp.c", 3, true },    { "pointers.c", 6, false },
        { "pointers_bug.c", 3, true },  { "list.c", 5, true },
        { "loop5.c", 6, false },        { "loop5_bug.c", 6, true },
        { "continue.c", 5, false },     { "recursion.c", 4, false },
        { "recursion_bug.c", 4, true }, { "funptr.c", 3, true },
        { "assume.c", 3, true },        { "assume_safe.c", 3, false },
        { "aggregates.c", 6, false },   { "semantics.c", 5, true },
        { "semantics2.c", 5, true },    { "choice.c", 3, true },
        { "bigarray.c", 3, true },      { "kiss_like.c", 3, true },
        { "external.c", 3, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/bmc/cases/%s", data ? data : "tests", cases[i].name);
        lowered *l = lower(path, NULL, false);
        bmc_opts bo;
        bmc_opts_init(&bo);
        bo.unwind = cases[i].unwind;
        bo.timeout_s = 60;
        trace_result b, r;
        explore_stats st;
        trace_verdict bv = bmc_check(&l->p, l->entry, &bo, &b);
        trace_verdict ev = explore(l, 100000, 3, &r, &st);
        if (getenv("RAVEL_EXPLORE_VERBOSE"))
            fprintf(stderr, "%s: bmc %s, explore %s after %llu runs%s%s\n", cases[i].name,
                    trace_verdict_name(bv), trace_verdict_name(ev), (unsigned long long)st.runs,
                    r.reason ? ": " : "", r.reason ? r.reason : "");
        assert_int_equal(bv, cases[i].bug ? TRACE_BUG : TRACE_SAFE_WITHIN_BOUNDS);
        if (strcmp(cases[i].name, "semantics2.c") == 0) {
            assert_int_equal(ev, TRACE_UNKNOWN);
            assert_non_null(strstr(r.reason, "wider than 64 bits"));
        } else if (cases[i].bug) {
            if (ev != TRACE_BUG)
                fail_msg("%s: bmc finds a bug, explore does not", cases[i].name);
            assert_int_equal(r.loc.line, b.loc.line);
        } else {
            assert_int_equal(ev, TRACE_UNKNOWN);
        }
        trace_result_free(&b);
        trace_result_free(&r);
        unlower(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lost_update),   cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_locked_counter), cmocka_unit_test(test_pool_constant),
        cmocka_unit_test(test_undefined_abandons), cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_spinning_runs_cut),
        cmocka_unit_test(test_semantics),     cmocka_unit_test(test_agree_with_bmc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
