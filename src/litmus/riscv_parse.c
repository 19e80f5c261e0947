/* riscv_parse: herd's RISC-V litmus instructions (asm_dialect.h).
 *
 * Each instruction becomes the litmus_instr sequence that has its events
 * and dependencies as herd's RISC-V semantics gives them (no -variant):
 *  - loads and stores of words and double words, `.aq`/`.rl` as the
 *    annotations Acq, Rel, AcqRel (herd's sets of those names);
 *  - lr/sc: a read with a reservation and a store-conditional
 *    (LITMUS_I_SC) that may fail (rd := 1) or, on the reserved location,
 *    succeed (rd := 0) with an rmw pair; both events are annotated X;
 *  - AMOs (swap, add, and, or, xor): an rmw read and write annotated X and
 *    the ordering bits;
 *  - fences: `fence P,S` is a fence event annotated Fence.P.S (i and o
 *    dropped: herd's sets are over r and w), fence.tso Fence.tso,
 *    fence.i Fence.i;
 *  - branches compare two registers into a hidden register and branch on
 *    it, so the reads it depends on give ctrl; arithmetic is a mov.
 * x0 reads as 0 and carries no dependency; writes to it are dropped.
 * A mnemonic herd has and ravel does not is an error naming it. */
#include <stdio.h>
#include <string.h>

#include "litmus/asm_dialect.h"

static const char *const abi_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* The register number t names, or -1. */
static int reg_number(const litmus_token *t)
{
    if (t->kind != LITMUS_T_IDENT || t->len == 0 || t->len > 4)
        return -1;
    if (t->start[0] == 'x' && t->len >= 2) {
        int n = 0;
        for (size_t i = 1; i < t->len; i++) {
            if (t->start[i] < '0' || t->start[i] > '9')
                return -1;
            n = n * 10 + (t->start[i] - '0');
        }
        if (t->len > 2 && t->start[1] == '0')
            return -1;
        return n < 32 ? n : -1;
    }
    if (t->len == 2 && memcmp(t->start, "fp", 2) == 0)
        return 8;
    for (int i = 0; i < 32; i++)
        if (strlen(abi_names[i]) == t->len && memcmp(abi_names[i], t->start, t->len) == 0)
            return i;
    return -1;
}

static bool rv_is_reg(const litmus_token *t)
{
    return reg_number(t) >= 0;
}

static void rv_canon_reg(const litmus_token *t, char *buf, size_t n)
{
    snprintf(buf, n, "x%d", reg_number(t));
}

/* --- operands --- */

static bool expect_comma(litmus_asm_ctx *c)
{
    return litmus_asm_comma(c);
}

static bool need_reg(litmus_asm_ctx *c, int *num)
{
    return litmus_asm_need_reg(c, num);
}

/* A source register: x0 is the immediate 0. */
static bool src_reg(litmus_asm_ctx *c, litmus_operand *o)
{
    return litmus_asm_src_reg(c, 0, o);
}

/* A destination register; x0 becomes a hidden register nothing reads. */
static bool dst_reg(litmus_asm_ctx *c, uint32_t *reg)
{
    return litmus_asm_dst_reg(c, 0, "%x0", reg);
}

static bool imm(litmus_asm_ctx *c, int64_t *v)
{
    litmus_parser *p = litmus_asm_parser(c);
    if (p->tok.kind != LITMUS_T_NUM) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected an integer, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    *v = p->tok.num;
    litmus_next(p);
    return true;
}

/* [IMM] '(' REG ')' */
static bool mem_operand(litmus_asm_ctx *c, litmus_address *a)
{
    litmus_parser *p = litmus_asm_parser(c);
    int64_t off = 0;
    if (p->tok.kind == LITMUS_T_NUM && !imm(c, &off))
        return false;
    if (!litmus_expect(p, LITMUS_T_LPAR, "'(' before the base register"))
        return false;
    memset(a, 0, sizeof *a);
    if (!src_reg(c, &a->base) || !litmus_expect(p, LITMUS_T_RPAR, "')'"))
        return false;
    if (off != 0) {
        a->has_offset = true;
        a->offset.kind = LITMUS_OPND_IMM;
        a->offset.imm = off;
    }
    return true;
}

/* --- mnemonics --- */

/* A mnemonic split at its dots: base, then suffixes. */
typedef struct mnem {
    char base[16];
    char width;     /* 'w' or 'd' for lr/sc/amo; 0 otherwise */
    bool aq, rl, bad;
    uint32_t nsuffix;
} mnem;

static mnem split(const litmus_token *op)
{
    mnem m = { 0 };
    char buf[48];
    size_t n = op->len < sizeof buf - 1 ? op->len : sizeof buf - 1;
    for (size_t i = 0; i < n; i++) {
        char ch = op->start[i];
        buf[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    }
    buf[n] = 0;
    char *save = NULL, *part = strtok_r(buf, ".", &save);
    snprintf(m.base, sizeof m.base, "%s", part ? part : "");
    while ((part = strtok_r(NULL, ".", &save)) != NULL) {
        m.nsuffix++;
        if (strcmp(part, "aq") == 0 && !m.aq && !m.rl)
            m.aq = true;
        else if (strcmp(part, "rl") == 0 && !m.rl)
            m.rl = true;
        else if ((strcmp(part, "w") == 0 || strcmp(part, "d") == 0) && m.nsuffix == 1)
            m.width = part[0];
        else
            m.bad = true;
    }
    return m;
}

static bool is(const mnem *m, const char *base)
{
    return strcmp(m->base, base) == 0;
}

/* The annotations of an access: X for exclusives, then the ordering. */
static litmus_annots access_annots(litmus_asm_ctx *c, const mnem *m, bool exclusive)
{
    const char *names[2];
    uint32_t n = 0;
    if (exclusive)
        names[n++] = "X";
    if (m->aq && m->rl)
        names[n++] = "AcqRel";
    else if (m->aq)
        names[n++] = "Acq";
    else if (m->rl)
        names[n++] = "Rel";
    return litmus_asm_annots(c, names, n);
}

static bool unsupported(litmus_asm_ctx *c, const litmus_token *op, const char *why)
{
    litmus_error_at(litmus_asm_parser(c), op, "unsupported RISC-V instruction '%.*s'%s",
                    (int)(op->len > 40 ? 40 : op->len), op->start, why);
    return false;
}

static bool fence(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op)
{
    litmus_parser *p = litmus_asm_parser(c);
    char sets[2][4] = { "rw", "rw" };
    if (p->tok.kind == LITMUS_T_IDENT) {
        for (int k = 0; k < 2; k++) {
            if (k && !expect_comma(c))
                return false;
            if (p->tok.kind != LITMUS_T_IDENT) {
                litmus_error_at(p, &p->tok, "expected a fence set like rw");
                return false;
            }
            bool r = false, w = false, ok = true;
            for (size_t i = 0; i < p->tok.len; i++) {
                char ch = p->tok.start[i];
                if (ch == 'r')
                    r = true;
                else if (ch == 'w')
                    w = true;
                else if (ch != 'i' && ch != 'o')
                    ok = false;
            }
            if (!ok || (!r && !w))
                return unsupported(c, op, " (only the r and w sets of a fence)");
            snprintf(sets[k], sizeof sets[k], "%s%s", r ? "r" : "", w ? "w" : "");
            litmus_next(p);
        }
    }
    char name[24];
    snprintf(name, sizeof name, "Fence.%s.%s", sets[0], sets[1]);
    const char *names[1] = { name };
    in.kind = LITMUS_I_FENCE;
    in.annots = litmus_asm_annots(c, names, 1);
    litmus_asm_emit(c, &in);
    return true;
}

static const struct { const char *name; litmus_op op; bool imm; bool word; } alu[] = {
    { "add", LITMUS_OP_ADD, false, false }, { "sub", LITMUS_OP_SUB, false, false },
    { "and", LITMUS_OP_AND, false, false }, { "or", LITMUS_OP_OR, false, false },
    { "xor", LITMUS_OP_XOR, false, false }, { "sll", LITMUS_OP_SHL, false, false },
    { "srl", LITMUS_OP_SHR, false, false }, { "slt", LITMUS_OP_LT, false, false },
    { "addi", LITMUS_OP_ADD, true, false }, { "andi", LITMUS_OP_AND, true, false },
    { "ori", LITMUS_OP_OR, true, false }, { "xori", LITMUS_OP_XOR, true, false },
    { "slli", LITMUS_OP_SHL, true, false }, { "srli", LITMUS_OP_SHR, true, false },
    { "slti", LITMUS_OP_LT, true, false }, { "addw", LITMUS_OP_ADD, false, true },
    { "subw", LITMUS_OP_SUB, false, true }, { "addiw", LITMUS_OP_ADD, true, true },
};

static bool arith(litmus_asm_ctx *c, litmus_instr in, size_t k)
{
    litmus_operand a, b;
    uint32_t rd;
    if (!dst_reg(c, &rd) || !expect_comma(c) || !src_reg(c, &a) || !expect_comma(c))
        return false;
    if (alu[k].imm) {
        int64_t v;
        if (!imm(c, &v))
            return false;
        b = litmus_imm_operand(v);
    } else if (!src_reg(c, &b)) {
        return false;
    }
    in.kind = LITMUS_I_MOV;
    in.reg = rd;
    in.expr = litmus_asm_binop(c, alu[k].op, a, b);
    litmus_asm_emit(c, &in);
    if (alu[k].word) {
        in.expr = litmus_asm_binop(c, LITMUS_OP_SEXT32, litmus_reg_operand(rd), litmus_imm_operand(0));
        litmus_asm_emit(c, &in);
    }
    return true;
}

static bool branch(litmus_asm_ctx *c, litmus_instr in, const mnem *m)
{
    litmus_parser *p = litmus_asm_parser(c);
    litmus_operand a, b = litmus_imm_operand(0);
    bool zero = is(m, "beqz") || is(m, "bnez");
    if (!src_reg(c, &a) || !expect_comma(c))
        return false;
    if (!zero && (!src_reg(c, &b) || !expect_comma(c)))
        return false;
    if (p->tok.kind != LITMUS_T_IDENT) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected a label, found %s",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    uint32_t cond = litmus_asm_temp(c, "%cond");
    litmus_instr mv = in;
    mv.kind = LITMUS_I_MOV;
    mv.reg = cond;
    if (is(m, "beq") || is(m, "beqz"))
        mv.expr = litmus_asm_binop(c, LITMUS_OP_EQ, a, b);
    else if (is(m, "bne") || is(m, "bnez"))
        mv.expr = litmus_asm_binop(c, LITMUS_OP_NE, a, b);
    else if (is(m, "blt"))
        mv.expr = litmus_asm_binop(c, LITMUS_OP_LT, a, b);
    else /* bge a b: b <= a */
        mv.expr = litmus_asm_binop(c, LITMUS_OP_LE, b, a);
    litmus_asm_emit(c, &mv);
    in.kind = LITMUS_I_BRANCH;
    in.has_reg = true;
    in.reg = cond;
    in.label = litmus_tok_sym(p, &p->tok);
    litmus_next(p);
    litmus_asm_emit(c, &in);
    return true;
}

static bool amo(litmus_asm_ctx *c, litmus_instr in, const mnem *m, const litmus_token *op)
{
    static const struct { const char *name; litmus_op op; } ops[] = {
        { "amoswap", LITMUS_OP_NONE }, { "amoadd", LITMUS_OP_ADD }, { "amoand", LITMUS_OP_AND },
        { "amoor", LITMUS_OP_OR }, { "amoxor", LITMUS_OP_XOR },
    };
    size_t k = 0;
    while (k < sizeof ops / sizeof ops[0] && !is(m, ops[k].name))
        k++;
    if (k == sizeof ops / sizeof ops[0])
        return unsupported(c, op, "");
    uint32_t rd;
    litmus_operand v;
    litmus_address a;
    if (!dst_reg(c, &rd) || !expect_comma(c) || !src_reg(c, &v) || !expect_comma(c) ||
        !mem_operand(c, &a))
        return false;
    /* %amo := rs2; %old := [a], [a] := %old op %amo; rd := %old */
    uint32_t arg = litmus_asm_temp(c, "%amo"), old = litmus_asm_temp(c, "%old");
    litmus_instr mv = in;
    mv.kind = LITMUS_I_MOV;
    mv.reg = arg;
    mv.expr = litmus_asm_leaf(c, v);
    litmus_asm_emit(c, &mv);
    litmus_instr rmw = in;
    rmw.kind = LITMUS_I_RMW;
    rmw.reg = old;
    rmw.addr = a;
    rmw.annots = access_annots(c, m, true);
    rmw.expr = ops[k].op == LITMUS_OP_NONE ? litmus_asm_leaf(c, litmus_reg_operand(arg))
               : litmus_asm_binop(c, ops[k].op, litmus_reg_operand(old), litmus_reg_operand(arg));
    litmus_asm_emit(c, &rmw);
    mv.reg = rd;
    mv.expr = litmus_asm_leaf(c, litmus_reg_operand(old));
    litmus_asm_emit(c, &mv);
    return true;
}

static bool rv_instr(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op)
{
    mnem m = split(op);
    litmus_parser *p = litmus_asm_parser(c);
    if (is(&m, "fence") && m.nsuffix == 0)
        return fence(c, in, op);
    if (is(&m, "fence") && m.nsuffix == 1 && op->len == 9 &&
        (memcmp(op->start + 6, "tso", 3) == 0 || memcmp(op->start + 6, "TSO", 3) == 0)) {
        const char *names[1] = { "Fence.tso" };
        in.kind = LITMUS_I_FENCE;
        in.annots = litmus_asm_annots(c, names, 1);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (is(&m, "fence") && m.nsuffix == 1 && op->len == 7 &&
        (op->start[6] == 'i' || op->start[6] == 'I')) {
        const char *names[1] = { "Fence.i" };
        in.kind = LITMUS_I_FENCE;
        in.annots = litmus_asm_annots(c, names, 1);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (m.bad)
        return unsupported(c, op, "");
    bool ordered = m.aq || m.rl;
    if (is(&m, "nop") && !m.nsuffix) {
        in.kind = LITMUS_I_NOP;
        litmus_asm_emit(c, &in);
        return true;
    }
    if (is(&m, "sext") && m.width == 'w' && m.nsuffix == 1) {
        uint32_t rd;
        litmus_operand a;
        if (!dst_reg(c, &rd) || !expect_comma(c) || !src_reg(c, &a))
            return false;
        in.kind = LITMUS_I_MOV;
        in.reg = rd;
        in.expr = litmus_asm_binop(c, LITMUS_OP_SEXT32, a, litmus_imm_operand(0));
        litmus_asm_emit(c, &in);
        return true;
    }
    if ((is(&m, "lw") || is(&m, "ld") || is(&m, "lwu")) && !m.width) {
        uint32_t rd;
        if (!dst_reg(c, &rd) || !expect_comma(c) || !mem_operand(c, &in.addr))
            return false;
        in.kind = LITMUS_I_READ;
        in.reg = rd;
        in.annots = access_annots(c, &m, false);
        litmus_asm_emit(c, &in);
        return true;
    }
    if ((is(&m, "sw") || is(&m, "sd")) && !m.width) {
        if (!src_reg(c, &in.value) || !expect_comma(c) || !mem_operand(c, &in.addr))
            return false;
        in.kind = LITMUS_I_WRITE;
        in.annots = access_annots(c, &m, false);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (is(&m, "lb") || is(&m, "lh") || is(&m, "lbu") || is(&m, "lhu") || is(&m, "sb") ||
        is(&m, "sh"))
        return unsupported(c, op, " (sub-word accesses are mixed-size)");
    if (is(&m, "lr") && m.width) {
        uint32_t rd;
        if (!dst_reg(c, &rd) || !expect_comma(c) || !mem_operand(c, &in.addr))
            return false;
        in.kind = LITMUS_I_READ;
        in.reg = rd;
        in.reserve = true;
        in.annots = access_annots(c, &m, true);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (is(&m, "sc") && m.width) {
        int n;
        if (!need_reg(c, &n))
            return false;
        in.ok_reg = n == 0 ? UINT32_MAX : litmus_asm_reg(c, &p->tok);
        litmus_next(p);
        if (!expect_comma(c) || !src_reg(c, &in.value) || !expect_comma(c) ||
            !mem_operand(c, &in.addr))
            return false;
        in.kind = LITMUS_I_SC;
        in.annots = access_annots(c, &m, true);
        litmus_asm_emit(c, &in);
        return true;
    }
    if (strncmp(m.base, "amo", 3) == 0 && m.width)
        return amo(c, in, &m, op);
    if (ordered || m.width)
        return unsupported(c, op, "");
    for (size_t k = 0; k < sizeof alu / sizeof alu[0]; k++)
        if (is(&m, alu[k].name) && !m.nsuffix)
            return arith(c, in, k);
    if (is(&m, "beq") || is(&m, "bne") || is(&m, "blt") || is(&m, "bge") || is(&m, "beqz") ||
        is(&m, "bnez"))
        return branch(c, in, &m);
    if (is(&m, "j")) {
        if (p->tok.kind != LITMUS_T_IDENT)
            return unsupported(c, op, " (a jump needs a label)");
        in.kind = LITMUS_I_BRANCH;
        in.label = litmus_tok_sym(p, &p->tok);
        litmus_next(p);
        litmus_asm_emit(c, &in);
        return true;
    }
    uint32_t rd;
    litmus_operand a;
    if (is(&m, "mv") || is(&m, "li") || is(&m, "lui")) {
        if (!dst_reg(c, &rd) || !expect_comma(c))
            return false;
        if (is(&m, "mv")) {
            if (!src_reg(c, &a))
                return false;
        } else {
            int64_t v;
            if (!imm(c, &v))
                return false;
            a = litmus_imm_operand(is(&m, "lui") ? (int64_t)(int32_t)(uint32_t)((uint64_t)v << 12) : v);
        }
        in.kind = LITMUS_I_MOV;
        in.reg = rd;
        in.expr = litmus_asm_leaf(c, a);
        litmus_asm_emit(c, &in);
        return true;
    }
    return unsupported(c, op, "");
}

const litmus_asm_dialect litmus_riscv_dialect = {
    .arch = "RISCV",
    .is_reg = rv_is_reg,
    .canon_reg = rv_canon_reg,
    .instr = rv_instr,
    .reg_number = reg_number,
    .reg_what = "a RISC-V register",
};
