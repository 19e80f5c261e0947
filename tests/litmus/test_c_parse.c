/* Unit tests for litmus/c_parse: how herd7's C litmus tests are lowered to
 * the LISA instructions of litmus/test.h (modes as annotations, locals as
 * registers, if as branches, compare-exchange as LITMUS_I_CAS), and every
 * error with its exact file:line:col message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/c_parse.h"
#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"

static base_intern_pool syms;
static int mismatches;

static litmus_test *parse(const char *src, base_diag *d)
{
    base_diag_init(d);
    return litmus_parse_c("t.litmus", src, strlen(src), &syms, d);
}

static void expect_error(const char *src, const char *want)
{
    base_diag d;
    litmus_test *t = parse(src, &d);
    if (t) {
        litmus_test_free(t);
        fail_msg("expected an error for:\n%s", src);
    }
    assert_true(d.count >= 1);
    char msg[512];
    base_diag_format(&d.msgs[d.count - 1], msg, sizeof msg);
    if (strcmp(msg, want) != 0) {
        print_error("for:\n%s\nwanted: %s\n   got: %s\n", src, want, msg);
        mismatches++;
    }
    base_diag_free(&d);
}

static const char *S(const litmus_test *t, base_sym s)
{
    return base_sym_str(t->syms, s);
}

static const char *mode(const litmus_test *t, const litmus_annots *a)
{
    return a->count == 1 ? S(t, a->syms[0]) : "?";
}

static void test_mp_lowering(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("C MP\n\"doc\"\nVariant=S128\n(* comment\n { not the init *)\n"
                           "{ [x] = 0; int y = 2; z; }\n"
                           "P0 (atomic_int* x, volatile int *y) {\n"
                           "  *y = 1;\n"
                           "  atomic_store_explicit(x, 1, memory_order_release);\n"
                           "}\n"
                           "P1(atomic_int *x, int* y) {\n"
                           "  int r0 = atomic_load_explicit(x, memory_order_acquire);\n"
                           "  int r1;\n"
                           "  if (r0 == 1) { r1 = *y; } else r1 = atomic_load(x);\n"
                           "}\n"
                           "exists (1:r0=1 /\\ 1:r1 != 0 \\/ [y]=2)\n", &d);
    assert_non_null(t);
    assert_int_equal(d.count, 0);
    assert_string_equal(t->arch, "C");
    assert_string_equal(t->name, "MP");
    assert_string_equal(t->doc, "doc");
    assert_int_equal(t->nlocs, 3);
    assert_int_equal(t->locs[1].init.num, 2);
    assert_int_equal(t->nthreads, 2);
    const litmus_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    assert_int_equal(p0->ninstrs, 2);
    assert_int_equal(p0->instrs[0].kind, LITMUS_I_WRITE);
    assert_string_equal(mode(t, &p0->instrs[0].annots), "na");
    assert_int_equal(p0->instrs[0].value.kind, LITMUS_OPND_IMM);
    assert_string_equal(mode(t, &p0->instrs[1].annots), "rel");
    assert_int_equal(p0->instrs[1].loc.line, 9);
    assert_int_equal(p0->instrs[1].loc.col, 3);
    /* r0 = load; r1 = 0; #1 = r0 == 1 == 0; b #1 ELSE; r1 = *y; b END;
     * ELSE: r1 = load(x) (sc); END */
    assert_int_equal(p1->ninstrs, 7);
    assert_int_equal(p1->instrs[0].kind, LITMUS_I_READ);
    assert_string_equal(S(t, p1->regs[p1->instrs[0].reg]), "r0");
    assert_string_equal(mode(t, &p1->instrs[0].annots), "acq");
    assert_int_equal(p1->instrs[1].kind, LITMUS_I_MOV);
    assert_int_equal(p1->instrs[2].kind, LITMUS_I_MOV);
    assert_int_equal(p1->instrs[3].kind, LITMUS_I_BRANCH);
    assert_true(p1->instrs[3].has_reg);
    assert_int_equal(p1->instrs[3].target, 6);
    assert_int_equal(p1->instrs[4].kind, LITMUS_I_READ);
    assert_string_equal(mode(t, &p1->instrs[4].annots), "na");
    assert_int_equal(p1->instrs[5].kind, LITMUS_I_BRANCH);
    assert_false(p1->instrs[5].has_reg);
    assert_int_equal(p1->instrs[5].target, 7);
    assert_string_equal(mode(t, &p1->instrs[6].annots), "sc");
    /* (a /\ ~b) \/ c, observables 1:r0, 1:r1, y */
    assert_int_equal(t->cond->kind, LITMUS_P_OR);
    assert_int_equal(t->cond->lhs->rhs->kind, LITMUS_P_NOT);
    assert_int_equal(t->nobs, 3);
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_rmw_and_cas(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("C rmw\n{}\nP0 (atomic_int* x, atomic_int* e) {\n"
                           "  int a = 0;\n"
                           "  a = atomic_fetch_add_explicit(x, a + 1, memory_order_acq_rel);\n"
                           "  int ok = atomic_compare_exchange_weak_explicit(x, e, 3, memory_order_release,"
                           " memory_order_relaxed);\n"
                           "  atomic_thread_fence(memory_order_seq_cst);\n"
                           "}\n", &d);
    assert_non_null(t);
    const litmus_thread *p = &t->threads[0];
    /* a = 0; #1 = a + 1; rmw #2; a = #2; read e; cas (ok flag #3); b #3;
     * w e; ok = #3; fence */
    assert_int_equal(p->ninstrs, 10);
    assert_int_equal(p->instrs[0].kind, LITMUS_I_MOV);
    p = &(litmus_thread){ .instrs = p->instrs + 1, .regs = p->regs };
    assert_int_equal(p->instrs[1].kind, LITMUS_I_RMW);
    assert_string_equal(mode(t, &p->instrs[1].annots), "acq_rel");
    assert_int_equal(p->instrs[1].expr->op, LITMUS_OP_ADD);
    assert_int_equal(p->instrs[1].expr->lhs->opnd.reg, p->instrs[1].reg);
    assert_int_equal(p->instrs[2].kind, LITMUS_I_MOV);
    assert_int_equal(p->instrs[3].kind, LITMUS_I_READ);
    assert_string_equal(mode(t, &p->instrs[3].annots), "na");
    const litmus_instr *cas = &p->instrs[4];
    assert_int_equal(cas->kind, LITMUS_I_CAS);
    assert_true(cas->weak);
    assert_string_equal(mode(t, &cas->annots), "rel");
    assert_string_equal(mode(t, &cas->fail_annots), "rlx");
    assert_int_equal(cas->cmp.reg, p->instrs[3].reg);
    assert_int_equal(S(t, p->regs[cas->ok_reg])[0], '#'); /* a temporary */
    assert_int_equal(p->instrs[5].kind, LITMUS_I_BRANCH);
    assert_int_equal(p->instrs[5].reg, cas->ok_reg);
    assert_int_equal(p->instrs[5].target, 7 + 1);
    assert_int_equal(p->instrs[6].kind, LITMUS_I_WRITE);
    assert_int_equal(p->instrs[6].value.reg, cas->reg);
    assert_int_equal(p->instrs[7].kind, LITMUS_I_MOV);
    assert_string_equal(S(t, p->regs[p->instrs[7].reg]), "ok");
    assert_int_equal(p->instrs[7].expr->opnd.reg, cas->ok_reg);
    assert_int_equal(p->instrs[8].kind, LITMUS_I_FENCE);
    /* seq_cst: sc, and mb (x86's MFENCE, for -m tso) */
    assert_int_equal(p->instrs[8].annots.count, 2);
    assert_string_equal(S(t, p->instrs[8].annots.syms[0]), "sc");
    assert_string_equal(S(t, p->instrs[8].annots.syms[1]), "mb");
    /* No condition: herd7's forall (true). */
    assert_int_equal(t->quant, LITMUS_Q_FORALL);
    assert_int_equal(t->cond->kind, LITMUS_P_TRUE);
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_unsequenced_warning(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("C w\n{}\nP0 (int* x, int* y) {\n  int t = *x + *y;\n  int u = *x && *y;\n}\n"
                           "exists (0:t=0)\n", &d);
    assert_non_null(t);
    assert_int_equal(d.count, 1); /* `&&` is sequenced */
    assert_int_equal(d.msgs[0].sev, BASE_SEV_WARNING);
    char msg[512];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "t.litmus:4:14: warning: the memory accesses on both sides of '+' are "
                             "unsequenced in C; ravel performs them left to right");
    litmus_test_free(t);
    base_diag_free(&d);
    /* A plain access through an atomic type is non-atomic, with a warning;
     * an atomic call through it, or a plain access to an int, has none. */
    t = parse("C w\n{}\nP0 (const atomic_int* x, int* y) {\n  int r = *x;\n  *y = atomic_load(x);\n}\n", &d);
    assert_non_null(t);
    assert_int_equal(d.count, 1);
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "t.litmus:4:12: warning: '*x' is a non-atomic access although 'x' points to "
                             "an atomic type (C would make it seq_cst; use atomic_load/atomic_store for that)");
    assert_string_equal(mode(t, &t->threads[0].instrs[0].annots), "na");
    litmus_test_free(t);
    base_diag_free(&d);
}

/* Decides src under c11 and returns the observation. */
static litmus_observation decide(const char *src, bool *undefined)
{
    base_diag d;
    litmus_test *t = parse(src, &d);
    assert_non_null(t);
    litmus_options opt = { .model = logic_mm_find("c11"),
                           .limits = { .unroll = 2, .max_events = 5000, .max_values = 64 } };
    litmus_result res;
    assert_true(litmus_simulate(t, &opt, &res, &d));
    litmus_observation o = res.obs;
    *undefined = res.undefined;
    litmus_result_free(&res);
    litmus_test_free(t);
    base_diag_free(&d);
    return o;
}

static void test_semantics(void **state)
{
    (void)state;
    bool undef;
    /* r = fetch_add(x, r) adds the old r, not the value read. */
    assert_int_equal(decide("C f\n{ x = 5; }\nP0 (atomic_int* x) {\n  int r = 2;\n"
                            "  r = atomic_fetch_add(x, r);\n}\nforall (x=7 /\\ 0:r=5)\n", &undef),
                     LITMUS_OBS_ALWAYS);
    /* A strong CAS that fails writes what it read to the expected location. */
    assert_int_equal(decide("C c\n{ x = 1; e = 0; }\nP0 (atomic_int* x, int* e) {\n"
                            "  int ok = atomic_compare_exchange_strong(x, e, 2);\n}\n"
                            "forall (0:ok=0 /\\ e=1 /\\ x=1)\n", &undef),
                     LITMUS_OBS_ALWAYS);
    /* Arithmetic and comparisons. */
    assert_int_equal(decide("C a\n{}\nP0 (int* x) {\n  int a = -3;\n  int b = (a * 2 - ~a) | 1;\n"
                            "  int c = b < a && b >= -7 && !(a > 0) && a <= -3;\n}\n"
                            "forall (0:b=-7 /\\ 0:c=1)\n", &undef),
                     LITMUS_OBS_ALWAYS);
    assert_false(undef);
    /* Unsynchronised plain accesses race. */
    assert_int_equal(decide("C r\n{}\nP0 (int* x) { *x = 1; }\nP1 (int* x) { int r = *x; }\n"
                            "exists (1:r=1)\n", &undef),
                     LITMUS_OBS_SOMETIMES);
    assert_true(undef);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", "t.litmus:1:1: error: expected 'C' on the first line, found end of file");
    expect_error("C\n", "t.litmus:1:1: error: the test has no name (expected 'C <name>')");
    expect_error("C t\n", "t.litmus:2:1: error: missing init block ('{ ... }')");
    expect_error("C t\n(* open", "t.litmus:2:1: error: unterminated comment");
    expect_error("C t\n{ x = 1 }\n", "t.litmus:3:1: error: expected a thread like 'P0 (atomic_int* x) { ... }', "
                                     "found end of file");
    expect_error("C t\n{ 0:r0 = 1; }\nP0(int* x) {\n  int r0;\n}\n",
                 "t.litmus:4:7: error: unsupported: 'r0' is declared in the thread and given a value in "
                 "the init block");
    expect_error("C t\n{ 0:r0; }\n", "t.litmus:2:7: error: expected '=' and a value after the thread "
                                     "variable");
    expect_error("C t\n{ 0:r0 = 1; 0:r0 = 2; }\n", "t.litmus:2:15: error: the init block gives '0:r0' a "
                                                  "value twice");
    expect_error("C t\n{ int 0:5; }\n", "t.litmus:2:9: error: expected a variable after ':', found '5'");
    expect_error("C t\n{ x = 0 y = 1 }\n", "t.litmus:2:9: error: expected ';' or '}' in the init block, found 'y'");
    expect_error("C t\n{}\nP0(int* x) {\n  for (;;) ;\n}\n", "t.litmus:4:3: error: unsupported: loops ('for')");
    expect_error("C t\n{}\nP0(int* x) {\n  do { } while (1);\n}\n", "t.litmus:4:3: error: unsupported: loops ('do')");
    expect_error("C t\n{}\nP0(int* x) {\n  mtx_lock(x);\n}\n",
                 "t.litmus:4:3: error: unsupported: locks (call to 'mtx_lock')");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = *x % 2;\n}\n", "t.litmus:4:14: error: unsupported: operator '%'");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = *x << 2;\n}\n", "t.litmus:4:14: error: unsupported: operator '<<'");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = *x ? 1 : 2;\n}\n",
                 "t.litmus:4:14: error: unsupported: the conditional operator '?:'");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = x[1];\n}\n", "t.litmus:4:12: error: unsupported: '['");
    expect_error("C t\n{}\nP0(int* x) {\n  x = 0;\n}\n",
                 "t.litmus:4:3: error: unsupported: assigning to the pointer parameter 'x' (did you mean '*x'?)");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = *(x);\n  int s = **x;\n}\n",
                 "t.litmus:5:12: error: unsupported: this pointer expression (ravel accesses a parameter or a "
                 "local holding an address)");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = atomic_load_explicit(x);\n}\n",
                 "t.litmus:4:11: error: 'atomic_load_explicit' takes 2 arguments, not 1");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = atomic_load_explicit(x, 1);\n}\n",
                 "t.litmus:4:35: error: expected a memory_order_* constant");
    expect_error("C t\n{}\nP0(int* x) {\n  int r = atomic_load_explicit(x, memory_order_release);\n}\n",
                 "t.litmus:4:35: error: 'memory_order_release' is not a valid order for 'atomic_load_explicit'");
    expect_error("C t\n{}\nP0(int* x) {\n  atomic_store(x, memory_order_relaxed);\n}\n",
                 "t.litmus:4:19: error: a memory order is not a value here");
    expect_error("C t\n{}\nP0(int* x) {\n  atomic_compare_exchange_strong(x, 0, 1);\n}\n",
                 "t.litmus:4:37: error: unsupported: the expected value of a compare-exchange must be a "
                 "pointer parameter");
    expect_error("C t\n{}\nP0(int* x, int* x) {\n}\n", "t.litmus:3:17: error: parameter 'x' appears twice");
    expect_error("C t\n{}\nP0(int* x) {\n  int x = 1;\n}\n",
                 "t.litmus:4:7: error: unsupported: local 'x' hides the parameter of the same name");
    expect_error("C t\n{}\nP0(int* x) {\n  short s;\n}\n",
                 "t.litmus:4:3: error: unsupported: type 'short' (ravel's values are unbounded integers)");
    expect_error("C t\n{}\nP0(int* x) {\n  *x = 1;\n", "t.litmus:5:1: error: unexpected end of file in a block "
                                                       "(missing '}')");
    expect_error("C t\n{}\nP0(int* x) {\n  else *x = 1;\n}\n", "t.litmus:4:3: error: 'else' without 'if'");
    expect_error("C t\n{}\nP0(int* x) {\n  L: *x = 1;\n}\n", "t.litmus:4:3: error: unsupported: labels");
    expect_error("C t\n{}\nP0(int* x) {\n  return;\n}\n", "t.litmus:4:3: error: unsupported: 'return' statements");
    expect_error("C t\n{}\nP0(int* x) {\n  *x++;\n}\n", "t.litmus:4:5: error: unsupported: '++'");
    expect_error("C t\n{}\nP0(int* x) {\n}\nP0(int* y) {\n}\n",
                 "t.litmus:5:1: error: threads must be named P0, P1, ... in order; expected P1");
    expect_error("C t\n{}\nP0(int* x) {\n}\nint main() {}\n",
                 "t.litmus:5:1: error: expected the next thread (P1) or the final condition, found 'int'");
    expect_error("C t\n{}\nP0(int* x) {\n}\nexists (2:r0=1)\n",
                 "t.litmus:5:9: error: the condition names thread '2', which the test does not have");
    expect_error("C t\n{}\nP0(int* x) {\n}\nexists (x=1) exists (x=2)\n",
                 "t.litmus:5:14: error: unexpected 'exists' after the final condition");
    expect_error("C t\n{}\nP0(int* x) {\n}\nexists (x<1)\n",
                 "t.litmus:5:10: error: expected '=' or '!=' in the condition, found '<'");
    expect_error("C t\n{ x = 99999999999999999999; }\n", "t.litmus:2:7: error: integer too large");
    expect_error("C t\n{ x = 0x; }\n", "t.litmus:2:7: error: malformed number");
    expect_error("C t\n{ x = 1; }\nP0(int* x) {\n  *x = 1 @ 2;\n}\n", "t.litmus:4:10: error: unexpected character '@'");
    assert_int_equal(mismatches, 0);
}

/* Every prefix of a valid test, and the test with a NUL byte anywhere,
 * parses or fails cleanly (ASan and the leak checker watch). */
static void test_prefixes_and_nul(void **state)
{
    (void)state;
    const char *src = "C p\n(* c *)\n{ [x] = 0; int y = 1; }\n"
                      "P0 (atomic_int* x, int* y) {\n"
                      "  int r0 = atomic_load_explicit(x, memory_order_acquire) && *y;\n"
                      "  if (r0 != 0) { atomic_store(x, 2); } else { int ok = "
                      "atomic_compare_exchange_strong(x, y, 3); }\n"
                      "}\nlocations [x;]\nexists (0:r0=1 /\\ ~x=2)\n";
    size_t n = strlen(src);
    char *buf = malloc(n + 1);
    for (size_t k = 0; k <= n; k++) {
        base_diag d;
        base_diag_init(&d);
        litmus_test *t = litmus_parse_c("t.litmus", src, k, &syms, &d);
        if (k == n)
            assert_non_null(t);
        if (t)
            litmus_test_free(t);
        else
            assert_true(d.errors == 1);
        base_diag_free(&d);
        memcpy(buf, src, n);
        if (k < n) {
            buf[k] = '\0';
            base_diag_init(&d);
            t = litmus_parse_c("t.litmus", buf, n, &syms, &d);
            assert_null(t);
            base_diag_free(&d);
        }
    }
    free(buf);
}

/* Left-deep chains (`1+1+...`, `a /\ b /\ ...`) are as deep as they are
 * long: beyond the limits they are errors, not stack overflows. */
static void test_limits(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *src = malloc(16 * N + 256);
    /* 400 terms make an expression of height 400, the limit; 100000 are an error. */
    for (int n = 400; n <= N; n = n == 400 ? N : N + 1) {
        char *w = src + sprintf(src, "C t\n{}\nP0 (int* x) {\n  int r = 1");
        for (int i = 1; i < n; i++)
            w += sprintf(w, "+1");
        sprintf(w, ";\n}\nexists (0:r=%d)\n", n);
        base_diag d;
        litmus_test *t = parse(src, &d);
        if (n == 400) {
            assert_non_null(t);
            litmus_test_free(t);
        } else {
            assert_null(t);
            char msg[512];
            base_diag_format(&d.msgs[0], msg, sizeof msg);
            assert_string_equal(msg, "t.litmus:4:810: error: expression nested too deeply");
        }
        base_diag_free(&d);
    }
    /* 2000 operators in a condition are fine, 100000 an error. */
    for (int n = 2001; n <= N; n = n == 2001 ? N : N + 1) {
        char *w = src + sprintf(src, "C t\n{}\nP0 (int* x) {\n}\nexists (x=0");
        for (int i = 1; i < n; i++)
            w += sprintf(w, " /\\ x=0");
        sprintf(w, ")\n");
        base_diag d;
        litmus_test *t = parse(src, &d);
        if (n == 2001) {
            assert_non_null(t);
            litmus_test_free(t);
        } else {
            assert_null(t);
            char msg[512];
            base_diag_format(&d.msgs[0], msg, sizeof msg);
            assert_string_equal(msg, "t.litmus:5:14013: error: condition too long (more than 2000 operators)");
        }
        base_diag_free(&d);
    }
    free(src);
}

static void test_load_dispatch(void **state)
{
    (void)state;
    char path[] = "/tmp/ravel-c-parse-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("\n\nC t\n{}\nP0(int* x) {\n  *x = 1;\n}\nexists (x=1)\n", f);
    fclose(f);
    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_load(path, &syms, &d);
    assert_non_null(t);
    assert_string_equal(t->arch, "C");
    litmus_test_free(t);
    base_diag_free(&d);
    remove(path);
}

static int setup(void **state)
{
    (void)state;
    base_intern_init(&syms);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    base_intern_free(&syms);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp_lowering),
        cmocka_unit_test(test_rmw_and_cas),
        cmocka_unit_test(test_unsequenced_warning),
        cmocka_unit_test(test_semantics),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_prefixes_and_nul),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_load_dispatch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
