/* Unit tests for litmus/lisa_parse: the AST of well-formed tests, and every
 * error the parser reports, each with its exact file:line:col message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/lisa_parse.h"

static base_intern_pool syms;
static int mismatches;

static litmus_test *parse(const char *src, base_diag *d)
{
    base_diag_init(d);
    return litmus_parse_lisa("t.litmus", src, strlen(src), &syms, d);
}

/* Parses src, expects failure with exactly `want` as the first message. */
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
    base_diag_format(&d.msgs[0], msg, sizeof msg);
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

static void test_sb_ast(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("LISA store buffer\n\"doc here\"\nCycle=Fre PodWR\n{ x = 0; y=1; 0:r5 = x; }\n"
                           " P0       | P1       ;\n w[rel,acq] x 1  | w[] y r2  ;\n r[] r0 y | r[once] r0 x+r1 ;\n"
                           "exists (0:r0=0 /\\ P1:r0=0 \\/ ~[x]=1)\n", &d);
    assert_non_null(t);
    assert_string_equal(t->name, "store buffer");
    assert_string_equal(t->arch, "LISA");
    assert_string_equal(t->doc, "doc here");
    assert_int_equal(t->nthreads, 2);
    assert_int_equal(t->nlocs, 2);
    assert_string_equal(S(t, t->locs[0].name), "x");
    assert_int_equal(t->locs[1].init.num, 1);
    const litmus_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    assert_int_equal(p0->ninstrs, 2);
    assert_int_equal(p0->instrs[0].kind, LITMUS_I_WRITE);
    assert_int_equal(p0->instrs[0].annots.count, 2);
    assert_true(p0->instrs[0].annots.syms[0] < p0->instrs[0].annots.syms[1]); /* sorted */
    assert_int_equal(p0->instrs[0].loc.line, 6);
    assert_int_equal(p0->instrs[0].loc.col, 2);
    assert_int_equal(p0->ninits, 1);
    assert_int_equal(p0->inits[0].value.kind, LITMUS_VAL_ADDR);
    assert_int_equal(p1->instrs[0].value.kind, LITMUS_OPND_REG);
    assert_int_equal(p1->instrs[1].kind, LITMUS_I_READ);
    assert_true(p1->instrs[1].addr.has_offset);
    assert_int_equal(p1->instrs[1].addr.offset.kind, LITMUS_OPND_REG);
    /* (a /\ b) \/ ~c */
    assert_int_equal(t->cond->kind, LITMUS_P_OR);
    assert_int_equal(t->cond->lhs->kind, LITMUS_P_AND);
    assert_int_equal(t->cond->rhs->kind, LITMUS_P_NOT);
    assert_int_equal(t->cond->rhs->lhs->kind, LITMUS_P_LOC);
    /* Observables: registers by thread, then locations. */
    assert_int_equal(t->nobs, 3);
    assert_true(t->obs[0].is_reg && t->obs[0].thread == 0);
    assert_true(t->obs[1].is_reg && t->obs[1].thread == 1);
    assert_false(t->obs[2].is_reg);
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_instruction_forms(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("Bell forms\n{}\n P0 ;\n rmw[rlx] r1 (add r1 1) x ;\n mov r2 (ne (xor r1 r1) 0) ;\n"
                           " b[] r2 END ;\n f[mb] ;\n call[sync] ;\n b[] END ;\n END: ;\n"
                           "(* a comment (* nested *) *)\nlocations [y; 0:r3;]\nfilter (true)\nforall (0:r1=0 => false)\n",
                           &d);
    assert_non_null(t);
    const litmus_thread *p = &t->threads[0];
    assert_int_equal(p->ninstrs, 7);
    assert_int_equal(p->instrs[0].kind, LITMUS_I_RMW);
    assert_int_equal(p->instrs[0].expr->op, LITMUS_OP_ADD);
    assert_int_equal(p->instrs[1].kind, LITMUS_I_MOV);
    assert_int_equal(p->instrs[1].expr->op, LITMUS_OP_NE);
    assert_int_equal(p->instrs[1].expr->lhs->op, LITMUS_OP_XOR);
    assert_int_equal(p->instrs[2].kind, LITMUS_I_BRANCH);
    assert_true(p->instrs[2].has_reg);
    assert_int_equal(p->instrs[2].target, 6);
    assert_int_equal(p->instrs[3].kind, LITMUS_I_FENCE);
    assert_int_equal(p->instrs[4].kind, LITMUS_I_CALL);
    assert_string_equal(S(t, p->instrs[4].label), "sync");
    assert_false(p->instrs[5].has_reg);
    assert_int_equal(p->instrs[6].kind, LITMUS_I_NOP);
    assert_int_equal(t->quant, LITMUS_Q_FORALL);
    assert_non_null(t->filter);
    assert_int_equal(t->cond->kind, LITMUS_P_IMPLIES);
    assert_int_equal(t->nobs, 3); /* 0:r1, 0:r3, y */
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_not_exists_and_label_with_instruction(void **state)
{
    (void)state;
    base_diag d;
    litmus_test *t = parse("LISA q\n{x=0}\n P0 ;\n L: M: r[] r0 x ;\n b[] r0 M ;\n~exists (0:r0=1)", &d);
    assert_non_null(t);
    assert_int_equal(t->quant, LITMUS_Q_NOT_EXISTS);
    assert_int_equal(t->threads[0].instrs[1].target, 0);
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", "t.litmus:1:1: error: expected 'LISA' or 'X86' on the first line, found end of file");
    expect_error("PPC t\n", "t.litmus:1:1: error: expected 'LISA' or 'X86' on the first line, found 'PPC'");
    expect_error("X86 t\n", "t.litmus:2:1: error: expected '{' to open the init block, found end of file");
    expect_error("X86 t\n{}\n P0 ;\n NOP ;\nexists (x=1)\n",
                 "t.litmus:4:2: error: unsupported X86 instruction 'NOP'");
    expect_error("X86 t\n{}\n P0 ;\n MOV EAX,$x ;\nexists (x=1)\n",
                 "t.litmus:4:10: error: expected an immediate like $1, found '$x'");
    expect_error("X86 t\n{}\n P0 ;\n XCHG EAX,EBX ;\nexists (x=1)\n",
                 "t.litmus:4:2: error: XCHG needs a memory operand and a register");
    expect_error("X86 t\n{}\n P0 ;\n ADD [x],$1 ;\nexists (x=1)\n",
                 "t.litmus:4:2: error: unsupported: ADD with a memory operand (only its LOCK form is supported)");
    expect_error("LISA\n{}\n", "t.litmus:1:1: error: the test has no name (expected 'LISA <name>')");
    expect_error("LISA t\n", "t.litmus:2:1: error: expected '{' to open the init block, found end of file");
    expect_error("LISA t\n{ x = 0; \n", "t.litmus:3:1: error: unexpected end of file in the init block");
    expect_error("LISA t\n{ x = 0 y = 1 }\n", "t.litmus:2:9: error: expected ';' or '}' in the init block, found 'y'");
    expect_error("LISA t\n{ 0:x = 1; }\n", "t.litmus:2:5: error: expected a register after '0:', found 'x'");
    expect_error("LISA t\n{ Q:r1 = 1; }\n", "t.litmus:2:3: error: expected a thread number like 0 or P0 before ':'");
    expect_error("LISA t\n{ x = ; }\n", "t.litmus:2:7: error: expected a value (an integer or a location), found ';'");
    expect_error("LISA t\n{ ; }\n 1 ;\n", "t.litmus:3:2: error: expected a thread name like P0, found '1'");
    expect_error("LISA t\n{}\n P1 ;\n", "t.litmus:3:2: error: threads must be named P0, P1, ... in order; expected P0");
    expect_error("LISA t\n{}\n P0 P1 ;\n", "t.litmus:3:5: error: expected '|' or ';' in the thread header, found 'P1'");
    expect_error("LISA t\n{ 3:r0 = 1; }\n P0 ;\n", "t.litmus:4:1: error: the init block names thread 3, which the test does not have");
    expect_error("LISA t\n{}\n P0 ;\n ld r0 x ;\n", "t.litmus:4:2: error: unknown instruction 'ld'");
    expect_error("LISA t\n{}\n P0 ;\n r[] x y ;\n", "t.litmus:4:6: error: expected a destination register, found 'x'");
    expect_error("LISA t\n{}\n P0 ;\n r[] r0 5 ;\n", "t.litmus:4:9: error: expected an address (a location or a register), found an integer");
    expect_error("LISA t\n{}\n P0 ;\n w[] x y+z 1 ;\n", "t.litmus:4:9: error: expected '|' or ';' after the instruction, found '+'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x+y 1 ;\n", "t.litmus:4:10: error: an address offset must be a register or an integer");
    expect_error("LISA t\n{}\n P0 ;\n w[a b] x 1 ;\n", "t.litmus:4:6: error: expected ',' or ']' in an annotation list, found 'b'");
    expect_error("LISA t\n{}\n P0 ;\n w[1] x 1 ;\n", "t.litmus:4:4: error: expected an annotation name or ']', found '1'");
    expect_error("LISA t\n{}\n P0 ;\n f[] {a}{b} ;\n", "t.litmus:4:6: error: fence label sets are not supported");
    expect_error("LISA t\n{}\n P0 ;\n call[] ;\n", "t.litmus:4:2: error: call needs exactly one name in brackets, as in call[sync]");
    expect_error("LISA t\n{}\n P0 ;\n mov r1 (pow r1 2) ;\n", "t.litmus:4:14: error: expected ')', found 'r1'");
    expect_error("LISA t\n{}\n P0 ;\n mov r1 (add r1) ;\n", "t.litmus:4:16: error: expected a register, an integer or a location, found ')'");
    expect_error("LISA t\n{}\n P0 ;\n b[] r1 ;\n", "t.litmus:4:9: error: expected a label after the branch, found ';'");
    expect_error("LISA t\n{}\n P0 ;\n b[] r1 L ;\nexists (true)\n", "t.litmus:4:2: error: undefined label 'L' in thread P0");
    expect_error("LISA t\n{}\n P0 ;\n L: ;\n L: ;\n", "t.litmus:5:2: error: label 'L' is defined twice in this thread");
    expect_error("LISA t\n{}\n P0 | P1 ;\n w[] x 1 ;\n", "t.litmus:4:2: error: row has 1 cell but the test has 2 threads");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 | w[] y 1 ;\n", "t.litmus:4:2: error: row has more cells than the test's 1 thread");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\n", "t.litmus:5:1: error: missing final condition (exists, ~exists or forall)");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (2:r0=1)\n", "t.litmus:5:9: error: the condition names thread '2', which the test does not have");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x 1)\n", "t.litmus:5:11: error: expected '=' in the condition, found '1'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x=1\n", "t.litmus:6:1: error: expected ')' in the condition, found end of file");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (0:x=1)\n", "t.litmus:5:11: error: expected a register after ':', found 'x'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (r0=1)\n", "t.litmus:5:9: error: expected a location or THREAD:REGISTER, found 'r0'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x=1) junk\n", "t.litmus:5:14: error: unexpected 'junk' after the final condition");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\n~forall (x=1)\n", "t.litmus:5:2: error: expected 'exists' after '~', found 'forall'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nlocations [x y]\n", "t.litmus:5:14: error: expected ';' or ']' in locations, found 'y'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nlocations x\n", "t.litmus:5:11: error: expected '[' after locations, found 'x'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\n(* open\n", "t.litmus:5:1: error: unterminated comment");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 99999999999999999999 ;\n", "t.litmus:4:8: error: integer too large");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 # ;\n", "t.litmus:4:10: error: unexpected character '#'");
    expect_error("LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x=\"a)\n", "t.litmus:5:11: error: unterminated string");
    assert_int_equal(mismatches, 0);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    static const char src[] = "LISA t\n{}\n P0 ;\n w[] x \0 ;\n";
    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_parse_lisa("t.litmus", src, sizeof src - 1, &syms, &d);
    assert_null(t);
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "t.litmus:4:8: error: unexpected NUL byte");
    base_diag_free(&d);
    static const char name[] = "LISA t\0x\n";
    base_diag_init(&d);
    assert_null(litmus_parse_lisa("t.litmus", name, sizeof name - 1, &syms, &d));
    base_diag_free(&d);
}

/* The input need not be NUL terminated: parse a prefix of a longer buffer. */
static void test_length_bounded(void **state)
{
    (void)state;
    const char *src = "LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x=1)GARBAGE";
    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_parse_lisa("t.litmus", src, strlen(src) - 7, &syms, &d);
    assert_non_null(t);
    litmus_test_free(t);
    base_diag_free(&d);
}

static void test_load(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    assert_null(litmus_load("/nonexistent/dir/t.litmus", &syms, &d));
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "/nonexistent/dir/t.litmus: error: cannot open file: No such file or directory");
    base_diag_free(&d);

    char path[] = "/tmp/ravel_test_load_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("\nPPC t\n", f);
    fclose(f);
    base_diag_init(&d);
    assert_null(litmus_load(path, &syms, &d));
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_non_null(strstr(msg, ":2:1: error: unsupported litmus architecture 'PPC' (ravel reads LISA, X86, AArch64, RISCV and C)"));
    base_diag_free(&d);
    remove(path);
}

/* A left-deep condition is as deep as it is long: 2000 operators are
 * fine, more an error (evaluating a much longer chain overflowed the stack). */
static void test_long_condition(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *src = malloc(16 * N + 64);
    for (int n = 2001; n <= N; n = n == 2001 ? N : N + 1) {
        char *w = src + sprintf(src, "LISA t\n{}\n P0 ;\n r[] r0 x ;\nexists (x=0");
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
        cmocka_unit_test(test_sb_ast),
        cmocka_unit_test(test_instruction_forms),
        cmocka_unit_test(test_not_exists_and_label_with_instruction),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_length_bounded),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_long_condition),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
