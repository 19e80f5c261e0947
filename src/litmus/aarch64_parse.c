/* aarch64_parse: herd's AArch64 litmus instructions (asm_dialect.h).
 *
 * Registers: X0..X30 and W0..W30 name the same register (kept and printed
 * as herd prints it, Xn), XZR/WZR read as 0 and drop writes, SP. Each
 * instruction becomes the litmus_instr sequence with its memory events:
 *  - LDR, LDAR (annotated A), LDAPR (Q), LDXR/LDAXR (X, A) and STR, STLR
 *    (L), STXR/STLXR (X, L) with [Xn], [Xn,#imm], [Xn,Xm], [Xn,Wm,SXTW];
 *    an exclusive pair is RISC-V's lr/sc (LITMUS_I_SC), the status register
 *    0 on success, 1 on failure;
 *  - SWP, LD<op>/ST<op> for ADD, CLR, EOR, SET, and CAS, each with the A
 *    and L forms: read-modify-writes annotated %amo (herd's relation amo),
 *    A on the read, L on the write; ST<op> (no result) also NoRet;
 *  - DMB/DSB with their options (herd's sets DMB.ISH, DSB.SY, ...), ISB;
 *  - CBZ, CBNZ, B.cond after CMP, B: branches whose condition's reads give
 *    ctrl; MOV, ADD, SUB, EOR, ORR, AND, CSEL: register arithmetic.
 * Anything else is an error naming it (exit 5). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "litmus/asm_dialect.h"

/* The register t names: 0..30, 31 for the zero register, 32 for SP; -1 if
 * none. */
static int reg_number(const litmus_token *t)
{
    if (t->kind != LITMUS_T_IDENT || t->len < 2 || t->len > 3)
        return -1;
    char c0 = (char)toupper((unsigned char)t->start[0]);
    char rest[3] = { 0 };
    for (size_t i = 1; i < t->len; i++)
        rest[i - 1] = (char)toupper((unsigned char)t->start[i]);
    if ((c0 == 'X' || c0 == 'W') && strcmp(rest, "ZR") == 0)
        return 31;
    if (c0 == 'S' && strcmp(rest, "P") == 0)
        return 32;
    if (c0 != 'X' && c0 != 'W')
        return -1;
    int n = 0;
    for (size_t i = 1; i < t->len; i++) {
        if (!isdigit((unsigned char)t->start[i]))
            return -1;
        n = n * 10 + (t->start[i] - '0');
    }
    if (t->len == 3 && t->start[1] == '0')
        return -1;
    return n <= 30 ? n : -1;
}

static bool a64_is_reg(const litmus_token *t)
{
    return reg_number(t) >= 0;
}

static void a64_canon_reg(const litmus_token *t, char *buf, size_t n)
{
    int r = reg_number(t);
    if (r == 31)
        snprintf(buf, n, "XZR");
    else if (r == 32)
        snprintf(buf, n, "SP");
    else
        snprintf(buf, n, "X%d", r);
}

/* --- operands --- */

static bool comma(litmus_asm_ctx *c)
{
    return litmus_asm_comma(c);
}

static bool need_reg(litmus_asm_ctx *c, int *num)
{
    return litmus_asm_need_reg(c, num);
}

/* A source register: the zero register is the immediate 0. */
static bool src_reg(litmus_asm_ctx *c, litmus_operand *o)
{
    return litmus_asm_src_reg(c, 31, o);
}

/* A destination: the zero register becomes a hidden register nothing reads. */
static bool dst_reg(litmus_asm_ctx *c, uint32_t *reg)
{
    return litmus_asm_dst_reg(c, 31, "%zr", reg);
}

static bool hash_imm(litmus_asm_ctx *c, int64_t *v)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (!litmus_expect(p, LITMUS_ASM_T_HASH, "'#' before an immediate"))
        return false;
    if (p->tok.kind != LITMUS_T_NUM) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected an integer after '#', found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    *v = p->tok.num;
    litmus_next(p);
    return true;
}

/* A register or #imm. */
static bool reg_or_imm(litmus_asm_ctx *c, litmus_operand *o)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind == LITMUS_ASM_T_HASH) {
        int64_t v;
        if (!hash_imm(c, &v))
            return false;
        *o = litmus_asm_imm(v);
        return true;
    }
    return src_reg(c, o);
}

/* An optional extension after a register operand: `,SXTW`, `,UXTW`,
 * `,LSL #0` (the value as it is); other shifts are errors. Consumes the
 * comma only when an extension follows. */
static bool extension(litmus_asm_ctx *c, const litmus_token *op)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind != LITMUS_T_COMMA)
        return true;
    const litmus_token *n = litmus_peek2(p);
    if (n->kind != LITMUS_T_IDENT || reg_number(n) >= 0)
        return true;
    litmus_next(p);
    if (litmus_tok_is(&p->tok, "SXTW") || litmus_tok_is(&p->tok, "UXTW") ||
        litmus_tok_is(&p->tok, "sxtw") || litmus_tok_is(&p->tok, "uxtw")) {
        litmus_next(p);
        return true;
    }
    if (litmus_tok_is(&p->tok, "LSL") || litmus_tok_is(&p->tok, "lsl")) {
        litmus_next(p);
        int64_t k;
        if (!hash_imm(c, &k))
            return false;
        if (k == 0)
            return true;
    }
    litmus_error_at(p, op, "unsupported: shifted or extended register operands in '%.*s'",
                    (int)(op->len > 40 ? 40 : op->len), op->start);
    return false;
}

/* '[' Xn [',' (#imm | Xm [ext])] ']' */
static bool mem_operand(litmus_asm_ctx *c, litmus_address *a, const litmus_token *op)
{
    litmus_parser *p = litmus_asm_parser(c);
    memset(a, 0, sizeof *a);
    if (!litmus_expect(p, LITMUS_T_LBRACK, "'[' before the address"))
        return false;
    if (!src_reg(c, &a->base))
        return false;
    if (p->tok.kind == LITMUS_T_COMMA) {
        litmus_next(p);
        litmus_operand off;
        if (!reg_or_imm(c, &off) || !extension(c, op))
            return false;
        if (off.kind != LITMUS_OPND_IMM || off.imm != 0) {
            a->has_offset = true;
            a->offset = off;
        }
    }
    if (!litmus_expect(p, LITMUS_T_RBRACK, "']'"))
        return false;
    if (p->tok.kind == LITMUS_ASM_T_BANG || p->tok.kind == LITMUS_T_COMMA) {
        litmus_error_at(p, &p->tok, "unsupported: pre- and post-indexed addressing");
        return false;
    }
    return true;
}

/* --- instructions --- */

static bool unsupported(litmus_asm_ctx *c, const litmus_token *op)
{
    litmus_error_at(litmus_asm_parser(c), op, "unsupported AArch64 instruction '%.*s'",
                    (int)(op->len > 40 ? 40 : op->len), op->start);
    return false;
}

/* The mnemonic, upper-cased, in buf. */
static void upper(const litmus_token *op, char *buf, size_t n)
{
    size_t k = op->len < n - 1 ? op->len : n - 1;
    for (size_t i = 0; i < k; i++)
        buf[i] = (char)toupper((unsigned char)op->start[i]);
    buf[k] = 0;
}

static litmus_annots annots(litmus_asm_ctx *c, const char *a, const char *b, const char *d)
{
    const char *names[3];
    uint32_t n = 0;
    if (a)
        names[n++] = a;
    if (b)
        names[n++] = b;
    if (d)
        names[n++] = d;
    return litmus_asm_annots(c, names, n);
}

/* Does m start with prefix, the rest being one of the given suffixes?
 * Returns the suffix's index, or -1. */
static int form(const char *m, const char *prefix, const char *const *suffixes, int n)
{
    size_t lp = strlen(prefix);
    if (strncmp(m, prefix, lp) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(m + lp, suffixes[i]) == 0)
            return i;
    return -1;
}

static const char *const ord_sfx[] = { "", "A", "L", "AL" };

static bool load(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                 const char *ann2, bool reserve)
{
    uint32_t rt;
    if (!dst_reg(c, &rt) || !comma(c) || !mem_operand(c, &in.addr, op))
        return false;
    in.kind = LITMUS_I_READ;
    in.reg = rt;
    in.reserve = reserve;
    in.annots = annots(c, ann, ann2, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

static bool store(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann)
{
    if (!src_reg(c, &in.value) || !comma(c) || !mem_operand(c, &in.addr, op))
        return false;
    in.kind = LITMUS_I_WRITE;
    in.annots = annots(c, ann, NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

/* STXR Ws, Wt, [Xn] (and STLXR): status Ws is 0 on success. */
static bool store_excl(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, bool rel)
{
    litmus_parser *p = litmus_asm_parser(c);
    int n;
    if (!need_reg(c, &n))
        return false;
    in.ok_reg = n == 31 ? UINT32_MAX : litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    if (!comma(c) || !src_reg(c, &in.value) || !comma(c) || !mem_operand(c, &in.addr, op))
        return false;
    in.kind = LITMUS_I_SC;
    in.annots = annots(c, "X", rel ? "L" : NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

/* SWP/LD<op>/ST<op> Ws, [Wt,] [Xn]: Wt := old; [Xn] := old op Ws. */
static bool atomic_op(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, litmus_op aop,
                      bool swap, bool noret, int ord)
{
    litmus_operand s;
    uint32_t rt = 0;
    if (!src_reg(c, &s) || !comma(c))
        return false;
    if (noret) {
        rt = litmus_asm_temp(c, "%zr");
    } else {
        litmus_parser *p = litmus_asm_parser(c);
        /* LD<op> into the zero register is ST<op>: no acquire, NoRet */
        noret = !swap && reg_number(&p->tok) == 31;
        if (!dst_reg(c, &rt) || !comma(c))
            return false;
    }
    litmus_address a;
    if (!mem_operand(c, &a, op))
        return false;
    uint32_t arg = litmus_asm_temp(c, "%arg"), old = litmus_asm_temp(c, "%old");
    litmus_instr mv = in;
    mv.kind = LITMUS_I_MOV;
    mv.reg = arg;
    mv.expr = litmus_asm_leaf(c, s);
    litmus_asm_emit(c, &mv);
    litmus_instr rmw = in;
    rmw.kind = LITMUS_I_RMW;
    rmw.reg = old;
    rmw.addr = a;
    bool acq = (ord == 1 || ord == 3) && !noret, rel = ord == 2 || ord == 3;
    rmw.annots = annots(c, "%amo", acq ? "A" : NULL, noret ? "NoRet" : NULL);
    rmw.has_wannots = true;
    rmw.wannots = annots(c, "%amo", rel ? "L" : NULL, NULL);
    rmw.expr = swap ? litmus_asm_leaf(c, litmus_asm_regop(arg))
                    : litmus_asm_binop(c, aop, litmus_asm_regop(old), litmus_asm_regop(arg));
    litmus_asm_emit(c, &rmw);
    mv.reg = rt;
    mv.expr = litmus_asm_leaf(c, litmus_asm_regop(old));
    litmus_asm_emit(c, &mv);
    return true;
}

/* CAS Ws, Wt, [Xn]: if [Xn] == Ws then [Xn] := Wt; Ws := old. */
static bool cas(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, int ord)
{
    litmus_parser *p = litmus_asm_parser(c);
    int n;
    if (!need_reg(c, &n))
        return false;
    bool noret = n == 31; /* the old value is dropped: no acquire (herd's NoRet) */
    litmus_operand cmp = n == 31 ? litmus_asm_imm(0) : litmus_asm_regop(litmus_asm_reg(c, &p->tok));
    uint32_t rs = n == 31 ? litmus_asm_temp(c, "%zr") : litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    if (!comma(c) || !src_reg(c, &in.value) || !comma(c) || !mem_operand(c, &in.addr, op))
        return false;
    in.kind = LITMUS_I_CAS;
    in.reg = rs;
    in.ok_reg = rs;
    in.cmp = cmp;
    bool acq = (ord == 1 || ord == 3) && !noret, rel = ord == 2 || ord == 3;
    in.annots = annots(c, "%amo", acq ? "A" : NULL, noret ? "NoRet" : NULL);
    in.fail_annots = annots(c, acq ? "A" : NULL, noret ? "NoRet" : NULL, NULL);
    in.has_wannots = true;
    in.wannots = annots(c, "%amo", rel ? "L" : NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

static bool barrier(litmus_asm_ctx *c, litmus_instr in, const char *kind)
{
    litmus_parser *p = litmus_asm_parser(c);
    static const char *const opts[] = { "SY", "ST", "LD", "ISH", "ISHST", "ISHLD",
                                        "NSH", "NSHST", "NSHLD", "OSH", "OSHST", "OSHLD" };
    char o[8];
    upper(&p->tok, o, sizeof o);
    size_t i = 0;
    while (p->tok.kind == LITMUS_T_IDENT && i < sizeof opts / sizeof opts[0] && strcmp(o, opts[i]))
        i++;
    if (p->tok.kind != LITMUS_T_IDENT || i == sizeof opts / sizeof opts[0]) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected a barrier option like SY or ISH, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    if (o[0] == 'N') {
        litmus_error_at(p, &p->tok, "unsupported: non-shareable barriers (%s.%s)", kind, o);
        return false;
    }
    litmus_next(p);
    char name[48];
    snprintf(name, sizeof name, "%s.%s", kind, o);
    in.kind = LITMUS_I_FENCE;
    in.annots = annots(c, name, NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

static bool label(litmus_asm_ctx *c, litmus_instr *in)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind != LITMUS_T_IDENT) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected a label, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    in->label = litmus_tok_sym(p, &p->tok);
    litmus_next(p);
    return true;
}

/* The condition codes B.cond and CSEL test, over CMP's two operands. */
static litmus_expr *condition(litmus_asm_ctx *c, const char *cc)
{
    litmus_operand a = litmus_asm_regop(litmus_asm_temp(c, "%cmpa"));
    litmus_operand b = litmus_asm_regop(litmus_asm_temp(c, "%cmpb"));
    if (strcmp(cc, "EQ") == 0)
        return litmus_asm_binop(c, LITMUS_OP_EQ, a, b);
    if (strcmp(cc, "NE") == 0)
        return litmus_asm_binop(c, LITMUS_OP_NE, a, b);
    if (strcmp(cc, "LT") == 0)
        return litmus_asm_binop(c, LITMUS_OP_LT, a, b);
    if (strcmp(cc, "LE") == 0)
        return litmus_asm_binop(c, LITMUS_OP_LE, a, b);
    if (strcmp(cc, "GT") == 0)
        return litmus_asm_binop(c, LITMUS_OP_LT, b, a);
    if (strcmp(cc, "GE") == 0)
        return litmus_asm_binop(c, LITMUS_OP_LE, b, a);
    return NULL;
}

static bool branch_on(litmus_asm_ctx *c, litmus_instr in, litmus_expr *cond)
{
    uint32_t r = litmus_asm_temp(c, "%cond");
    litmus_instr mv = in;
    mv.kind = LITMUS_I_MOV;
    mv.reg = r;
    mv.expr = cond;
    litmus_asm_emit(c, &mv);
    in.kind = LITMUS_I_BRANCH;
    in.has_reg = true;
    in.reg = r;
    if (!label(c, &in))
        return false;
    litmus_asm_emit(c, &in);
    return true;
}

static const struct { const char *name; litmus_op op; } alu[] = {
    { "ADD", LITMUS_OP_ADD }, { "SUB", LITMUS_OP_SUB }, { "EOR", LITMUS_OP_XOR },
    { "ORR", LITMUS_OP_OR }, { "AND", LITMUS_OP_AND },
};

static bool a64_instr(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op)
{
    litmus_parser *p = litmus_asm_parser(c);
    char m[24];
    upper(op, m, sizeof m);
    int k;
    if (strcmp(m, "NOP") == 0) {
        in.kind = LITMUS_I_NOP;
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strcmp(m, "LDR") == 0)
        return load(c, in, op, NULL, NULL, false);
    if (strcmp(m, "LDAR") == 0)
        return load(c, in, op, "A", NULL, false);
    if (strcmp(m, "LDAPR") == 0)
        return load(c, in, op, "Q", NULL, false);
    if (strcmp(m, "LDXR") == 0)
        return load(c, in, op, "X", NULL, true);
    if (strcmp(m, "LDAXR") == 0)
        return load(c, in, op, "X", "A", true);
    if (strcmp(m, "STR") == 0)
        return store(c, in, op, NULL);
    if (strcmp(m, "STLR") == 0)
        return store(c, in, op, "L");
    if (strcmp(m, "STXR") == 0 || strcmp(m, "STLXR") == 0)
        return store_excl(c, in, op, m[2] == 'L');
    if ((k = form(m, "SWP", ord_sfx, 4)) >= 0)
        return atomic_op(c, in, op, LITMUS_OP_NONE, true, false, k);
    if ((k = form(m, "CAS", ord_sfx, 4)) >= 0)
        return cas(c, in, op, k);
    static const struct { const char *name; litmus_op op; } aops[] = {
        { "ADD", LITMUS_OP_ADD }, { "EOR", LITMUS_OP_XOR }, { "SET", LITMUS_OP_OR },
    };
    for (size_t i = 0; i < sizeof aops / sizeof aops[0]; i++) {
        char ld[8], st[8];
        snprintf(ld, sizeof ld, "LD%s", aops[i].name);
        snprintf(st, sizeof st, "ST%s", aops[i].name);
        static const char *const st_sfx[] = { "", "", "L", "L" };
        if ((k = form(m, ld, ord_sfx, 4)) >= 0)
            return atomic_op(c, in, op, aops[i].op, false, false, k);
        if ((k = form(m, st, st_sfx, 3)) >= 0)
            return atomic_op(c, in, op, aops[i].op, false, true, k == 2 ? 2 : 0);
    }
    if (strcmp(m, "DMB") == 0 || strcmp(m, "DSB") == 0)
        return barrier(c, in, m);
    if (strcmp(m, "ISB") == 0) {
        in.kind = LITMUS_I_FENCE;
        in.annots = annots(c, "ISB", NULL, NULL);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strcmp(m, "B") == 0) {
        in.kind = LITMUS_I_BRANCH;
        if (!label(c, &in))
            return false;
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strcmp(m, "CBZ") == 0 || strcmp(m, "CBNZ") == 0) {
        litmus_operand r;
        if (!src_reg(c, &r) || !comma(c))
            return false;
        return branch_on(c, in, litmus_asm_binop(c, m[2] == 'N' ? LITMUS_OP_NE : LITMUS_OP_EQ, r,
                                                 litmus_asm_imm(0)));
    }
    if (strncmp(m, "B.", 2) == 0) {
        litmus_expr *cond = condition(c, m + 2);
        if (!cond)
            return unsupported(c, op);
        return branch_on(c, in, cond);
    }
    if (strcmp(m, "CMP") == 0) {
        litmus_operand a, b;
        if (!src_reg(c, &a) || !comma(c) || !reg_or_imm(c, &b) || !extension(c, op))
            return false;
        litmus_instr mv = in;
        mv.kind = LITMUS_I_MOV;
        mv.reg = litmus_asm_temp(c, "%cmpa");
        mv.expr = litmus_asm_leaf(c, a);
        litmus_asm_emit(c, &mv);
        mv.reg = litmus_asm_temp(c, "%cmpb");
        mv.expr = litmus_asm_leaf(c, b);
        litmus_asm_emit(c, &mv);
        return true;
    }
    uint32_t rd;
    if (strcmp(m, "MOV") == 0) {
        litmus_operand a;
        if (!dst_reg(c, &rd) || !comma(c) || !reg_or_imm(c, &a))
            return false;
        in.kind = LITMUS_I_MOV;
        in.reg = rd;
        in.expr = litmus_asm_leaf(c, a);
        litmus_asm_emit(c, &in);
        return true;
    }
    for (size_t i = 0; i < sizeof alu / sizeof alu[0]; i++) {
        if (strcmp(m, alu[i].name) != 0)
            continue;
        litmus_operand a, b;
        if (!dst_reg(c, &rd) || !comma(c) || !src_reg(c, &a) || !comma(c) ||
            !reg_or_imm(c, &b) || !extension(c, op))
            return false;
        in.kind = LITMUS_I_MOV;
        in.reg = rd;
        in.expr = litmus_asm_binop(c, alu[i].op, a, b);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strcmp(m, "CSEL") == 0) {
        /* herd's CSEL depends on its condition by a pick dependency
         * (iico_ctrl) and on the register it selects by data: the ports
         * keep one kind of dependency per register, so not yet */
        litmus_error_at(p, op, "unsupported AArch64 instruction 'CSEL' (its pick dependencies)");
        return false;
    }
    return unsupported(c, op);
}

const litmus_asm_dialect litmus_aarch64_dialect = {
    .arch = "AArch64",
    .is_reg = a64_is_reg,
    .canon_reg = a64_canon_reg,
    .instr = a64_instr,
    .reg_number = reg_number,
    .reg_what = "an AArch64 register",
};
