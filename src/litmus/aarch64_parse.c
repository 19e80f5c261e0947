/* aarch64_parse: herd's AArch64 litmus instructions (asm_dialect.h).
 *
 * Registers: X0..X30 and W0..W30 name the same register (kept and printed
 * as herd prints it, Xn), XZR/WZR read as 0 and drop writes, SP. Each
 * instruction becomes the litmus_instr sequence with its memory events:
 *  - LDR, LDAR (annotated A), LDAPR (Q), LDXR/LDAXR (X, A) and STR, STLR
 *    (L), STXR/STLXR (X, L) with [Xn], [Xn,#imm], [Xn,Xm], [Xn,Wm,SXTW];
 *    an exclusive pair is RISC-V's lr/sc (LITMUS_I_SC), the status register
 *    0 on success, 1 on failure; the exclusive pairs LDXP/LDAXP and
 *    STXP/STLXP the same on two cells (LITMUS_I_READ and LITMUS_I_SC with
 *    pair), each pair of events one single-copy-atomic access;
 *  - SWP, LD<op>/ST<op> for ADD, CLR, EOR, SET, and CAS, each with the A
 *    and L forms: read-modify-writes annotated %amo (herd's relation amo),
 *    A on the read, L on the write; ST<op> (no result) also NoRet; CASP
 *    (and its A, L, AL forms) on two cells (LITMUS_I_CAS with pair);
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

typedef litmus_expr expr;
static expr *num(litmus_asm_ctx *c, int64_t v);
static expr *rg(litmus_asm_ctx *c, uint32_t r);
static expr *node(litmus_asm_ctx *c, litmus_op op, expr *a, expr *b);
static void mov(litmus_asm_ctx *c, litmus_instr in, uint32_t rd, expr *e);
static bool src_expr(litmus_asm_ctx *c, expr **e, bool *w);
static bool modifier(litmus_asm_ctx *c, expr **e, bool w);
static bool is_w(const litmus_token *t);
static bool load_sized(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                       const char *ann2, bool reserve, int bits, bool sign);
static bool store_sized(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                        int bits);
static bool pair_addr2(litmus_asm_ctx *c, const litmus_token *at, const litmus_token *op,
                       const litmus_address *a, bool w, litmus_address *a2);

/* A base register's post-index update (`[Xn],#imm`): Xn += imm after the
 * access. */
typedef struct writeback {
    bool post, pre; /* pre: the pre-index already done */
    uint32_t reg;
    int64_t imm;
} writeback;

/* '[' Xn [',' (#imm | Xm [modifier])] ']' ['!'] [',' #imm]. A modified
 * register offset goes through a hidden register; a pre-index updates Xn
 * before (in's position), a post-index fills *wb (NULL: an error). */
static bool mem_operand(litmus_asm_ctx *c, litmus_address *a, const litmus_token *op,
                        litmus_instr in, writeback *wb)
{
    (void)op;
    litmus_parser *p = litmus_asm_parser(c);
    memset(a, 0, sizeof *a);
    if (wb)
        wb->post = wb->pre = false;
    if (!litmus_expect(p, LITMUS_T_LBRACK, "'[' before the address"))
        return false;
    if (!src_reg(c, &a->base))
        return false;
    if (p->tok.kind == LITMUS_T_COMMA) {
        litmus_next(p);
        litmus_operand off;
        if (p->tok.kind == LITMUS_ASM_T_HASH) {
            int64_t v;
            if (!hash_imm(c, &v))
                return false;
            off = litmus_imm_operand(v);
        } else {
            expr *e;
            if (!src_expr(c, &e, NULL) || !modifier(c, &e, false))
                return false;
            if (e->op == LITMUS_OP_NONE) {
                off = e->opnd;
            } else {
                uint32_t t = litmus_asm_temp(c, "%off");
                mov(c, in, t, e);
                off = litmus_reg_operand(t);
            }
        }
        if (off.kind != LITMUS_OPND_IMM || off.imm != 0) {
            a->has_offset = true;
            a->offset = off;
        }
    }
    if (!litmus_expect(p, LITMUS_T_RBRACK, "']'"))
        return false;
    bool pre = p->tok.kind == LITMUS_ASM_T_BANG;
    bool post = p->tok.kind == LITMUS_T_COMMA;
    if (!pre && !post)
        return true;
    litmus_token at = p->tok;
    if (!wb || a->base.kind != LITMUS_OPND_REG || (pre && a->has_offset && a->offset.kind != LITMUS_OPND_IMM)) {
        litmus_error_at(p, &at, "unsupported: pre- and post-indexed addressing here");
        return false;
    }
    litmus_next(p);
    if (pre) {
        wb->pre = true;
        if (a->has_offset)
            mov(c, in, a->base.reg, node(c, LITMUS_OP_ADD, rg(c, a->base.reg), num(c, a->offset.imm)));
        a->has_offset = false;
        return true;
    }
    int64_t v;
    if (a->has_offset || !hash_imm(c, &v)) {
        if (a->has_offset)
            litmus_error_at(p, &at, "unsupported: pre- and post-indexed addressing here");
        return false;
    }
    wb->post = true;
    wb->reg = a->base.reg;
    wb->imm = v;
    return true;
}

static void do_writeback(litmus_asm_ctx *c, litmus_instr in, const writeback *wb)
{
    if (wb->post)
        mov(c, in, wb->reg, node(c, LITMUS_OP_ADD, rg(c, wb->reg), num(c, wb->imm)));
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

/* The value of a sub-word access of `bits` bits (0: a whole one), signed
 * or not, into a register of w bits. */
static expr *sub_word(litmus_asm_ctx *c, expr *e, int bits, bool sign, bool w)
{
    if (sign)
        e = node(c, LITMUS_OP_ASR, node(c, LITMUS_OP_SHL, e, num(c, 64 - bits)), num(c, 64 - bits));
    else
        e = node(c, LITMUS_OP_AND, e, num(c, (int64_t)((1ull << bits) - 1)));
    return w ? node(c, LITMUS_OP_ZEXT32, e, num(c, 0)) : e;
}

static bool load(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                 const char *ann2, bool reserve)
{
    return load_sized(c, in, op, ann, ann2, reserve, 0, false);
}

static bool load_sized(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                       const char *ann2, bool reserve, int bits, bool sign)
{
    uint32_t rt;
    writeback wb;
    bool w = is_w(&litmus_asm_parser(c)->tok);
    if (!dst_reg(c, &rt) || !comma(c) || !mem_operand(c, &in.addr, op, in, reserve ? NULL : &wb))
        return false;
    in.kind = LITMUS_I_READ;
    in.reg = rt;
    in.reserve = reserve;
    in.annots = annots(c, ann, ann2, NULL);
    litmus_asm_emit(c, &in);
    if (bits)
        mov(c, in, rt, sub_word(c, rg(c, rt), bits, sign, w));
    if (!reserve)
        do_writeback(c, in, &wb);
    return true;
}

static bool store(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann)
{
    return store_sized(c, in, op, ann, 0);
}

static bool store_sized(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *ann,
                        int bits)
{
    writeback wb;
    if (!src_reg(c, &in.value) || !comma(c) || !mem_operand(c, &in.addr, op, in, &wb))
        return false;
    if (bits) {
        uint32_t t = litmus_asm_temp(c, "%st");
        mov(c, in, t, sub_word(c, litmus_asm_leaf(c, in.value), bits, false, false));
        in.value = litmus_reg_operand(t);
    }
    in.kind = LITMUS_I_WRITE;
    in.annots = annots(c, ann, NULL, NULL);
    litmus_asm_emit(c, &in);
    do_writeback(c, in, &wb);
    return true;
}

/* LDP/STP Rt1, Rt2, [Xn...] and their forms: two accesses of a register's
 * size, at the address and the one after it (herd: two single-copy-atomic
 * accesses of one instruction, in program order here, the lower address
 * first but for a pre-indexed STILP, whose store of the higher address
 * comes first as in herd7 7.58's semantics). sign32: LDPSW. ann: both
 * accesses' annotation (Q: LDIAPP, L: STILP, ordering them as herd's
 * iico_order does). */
static bool pair(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, bool store,
                 const char *ann, bool sign32)
{
    litmus_parser *p = litmus_asm_parser(c);
    bool w = is_w(&p->tok) || sign32;
    litmus_operand v[2];
    uint32_t rd[2];
    for (int i = 0; i < 2; i++)
        if (!(store ? src_reg(c, &v[i]) : dst_reg(c, &rd[i])) || !comma(c))
            return false;
    litmus_token at = p->tok;
    writeback wb;
    litmus_address a[2];
    if (!mem_operand(c, &a[0], op, in, &wb))
        return false;
    if (a[0].has_offset && a[0].offset.kind != LITMUS_OPND_IMM) {
        litmus_error_at(p, &at, "unsupported: a register offset in '%.*s'", (int)op->len, op->start);
        return false;
    }
    int64_t size = w ? 4 : 8;
    a[1] = a[0];
    a[1].has_offset = true;
    a[1].offset = litmus_imm_operand((a[0].has_offset ? a[0].offset.imm : 0) + size);
    in.annots = annots(c, ann, NULL, NULL);
    bool high_first = store && ann && strcmp(ann, "L") == 0 && wb.pre;
    if (store) {
        in.kind = LITMUS_I_WRITE;
        for (int k = 0; k < 2; k++) {
            int i = high_first ? 1 - k : k;
            in.addr = a[i];
            in.value = v[i];
            litmus_asm_emit(c, &in);
        }
    } else {
        /* loaded into hidden registers first: Rt1 may be the base */
        uint32_t t[2] = { litmus_asm_temp(c, "%p1"), litmus_asm_temp(c, "%p2") };
        in.kind = LITMUS_I_READ;
        for (int i = 0; i < 2; i++) {
            in.addr = a[i];
            in.reg = t[i];
            litmus_asm_emit(c, &in);
        }
        for (int i = 0; i < 2; i++)
            mov(c, in, rd[i], sign32 ? sub_word(c, rg(c, t[i]), 32, true, false) : rg(c, t[i]));
    }
    do_writeback(c, in, &wb);
    return true;
}

/* STXR Ws, Wt, [Xn] (and STLXR): status Ws is 0 on success. With pair,
 * STXP/STLXP Ws, Rt1, Rt2, [Xn], the store of an exclusive pair: on success
 * two writes (one single-copy-atomic access, each in rmw with the reserving
 * LDXP's read of its cell; LITMUS_I_SC with pair). */
static bool store_excl(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, bool rel,
                       bool pair)
{
    litmus_parser *p = litmus_asm_parser(c);
    int n;
    if (!need_reg(c, &n))
        return false;
    in.ok_reg = n == 31 ? UINT32_MAX : litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    if (!comma(c))
        return false;
    bool w = is_w(&p->tok);
    if (!src_reg(c, &in.value) || !comma(c) || (pair && (!src_reg(c, &in.value2) || !comma(c))))
        return false;
    litmus_token at = p->tok;
    if (!mem_operand(c, &in.addr, op, in, NULL) ||
        (pair && !pair_addr2(c, &at, op, &in.addr, w, &in.addr2)))
        return false;
    in.kind = LITMUS_I_SC;
    in.pair = pair;
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
    if (!mem_operand(c, &a, op, in, NULL))
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
    rmw.expr = swap ? litmus_asm_leaf(c, litmus_reg_operand(arg))
                    : litmus_asm_binop(c, aop, litmus_reg_operand(old), litmus_reg_operand(arg));
    litmus_asm_emit(c, &rmw);
    mv.reg = rt;
    mv.expr = litmus_asm_leaf(c, litmus_reg_operand(old));
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
    litmus_operand cmp = n == 31 ? litmus_imm_operand(0) : litmus_reg_operand(litmus_asm_reg(c, &p->tok));
    uint32_t rs = n == 31 ? litmus_asm_temp(c, "%zr") : litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    if (!comma(c) || !src_reg(c, &in.value) || !comma(c) || !mem_operand(c, &in.addr, op, in, NULL))
        return false;
    in.kind = LITMUS_I_CAS;
    in.reg = rs;
    in.ok_reg = rs;
    in.cmp = cmp;
    bool acq = (ord == 1 || ord == 3) && !noret, rel = ord == 2 || ord == 3;
    in.annots = annots(c, "%amo", acq ? "A" : NULL, noret ? "NoRet" : NULL);
    in.fail_annots = annots(c, acq ? "A" : NULL, noret ? "NoRet" : NULL, NULL);
    in.alt_deps = true;
    in.has_wannots = true;
    in.wannots = annots(c, "%amo", rel ? "L" : NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

/* The second address of a pair access at a (of 4- or 8-byte registers):
 * the next register-sized cell. Only an immediate offset or none. */
static bool pair_addr2(litmus_asm_ctx *c, const litmus_token *at, const litmus_token *op,
                       const litmus_address *a, bool w, litmus_address *a2)
{
    if (a->has_offset && a->offset.kind != LITMUS_OPND_IMM) {
        litmus_error_at(litmus_asm_parser(c), at, "unsupported: a register offset in '%.*s'",
                        (int)op->len, op->start);
        return false;
    }
    *a2 = *a;
    a2->has_offset = true;
    a2->offset = litmus_imm_operand((a->has_offset ? a->offset.imm : 0) + (w ? 4 : 8));
    return true;
}

/* A register of a pair operand: rd (the zero register is refused: herd
 * pairs name real registers). */
static bool pair_reg(litmus_asm_ctx *c, uint32_t *r, bool *w)
{
    litmus_parser *p = litmus_asm_parser(c);
    int n;
    if (w)
        *w = is_w(&p->tok);
    if (!need_reg(c, &n))
        return false;
    if (n >= 31) {
        litmus_error_at(p, &p->tok, "unsupported: the zero register or SP in a register pair");
        return false;
    }
    *r = litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    return true;
}

/* The address operand of a pair access into registers r0, r1 (not the
 * same one): in's addr and addr2, the next 4- or 8-byte cell (w). */
static bool pair_access(litmus_asm_ctx *c, litmus_instr *in, const litmus_token *op, uint32_t r0,
                        uint32_t r1, bool w)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (r0 == r1) {
        litmus_error_at(p, op, "unsupported: '%.*s' with the same register twice",
                        (int)op->len, op->start);
        return false;
    }
    litmus_token at = p->tok;
    return mem_operand(c, &in->addr, op, *in, NULL) &&
           pair_addr2(c, &at, op, &in->addr, w, &in->addr2);
}

/* CASP Ws1, Ws2, Wt1, Wt2, [Xn] (and A, L, AL): if [Xn] == Ws1 and the next
 * cell == Ws2, both := Wt1, Wt2; Ws1, Ws2 := the old values (herd: two
 * reads, then on success two writes, each an rmw with its location's read;
 * on failure the reads alone, A for the acquire forms). */
static bool casp(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, int ord)
{
    uint32_t r[4];
    bool w = false;
    for (int i = 0; i < 4; i++)
        if (!pair_reg(c, &r[i], i == 0 ? &w : NULL) || !comma(c))
            return false;
    if (!pair_access(c, &in, op, r[0], r[1], w))
        return false;
    in.kind = LITMUS_I_CAS;
    in.pair = true;
    in.reg = r[0];
    in.reg2 = r[1];
    in.ok_reg = r[0];
    in.cmp = litmus_reg_operand(r[0]);
    in.cmp2 = litmus_reg_operand(r[1]);
    in.value = litmus_reg_operand(r[2]);
    in.value2 = litmus_reg_operand(r[3]);
    bool acq = ord == 1 || ord == 3, rel = ord == 2 || ord == 3;
    in.annots = annots(c, "%amo", acq ? "A" : NULL, NULL);
    in.fail_annots = annots(c, acq ? "A" : NULL, NULL, NULL);
    in.alt_deps = true;
    in.has_wannots = true;
    in.wannots = annots(c, "%amo", rel ? "L" : NULL, NULL);
    litmus_asm_emit(c, &in);
    return true;
}

/* LDXP/LDAXP Rt1, Rt2, [Xn]: an exclusive pair load, herd's two reads
 * (annotated X, and A for LDAXP) of the address and the next register-sized
 * cell, read as one single-copy-atomic access (herd's para_atomic: ravel's
 * sm relates the two), the first reserving for a later STXP (LITMUS_I_READ
 * with reserve and pair). */
static bool load_excl_pair(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, bool acq)
{
    bool w = false;
    if (!pair_reg(c, &in.reg, &w) || !comma(c) || !pair_reg(c, &in.reg2, NULL) || !comma(c))
        return false;
    if (!pair_access(c, &in, op, in.reg, in.reg2, w))
        return false;
    in.kind = LITMUS_I_READ;
    in.reserve = true;
    in.pair = true;
    in.annots = annots(c, "X", acq ? "A" : NULL, NULL);
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
    const litmus_token *t = &p->tok;
    if (t->len > 2 && t->start[0] == '.' && (t->start[1] == '+' || t->start[1] == '-')) {
        /* .+8: the instruction 8 bytes on, 4 bytes an instruction */
        int64_t d = 0;
        for (size_t i = 2; i < t->len && d < 1000000; i++)
            d = d * 10 + (t->start[i] - '0');
        if (d % 4 != 0) {
            litmus_error_at(p, t, "a branch offset must be a multiple of 4 bytes");
            return false;
        }
        in->label = litmus_asm_pc_label(c, t->start[1] == '-' ? -d / 4 : d / 4);
    } else {
        in->label = litmus_tok_sym(p, t);
    }
    litmus_next(p);
    return true;
}

/* --- register arithmetic and the flags --- */

static expr *num(litmus_asm_ctx *c, int64_t v)
{
    return litmus_asm_leaf(c, litmus_imm_operand(v));
}

static expr *rg(litmus_asm_ctx *c, uint32_t r)
{
    return litmus_asm_leaf(c, litmus_reg_operand(r));
}

static expr *node(litmus_asm_ctx *c, litmus_op op, expr *a, expr *b)
{
    return litmus_asm_node(c, op, a, b, NULL);
}

static expr *not_(litmus_asm_ctx *c, expr *a)
{
    return node(c, LITMUS_OP_XOR, a, num(c, -1));
}

static expr *zext(litmus_asm_ctx *c, expr *a)
{
    return node(c, LITMUS_OP_ZEXT32, a, num(c, 0));
}

static expr *sext(litmus_asm_ctx *c, expr *a)
{
    return node(c, LITMUS_OP_SEXT32, a, num(c, 0));
}

/* Is t a 32-bit register name (Wn, WZR)? */
static bool is_w(const litmus_token *t)
{
    return t->kind == LITMUS_T_IDENT && (t->start[0] == 'W' || t->start[0] == 'w');
}

static void mov(litmus_asm_ctx *c, litmus_instr in, uint32_t rd, expr *e)
{
    in.kind = LITMUS_I_MOV;
    in.reg = rd;
    in.expr = e;
    litmus_asm_emit(c, &in);
}

/* A register read as a value: Wn is Xn's low 32 bits. */
static bool src_expr(litmus_asm_ctx *c, expr **e, bool *w)
{
    litmus_parser *p = litmus_asm_parser(c);
    bool w32 = is_w(&p->tok);
    litmus_operand o;
    if (!src_reg(c, &o))
        return false;
    *e = litmus_asm_leaf(c, o);
    if (w32 && o.kind == LITMUS_OPND_REG)
        *e = zext(c, *e);
    if (w)
        *w = w32;
    return true;
}

static bool dst_expr(litmus_asm_ctx *c, uint32_t *rd, bool *w)
{
    *w = is_w(&litmus_asm_parser(c)->tok);
    return dst_reg(c, rd);
}

/* The result of a w-bit operation. */
static expr *width(litmus_asm_ctx *c, expr *e, bool w)
{
    return w ? zext(c, e) : e;
}

static bool tok_upper_is(const litmus_token *t, const char *s)
{
    size_t n = strlen(s);
    if (t->kind != LITMUS_T_IDENT || t->len != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)t->start[i]) != s[i])
            return false;
    return true;
}

/* A shift amount: #k, or k as herd also takes it. */
static bool amount(litmus_asm_ctx *c, int64_t *k)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind != LITMUS_T_NUM)
        return hash_imm(c, k);
    *k = p->tok.num;
    litmus_next(p);
    return true;
}

/* `,LSL #k`-like modifiers after an operand: a shift (LSL, LSR, ASR) or an
 * extension ([SU]XT[BHWX]) with an optional left shift. e is w bits wide. */
static bool modifier(litmus_asm_ctx *c, expr **e, bool w)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind != LITMUS_T_COMMA)
        return true;
    const litmus_token *n = litmus_peek2(p);
    if (n->kind != LITMUS_T_IDENT || reg_number(n) >= 0)
        return true;
    litmus_next(p);
    litmus_token k = p->tok;
    litmus_next(p);
    int64_t amt = 0;
    static const char *const shifts[] = { "LSL", "LSR", "ASR" };
    for (int i = 0; i < 3; i++) {
        if (!tok_upper_is(&k, shifts[i]))
            continue;
        if (!amount(c, &amt))
            return false;
        if (i == 2 && w)
            *e = sext(c, *e);
        *e = width(c, node(c, i == 0 ? LITMUS_OP_SHL : i == 1 ? LITMUS_OP_SHR : LITMUS_OP_ASR, *e,
                            num(c, amt & (w ? 31 : 63))), w);
        return true;
    }
    static const char *const exts[] = { "UXTB", "UXTH", "UXTW", "UXTX", "SXTB", "SXTH", "SXTW", "SXTX" };
    for (int i = 0; i < 8; i++) {
        if (!tok_upper_is(&k, exts[i]))
            continue;
        int bits = 8 << (i % 4);
        if (bits < 64) {
            if (i < 4) {
                *e = node(c, LITMUS_OP_AND, *e, num(c, (int64_t)((1ull << bits) - 1)));
            } else if (bits == 32) {
                *e = sext(c, *e);
            } else {
                *e = node(c, LITMUS_OP_ASR, node(c, LITMUS_OP_SHL, *e, num(c, 64 - bits)),
                          num(c, 64 - bits));
            }
        }
        if (p->tok.kind == LITMUS_ASM_T_HASH || p->tok.kind == LITMUS_T_NUM) {
            if (!amount(c, &amt))
                return false;
            *e = node(c, LITMUS_OP_SHL, *e, num(c, amt));
        }
        return true;
    }
    litmus_error_at(p, &k, "unsupported: operand modifier '%.*s'", (int)(k.len > 20 ? 20 : k.len),
                    k.start);
    return false;
}

/* The flexible second operand: #imm [, LSL #k] or a register with a
 * modifier; w-bit wide. */
static bool operand2(litmus_asm_ctx *c, expr **e, bool w)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind == LITMUS_ASM_T_HASH || p->tok.kind == LITMUS_T_NUM) { /* herd takes `MOV X0,1` */
        int64_t v;
        if (!amount(c, &v))
            return false;
        *e = num(c, v);
    } else if (!src_expr(c, e, NULL)) {
        return false;
    }
    if (!modifier(c, e, w))
        return false;
    *e = width(c, *e, w);
    return true;
}

enum { FL_ADD, FL_SUB, FL_LOGIC };

/* Sets NZCV (hidden registers %N %Z %C %V) for a w-bit a op b whose result
 * is r (already w bits). */
static void set_flags(litmus_asm_ctx *c, litmus_instr in, int kind, bool w, uint32_t a, uint32_t b,
                      uint32_t r)
{
    uint32_t N = litmus_asm_temp(c, "%N"), Z = litmus_asm_temp(c, "%Z");
    uint32_t C = litmus_asm_temp(c, "%C"), V = litmus_asm_temp(c, "%V");
    expr *sign = w ? node(c, LITMUS_OP_SHR, rg(c, r), num(c, 31))
                   : node(c, LITMUS_OP_LT, rg(c, r), num(c, 0));
    mov(c, in, N, sign);
    /* a compare's Z compares the operands, so that addresses compare too */
    mov(c, in, Z, kind == FL_SUB ? node(c, LITMUS_OP_EQ, rg(c, a), rg(c, b))
                                 : node(c, LITMUS_OP_EQ, rg(c, r), num(c, 0)));
    if (kind == FL_LOGIC) {
        mov(c, in, C, num(c, 0));
        mov(c, in, V, num(c, 0));
        return;
    }
    expr *carry;
    if (kind == FL_ADD)
        carry = w ? node(c, LITMUS_OP_SHR, node(c, LITMUS_OP_ADD, rg(c, a), rg(c, b)), num(c, 32))
                  : node(c, LITMUS_OP_LTU, rg(c, r), rg(c, a));
    else
        carry = node(c, LITMUS_OP_XOR, node(c, LITMUS_OP_LTU, rg(c, a), rg(c, b)), num(c, 1));
    mov(c, in, C, carry);
    /* overflow: the operands' signs agree (add) or differ (sub), and the
     * result's differs from a's */
    expr *ov = node(c, LITMUS_OP_AND,
                    kind == FL_ADD ? node(c, LITMUS_OP_XOR, rg(c, b), rg(c, r))
                                   : node(c, LITMUS_OP_XOR, rg(c, a), rg(c, b)),
                    node(c, LITMUS_OP_XOR, rg(c, a), rg(c, r)));
    mov(c, in, V, w ? node(c, LITMUS_OP_AND, node(c, LITMUS_OP_SHR, ov, num(c, 31)), num(c, 1))
                    : node(c, LITMUS_OP_LT, ov, num(c, 0)));
}

/* The condition codes B.cond, CSEL and its family test, over NZCV. */
static expr *condition(litmus_asm_ctx *c, const char *cc)
{
    expr *N = rg(c, litmus_asm_temp(c, "%N")), *Z = rg(c, litmus_asm_temp(c, "%Z"));
    expr *C = rg(c, litmus_asm_temp(c, "%C")), *V = rg(c, litmus_asm_temp(c, "%V"));
    static const char *const codes[] = { "EQ", "NE", "CS", "CC", "MI", "PL", "VS", "VC",
                                         "HI", "LS", "GE", "LT", "GT", "LE", "AL", "NV" };
    int k = -1;
    for (int i = 0; i < 16; i++)
        if (strcmp(cc, codes[i]) == 0)
            k = i;
    if (strcmp(cc, "HS") == 0)
        k = 2;
    if (strcmp(cc, "LO") == 0)
        k = 3;
    if (k < 0)
        return NULL;
    expr *e;
    switch (k / 2) {
    case 0: e = Z; break;
    case 1: e = C; break;
    case 2: e = N; break;
    case 3: e = V; break;
    case 4: e = node(c, LITMUS_OP_AND, C, node(c, LITMUS_OP_XOR, Z, num(c, 1))); break;
    case 5: e = node(c, LITMUS_OP_EQ, N, V); break;
    case 6:
        e = node(c, LITMUS_OP_AND, node(c, LITMUS_OP_XOR, Z, num(c, 1)), node(c, LITMUS_OP_EQ, N, V));
        break;
    case 7: return num(c, 1);
    default: return NULL;
    }
    return k % 2 ? node(c, LITMUS_OP_XOR, e, num(c, 1)) : e;
}

static bool cond_code(litmus_asm_ctx *c, expr **cond)
{
    litmus_parser *p = litmus_asm_parser(c);
    char cc[8];
    upper(&p->tok, cc, sizeof cc);
    *cond = p->tok.kind == LITMUS_T_IDENT ? condition(c, cc) : NULL;
    if (!*cond) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected a condition code like EQ or GE, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    litmus_next(p);
    return true;
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

/* Data processing: Rd := Rn op operand2 (flags: the S forms, CMP, CMN, TST),
 * Rd := op operand2 (MOV, MVN, NEG), shifts, multiplies, extensions, MOVZ,
 * MOVN, MOVK. false after an error, or with *handled false when m is none
 * of these. */
static const struct { const char *name; litmus_op op; bool inv; int flags; } alu[] = {
    { "ADD", LITMUS_OP_ADD, false, FL_ADD }, { "SUB", LITMUS_OP_SUB, false, FL_SUB },
    { "EOR", LITMUS_OP_XOR, false, FL_LOGIC }, { "ORR", LITMUS_OP_OR, false, FL_LOGIC },
    { "AND", LITMUS_OP_AND, false, FL_LOGIC }, { "ORN", LITMUS_OP_OR, true, FL_LOGIC },
    { "BIC", LITMUS_OP_AND, true, FL_LOGIC }, { "EON", LITMUS_OP_XOR, true, FL_LOGIC },
};

static bool arith(litmus_asm_ctx *c, litmus_instr in, const char *m, bool *handled)
{
    *handled = true;
    uint32_t rd;
    bool w;
    expr *a, *b;
    uint32_t fa = litmus_asm_temp(c, "%fa"), fb = litmus_asm_temp(c, "%fb");
    uint32_t fr = litmus_asm_temp(c, "%fr");
    /* compares: SUBS/ADDS/ANDS into the zero register */
    static const char *const cmps[] = { "CMP", "CMN", "TST" };
    for (int i = 0; i < 3; i++) {
        if (strcmp(m, cmps[i]) != 0)
            continue;
        w = is_w(&litmus_asm_parser(c)->tok);
        if (!src_expr(c, &a, NULL) || !comma(c) || !operand2(c, &b, w))
            return false;
        mov(c, in, fa, a);
        mov(c, in, fb, b);
        litmus_op op = i == 0 ? LITMUS_OP_SUB : i == 1 ? LITMUS_OP_ADD : LITMUS_OP_AND;
        mov(c, in, fr, width(c, node(c, op, rg(c, fa), rg(c, fb)), w));
        set_flags(c, in, i == 0 ? FL_SUB : i == 1 ? FL_ADD : FL_LOGIC, w, fa, fb, fr);
        return true;
    }
    for (size_t i = 0; i < sizeof alu / sizeof alu[0]; i++) {
        size_t n = strlen(alu[i].name);
        bool s_form = m[n] == 'S' && m[n + 1] == 0;
        if (strncmp(m, alu[i].name, n) != 0 || (m[n] != 0 && !s_form))
            continue;
        if (s_form && (alu[i].op == LITMUS_OP_OR || alu[i].op == LITMUS_OP_XOR))
            break;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL) || !comma(c) ||
            !operand2(c, &b, w))
            return false;
        if (alu[i].inv)
            b = width(c, not_(c, b), w);
        expr *r = width(c, node(c, alu[i].op, a, b), w);
        if (!s_form) {
            mov(c, in, rd, r);
            return true;
        }
        mov(c, in, fa, a);
        mov(c, in, fb, b);
        mov(c, in, fr, width(c, node(c, alu[i].op, rg(c, fa), rg(c, fb)), w));
        set_flags(c, in, alu[i].flags, w, fa, fb, fr);
        mov(c, in, rd, rg(c, fr));
        return true;
    }
    /* one source: MOV, MVN, NEG(S) */
    if (!strcmp(m, "MOV") || !strcmp(m, "MVN") || !strcmp(m, "NEG") || !strcmp(m, "NEGS")) {
        if (!dst_expr(c, &rd, &w) || !comma(c) || !operand2(c, &b, w))
            return false;
        if (m[1] == 'V') {
            mov(c, in, rd, width(c, not_(c, b), w));
        } else if (m[0] == 'M') {
            mov(c, in, rd, b);
        } else {
            mov(c, in, fa, num(c, 0));
            mov(c, in, fb, b);
            mov(c, in, fr, width(c, node(c, LITMUS_OP_SUB, rg(c, fa), rg(c, fb)), w));
            if (m[3] == 'S')
                set_flags(c, in, FL_SUB, w, fa, fb, fr);
            mov(c, in, rd, rg(c, fr));
        }
        return true;
    }
    /* shifts by an immediate or a register */
    static const char *const shifts[] = { "LSL", "LSR", "ASR", "LSLV", "LSRV", "ASRV" };
    for (int i = 0; i < 6; i++) {
        if (strcmp(m, shifts[i]) != 0)
            continue;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL) || !comma(c))
            return false;
        litmus_parser *p = litmus_asm_parser(c);
        if (p->tok.kind == LITMUS_ASM_T_HASH) {
            int64_t v;
            if (!hash_imm(c, &v))
                return false;
            b = num(c, v);
        } else if (!src_expr(c, &b, NULL)) {
            return false;
        }
        b = node(c, LITMUS_OP_AND, b, num(c, w ? 31 : 63));
        int k = i % 3;
        if (k == 2 && w)
            a = sext(c, a);
        litmus_op op = k == 0 ? LITMUS_OP_SHL : k == 1 ? LITMUS_OP_SHR : LITMUS_OP_ASR;
        mov(c, in, rd, width(c, node(c, op, a, b), w));
        return true;
    }
    /* multiplies: MUL, MNEG, MADD, MSUB, and the widening S/U MULL, MNEGL,
     * MADDL, MSUBL (Xd, Wn, Wm [, Xa]) */
    static const struct { const char *name; int op; char ext; } muls[] = {
        { "MUL", 0, 0 }, { "MNEG", 1, 0 }, { "MADD", 2, 0 }, { "MSUB", 3, 0 },
        { "SMULL", 0, 'S' }, { "UMULL", 0, 'U' }, { "SMNEGL", 1, 'S' }, { "UMNEGL", 1, 'U' },
        { "SMADDL", 2, 'S' }, { "UMADDL", 2, 'U' }, { "SMSUBL", 3, 'S' }, { "UMSUBL", 3, 'U' },
    };
    for (size_t i = 0; i < sizeof muls / sizeof muls[0]; i++) {
        if (strcmp(m, muls[i].name) != 0)
            continue;
        bool wa, wb;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, &wa) || !comma(c) ||
            !src_expr(c, &b, &wb))
            return false;
        if (muls[i].ext == 'S') {
            a = sext(c, a);
            b = sext(c, b);
        }
        expr *prod = node(c, LITMUS_OP_MUL, a, b), *acc;
        if (muls[i].op >= 2) {
            if (!comma(c) || !src_expr(c, &acc, NULL))
                return false;
            prod = node(c, muls[i].op == 2 ? LITMUS_OP_ADD : LITMUS_OP_SUB, acc, prod);
        } else if (muls[i].op == 1) {
            prod = node(c, LITMUS_OP_SUB, num(c, 0), prod);
        }
        mov(c, in, rd, width(c, prod, w));
        return true;
    }
    /* bitfield moves UBFM, SBFM Rd, Rn, #immr, #imms and their aliases
     * UBFX, SBFX Rd, Rn, #lsb, #width */
    if (!strcmp(m, "UBFM") || !strcmp(m, "SBFM") || !strcmp(m, "UBFX") || !strcmp(m, "SBFX")) {
        int64_t r, sw;
        litmus_token at = litmus_asm_parser(c)->tok;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL) || !comma(c) ||
            !hash_imm(c, &r) || !comma(c) || !hash_imm(c, &sw))
            return false;
        int n = w ? 32 : 64;
        if (m[3] == 'X')
            sw = r + sw - 1; /* imms of the alias */
        if (r < 0 || r >= n || sw < 0 || sw >= n) {
            litmus_error_at(litmus_asm_parser(c), &at, "%s's bit positions must lie in 0..%d", m, n - 1);
            return false;
        }
        /* the field's top bit moved to bit 63, then back down, sign-extended
         * (SBFM) or not: bits immr..imms to 0.., or bits 0..imms up to n-immr */
        expr *top = node(c, LITMUS_OP_SHL, a, num(c, 63 - sw));
        litmus_op down = m[0] == 'S' ? LITMUS_OP_ASR : LITMUS_OP_SHR;
        expr *e = sw >= r ? node(c, down, top, num(c, 63 - sw + r))
                          : node(c, LITMUS_OP_SHL, node(c, down, top, num(c, 63 - sw)), num(c, n - r));
        mov(c, in, rd, width(c, e, w));
        return true;
    }
    /* RBIT, REV16, REV32, REV (REV64): bits or bytes reversed by swapping
     * ever larger groups, from the smallest one the instruction moves
     * (bits or bytes) up to the largest one it reverses */
    static const struct { const char *name; int lo, hi; } revs[] = {
        { "RBIT", 1, 64 }, { "REV16", 8, 16 }, { "REV32", 8, 32 }, { "REV", 8, 64 }, { "REV64", 8, 64 },
    };
    for (size_t i = 0; i < sizeof revs / sizeof revs[0]; i++) {
        if (strcmp(m, revs[i].name) != 0)
            continue;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL))
            return false;
        int hi = revs[i].hi == 64 && w ? 32 : revs[i].hi;
        for (int k = revs[i].lo; k < hi; k *= 2) {
            /* the low half of every 2k-bit group */
            uint64_t mask = 0;
            for (int bit = 0; bit < 64; bit++)
                if ((bit / k) % 2 == 0)
                    mask |= 1ull << bit;
            if (w)
                mask &= 0xffffffffu;
            expr *lo = node(c, LITMUS_OP_SHL, node(c, LITMUS_OP_AND, a, num(c, (int64_t)mask)), num(c, k));
            expr *up = node(c, LITMUS_OP_AND, node(c, LITMUS_OP_SHR, a, num(c, k)), num(c, (int64_t)mask));
            uint32_t t = litmus_asm_temp(c, "%rev");
            mov(c, in, t, node(c, LITMUS_OP_OR, lo, up));
            a = rg(c, t);
        }
        mov(c, in, rd, width(c, a, w));
        return true;
    }
    if (!strcmp(m, "ABS")) {
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL))
            return false;
        if (w)
            a = sext(c, a);
        uint32_t t = litmus_asm_temp(c, "%abs");
        mov(c, in, t, a);
        expr *neg = node(c, LITMUS_OP_SUB, num(c, 0), rg(c, t));
        mov(c, in, rd, width(c, litmus_asm_node(c, LITMUS_OP_SEL, neg, rg(c, t),
                                                node(c, LITMUS_OP_LT, rg(c, t), num(c, 0))), w));
        return true;
    }
    /* extensions: SXTW, SXTH, SXTB, UXTH, UXTB */
    static const char *const exts[] = { "UXTB", "UXTH", "SXTB", "SXTH", "SXTW" };
    for (int i = 0; i < 5; i++) {
        if (strcmp(m, exts[i]) != 0)
            continue;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !src_expr(c, &a, NULL))
            return false;
        int bits = i == 4 ? 32 : i % 2 ? 16 : 8;
        if (i < 2)
            a = node(c, LITMUS_OP_AND, a, num(c, (1 << bits) - 1));
        else
            a = node(c, LITMUS_OP_ASR, node(c, LITMUS_OP_SHL, a, num(c, 64 - bits)), num(c, 64 - bits));
        mov(c, in, rd, width(c, a, w));
        return true;
    }
    /* wide immediates: MOVZ, MOVN, MOVK Rd, #imm [, LSL #s] */
    if (!strcmp(m, "MOVZ") || !strcmp(m, "MOVN") || !strcmp(m, "MOVK")) {
        int64_t v;
        if (!dst_expr(c, &rd, &w) || !comma(c) || !hash_imm(c, &v))
            return false;
        b = num(c, v);
        if (!modifier(c, &b, w))
            return false;
        if (m[3] == 'N') {
            b = not_(c, b);
        } else if (m[3] == 'K') {
            /* the 16 bits b covers: its shift is what the modifier applied */
            int64_t sh = 0;
            if (b->op == LITMUS_OP_SHL || (b->op == LITMUS_OP_ZEXT32 && b->lhs->op == LITMUS_OP_SHL))
                sh = (b->op == LITMUS_OP_SHL ? b : b->lhs)->rhs->opnd.imm;
            expr *keep = node(c, LITMUS_OP_AND, rg(c, rd), num(c, ~(int64_t)((uint64_t)0xffff << sh)));
            b = node(c, LITMUS_OP_OR, keep, b);
        }
        mov(c, in, rd, width(c, b, w));
        return true;
    }
    /* conditional selects: CSEL, CSINC, CSINV, CSNEG Rd, Rn, Rm, cond and
     * the aliases CSET, CSETM Rd, cond and CINC, CINV, CNEG Rd, Rn, cond */
    static const char *const csels[] = { "CSEL", "CSINC", "CSINV", "CSNEG" };
    static const char *const cincs[] = { "", "CINC", "CINV", "CNEG" };
    static const char *const csets[] = { "", "CSET", "CSETM", "" };
    for (int i = 0; i < 4; i++) {
        bool full = !strcmp(m, csels[i]), alias = i && !strcmp(m, cincs[i]), set = !strcmp(m, csets[i]);
        if (!full && !alias && !(i && set))
            continue;
        expr *cond;
        if (!dst_expr(c, &rd, &w) || !comma(c))
            return false;
        if (set) {
            a = num(c, 0);
            b = num(c, 0);
        } else if (!src_expr(c, &a, NULL) || !comma(c)) {
            return false;
        } else if (alias) {
            b = a;
        } else if (!src_expr(c, &b, NULL) || !comma(c)) {
            return false;
        }
        if (!cond_code(c, &cond))
            return false;
        expr *alt = i == 1 ? node(c, LITMUS_OP_ADD, b, num(c, 1))
                  : i == 2 ? not_(c, b) : i == 3 ? node(c, LITMUS_OP_SUB, num(c, 0), b) : b;
        /* the aliases test the inverted condition: Rd := cond ? op(Rn) : Rn */
        expr *e = full ? litmus_asm_node(c, LITMUS_OP_SEL, a, alt, cond)
                       : litmus_asm_node(c, LITMUS_OP_SEL, alt, a, cond);
        mov(c, in, rd, width(c, e, w));
        return true;
    }
    *handled = false;
    return false;
}

/* --- branches to code addresses --- */

/* A branch to the code address register r holds (has_reg: what r's value
 * depends on gives ctrl, as a conditional branch's register does). */
static void branch_to_reg(litmus_asm_ctx *c, litmus_instr in, uint32_t r)
{
    in.kind = LITMUS_I_BRANCH;
    in.has_reg = true;
    in.indirect = true;
    in.reg = r;
    litmus_asm_emit(c, &in);
}

/* X30 := the return address (the next instruction's code address). */
static void link(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op)
{
    litmus_token x30 = { .kind = LITMUS_T_IDENT, .start = "X30", .len = 3 };
    litmus_operand ret = { LITMUS_OPND_LOC, 0, 0, litmus_asm_code_next(c, op) };
    mov(c, in, litmus_asm_reg(c, &x30), litmus_asm_leaf(c, ret));
}

/* ADR Xd, label; BL label; BLR Xn; BR Xn; RET [Xn]. Code addresses are
 * code locations (test.h), which a register or memory may hold. */
static bool code_branch(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op, const char *m,
                        bool *handled)
{
    litmus_parser *p = litmus_asm_parser(c);
    *handled = true;
    if (!strcmp(m, "ADR")) {
        uint32_t rd;
        if (!dst_reg(c, &rd) || !comma(c))
            return false;
        if (p->tok.kind != LITMUS_T_IDENT || a64_is_reg(&p->tok) || p->tok.start[0] == '.') {
            char buf[64];
            litmus_error_at(p, &p->tok, "expected a label after 'ADR Xd,', found %s",
                            litmus_tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        litmus_operand a = { LITMUS_OPND_LOC, 0, 0, litmus_asm_code_label(c, &p->tok) };
        litmus_next(p);
        mov(c, in, rd, litmus_asm_leaf(c, a));
        return true;
    }
    if (!strcmp(m, "BL")) {
        litmus_instr b = in;
        b.kind = LITMUS_I_BRANCH;
        if (!label(c, &b))
            return false;
        link(c, in, op);
        litmus_asm_emit(c, &b);
        return true;
    }
    if (!strcmp(m, "BR") || !strcmp(m, "BLR") || !strcmp(m, "RET")) {
        int n = 30;
        bool named = m[0] != 'R' || p->tok.kind == LITMUS_T_IDENT;
        if (named && !need_reg(c, &n))
            return false;
        if (n >= 31 || (named && is_w(&p->tok))) {
            litmus_error_at(p, &p->tok, "%s needs an X register (not XZR or SP)", m);
            return false;
        }
        litmus_token x30 = { .kind = LITMUS_T_IDENT, .start = "X30", .len = 3 };
        uint32_t r = litmus_asm_reg(c, named ? &p->tok : &x30);
        if (named)
            litmus_next(p);
        if (m[1] == 'L') { /* the target read before X30 is written (BLR X30) */
            uint32_t t = litmus_asm_temp(c, "%target");
            mov(c, in, t, rg(c, r));
            link(c, in, op);
            r = t;
        }
        branch_to_reg(c, in, r);
        return true;
    }
    *handled = false;
    return false;
}

static bool a64_instr(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op)
{
    char m[24];
    upper(op, m, sizeof m);
    int k;
    if (strcmp(m, "NOP") == 0) {
        in.kind = LITMUS_I_NOP;
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strcmp(m, "LDR") == 0 || strcmp(m, "LDUR") == 0)
        return load(c, in, op, NULL, NULL, false);
    static const struct { const char *name; int bits; bool sign; const char *ann; bool store; } sized[] = {
        { "LDRB", 8, false, NULL, false }, { "LDRH", 16, false, NULL, false },
        { "LDURB", 8, false, NULL, false }, { "LDURH", 16, false, NULL, false },
        { "LDRSB", 8, true, NULL, false }, { "LDRSH", 16, true, NULL, false },
        { "LDRSW", 32, true, NULL, false }, { "LDARB", 8, false, "A", false },
        { "LDARH", 16, false, "A", false }, { "LDAPRB", 8, false, "Q", false },
        { "LDAPRH", 16, false, "Q", false }, { "STRB", 8, false, NULL, true },
        { "STRH", 16, false, NULL, true }, { "STURB", 8, false, NULL, true },
        { "STURH", 16, false, NULL, true }, { "STLRB", 8, false, "L", true },
        { "STLRH", 16, false, "L", true }, { "STUR", 0, false, NULL, true },
    };
    for (size_t i = 0; i < sizeof sized / sizeof sized[0]; i++)
        if (strcmp(m, sized[i].name) == 0)
            return sized[i].store ? store_sized(c, in, op, sized[i].ann, sized[i].bits)
                                  : load_sized(c, in, op, sized[i].ann, NULL, false, sized[i].bits,
                                               sized[i].sign);
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
    static const struct { const char *name; bool store; const char *ann; bool sign; } pairs[] = {
        { "LDP", false, NULL, false }, { "STP", true, NULL, false },
        { "LDNP", false, NULL, false }, { "STNP", true, NULL, false },
        { "LDIAPP", false, "Q", false }, { "STILP", true, "L", false },
        { "LDPSW", false, NULL, true },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (strcmp(m, pairs[i].name) == 0)
            return pair(c, in, op, pairs[i].store, pairs[i].ann, pairs[i].sign);
    if (strcmp(m, "STXR") == 0 || strcmp(m, "STLXR") == 0)
        return store_excl(c, in, op, m[2] == 'L', false);
    if ((k = form(m, "SWP", ord_sfx, 4)) >= 0)
        return atomic_op(c, in, op, LITMUS_OP_NONE, true, false, k);
    if ((k = form(m, "CAS", ord_sfx, 4)) >= 0)
        return cas(c, in, op, k);
    if ((k = form(m, "CASP", ord_sfx, 4)) >= 0)
        return casp(c, in, op, k);
    if (strcmp(m, "LDXP") == 0 || strcmp(m, "LDAXP") == 0)
        return load_excl_pair(c, in, op, m[2] == 'A');
    if (strcmp(m, "STXP") == 0 || strcmp(m, "STLXP") == 0)
        return store_excl(c, in, op, m[2] == 'L', true);

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
        expr *r;
        if (!src_expr(c, &r, NULL) || !comma(c))
            return false;
        return branch_on(c, in, node(c, m[2] == 'N' ? LITMUS_OP_NE : LITMUS_OP_EQ, r, num(c, 0)));
    }
    if (strcmp(m, "TBZ") == 0 || strcmp(m, "TBNZ") == 0) {
        expr *r;
        int64_t bit;
        if (!src_expr(c, &r, NULL) || !comma(c) || !hash_imm(c, &bit) || !comma(c))
            return false;
        expr *set = node(c, LITMUS_OP_AND, node(c, LITMUS_OP_SHR, r, num(c, bit & 63)), num(c, 1));
        return branch_on(c, in, m[2] == 'N' ? set : node(c, LITMUS_OP_XOR, set, num(c, 1)));
    }
    if (strncmp(m, "B.", 2) == 0) {
        litmus_expr *cond = condition(c, m + 2);
        if (!cond)
            return unsupported(c, op);
        return branch_on(c, in, cond);
    }
    bool handled;
    bool ok = code_branch(c, in, op, m, &handled);
    if (handled)
        return ok;
    ok = arith(c, in, m, &handled);
    return handled ? ok : unsupported(c, op);
}

const litmus_asm_dialect litmus_aarch64_dialect = {
    .arch = "AArch64",
    .is_reg = a64_is_reg,
    .canon_reg = a64_canon_reg,
    .instr = a64_instr,
    .reg_number = reg_number,
    .reg_what = "an AArch64 register",
};
