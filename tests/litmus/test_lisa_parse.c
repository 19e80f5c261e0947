/* Unit tests for litmus/lisa_lex and litmus/lisa_parse: the AST built from
 * well-formed LISA tests, and every error the front end reports, each
 * checked as the exact "file:line:col: error: message" line.
 *
 * Invariant: every test frees what it parses (see drop()), so the file is
 * clean under AddressSanitizer's leak checker. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "litmus/lisa_lex.h"
#include "litmus/lisa_parse.h"

static base_intern_pool syms;

/* litmus_parse_lisa mallocs the litmus_test itself and litmus_test_free only
 * frees its arena, so the struct is freed here too. */
static void drop(litmus_test *t)
{
    litmus_test_free(t);
    free(t);
}

static litmus_test *parse_n(const char *src, size_t len, base_diag *d)
{
    base_diag_init(d);
    return litmus_parse_lisa("t.litmus", src, len, &syms, d);
}

/* Parses src, which must be accepted without any diagnostic. */
static litmus_test *ok(const char *src)
{
    base_diag d;
    litmus_test *t = parse_n(src, strlen(src), &d);
    if (!t || d.count) {
        base_diag_print(&d, stderr);
        fail_msg("expected a clean parse of:\n%s", src);
    }
    base_diag_free(&d);
    return t;
}

/* Parses src[0..len), which must fail with exactly `want` as the first
 * diagnostic. */
static void err_n(const char *src, size_t len, const char *want)
{
    base_diag d;
    litmus_test *t = parse_n(src, len, &d);
    if (t) {
        drop(t);
        fail_msg("expected an error for:\n%s", src);
    }
    assert_true(d.count >= 1);
    char msg[512];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    if (strcmp(msg, want) != 0)
        fail_msg("for:\n%s\nwanted: %s\n   got: %s", src, want, msg);
    base_diag_free(&d);
}

static void err(const char *src, const char *want) { err_n(src, strlen(src), want); }

static const char *S(base_sym s) { return base_sym_str(&syms, s); }
static base_sym sym(const char *s) { return base_intern_cstr(&syms, s); }

/* The register of thread th named name. */
static uint32_t reg_index(const litmus_test *t, uint32_t th, const char *name)
{
    for (uint32_t i = 0; i < t->threads[th].nregs; i++)
        if (t->threads[th].regs[i] == sym(name))
            return i;
    fail_msg("thread %u has no register %s", th, name);
    return UINT32_MAX;
}

static uint32_t loc_index(const litmus_test *t, const char *name)
{
    uint32_t l = litmus_test_find_loc(t, sym(name));
    if (l == UINT32_MAX)
        fail_msg("no location %s", name);
    return l;
}

/* A test whose code is the given rows, for error cases about the code. */
#define CODE1(rows) "LISA t\n{}\n P0 ;\n" rows
#define COND1(cond) "LISA t\n{}\n P0 ;\n w[] x 1 ;\n" cond

/* ---------------------------------------------------------------------- */
/* Well-formed tests. */

static const char SB[] =
    "LISA SB\n"
    "\"Fre PodWR Fre PodWR\"\n"
    "Cycle=Fre PodWR Fre PodWR\n"
    "Generator=diy.native (version 7.52+5(dev))\n"
    "Prefetch=0:x=F,0:y=T,1:y=F,1:x=T\n"
    "{\n"
    "x = 0; y = 0;\n"
    "}\n"
    " P0          | P1          ;\n"
    " w[] x 1     | w[rel] y 1  ;\n"
    " r[acq] r0 y | r[] r0 x    ;\n"
    "exists\n"
    "(0:r0=0 /\\ 1:r0=0)\n";

static void test_sb(void **state)
{
    (void)state;
    litmus_test *t = ok(SB);
    assert_string_equal(t->arch, "LISA");
    assert_string_equal(t->name, "SB");
    assert_string_equal(t->doc, "Fre PodWR Fre PodWR");
    assert_string_equal(t->file, "t.litmus");

    assert_int_equal(t->nlocs, 2);
    assert_string_equal(S(t->locs[0].name), "x");
    assert_string_equal(S(t->locs[1].name), "y");
    assert_true(litmus_value_eq(t->locs[0].init, litmus_int(0)));
    assert_true(litmus_value_eq(t->locs[1].init, litmus_int(0)));
    assert_int_equal(t->locs[0].loc.line, 7);
    assert_int_equal(t->locs[0].loc.col, 1);
    assert_int_equal(t->locs[1].loc.col, 8);

    assert_int_equal(t->nthreads, 2);
    for (uint32_t i = 0; i < 2; i++) {
        const litmus_thread *th = &t->threads[i];
        assert_int_equal(th->proc, i);
        assert_int_equal(th->ninstrs, 2);
        assert_int_equal(th->nregs, 1);
        assert_string_equal(S(th->regs[0]), "r0");
        assert_int_equal(th->ninits, 0);
    }
    const litmus_instr *w0 = &t->threads[0].instrs[0], *r0 = &t->threads[0].instrs[1];
    assert_int_equal(w0->kind, LITMUS_I_WRITE);
    assert_int_equal(w0->loc.line, 10);
    assert_int_equal(w0->loc.col, 2);
    assert_int_equal(w0->annots.count, 0);
    assert_int_equal(w0->addr.base.kind, LITMUS_OPND_LOC);
    assert_int_equal(w0->addr.base.loc, 0);
    assert_false(w0->addr.has_offset);
    assert_int_equal(w0->value.kind, LITMUS_OPND_IMM);
    assert_int_equal(w0->value.imm, 1);
    assert_int_equal(r0->kind, LITMUS_I_READ);
    assert_int_equal(r0->loc.line, 11);
    assert_int_equal(r0->reg, 0);
    assert_int_equal(r0->addr.base.kind, LITMUS_OPND_LOC);
    assert_int_equal(r0->addr.base.loc, 1);
    assert_int_equal(r0->annots.count, 1);
    assert_string_equal(S(r0->annots.syms[0]), "acq");

    const litmus_instr *w1 = &t->threads[1].instrs[0];
    assert_int_equal(w1->loc.col, 16);
    assert_int_equal(w1->annots.count, 1);
    assert_string_equal(S(w1->annots.syms[0]), "rel");
    assert_int_equal(w1->addr.base.loc, 1);

    assert_int_equal(t->quant, LITMUS_Q_EXISTS);
    assert_null(t->filter);
    const litmus_prop *c = t->cond;
    assert_int_equal(c->kind, LITMUS_P_AND);
    assert_int_equal(c->loc.line, 13);
    assert_int_equal(c->loc.col, 2);
    assert_int_equal(c->lhs->kind, LITMUS_P_REG);
    assert_int_equal(c->lhs->thread, 0);
    assert_int_equal(c->lhs->reg, 0);
    assert_true(litmus_value_eq(c->lhs->value, litmus_int(0)));
    assert_int_equal(c->rhs->kind, LITMUS_P_REG);
    assert_int_equal(c->rhs->thread, 1);
    assert_int_equal(c->rhs->loc.col, 13);

    assert_int_equal(t->nobs, 2);
    assert_true(t->obs[0].is_reg);
    assert_int_equal(t->obs[0].thread, 0);
    assert_true(t->obs[1].is_reg);
    assert_int_equal(t->obs[1].thread, 1);
    drop(t);
}

static void test_header(void **state)
{
    (void)state;
    litmus_test *t = ok("\n  \nLISA  store buffer with 10 threads  \r\n{}\nP0;\n;\nexists true");
    assert_string_equal(t->name, "store buffer with 10 threads");
    assert_null(t->doc);
    assert_int_equal(t->threads[0].ninstrs, 0);
    drop(t);

    t = ok("Bell b\n\"\"\n{}\nP0;\n;\nforall false");
    assert_string_equal(t->arch, "Bell");
    assert_string_equal(t->doc, "");
    assert_int_equal(t->quant, LITMUS_Q_FORALL);
    assert_int_equal(t->cond->kind, LITMUS_P_FALSE);
    drop(t);

    /* Only the first line after the name is the doc string; other lines,
     * even quoted ones or comments, are metadata. */
    t = ok("LISA m\nRelax=\n\"not a doc\n(* comment with { inside *)\n"
           "Com=Rf Fr\n   { x = 1 }\nP0;\n;\nexists x=1");
    assert_null(t->doc);
    assert_int_equal(t->locs[0].init.num, 1);
    drop(t);

    t = ok("LISA q\n\"a \"quoted\" doc\"  \n{}\nP0;\n;\nexists true");
    assert_string_equal(t->doc, "a \"quoted\" doc");
    drop(t);
}

static void test_init_block(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA i\n{ x = 1;\n  y =\n -7; z; 0:r1 = x; P1:r2=&y; 1:r3 = -9223372036854775808;"
                        " p = q;\n 0:r4 }\n"
                        "P0 | P1 ;\n r[] r5 x | ;\nexists true");
    assert_int_equal(t->nlocs, 5);
    const char *names[] = { "x", "y", "z", "p", "q" };
    for (uint32_t i = 0; i < 5; i++)
        assert_string_equal(S(t->locs[i].name), names[i]);
    assert_true(litmus_value_eq(t->locs[0].init, litmus_int(1)));
    assert_true(litmus_value_eq(t->locs[1].init, litmus_int(-7)));
    assert_true(litmus_value_eq(t->locs[2].init, litmus_int(0)));
    assert_true(litmus_value_eq(t->locs[3].init, litmus_addr(4))); /* p = &q */
    assert_true(litmus_value_eq(t->locs[4].init, litmus_int(0)));

    const litmus_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    /* init registers first, code registers after */
    assert_int_equal(p0->nregs, 3);
    assert_string_equal(S(p0->regs[0]), "r1");
    assert_string_equal(S(p0->regs[1]), "r4");
    assert_string_equal(S(p0->regs[2]), "r5");
    assert_int_equal(p0->ninits, 2);
    assert_int_equal(p0->inits[0].reg, 0);
    assert_true(litmus_value_eq(p0->inits[0].value, litmus_addr(0)));
    assert_int_equal(p0->inits[1].reg, 1);
    assert_true(litmus_value_eq(p0->inits[1].value, litmus_int(0)));
    assert_int_equal(p1->ninits, 2);
    assert_string_equal(S(p1->regs[p1->inits[0].reg]), "r2");
    assert_true(litmus_value_eq(p1->inits[0].value, litmus_addr(1)));
    assert_true(litmus_value_eq(p1->inits[1].value, litmus_int(INT64_MIN)));
    drop(t);

    t = ok("LISA e\n{}\nP0;\n;\nexists true");
    assert_int_equal(t->nlocs, 0);
    assert_null(t->locs);
    drop(t);
    t = ok("LISA e\n{ ; x=2 ;; }\nP0;\n;\nexists true");
    assert_int_equal(t->nlocs, 1);
    drop(t);
}

static void test_instruction_forms(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA forms\n{ 0:r9 = y; }\n P0 ;\n"
                        " r[] r1 x ;\n"          /* 0 */
                        " r[] r2 r9 ;\n"         /* 1: REG */
                        " r[] r3 x+r1 ;\n"       /* 2: loc+REG */
                        " r[] r3 x+4 ;\n"        /* 3: loc+INT */
                        " r[] r3 r9+r1 ;\n"      /* 4: REG+REG */
                        " r[] r3 r9+-8 ;\n"      /* 5: REG+INT */
                        " w[] y r1 ;\n"          /* 6: value REG */
                        " w[] y -3 ;\n"          /* 7: value INT */
                        " w[] y x ;\n"           /* 8: value LOC */
                        " w[] y &x ;\n"          /* 9: value &LOC */
                        " f[dmb,all,sy] ;\n"     /* 10 */
                        " f[] ;\n"               /* 11 */
                        " rmw[rlx] r4 (add r4 1) x ;\n" /* 12 */
                        " mov r5 (xor r1 r1) ;\n"       /* 13 */
                        " mov r6 7 ;\n"                 /* 14 */
                        " mov r6 (r1) ;\n"              /* 15 */
                        " mov r6 ((sub (mul r1 2) (and r1 (or 1 r2)))) ;\n" /* 16 */
                        " mov r7 (eq r1 z) ;\n"         /* 17 */
                        " mov r7 (ne r1 0) ;\n"         /* 18 */
                        " mov r7 (neq r1 0) ;\n"        /* 19 */
                        " call[sync] ;\n"               /* 20 */
                        "exists true");
    const litmus_thread *th = &t->threads[0];
    assert_int_equal(th->ninstrs, 21);
    const litmus_instr *in = th->instrs;
    uint32_t r1 = reg_index(t, 0, "r1"), r9 = reg_index(t, 0, "r9");
    uint32_t x = loc_index(t, "x"), y = loc_index(t, "y");
    assert_int_equal(r9, 0); /* from the init block */
    assert_int_equal(y, 0);
    assert_int_equal(x, 1);

    assert_int_equal(in[0].kind, LITMUS_I_READ);
    assert_int_equal(in[0].reg, r1);
    assert_int_equal(in[1].addr.base.kind, LITMUS_OPND_REG);
    assert_int_equal(in[1].addr.base.reg, r9);
    assert_false(in[1].addr.has_offset);
    assert_int_equal(in[2].addr.base.kind, LITMUS_OPND_LOC);
    assert_true(in[2].addr.has_offset);
    assert_int_equal(in[2].addr.offset.kind, LITMUS_OPND_REG);
    assert_int_equal(in[2].addr.offset.reg, r1);
    assert_int_equal(in[3].addr.offset.kind, LITMUS_OPND_IMM);
    assert_int_equal(in[3].addr.offset.imm, 4);
    assert_int_equal(in[4].addr.base.kind, LITMUS_OPND_REG);
    assert_int_equal(in[4].addr.offset.kind, LITMUS_OPND_REG);
    assert_int_equal(in[5].addr.base.reg, r9);
    assert_int_equal(in[5].addr.offset.imm, -8);

    assert_int_equal(in[6].kind, LITMUS_I_WRITE);
    assert_int_equal(in[6].addr.base.loc, y);
    assert_int_equal(in[6].value.kind, LITMUS_OPND_REG);
    assert_int_equal(in[6].value.reg, r1);
    assert_int_equal(in[7].value.kind, LITMUS_OPND_IMM);
    assert_int_equal(in[7].value.imm, -3);
    assert_int_equal(in[8].value.kind, LITMUS_OPND_LOC);
    assert_int_equal(in[8].value.loc, x);
    assert_int_equal(in[9].value.kind, LITMUS_OPND_LOC);
    assert_int_equal(in[9].value.loc, x);

    assert_int_equal(in[10].kind, LITMUS_I_FENCE);
    assert_int_equal(in[10].annots.count, 3);
    for (uint32_t i = 1; i < 3; i++)
        assert_true(in[10].annots.syms[i - 1] < in[10].annots.syms[i]);
    assert_int_equal(in[11].kind, LITMUS_I_FENCE);
    assert_int_equal(in[11].annots.count, 0);

    assert_int_equal(in[12].kind, LITMUS_I_RMW);
    assert_string_equal(S(in[12].annots.syms[0]), "rlx");
    assert_int_equal(in[12].reg, reg_index(t, 0, "r4"));
    assert_int_equal(in[12].expr->op, LITMUS_OP_ADD);
    assert_int_equal(in[12].expr->lhs->op, LITMUS_OP_NONE);
    assert_int_equal(in[12].expr->lhs->opnd.kind, LITMUS_OPND_REG);
    assert_int_equal(in[12].expr->lhs->opnd.reg, in[12].reg);
    assert_int_equal(in[12].expr->rhs->opnd.kind, LITMUS_OPND_IMM);
    assert_int_equal(in[12].expr->rhs->opnd.imm, 1);
    assert_int_equal(in[12].addr.base.loc, x);

    assert_int_equal(in[13].kind, LITMUS_I_MOV);
    assert_int_equal(in[13].expr->op, LITMUS_OP_XOR);
    assert_int_equal(in[14].expr->op, LITMUS_OP_NONE);
    assert_int_equal(in[14].expr->opnd.imm, 7);
    assert_int_equal(in[15].expr->op, LITMUS_OP_NONE);
    assert_int_equal(in[15].expr->opnd.reg, r1);
    const litmus_expr *e = in[16].expr;
    assert_int_equal(e->op, LITMUS_OP_SUB);
    assert_int_equal(e->lhs->op, LITMUS_OP_MUL);
    assert_int_equal(e->rhs->op, LITMUS_OP_AND);
    assert_int_equal(e->rhs->rhs->op, LITMUS_OP_OR);
    assert_int_equal(e->rhs->rhs->lhs->opnd.imm, 1);
    assert_int_equal(in[17].expr->op, LITMUS_OP_EQ);
    assert_int_equal(in[17].expr->rhs->opnd.kind, LITMUS_OPND_LOC);
    assert_int_equal(in[17].expr->rhs->opnd.loc, loc_index(t, "z"));
    assert_int_equal(in[18].expr->op, LITMUS_OP_NE);
    assert_int_equal(in[19].expr->op, LITMUS_OP_NE);

    assert_int_equal(in[20].kind, LITMUS_I_CALL);
    assert_string_equal(S(in[20].label), "sync");
    drop(t);
}

static void test_annotations_sorted_dedup(void **state)
{
    (void)state;
    base_sym b = sym("zz_b"), a = sym("zz_a"); /* b gets the smaller symbol */
    assert_true(b < a);
    litmus_test *t = ok("LISA a\n{}\nP0;\nw[zz_a,zz_b,zz_a, zz_b] x 1;\nexists true");
    const litmus_annots *an = &t->threads[0].instrs[0].annots;
    assert_int_equal(an->count, 2);
    assert_int_equal(an->syms[0], b);
    assert_int_equal(an->syms[1], a);
    drop(t);
}

static void test_labels_and_branches(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA br\n{}\n P0              | P1 ;\n"
                        " r[] r0 x        | L0: ;\n"           /* P1: NOP 0 */
                        " b[] r0 END      | b[] L0 ;\n"        /* P1: back to 0 */
                        "                 | A: B: w[] y 1 ;\n" /* two labels, one instr */
                        " w[] y 1         | b[rel] r1 B ;\n"
                        " END:            | ;\n"
                        "exists true");
    const litmus_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    assert_int_equal(p0->ninstrs, 4);
    assert_int_equal(p0->instrs[1].kind, LITMUS_I_BRANCH);
    assert_true(p0->instrs[1].has_reg);
    assert_int_equal(p0->instrs[1].reg, 0);
    assert_string_equal(S(p0->instrs[1].label), "END");
    assert_int_equal(p0->instrs[1].target, 3);
    assert_int_equal(p0->instrs[3].kind, LITMUS_I_NOP);
    assert_string_equal(S(p0->instrs[3].label), "END");
    assert_int_equal(p0->instrs[3].loc.line, 8);
    assert_int_equal(p0->instrs[3].loc.col, 2);

    assert_int_equal(p1->ninstrs, 4);
    assert_int_equal(p1->instrs[0].kind, LITMUS_I_NOP);
    assert_int_equal(p1->instrs[1].kind, LITMUS_I_BRANCH);
    assert_false(p1->instrs[1].has_reg);
    assert_int_equal(p1->instrs[1].target, 0);
    assert_int_equal(p1->instrs[2].kind, LITMUS_I_WRITE);
    assert_int_equal(p1->instrs[2].loc.col, 20); /* the cell's first token: the label */
    assert_int_equal(p1->instrs[2].label, 0);
    assert_int_equal(p1->instrs[3].target, 2);
    assert_true(p1->instrs[3].has_reg);
    assert_string_equal(S(p1->instrs[3].annots.syms[0]), "rel");
    drop(t);

    /* Labels are per thread: the same name in two threads is fine. */
    t = ok("LISA br\n{}\n P0 | P1 ;\n L: | L: ;\n b[] L | b[] L ;\nexists true");
    assert_int_equal(t->threads[1].instrs[1].target, 0);
    drop(t);
}

static void test_empty_cells_and_rows(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA e\n{}\n; P0 | P1 | P2 ;\n"
                        "   |   | w[] x 1 ;\n"
                        "   |   |         ;\n"
                        " w[] y 2 | | ;\n"
                        "exists true");
    assert_int_equal(t->threads[0].ninstrs, 1);
    assert_int_equal(t->threads[1].ninstrs, 0);
    assert_null(t->threads[1].instrs);
    assert_int_equal(t->threads[2].ninstrs, 1);
    assert_int_equal(t->threads[0].instrs[0].loc.line, 6);
    drop(t);
}

static void test_comments(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA c\n{ (* init *) x = (* nested (* deeper *) *) 1; }\n"
                        " P0 (* header *) ;\n"
                        "(* a whole line *)\n"
                        " w[] x (**) 2 ; (* after a row *)\n"
                        "(* Expected result: true. *)\n"
                        "exists (* here *) (x = 2) (* trailing *)\n (* more *) \n");
    assert_int_equal(t->locs[0].init.num, 1);
    assert_int_equal(t->threads[0].instrs[0].value.imm, 2);
    drop(t);
}

static void test_crlf_tabs_and_bounded_input(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA crlf\r\n{\r\nx=0;\r\n}\r\n\tP0\t;\r\n\t\tw[] x 1 ;\r\nexists (x=1)\r\n");
    assert_string_equal(t->name, "crlf");
    assert_int_equal(t->threads[0].instrs[0].loc.col, 3); /* columns count bytes */
    drop(t);

    /* The input need not be NUL terminated: a prefix of a longer buffer. */
    const char *src = "LISA t\n{}\n P0 ;\n w[] x 1 ;\nexists (x=1)GARBAGE";
    base_diag d;
    t = parse_n(src, strlen(src) - 7, &d);
    assert_non_null(t);
    assert_int_equal(d.count, 0);
    drop(t);
    base_diag_free(&d);
    err_n(src, strlen(src) - 1, "t.litmus:5:13: error: expected end of file after the condition, found 'GARBAG'");
}

static void test_condition_precedence(void **state)
{
    (void)state;
    litmus_test *t = ok(COND1("exists 0:r1=1 \\/ x=1 /\\ ~ y = 2 \\/ false"));
    const litmus_prop *c = t->cond; /* (r1 \/ (x /\ ~y)) \/ false */
    assert_int_equal(c->kind, LITMUS_P_OR);
    assert_int_equal(c->rhs->kind, LITMUS_P_FALSE);
    assert_int_equal(c->lhs->kind, LITMUS_P_OR);
    assert_int_equal(c->lhs->lhs->kind, LITMUS_P_REG);
    assert_int_equal(c->lhs->rhs->kind, LITMUS_P_AND);
    assert_int_equal(c->lhs->rhs->lhs->kind, LITMUS_P_LOC);
    assert_int_equal(c->lhs->rhs->rhs->kind, LITMUS_P_NOT);
    assert_int_equal(c->lhs->rhs->rhs->lhs->kind, LITMUS_P_LOC);
    assert_int_equal(c->lhs->rhs->rhs->lhs->value.num, 2);
    drop(t);

    /* => is loosest and right-associative; ~ binds tighter than /\ */
    t = ok(COND1("forall x=1 \\/ x=2 => ~x=3 /\\ true => (false)"));
    c = t->cond;
    assert_int_equal(c->kind, LITMUS_P_IMPLIES);
    assert_int_equal(c->lhs->kind, LITMUS_P_OR);
    assert_int_equal(c->rhs->kind, LITMUS_P_IMPLIES);
    assert_int_equal(c->rhs->lhs->kind, LITMUS_P_AND);
    assert_int_equal(c->rhs->lhs->lhs->kind, LITMUS_P_NOT);
    assert_int_equal(c->rhs->rhs->kind, LITMUS_P_FALSE);
    drop(t);

    t = ok(COND1("exists ~(x=1 /\\ x=2)"));
    assert_int_equal(t->cond->kind, LITMUS_P_NOT);
    assert_int_equal(t->cond->lhs->kind, LITMUS_P_AND);
    drop(t);
}

static void test_condition_atoms(void **state)
{
    (void)state;
    litmus_test *t = ok("LISA a\n{ x = 3; }\n P0 | P1 ;\n r[] r1 x | r[] r2 x ;\n"
                        "exists (P1:r2 = 1 /\\ 0:r1=-1 /\\ [x] = 2 /\\ y=x /\\ 1:r7 = &y /\\ 0:r1 = z)");
    const litmus_prop *c = t->cond;
    /* left-nested ANDs: walk down the lhs spine */
    const litmus_prop *a[6];
    for (int i = 5; i > 0; i--) {
        assert_int_equal(c->kind, LITMUS_P_AND);
        a[i] = c->rhs;
        c = c->lhs;
    }
    a[0] = c;
    assert_int_equal(a[0]->kind, LITMUS_P_REG);
    assert_int_equal(a[0]->thread, 1);
    assert_int_equal(a[0]->loc.col, 9);
    assert_int_equal(a[1]->kind, LITMUS_P_REG);
    assert_int_equal(a[1]->value.num, -1);
    assert_int_equal(a[2]->kind, LITMUS_P_LOC);
    assert_int_equal(a[2]->location, 0);
    assert_int_equal(a[3]->kind, LITMUS_P_LOC);
    assert_int_equal(a[3]->location, 1); /* y: first mentioned in the condition */
    assert_true(litmus_value_eq(a[3]->value, litmus_addr(0)));
    /* r7 is never used by P1's code: it still gets a register */
    assert_int_equal(a[4]->thread, 1);
    assert_int_equal(a[4]->reg, 1);
    assert_string_equal(S(t->threads[1].regs[1]), "r7");
    assert_true(litmus_value_eq(a[4]->value, litmus_addr(1)));
    assert_true(litmus_value_eq(a[5]->value, litmus_addr(2))); /* z */
    assert_int_equal(t->nlocs, 3);
    drop(t);
}

static void test_quantifiers_locations_filter(void **state)
{
    (void)state;
    litmus_test *t = ok(COND1("~exists (x=1)"));
    assert_int_equal(t->quant, LITMUS_Q_NOT_EXISTS);
    drop(t);
    t = ok(COND1("~ exists x=1"));
    assert_int_equal(t->quant, LITMUS_Q_NOT_EXISTS);
    drop(t);
    t = ok(COND1("forall (x=1)"));
    assert_int_equal(t->quant, LITMUS_Q_FORALL);
    drop(t);

    t = ok("LISA l\n{ 1:r9 = 5; }\n P0 | P1 ;\n r[] r1 b | r[] r2 a ;\n"
           "locations [b; 1:r2; zz; P0:r1;  ]\n"
           "filter (1:r9 = 5 \\/ c = 1)\n"
           "exists (a=1 /\\ 1:r2=0 /\\ 0:r5=0)\n");
    assert_non_null(t->filter);
    assert_int_equal(t->filter->kind, LITMUS_P_OR);
    /* registers by thread then name, then locations by name; no duplicates */
    const char *want[] = { "0:r1", "0:r5", "1:r2", "1:r9", "a", "b", "c", "zz" };
    assert_int_equal(t->nobs, 8);
    for (uint32_t i = 0; i < 8; i++) {
        char got[32];
        const litmus_observable *o = &t->obs[i];
        if (o->is_reg)
            snprintf(got, sizeof got, "%u:%s", o->thread, S(t->threads[o->thread].regs[o->reg]));
        else
            snprintf(got, sizeof got, "%s", S(t->locs[o->location].name));
        assert_string_equal(got, want[i]);
    }
    /* location indices: code (b, a), then locations list (zz), filter (c) */
    assert_int_equal(loc_index(t, "b"), 0);
    assert_int_equal(loc_index(t, "a"), 1);
    assert_int_equal(loc_index(t, "zz"), 2);
    assert_int_equal(loc_index(t, "c"), 3);
    drop(t);

    t = ok(COND1("locations []\nexists true"));
    assert_int_equal(t->nobs, 0);
    drop(t);
}

static void test_scopes_and_regions(void **state)
{
    (void)state;
    litmus_test *t = ok("Bell MP-scopes\n{ x = 0; y = 0; }\n P0 | P1 ;\n w[] x 1 | r[] r1 y ;\n"
                        " f[cta] | f[gpu] ;\n"
                        "scopes: (system (gpu (cta P0) (cta P1)))\n\n"
                        "regions: x:global, y:shared\n"
                        "exists (1:r1 = 1)\n");
    assert_int_equal(t->nlocs, 2);
    assert_int_equal(t->threads[1].instrs[1].kind, LITMUS_I_FENCE);
    drop(t);
}

static void test_file_name_is_copied(void **state)
{
    (void)state;
    char name[] = "copied.litmus";
    base_diag d;
    base_diag_init(&d);
    const char *src = "LISA t\n{}\nP0;\nw[] x 1;\nexists x=1";
    litmus_test *t = litmus_parse_lisa(name, src, strlen(src), &syms, &d);
    name[0] = 'X';
    assert_string_equal(t->file, "copied.litmus");
    assert_string_equal(t->threads[0].instrs[0].loc.file, "copied.litmus");
    drop(t);
    base_diag_free(&d);
    t = litmus_parse_lisa(NULL, src, strlen(src), &syms, &d);
    assert_string_equal(t->file, "<input>");
    drop(t);
    base_diag_free(&d);
}

/* ---------------------------------------------------------------------- */
/* The lexer on its own. */

static void test_lexer(void **state)
{
    (void)state;
    const char src[] = "{ x=-5 }\n  (* c *) r1 /\\ \\/ => ~ & + | ; : , [ ] ( ) 9223372036854775807";
    litmus_lexer lx;
    litmus_lex_init(&lx, "f", src, sizeof src - 1, 0);
    litmus_tok_kind want[] = {
        LITMUS_TOK_LBRACE, LITMUS_TOK_IDENT,   LITMUS_TOK_EQ,       LITMUS_TOK_INT,
        LITMUS_TOK_RBRACE, LITMUS_TOK_IDENT,   LITMUS_TOK_AND,      LITMUS_TOK_OR,
        LITMUS_TOK_IMPLIES, LITMUS_TOK_TILDE,  LITMUS_TOK_AMP,      LITMUS_TOK_PLUS,
        LITMUS_TOK_PIPE,   LITMUS_TOK_SEMI,    LITMUS_TOK_COLON,    LITMUS_TOK_COMMA,
        LITMUS_TOK_LBRACKET, LITMUS_TOK_RBRACKET, LITMUS_TOK_LPAREN, LITMUS_TOK_RPAREN,
        LITMUS_TOK_INT,    LITMUS_TOK_EOF,     LITMUS_TOK_EOF,
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        litmus_token tok = litmus_lex_next(&lx);
        assert_int_equal(tok.kind, want[i]);
        if (i == 3)
            assert_int_equal(tok.num, -5);
        if (i == 5) {
            assert_int_equal(tok.loc.line, 2);
            assert_int_equal(tok.loc.col, 12);
            assert_true(litmus_lex_is(&tok, "r1"));
            assert_false(litmus_lex_is(&tok, "r"));
        }
        if (i == 20)
            assert_int_equal(tok.num, INT64_MAX);
    }

    /* Starting mid-buffer keeps line numbers; errors are sticky. */
    const char bad[] = "a\nb\n c \x80 d";
    litmus_lex_init(&lx, "f", bad, sizeof bad - 1, 4);
    litmus_token tok = litmus_lex_next(&lx);
    assert_true(litmus_lex_is(&tok, "c"));
    assert_int_equal(tok.loc.line, 3);
    assert_int_equal(tok.loc.col, 2);
    for (int i = 0; i < 3; i++) {
        tok = litmus_lex_next(&lx);
        assert_int_equal(tok.kind, LITMUS_TOK_ERROR);
        assert_int_equal(tok.loc.col, 4);
        assert_string_equal(lx.msg, "unexpected byte 0x80");
    }

    const char nul[] = "x \0";
    litmus_lex_init(&lx, "f", nul, sizeof nul - 1, 0);
    litmus_lex_next(&lx);
    tok = litmus_lex_next(&lx);
    assert_int_equal(tok.kind, LITMUS_TOK_ERROR);
    assert_string_equal(lx.msg, "unexpected NUL byte");

    char buf[64];
    tok.kind = LITMUS_TOK_EOF;
    litmus_lex_describe(&tok, buf, sizeof buf);
    assert_string_equal(buf, "end of file");
}

/* ---------------------------------------------------------------------- */
/* Errors, in the order the parser meets them. */

static void test_lex_errors(void **state)
{
    (void)state;
    err(CODE1(" w[] x 1 ;\n(* open (* nested *)\nexists true"),
        "t.litmus:5:1: error: unterminated comment");
    err(CODE1(" w[] x 99999999999999999999 ;\n"),
        "t.litmus:4:8: error: integer '99999999999999999999' overflows int64");
    err(CODE1(" w[] x 9223372036854775808 ;\n"),
        "t.litmus:4:8: error: integer '9223372036854775808' overflows int64");
    err(CODE1(" w[] x -9223372036854775809 ;\n"),
        "t.litmus:4:8: error: integer '-9223372036854775809' overflows int64");
    err(CODE1(" w[] x 1 # ;\n"), "t.litmus:4:10: error: unexpected character '#'");
    err(CODE1(" w[] x - 1 ;\n"), "t.litmus:4:8: error: unexpected character '-'");
    err(COND1("exists (x=1 / x=2)"),
        "t.litmus:5:13: error: unexpected character '/' (did you mean '/\\'?)");
    err(COND1("exists (x=1 \\ x=2)"),
        "t.litmus:5:13: error: unexpected character '\\' (did you mean '\\/'?)");
    err(COND1("exists (x=\"a)"), "t.litmus:5:11: error: unexpected character '\"'");
    err(CODE1(" w[] x \xc3\xa9 ;\n"), "t.litmus:4:8: error: unexpected byte 0xc3");
    /* A lexer error behind the current token is reported only when reached. */
    err(CODE1(" w[] x 1 ;\nexists (x=1) #"), "t.litmus:5:14: error: unexpected character '#'");
    /* Long tokens are shortened in messages. */
    err(CODE1(" w[] x 1 1234567890123456789012345678901234567890123456789012345678901234567890 ;\n"),
        "t.litmus:4:10: error: integer '1234567890123456789012345678901234567890...' overflows int64");
    err(CODE1(" aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeee ;\n"),
        "t.litmus:4:2: error: unknown instruction 'aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd'");
}

static void test_nul_bytes(void **state)
{
    (void)state;
    static const char code[] = "LISA t\n{}\n P0 ;\n w[] x \0 ;\n";
    err_n(code, sizeof code - 1, "t.litmus:4:8: error: unexpected NUL byte");
    static const char name[] = "LISA t\0x\n{}\nP0;\n;\nexists true";
    err_n(name, sizeof name - 1, "t.litmus:1:7: error: unexpected NUL byte");
    static const char meta[] = "LISA t\nCycle=\0\n{}\nP0;\n;\nexists true";
    err_n(meta, sizeof meta - 1, "t.litmus:2:7: error: unexpected NUL byte");
    static const char only[] = "\0";
    err_n(only, 1, "t.litmus:1:1: error: unexpected NUL byte");
}

static void test_header_errors(void **state)
{
    (void)state;
    err("", "t.litmus:1:1: error: expected 'LISA' or 'Bell' at start of test, found end of file");
    err_n(NULL, 0, "t.litmus:1:1: error: expected 'LISA' or 'Bell' at start of test, found end of file");
    err("\n  \n", "t.litmus:3:1: error: expected 'LISA' or 'Bell' at start of test, found end of file");
    err("X86 t\n", "t.litmus:1:1: error: expected 'LISA' or 'Bell' at start of test, found 'X86'");
    err("  LISAx t\n", "t.litmus:1:3: error: expected 'LISA' or 'Bell' at start of test, found 'LISAx'");
    err("LISA\n{}\n", "t.litmus:1:5: error: expected a test name after 'LISA'");
    err("Bell   \t\n{}\n", "t.litmus:1:5: error: expected a test name after 'Bell'");
    err("LISA t\n  \"no end\n{}\n", "t.litmus:2:3: error: unterminated doc string");
    err("LISA t\n", "t.litmus:2:1: error: expected the init block '{', found end of file");
    err("LISA t\nCycle=x\nP0 ;", "t.litmus:3:5: error: expected the init block '{', found end of file");
}

static void test_init_errors(void **state)
{
    (void)state;
    err("LISA t\n{ x = 0; \n", "t.litmus:3:1: error: unexpected end of file in init block");
    err("LISA t\n{ 0:r1 = ", "t.litmus:2:10: error: unexpected end of file in init block");
    err("LISA t\n{ x = 0 y = 1 }\n", "t.litmus:2:9: error: expected ';' or '}' in init block, found 'y'");
    err("LISA t\n{ 0:x = 1; }\n",
        "t.litmus:2:5: error: expected a register after the thread number, found 'x'");
    err("LISA t\n{ r1 = 1; }\n", "t.litmus:2:3: error: register 'r1' needs a thread, as in 0:r1");
    err("LISA t\n{ x = ; }\n", "t.litmus:2:7: error: expected an integer or a location, found ';'");
    err("LISA t\n{ x = r2; }\n", "t.litmus:2:7: error: expected an integer or a location, found 'r2'");
    err("LISA t\n{ x = &5; }\n", "t.litmus:2:8: error: expected a location after '&', found '5'");
    err("LISA t\n{ 5; }\n",
        "t.litmus:2:3: error: expected a location or a register (N:reg) in init block, found '5'");
    err("LISA t\n{ x = 1; y; x = 2; }\n", "t.litmus:2:14: error: location 'x' is initialised twice");
    err("LISA t\n{ x; x; }\n", "t.litmus:2:6: error: location 'x' is initialised twice");
    err("LISA t\n{ 0:r1 = 1; P0:r1 = 2; }\nP0;\n",
        "t.litmus:2:13: error: register P0:r1 is initialised twice");
    err("LISA t\n{ 3:r0 = 1; }\n P0 ;\n",
        "t.litmus:2:3: error: thread P3 does not exist (the test has 1 thread)");
    err("LISA t\n{ P2:r0 = 1; }\n P0 | P1 ;\n",
        "t.litmus:2:3: error: thread P2 does not exist (the test has 2 threads)");
    err("LISA t\n{ 99999999999:r0 = 1; }\n P0 ;\n",
        "t.litmus:2:3: error: thread P99999999999 does not exist (the test has 1 thread)");
    err("LISA t\n{ -1:r0 = 1; }\n P0 ;\n", "t.litmus:2:3: error: expected a thread number, found '-1'");
}

static void test_thread_header_errors(void **state)
{
    (void)state;
    err("LISA t\n{ ; }\n 1 ;\n", "t.litmus:3:2: error: expected thread header 'P0', found '1'");
    err("LISA t\n{}\n", "t.litmus:3:1: error: expected thread header 'P0', found end of file");
    err("LISA t\n{}\n P1 ;\n", "t.litmus:3:2: error: expected thread 'P0' in header, found 'P1'");
    err("LISA t\n{}\n P0 | P2 ;\n", "t.litmus:3:7: error: expected thread 'P1' in header, found 'P2'");
    err("LISA t\n{}\n P0 | P01 ;\n", "t.litmus:3:7: error: expected thread 'P1' in header, found 'P01'");
    err("LISA t\n{}\n P0 | x ;\n", "t.litmus:3:7: error: expected thread header 'P1', found 'x'");
    err("LISA t\n{}\n P0 P1 ;\n", "t.litmus:3:5: error: expected '|' or ';' in thread header, found 'P1'");

    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "LISA big\n{}\n");
    for (int i = 0; i < 1025; i++)
        base_strbuf_printf(&b, "%sP%d", i ? "|" : "", i);
    base_strbuf_puts(&b, ";\n");
    char want[128];
    snprintf(want, sizeof want, "t.litmus:3:%zu: error: too many threads (more than 1024)",
             strlen(strstr(b.data, "P1024")) - strlen(strstr(b.data, "P0")) + 1);
    err(b.data, want);

    /* 1024 threads are fine. */
    base_strbuf_clear(&b);
    base_strbuf_puts(&b, "LISA big\n{}\n");
    for (int i = 0; i < 1024; i++)
        base_strbuf_printf(&b, "%sP%d", i ? "|" : "", i);
    base_strbuf_puts(&b, ";\n");
    for (int i = 0; i < 1024; i++)
        base_strbuf_printf(&b, "%sw[] x %d", i ? "|" : "", i);
    base_strbuf_puts(&b, ";\nexists true\n");
    litmus_test *t = ok(b.data);
    assert_int_equal(t->nthreads, 1024);
    assert_int_equal(t->threads[1023].instrs[0].value.imm, 1023);
    drop(t);
    base_strbuf_free(&b);
}

static void test_instruction_errors(void **state)
{
    (void)state;
    err(CODE1(" ld r0 x ;\n"), "t.litmus:4:2: error: unknown instruction 'ld'");
    err(CODE1(" 5 ;\n"), "t.litmus:4:2: error: expected an instruction, found '5'");
    err(CODE1(" } ;\n"), "t.litmus:4:2: error: expected an instruction, found '}'");
    err(CODE1(" L: \n"), "t.litmus:5:1: error: expected an instruction, found end of file");
    err(CODE1(" r r0 x ;\n"), "t.litmus:4:4: error: expected '[' after 'r', found 'r0'");
    err(CODE1(" mov[] r0 1 ;\n"), "t.litmus:4:5: error: expected a destination register, found '['");
    err(CODE1(" r[] x y ;\n"), "t.litmus:4:6: error: expected a destination register, found 'x'");
    err(CODE1(" r[] r0 5 ;\n"),
        "t.litmus:4:9: error: expected an address (a location or a register), found '5'");
    err(CODE1(" w[] x+y 1 ;\n"),
        "t.litmus:4:8: error: expected a register or an integer after '+', found 'y'");
    err(CODE1(" w[] x ;\n"),
        "t.litmus:4:8: error: expected a value to write (a register, an integer or a location), found ';'");
    err(CODE1(" w[] x &r1 ;\n"), "t.litmus:4:9: error: expected a location after '&', found 'r1'");
    err(CODE1(" w[a b] x 1 ;\n"),
        "t.litmus:4:6: error: expected ',' or ']' in annotation list, found 'b'");
    err(CODE1(" w[1] x 1 ;\n"), "t.litmus:4:4: error: expected an annotation name, found '1'");
    err(CODE1(" w[a,] x 1 ;\n"), "t.litmus:4:6: error: expected an annotation name, found ']'");
    err(CODE1(" f[] {a}{b} ;\n"), "t.litmus:4:6: error: fence label sets are not supported");
    err(CODE1(" call[] ;\n"), "t.litmus:4:7: error: expected a function name in 'call[...]', found ']'");
    err(CODE1(" call sync ;\n"), "t.litmus:4:7: error: expected '[' after 'call', found 'sync'");
    err(CODE1(" call[a b] ;\n"), "t.litmus:4:9: error: expected ']' after the function name, found 'b'");
    err(CODE1(" mov r1 (pow r1 2) ;\n"), "t.litmus:4:10: error: unknown operator 'pow'");
    err(CODE1(" mov r1 (add r1) ;\n"), "t.litmus:4:16: error: expected an expression, found ')'");
    err(CODE1(" mov r1 (add r1 1 2) ;\n"),
        "t.litmus:4:19: error: expected ')' to close the expression, found '2'");
    err(CODE1(" mov r1 (r1 r2) ;\n"),
        "t.litmus:4:13: error: expected ')' to close the expression, found 'r2'");
    err(CODE1(" mov x 1 ;\n"), "t.litmus:4:6: error: expected a destination register, found 'x'");
    err(CODE1(" rmw[] r1 (add r1 1) 5 ;\n"),
        "t.litmus:4:22: error: expected an address (a location or a register), found '5'");
    err(CODE1(" b[] ;\n"), "t.litmus:4:6: error: expected a label, found ';'");
    err(CODE1(" b[eq] r1, 0 L ;\n"), "t.litmus:4:11: error: expected ';' at end of instruction row, found ','");

    base_strbuf b = { 0 };
    base_strbuf_puts(&b, CODE1(" mov r1 "));
    for (int i = 0; i < 201; i++)
        base_strbuf_puts(&b, "(add 1 ");
    err(b.data, "t.litmus:4:1408: error: expression nested too deeply (more than 200 levels)");
    base_strbuf_free(&b);
}

static void test_label_errors(void **state)
{
    (void)state;
    err(CODE1(" b[] r1 L ;\nexists true\n"), "t.litmus:4:2: error: undefined label 'L' in thread P0");
    err("LISA t\n{}\n P0 | P1 ;\n L9: | ;\n | b[] L9 ;\nexists true",
        "t.litmus:5:4: error: undefined label 'L9' in thread P1");
    err(CODE1(" L: ;\n L: ;\n"), "t.litmus:5:2: error: duplicate label 'L' in thread P0");
    err(CODE1(" L: L: w[] x 1 ;\n"), "t.litmus:4:5: error: duplicate label 'L' in thread P0");
}

static void test_row_errors(void **state)
{
    (void)state;
    err("LISA t\n{}\n P0 | P1 ;\n w[] x 1 ;\n",
        "t.litmus:4:2: error: row has 1 cell but the test has 2 threads");
    err("LISA t\n{}\n P0 ;\n w[] x 1 | w[] y 1 ;\n",
        "t.litmus:4:2: error: row has 2 cells but the test has 1 thread");
    err("LISA t\n{}\n P0 | P1 ;\n w[] x 1 | | r[] r1 x | ;\n",
        "t.litmus:4:2: error: row has 4 cells but the test has 2 threads");
    err("LISA t\n{}\n P0 | P1 ;\n | w[] x 1 w[] y 1 ;\n",
        "t.litmus:4:12: error: expected ';' at end of instruction row, found 'w'");
    err("LISA t\n{}\n P0 | P1 ;\n w[] x 1 w[] y 1 ;\n",
        "t.litmus:4:10: error: expected '|' or ';' after instruction, found 'w'");
    err(CODE1(" w[] x 1\nexists (x=1)\n"),
        "t.litmus:5:1: error: expected ';' at end of instruction row, found 'exists'");
    err(CODE1(" w[] x 1 ;\n"),
        "t.litmus:5:1: error: expected a condition (exists, ~exists or forall), found end of file");

    /* 100000 instructions are fine, one more is an error. */
    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "LISA big\n{}\nP0|P1;\n");
    for (int i = 0; i < 50000; i++)
        base_strbuf_puts(&b, "f[]|f[];\n");
    base_strbuf_puts(&b, "exists true\n");
    litmus_test *t = ok(b.data);
    assert_int_equal(t->threads[1].ninstrs, 50000);
    drop(t);
    base_strbuf_clear(&b);
    base_strbuf_puts(&b, "LISA big\n{}\nP0|P1;\n");
    for (int i = 0; i < 50000; i++)
        base_strbuf_puts(&b, "f[]|f[];\n");
    base_strbuf_puts(&b, " | L: ;\nexists true\n");
    err(b.data, "t.litmus:50004:4: error: too many instructions (more than 100000)");
    base_strbuf_free(&b);
}

static void test_final_errors(void **state)
{
    (void)state;
    err(COND1("exists (2:r0=1)\n"),
        "t.litmus:5:9: error: thread P2 does not exist (the test has 1 thread)");
    err(COND1("exists (P1:r0=1)\n"),
        "t.litmus:5:9: error: thread P1 does not exist (the test has 1 thread)");
    err(COND1("exists (x 1)\n"), "t.litmus:5:11: error: expected '=' in condition, found '1'");
    err(COND1("exists (x=1\n"),
        "t.litmus:6:1: error: expected ')' to close the condition, found end of file");
    err(COND1("exists (0:x=1)\n"), "t.litmus:5:11: error: expected a register after ':', found 'x'");
    err(COND1("exists (r0=1)\n"), "t.litmus:5:9: error: register 'r0' needs a thread, as in 0:r0");
    err(COND1("exists (Q:r0=1)\n"),
        "t.litmus:5:9: error: expected a thread (N or PN) before ':', found 'Q'");
    err(COND1("exists (x=r1)\n"), "t.litmus:5:11: error: expected an integer or a location, found 'r1'");
    err(COND1("exists ([5]=1)\n"), "t.litmus:5:10: error: expected a location after '[', found '5'");
    err(COND1("exists ([x=1)\n"), "t.litmus:5:11: error: expected ']' after the location, found '='");
    err(COND1("exists )\n"),
        "t.litmus:5:8: error: expected a condition (N:reg=value or location=value), found ')'");
    err(COND1("exists (x=1 /\\)\n"),
        "t.litmus:5:15: error: expected a condition (N:reg=value or location=value), found ')'");
    err(COND1("exists\n"),
        "t.litmus:6:1: error: expected a condition (N:reg=value or location=value), found end of file");
    err(COND1("exists (x=1) junk\n"),
        "t.litmus:5:14: error: expected end of file after the condition, found 'junk'");
    err(COND1("exists (x=1)\nexists (x=2)\n"),
        "t.litmus:6:1: error: expected end of file after the condition, found 'exists'");
    err(COND1("~forall (x=1)\n"), "t.litmus:5:2: error: expected 'exists' after '~', found 'forall'");
    err(COND1("locations [x y]\nexists true"),
        "t.litmus:5:14: error: expected ';' or ']' in locations list, found 'y'");
    err(COND1("locations x\nexists true"), "t.litmus:5:11: error: expected '[' after 'locations', found 'x'");
    err(COND1("locations [5]\nexists true"),
        "t.litmus:5:12: error: expected a location or a register (N:reg) in locations list, found '5'");
    err(COND1("locations [r1]\nexists true"),
        "t.litmus:5:12: error: register 'r1' needs a thread, as in 0:r1");
    err(COND1("locations [3:r1]\nexists true"),
        "t.litmus:5:12: error: thread P3 does not exist (the test has 1 thread)");
    err(COND1("filter x=1\nlocations [x]\nexists true"),
        "t.litmus:6:1: error: expected a condition (exists, ~exists or forall), found 'locations'");
    err(COND1("filter\nexists true"),
        "t.litmus:6:1: error: expected a condition (N:reg=value or location=value), found 'exists'");
    err(COND1("scopes: x\nexists true"), "t.litmus:5:9: error: expected '(' after 'scopes:', found 'x'");
    err(COND1("scopes: (a (b)\n"),
        "t.litmus:6:1: error: expected ')' to close the scope tree, found end of file");
    err(COND1("regions: x: 5\nexists true"), "t.litmus:5:13: error: expected a region name, found '5'");

    base_strbuf b = { 0 };
    base_strbuf_puts(&b, COND1("exists "));
    for (int i = 0; i < 201; i++)
        base_strbuf_puts(&b, "(");
    err(b.data, "t.litmus:5:208: error: condition nested too deeply (more than 200 levels)");
    base_strbuf_clear(&b);
    base_strbuf_puts(&b, COND1("exists "));
    for (int i = 0; i < 201; i++)
        base_strbuf_puts(&b, "~");
    err(b.data, "t.litmus:5:208: error: condition nested too deeply (more than 200 levels)");
    base_strbuf_clear(&b);
    base_strbuf_puts(&b, COND1("exists "));
    for (int i = 0; i < 201; i++)
        base_strbuf_puts(&b, "true => ");
    err(b.data, "t.litmus:5:1614: error: condition nested too deeply (more than 200 levels)");
    /* Long flat conjunctions are not nesting. */
    base_strbuf_clear(&b);
    base_strbuf_puts(&b, COND1("exists true"));
    for (int i = 0; i < 1000; i++)
        base_strbuf_puts(&b, " /\\ x=1");
    litmus_test *t = ok(b.data);
    assert_int_equal(t->nobs, 1);
    drop(t);
    base_strbuf_free(&b);
}

/* ---------------------------------------------------------------------- */
/* litmus_load. */

static char tmpdir[64];

static const char *write_tmp(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void load_err(const char *path, const char *want)
{
    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_load(path, &syms, &d);
    if (t)
        drop(t);
    assert_null(t);
    assert_int_equal(d.count, 1);
    char msg[512], full[512];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    snprintf(full, sizeof full, want, path);
    assert_string_equal(msg, full);
    base_diag_free(&d);
}

static void test_load(void **state)
{
    (void)state;
    load_err("/nonexistent/dir/t.litmus",
             "%s: error: cannot open file: No such file or directory");
    load_err(tmpdir, "%s: error: cannot open file: Is a directory");
    load_err(write_tmp("c.litmus", "C c\n{ }\nP0 (int *x) { }\nexists (x=1)\n"),
             "%s:1:1: error: C litmus tests are not supported yet (herd's C format is issue 7)");
    load_err(write_tmp("arm.litmus", "\n  AArch64 t\n"),
             "%s:2:3: error: unsupported litmus architecture 'AArch64' (ravel reads LISA)");
    load_err(write_tmp("empty.litmus", ""),
             "%s:1:1: error: expected 'LISA' or 'Bell' at start of test, found end of file");
    load_err(write_tmp("bad.litmus", "LISA t\n{}\nP0;\nq;\n"),
             "%s:4:1: error: unknown instruction 'q'");

    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_load(write_tmp("sb.litmus", SB), &syms, &d);
    assert_non_null(t);
    assert_int_equal(d.count, 0);
    assert_string_equal(t->name, "SB");
    assert_non_null(strstr(t->file, "sb.litmus"));
    drop(t);
    base_diag_free(&d);
}

/* ---------------------------------------------------------------------- */
/* Inputs the fuzzer found (tests/fuzz/fuzz_lisa.c). */

static void test_fuzz_regressions(void **state)
{
    (void)state;
}

static int setup(void **state)
{
    (void)state;
    base_intern_init(&syms);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ravel_lisa_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = { "c.litmus", "arm.litmus", "empty.litmus", "bad.litmus", "sb.litmus" };
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        remove(path);
    }
    rmdir(tmpdir);
    base_intern_free(&syms);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_init_block),
        cmocka_unit_test(test_instruction_forms),
        cmocka_unit_test(test_annotations_sorted_dedup),
        cmocka_unit_test(test_labels_and_branches),
        cmocka_unit_test(test_empty_cells_and_rows),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_crlf_tabs_and_bounded_input),
        cmocka_unit_test(test_condition_precedence),
        cmocka_unit_test(test_condition_atoms),
        cmocka_unit_test(test_quantifiers_locations_filter),
        cmocka_unit_test(test_scopes_and_regions),
        cmocka_unit_test(test_file_name_is_copied),
        cmocka_unit_test(test_lexer),
        cmocka_unit_test(test_lex_errors),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_header_errors),
        cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_thread_header_errors),
        cmocka_unit_test(test_instruction_errors),
        cmocka_unit_test(test_label_errors),
        cmocka_unit_test(test_row_errors),
        cmocka_unit_test(test_final_errors),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
