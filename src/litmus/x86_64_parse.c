/* x86_64_parse: herd's X86_64 litmus instructions in AT&T syntax
 * (asm_dialect.h): `movl $1,(x)`, `movl (y),%eax`, source before
 * destination.
 *
 * Registers: the general registers by any of their names (%rax, %eax, %ax,
 * %al, %ah, %r8, %r8d, %r8w, %r8b, ...), kept and printed under their
 * 64-bit name as herd prints them (rax); in the init block and the
 * condition they are written without '%', in either case (0:RAX). %rip
 * and the segment registers are registers too. Each instruction becomes
 * the litmus_instr sequence with herd's events (no -variant):
 *  - the operand size is the mnemonic's suffix (b, w, l, q) or its
 *    register's; a read of a register or of memory narrower than 64 bits
 *    is masked to that size; a write to a 32- or 64-bit register replaces
 *    it, to a 16- or 8-bit one only those bits, as herd does;
 *  - MOV: a read, a write or a register copy; memory to memory is an
 *    error;
 *  - XCHG with memory (always locked) and the LOCK forms of ADD, SUB, XOR,
 *    OR, AND, INC, DEC, XADD and CMPXCHG: read-modify-writes, whose events
 *    are herd's set X; a failed LOCK CMPXCHG is a lone read annotated X;
 *    without LOCK, arithmetic on memory is an error (herd's read and
 *    write of one instruction are not in program order: ravel's would be);
 *  - MFENCE, LFENCE, SFENCE: fences in herd's sets of those names (MFENCE
 *    is also the full fence mb of the built-in models);
 *  - CMP and arithmetic set the flags ZF (result equal) and SF (herd's
 *    "greater than"), hidden registers; Jcc branches on them, so the reads
 *    they depend on give ctrl; JMP; RET ends the thread (herd's telechat
 *    tests end each thread with it);
 *  - NOP (with or without operands, NOPL, NOPW) and ENDBR64 do nothing.
 * Memory operands: (x) for a location x, and DISP(BASE,INDEX,SCALE) over
 * registers holding addresses (an array's cells: parse_common.h). A
 * mnemonic herd has and ravel does not is an error naming it (exit 5). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/asm_dialect.h"

/* --- registers --- */

/* Which bits of the register a name covers. */
typedef enum part { P64, P32, P16, P8L, P8H } part;

static const char *const gprs[] = { "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp" };
static const char *const n32[] = { "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp" };
static const char *const n16[] = { "ax", "bx", "cx", "dx", "si", "di", "bp", "sp" };
static const char *const n8l[] = { "al", "bl", "cl", "dl", "sil", "dil", "bpl", "spl" };
static const char *const n8h[] = { "ah", "bh", "ch", "dh" };
static const char *const others[] = { "rip", "cs", "ds", "ss", "es", "fs", "gs" };

/* The register t names (with or without '%', any case): its 64-bit name
 * into canon and its part; false when t is no register. */
static bool reg_of(const litmus_token *t, char *canon, size_t n, part *pt)
{
    if (t->kind != LITMUS_T_IDENT)
        return false;
    const char *s = t->start;
    size_t len = t->len;
    if (len && s[0] == '%') {
        s++;
        len--;
    }
    char w[8];
    if (len == 0 || len >= sizeof w)
        return false;
    for (size_t i = 0; i < len; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[len] = 0;
    struct { const char *const *names; size_t count; part p; } tabs[] = {
        { gprs, 8, P64 }, { n32, 8, P32 }, { n16, 8, P16 }, { n8l, 8, P8L }, { n8h, 4, P8H },
    };
    for (size_t k = 0; k < sizeof tabs / sizeof tabs[0]; k++)
        for (size_t i = 0; i < tabs[k].count; i++)
            if (strcmp(w, tabs[k].names[i]) == 0) {
                snprintf(canon, n, "%s", gprs[i]);
                *pt = tabs[k].p;
                return true;
            }
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (strcmp(w, others[i]) == 0) {
            snprintf(canon, n, "%s", others[i]);
            *pt = P64;
            return true;
        }
    if (w[0] != 'r' || !isdigit((unsigned char)w[1])) /* r8 .. r15 and their parts */
        return false;
    size_t i = 1;
    int num = 0;
    while (isdigit((unsigned char)w[i]))
        num = num * 10 + (w[i++] - '0');
    if (num < 8 || num > 15 || (w[1] == '0'))
        return false;
    if (w[i] == 0)
        *pt = P64;
    else if (w[i + 1] != 0)
        return false;
    else if (w[i] == 'd')
        *pt = P32;
    else if (w[i] == 'w')
        *pt = P16;
    else if (w[i] == 'b')
        *pt = P8L;
    else
        return false;
    snprintf(canon, n, "r%d", num);
    return true;
}

static bool x64_is_reg(const litmus_token *t)
{
    char buf[8];
    part p;
    return reg_of(t, buf, sizeof buf, &p);
}

static void x64_canon_reg(const litmus_token *t, char *buf, size_t n)
{
    part p;
    if (!reg_of(t, buf, n, &p))
        snprintf(buf, n, "?");
}

static int part_bits(part p)
{
    return p == P64 ? 64 : p == P32 ? 32 : p == P16 ? 16 : 8;
}

/* --- operands --- */

typedef enum okind { O_IMM, O_REG, O_MEM } okind;

typedef struct opnd {
    okind kind;
    int64_t imm;            /* IMM */
    uint32_t reg;           /* REG: the register's index */
    part part;              /* REG */
    litmus_address addr;    /* MEM (after the index arithmetic is emitted) */
    litmus_token at;        /* where it starts */
} opnd;

typedef struct x64 {
    litmus_asm_ctx *c;
    litmus_parser *p;
    litmus_instr in; /* the template: source position */
} x64;


static litmus_expr *leaf(x64 *x, litmus_operand o)
{
    return litmus_asm_leaf(x->c, o);
}

static litmus_expr *node(x64 *x, litmus_op op, litmus_expr *a, litmus_expr *b)
{
    litmus_expr *e = BASE_ARENA_NEW(&x->p->t->arena, litmus_expr);
    e->op = op;
    e->lhs = a;
    e->rhs = b;
    return e;
}

static void emit_mov(x64 *x, uint32_t reg, litmus_expr *e)
{
    litmus_instr in = x->in;
    in.kind = LITMUS_I_MOV;
    in.reg = reg;
    in.expr = e;
    litmus_asm_emit(x->c, &in);
}

static uint32_t temp(x64 *x, const char *name)
{
    return litmus_asm_temp(x->c, name);
}

/* An integer token's value, with a '$' before it or not, decimal or hex. */
static bool int_text(const char *s, size_t n, int64_t *v)
{
    bool neg = false;
    if (n && s[0] == '-') {
        neg = true;
        s++;
        n--;
    }
    if (n == 0)
        return false;
    uint64_t acc = 0;
    int base = 10;
    size_t i = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    for (; i < n; i++) {
        int d = isdigit((unsigned char)s[i]) ? s[i] - '0'
                : base == 16 && isxdigit((unsigned char)s[i]) ? tolower((unsigned char)s[i]) - 'a' + 10
                : -1;
        if (d < 0 || acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        acc = acc * (uint64_t)base + (uint64_t)d;
    }
    *v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return true;
}

/* An immediate: $N, $-N, $0xN, or a bare integer (herd's `shl 2,%eax`). */
static bool at_imm(litmus_parser *p)
{
    const litmus_token *t = &p->tok;
    return t->kind == LITMUS_T_NUM || (t->kind == LITMUS_T_IDENT && t->start[0] == '$');
}

static bool parse_imm(x64 *x, int64_t *v)
{
    litmus_parser *p = x->p;
    litmus_token t = p->tok;
    if (t.kind == LITMUS_T_NUM) {
        *v = t.num;
        litmus_next(p);
        return true;
    }
    if (t.len == 1) { /* `$` then a number token: $-1 */
        litmus_next(p);
        if (p->tok.kind != LITMUS_T_NUM) {
            litmus_error_at(p, &t, "expected an immediate like $1 after '$'");
            return false;
        }
        *v = p->tok.num;
        litmus_next(p);
        return true;
    }
    if (!int_text(t.start + 1, t.len - 1, v)) {
        litmus_error_at(p, &t, "expected an immediate like $1 or $0x10, found '%.*s'",
                        (int)(t.len > 40 ? 40 : t.len), t.start);
        return false;
    }
    litmus_next(p);
    return true;
}

static bool need_reg(x64 *x, uint32_t *reg, part *pt)
{
    litmus_parser *p = x->p;
    char canon[8];
    if (!reg_of(&p->tok, canon, sizeof canon, pt) || p->tok.start[0] != '%') {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected an X86_64 register like %%eax, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    *reg = litmus_asm_reg(x->c, &p->tok);
    litmus_next(p);
    return true;
}

/* A memory operand: [%seg:][DISP](BASE[,INDEX[,SCALE]]) or [DISP](LOC) or
 * LOC. An index becomes a hidden register holding INDEX*SCALE+DISP (its
 * instruction emitted now, before the access). */
static bool parse_mem(x64 *x, opnd *o)
{
    litmus_parser *p = x->p;
    memset(&o->addr, 0, sizeof o->addr);
    if (p->tok.kind == LITMUS_T_IDENT && p->tok.start[0] == '%' &&
        litmus_peek2(p)->kind == LITMUS_T_COLON) { /* a segment prefix: %cs: */
        litmus_next(p);
        litmus_next(p);
    }
    int64_t disp = 0;
    if (p->tok.kind == LITMUS_T_NUM) {
        disp = p->tok.num;
        litmus_next(p);
    }
    if (p->tok.kind == LITMUS_T_IDENT && p->tok.start[0] != '%' && !x64_is_reg(&p->tok) &&
        disp == 0) { /* a bare location: x */
        o->addr.base.kind = LITMUS_OPND_LOC;
        o->addr.base.loc = litmus_location_of(p, &p->tok);
        litmus_next(p);
        return true;
    }
    if (!litmus_expect(p, LITMUS_T_LPAR, "'(' or an operand"))
        return false;
    part pt;
    if (p->tok.kind == LITMUS_T_IDENT && p->tok.start[0] != '%') {
        o->addr.base.kind = LITMUS_OPND_LOC;
        o->addr.base.loc = litmus_location_of(p, &p->tok);
        litmus_next(p);
    } else if (p->tok.kind != LITMUS_T_COMMA) {
        uint32_t r;
        if (!need_reg(x, &r, &pt))
            return false;
        o->addr.base = litmus_reg_operand(r);
    } else {
        o->addr.base = litmus_imm_operand(0); /* (,%rbx,8): no base */
    }
    bool has_index = false;
    uint32_t index = 0;
    int64_t scale = 1;
    if (p->tok.kind == LITMUS_T_COMMA) {
        litmus_next(p);
        if (!need_reg(x, &index, &pt))
            return false;
        has_index = true;
        if (p->tok.kind == LITMUS_T_COMMA) {
            litmus_next(p);
            if (p->tok.kind != LITMUS_T_NUM ||
                (p->tok.num != 0 && p->tok.num != 1 && p->tok.num != 2 && p->tok.num != 4 &&
                 p->tok.num != 8)) {
                char buf[64];
                litmus_error_at(p, &p->tok, "expected a scale (1, 2, 4 or 8), found %s",
                                litmus_tok_desc(&p->tok, buf, sizeof buf));
                return false;
            }
            scale = p->tok.num;
            litmus_next(p);
        }
    }
    if (!litmus_expect(p, LITMUS_T_RPAR, "')'"))
        return false;
    if (has_index) {
        uint32_t t = temp(x, "%ea");
        litmus_expr *e = node(x, LITMUS_OP_MUL, leaf(x, litmus_reg_operand(index)), leaf(x, litmus_imm_operand(scale)));
        if (disp != 0)
            e = node(x, LITMUS_OP_ADD, e, leaf(x, litmus_imm_operand(disp)));
        emit_mov(x, t, e);
        o->addr.has_offset = true;
        o->addr.offset = litmus_reg_operand(t);
    } else if (disp != 0) {
        o->addr.has_offset = true;
        o->addr.offset = litmus_imm_operand(disp);
    }
    if (o->addr.base.kind == LITMUS_OPND_IMM) { /* no base: the index is the address */
        if (!o->addr.has_offset) {
            litmus_error_at(p, &o->at, "a memory operand needs a base or an index register");
            return false;
        }
        o->addr.base = o->addr.offset;
        o->addr.has_offset = false;
    }
    return true;
}

/* One operand (a memory operand's index arithmetic is emitted now). */
static bool parse_opnd(x64 *x, opnd *o)
{
    litmus_parser *p = x->p;
    memset(o, 0, sizeof *o);
    o->at = p->tok;
    if (at_imm(p) && !(p->tok.kind == LITMUS_T_NUM && litmus_peek2(p)->kind == LITMUS_T_LPAR)) {
        o->kind = O_IMM;
        return parse_imm(x, &o->imm);
    }
    if (p->tok.kind == LITMUS_T_IDENT && p->tok.start[0] == '%' &&
        litmus_peek2(p)->kind != LITMUS_T_COLON) {
        o->kind = O_REG;
        return need_reg(x, &o->reg, &o->part);
    }
    o->kind = O_MEM;
    return parse_mem(x, o);
}

static bool comma(x64 *x)
{
    return litmus_expect(x->p, LITMUS_T_COMMA, "','");
}

/* --- values --- */

static int64_t mask_of(int bits)
{
    return bits >= 64 ? -1 : (int64_t)((UINT64_C(1) << bits) - 1);
}

/* The value of register operand o at `bits` bits, masked. */
static litmus_expr *reg_value(x64 *x, const opnd *o, int bits)
{
    litmus_expr *e = leaf(x, litmus_reg_operand(o->reg));
    if (o->part == P8H)
        e = node(x, LITMUS_OP_SHR, e, leaf(x, litmus_imm_operand(8)));
    if (bits < 64 || o->part == P8H)
        e = node(x, LITMUS_OP_AND, e, leaf(x, litmus_imm_operand(mask_of(bits < 64 ? bits : 8))));
    return e;
}

/* A read of memory operand o into register t, masked to `bits`. */
static void read_into(x64 *x, const opnd *o, int bits, uint32_t t)
{
    litmus_instr in = x->in;
    in.kind = LITMUS_I_READ;
    in.reg = t;
    in.addr = o->addr;
    litmus_asm_emit(x->c, &in);
    if (bits < 64)
        emit_mov(x, t, node(x, LITMUS_OP_AND, leaf(x, litmus_reg_operand(t)), leaf(x, litmus_imm_operand(mask_of(bits)))));
}

/* The same into the hidden register `into`, returned. */
static uint32_t read_mem(x64 *x, const opnd *o, int bits, const char *into)
{
    uint32_t t = temp(x, into);
    read_into(x, o, bits, t);
    return t;
}

/* An operand's value as an expression (memory: a read emitted now). */
static litmus_expr *value_of(x64 *x, const opnd *o, int bits, const char *into)
{
    if (o->kind == O_IMM)
        return leaf(x, litmus_imm_operand(o->imm));
    if (o->kind == O_REG)
        return reg_value(x, o, bits);
    return leaf(x, litmus_reg_operand(read_mem(x, o, bits, into)));
}

/* A value as an operand: registers and reads through a hidden register. */
static litmus_operand as_operand(x64 *x, litmus_expr *e, const char *into)
{
    if (e->op == LITMUS_OP_NONE)
        return e->opnd;
    uint32_t t = temp(x, into);
    emit_mov(x, t, e);
    return litmus_reg_operand(t);
}

/* A write of e to register operand o, as herd does: 64 and 32 bits replace
 * the register, 16 and 8 only their bits. */
static void write_reg(x64 *x, const opnd *o, litmus_expr *e)
{
    if (o->part == P64 || o->part == P32) {
        emit_mov(x, o->reg, e);
        return;
    }
    int64_t keep = o->part == P16 ? ~INT64_C(0xffff) : o->part == P8L ? ~INT64_C(0xff)
                                                                      : ~INT64_C(0xff00);
    if (o->part == P8H)
        e = node(x, LITMUS_OP_SHL, e, leaf(x, litmus_imm_operand(8)));
    litmus_expr *old = node(x, LITMUS_OP_AND, leaf(x, litmus_reg_operand(o->reg)), leaf(x, litmus_imm_operand(keep)));
    emit_mov(x, o->reg, node(x, LITMUS_OP_OR, old, e));
}

static void write_mem(x64 *x, const opnd *o, litmus_operand v)
{
    litmus_instr in = x->in;
    in.kind = LITMUS_I_WRITE;
    in.addr = o->addr;
    in.value = v;
    litmus_asm_emit(x->c, &in);
}

/* The flags after a result r compared with v (herd: ZF r == v, SF r > v). */
static void set_flags(x64 *x, litmus_expr *r, litmus_expr *v)
{
    uint32_t res = temp(x, "%res");
    emit_mov(x, res, r);
    emit_mov(x, temp(x, "%zf"), node(x, LITMUS_OP_EQ, leaf(x, litmus_reg_operand(res)), v));
    emit_mov(x, temp(x, "%sf"), node(x, LITMUS_OP_LT, v, leaf(x, litmus_reg_operand(res))));
}

/* --- mnemonics --- */

typedef struct mnem {
    char base[16]; /* lower case, without the size suffix */
    int bits;      /* from the suffix; 0 when none */
} mnem;

static const char *const sized[] = { "mov", "add", "sub", "xor", "or", "and", "cmp", "inc",
                                     "dec", "xchg", "xadd", "cmpxchg", "shl", "nop" };

static mnem split(const litmus_token *op)
{
    mnem m = { { 0 }, 0 };
    size_t n = op->len < sizeof m.base - 1 ? op->len : sizeof m.base - 1;
    for (size_t i = 0; i < n; i++)
        m.base[i] = (char)tolower((unsigned char)op->start[i]);
    m.base[n] = 0;
    for (size_t i = 0; i < sizeof sized / sizeof sized[0]; i++)
        if (strcmp(m.base, sized[i]) == 0)
            return m;
    char suf = n > 1 ? m.base[n - 1] : 0;
    int bits = suf == 'b' ? 8 : suf == 'w' ? 16 : suf == 'l' ? 32 : suf == 'q' ? 64 : 0;
    if (bits) {
        m.base[n - 1] = 0;
        for (size_t i = 0; i < sizeof sized / sizeof sized[0]; i++)
            if (strcmp(m.base, sized[i]) == 0) {
                m.bits = bits;
                return m;
            }
        m.base[n - 1] = suf;
    }
    return m;
}

static bool is(const mnem *m, const char *s)
{
    return strcmp(m->base, s) == 0;
}

static bool unsupported(x64 *x, const litmus_token *op, const char *why)
{
    litmus_error_at(x->p, op, "unsupported X86_64 instruction '%.*s'%s",
                    (int)(op->len > 40 ? 40 : op->len), op->start, why);
    return false;
}

/* The operation size: the suffix's, else the first register operand's. */
static int size_of(const mnem *m, const opnd *a, const opnd *b)
{
    if (m->bits)
        return m->bits;
    if (a && a->kind == O_REG)
        return part_bits(a->part);
    if (b && b->kind == O_REG)
        return part_bits(b->part);
    return 64;
}

static const struct { const char *name; litmus_op op; } alu[] = {
    { "add", LITMUS_OP_ADD }, { "sub", LITMUS_OP_SUB }, { "xor", LITMUS_OP_XOR },
    { "or", LITMUS_OP_OR }, { "and", LITMUS_OP_AND }, { "shl", LITMUS_OP_SHL },
    { "inc", LITMUS_OP_ADD }, { "dec", LITMUS_OP_SUB },
};

static litmus_annots x_annots(x64 *x)
{
    static const char *const names[] = { "X" };
    return litmus_asm_annots(x->c, names, 1);
}

/* dst := dst op src: registers, memory (a read and a write, or with LOCK
 * an rmw), and the flags. */
static bool arith(x64 *x, const litmus_token *op, const mnem *m, litmus_op o, bool lock)
{
    opnd s, d;
    bool unary = is(m, "inc") || is(m, "dec");
    if (unary) {
        if (!parse_opnd(x, &d))
            return false;
        s.kind = O_IMM;
        s.imm = 1;
    } else if (!parse_opnd(x, &s) || !comma(x) || !parse_opnd(x, &d)) {
        return false;
    }
    if (d.kind == O_IMM || (s.kind == O_MEM && d.kind == O_MEM))
        return unsupported(x, op, " with these operands (the destination must be a register or "
                                  "memory, and at most one operand memory)");
    if (s.kind == O_MEM && lock)
        return unsupported(x, op, " under LOCK with a memory source");
    if (lock && d.kind != O_MEM)
        return unsupported(x, op, " under LOCK without a memory destination");
    if (!lock && d.kind == O_MEM) /* herd: a read and a write of one instruction, not in po */
        return unsupported(x, op, " on memory without LOCK (only its LOCK form)");
    int bits = size_of(m, &s, &d);
    litmus_expr *src = value_of(x, &s, bits, "%src");
    if (d.kind == O_REG) {
        litmus_expr *r = node(x, o, reg_value(x, &d, bits), src);
        uint32_t res = temp(x, "%r");
        emit_mov(x, res, r);
        write_reg(x, &d, leaf(x, litmus_reg_operand(res)));
        set_flags(x, leaf(x, litmus_reg_operand(res)), leaf(x, litmus_imm_operand(0)));
        return true;
    }
    litmus_operand so = as_operand(x, src, "%src");
    uint32_t old = temp(x, "%old"); /* old := [m]; [m] := old op src, atomically */
    litmus_instr in = x->in;
    in.kind = LITMUS_I_RMW;
    in.reg = old;
    in.addr = d.addr;
    in.annots = x_annots(x);
    in.expr = litmus_asm_binop(x->c, o, litmus_reg_operand(old), so);
    litmus_asm_emit(x->c, &in);
    if (bits < 64)
        emit_mov(x, old, node(x, LITMUS_OP_AND, leaf(x, litmus_reg_operand(old)),
                              leaf(x, litmus_imm_operand(mask_of(bits)))));
    uint32_t res = temp(x, "%r");
    emit_mov(x, res, litmus_asm_binop(x->c, o, litmus_reg_operand(old), so));
    set_flags(x, leaf(x, litmus_reg_operand(res)), leaf(x, litmus_imm_operand(0)));
    return true;
}

static bool xchg(x64 *x, const litmus_token *op, const mnem *m, bool xadd)
{
    opnd a, b;
    if (!parse_opnd(x, &a) || !comma(x) || !parse_opnd(x, &b))
        return false;
    if (a.kind == O_MEM && b.kind == O_REG && !xadd) {
        opnd t = a;
        a = b;
        b = t;
    }
    int bits = size_of(m, &a, &b);
    if (a.kind == O_REG && b.kind == O_REG) {
        uint32_t t = temp(x, "%src");
        emit_mov(x, t, reg_value(x, &a, bits));
        litmus_expr *bv = reg_value(x, &b, bits);
        if (xadd) {
            write_reg(x, &b, node(x, LITMUS_OP_ADD, bv, leaf(x, litmus_reg_operand(t))));
            write_reg(x, &a, bv);
        } else {
            write_reg(x, &a, bv);
            write_reg(x, &b, leaf(x, litmus_reg_operand(t)));
        }
        return true;
    }
    if (a.kind != O_REG || b.kind != O_MEM)
        return unsupported(x, op, " with these operands (a register and memory)");
    /* src := reg; old := [m]; [m] := src (XADD: old + src); reg := old */
    uint32_t src = temp(x, "%src");
    emit_mov(x, src, reg_value(x, &a, bits));
    uint32_t old = temp(x, "%old");
    litmus_instr in = x->in;
    in.kind = LITMUS_I_RMW;
    in.reg = old;
    in.addr = b.addr;
    in.annots = x_annots(x);
    in.expr = xadd ? litmus_asm_binop(x->c, LITMUS_OP_ADD, litmus_reg_operand(old), litmus_reg_operand(src))
                   : litmus_asm_leaf(x->c, litmus_reg_operand(src));
    litmus_asm_emit(x->c, &in);
    litmus_expr *ov = leaf(x, litmus_reg_operand(old));
    if (bits < 64)
        ov = node(x, LITMUS_OP_AND, ov, leaf(x, litmus_imm_operand(mask_of(bits))));
    write_reg(x, &a, ov);
    return true;
}

/* LOCK CMPXCHG r,m: old := [m]; when old == rax, [m] := r (an rmw), else
 * the read alone; rax := old; ZF := success. */
static bool cmpxchg(x64 *x, const litmus_token *op, const mnem *m, bool lock)
{
    opnd s, d;
    if (!parse_opnd(x, &s) || !comma(x) || !parse_opnd(x, &d))
        return false;
    if (s.kind != O_REG || d.kind != O_MEM)
        return unsupported(x, op, " with these operands (a register and memory)");
    if (!lock)
        return unsupported(x, op, " without LOCK (herd's plain compare-exchange is not atomic)");
    if (size_of(m, &s, &d) != 64)
        return unsupported(x, op, " narrower than 64 bits");
    litmus_token rax = { .kind = LITMUS_T_IDENT, .start = "rax", .len = 3 };
    uint32_t ax = litmus_asm_reg(x->c, &rax);
    litmus_instr in = x->in;
    in.kind = LITMUS_I_CAS;
    in.reg = ax;
    in.addr = d.addr;
    in.cmp = litmus_reg_operand(ax);
    in.value = litmus_reg_operand(s.reg);
    in.ok_reg = temp(x, "%zf");
    in.annots = x_annots(x);
    in.fail_annots = x_annots(x);
    litmus_asm_emit(x->c, &in);
    return true;
}

static bool branch(x64 *x, const char *cond)
{
    litmus_parser *p = x->p;
    if (p->tok.kind != LITMUS_T_IDENT || p->tok.start[0] == '%' || p->tok.start[0] == '$') {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected a label, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    litmus_instr in = x->in;
    in.kind = LITMUS_I_BRANCH;
    in.label = litmus_tok_sym(p, &p->tok);
    litmus_next(p);
    if (cond) {
        litmus_expr *zf = leaf(x, litmus_reg_operand(temp(x, "%zf"))), *sf = leaf(x, litmus_reg_operand(temp(x, "%sf")));
        litmus_expr *zero = leaf(x, litmus_imm_operand(0));
        litmus_expr *e = strcmp(cond, "e") == 0 ? zf
                         : strcmp(cond, "ne") == 0 ? node(x, LITMUS_OP_EQ, zf, zero)
                         : strcmp(cond, "g") == 0 ? sf
                         : strcmp(cond, "le") == 0 ? node(x, LITMUS_OP_EQ, sf, zero)
                         : strcmp(cond, "ge") == 0 ? node(x, LITMUS_OP_OR, zf, sf)
                         : strcmp(cond, "l") == 0 ? node(x, LITMUS_OP_OR, zf, node(x, LITMUS_OP_EQ, sf, zero))
                         : strcmp(cond, "s") == 0 ? sf
                         : node(x, LITMUS_OP_EQ, sf, zero); /* ns */
        in.has_reg = true;
        in.reg = e->op == LITMUS_OP_NONE ? e->opnd.reg : temp(x, "%cc");
        if (e->op != LITMUS_OP_NONE)
            emit_mov(x, in.reg, e);
    }
    litmus_asm_emit(x->c, &in);
    return true;
}

/* The operands of a NOP: read and dropped. */
static bool skip_operands(x64 *x)
{
    litmus_parser *p = x->p;
    while (p->tok.kind != LITMUS_T_EOF && p->tok.kind != LITMUS_T_SEMI &&
           p->tok.kind != LITMUS_T_NSHARED /* '|' */ && !p->failed) {
        if (p->tok.kind == LITMUS_T_ERROR)
            return false;
        litmus_next(p);
    }
    return !p->failed;
}

static bool x64_instr(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op0)
{
    litmus_parser *p = litmus_asm_parser(c);
    x64 x = { c, p, in };
    litmus_token op = *op0;
    mnem m = split(&op);
    bool lock = is(&m, "lock");
    if (lock) {
        if (p->tok.kind != LITMUS_T_IDENT) {
            litmus_error_at(p, &p->tok, "expected an instruction after lock");
            return false;
        }
        op = p->tok;
        litmus_next(p);
        m = split(&op);
    }
    if (!lock && (is(&m, "nop") || is(&m, "endbr64"))) {
        litmus_instr n = in;
        n.kind = LITMUS_I_NOP;
        litmus_asm_emit(c, &n);
        return skip_operands(&x);
    }
    if (!lock && (is(&m, "mfence") || is(&m, "lfence") || is(&m, "sfence"))) {
        static const char *const mf[] = { "mfence", "mb" };
        in.kind = LITMUS_I_FENCE;
        in.annots = is(&m, "mfence") ? litmus_asm_annots(c, mf, 2)
                                     : litmus_asm_annots(c, (const char *const[]){ m.base }, 1);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (!lock && is(&m, "mov")) {
        opnd s, d;
        if (!parse_opnd(&x, &s) || !comma(&x) || !parse_opnd(&x, &d))
            return false;
        int bits = size_of(&m, &s, &d);
        if (d.kind == O_IMM || (s.kind == O_MEM && d.kind == O_MEM))
            return unsupported(&x, &op, " with these operands (the destination must be a "
                                        "register or memory, and at most one operand memory)");
        if (s.kind == O_MEM && d.kind == O_REG && (d.part == P64 || d.part == P32) &&
            bits == part_bits(d.part)) { /* straight into the register */
            read_into(&x, &s, bits, d.reg);
            return true;
        }
        litmus_expr *v = value_of(&x, &s, bits, "%src");
        if (d.kind == O_REG)
            write_reg(&x, &d, v);
        else
            write_mem(&x, &d, as_operand(&x, v, "%src"));
        return true;
    }
    if (!lock && is(&m, "cmp")) {
        opnd s, d;
        if (!parse_opnd(&x, &s) || !comma(&x) || !parse_opnd(&x, &d))
            return false;
        if (d.kind == O_IMM || (s.kind == O_MEM && d.kind == O_MEM))
            return unsupported(&x, &op, " with these operands");
        int bits = size_of(&m, &s, &d);
        litmus_expr *sv = value_of(&x, &s, bits, "%src");
        litmus_expr *dv = value_of(&x, &d, bits, "%old");
        uint32_t t = temp(&x, "%cmp");
        emit_mov(&x, t, sv);
        set_flags(&x, dv, leaf(&x, litmus_reg_operand(t)));
        return true;
    }
    if (is(&m, "xchg") || (lock && is(&m, "xadd")))
        return xchg(&x, &op, &m, is(&m, "xadd"));
    if (is(&m, "cmpxchg"))
        return cmpxchg(&x, &op, &m, lock);
    for (size_t i = 0; i < sizeof alu / sizeof alu[0]; i++)
        if (is(&m, alu[i].name))
            return (!lock || !is(&m, "shl")) ? arith(&x, &op, &m, alu[i].op, lock)
                                             : unsupported(&x, &op, " under LOCK");
    if (!lock && is(&m, "jmp"))
        return branch(&x, NULL);
    static const char *const conds[] = { "e", "z", "ne", "nz", "g", "ge", "l", "le", "s", "ns" };
    if (!lock && m.base[0] == 'j')
        for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
            if (strcmp(m.base + 1, conds[i]) == 0)
                return branch(&x, strcmp(conds[i], "z") == 0 ? "e"
                                  : strcmp(conds[i], "nz") == 0 ? "ne" : conds[i]);
    if (!lock && is(&m, "ret")) { /* the end of the thread: a jump to no label */
        in.kind = LITMUS_I_BRANCH;
        in.label = 0;
        litmus_asm_emit(c, &in);
        return true;
    }
    return unsupported(&x, &op, lock ? " under LOCK" : "");
}

const litmus_asm_dialect litmus_x86_64_dialect = {
    .arch = "X86_64", .is_reg = x64_is_reg, .canon_reg = x64_canon_reg, .instr = x64_instr,
};
