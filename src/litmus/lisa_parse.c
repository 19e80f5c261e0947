/* lisa_parse: herd7's LISA litmus format (see lisa_parse.h for the shape).
 *
 * A hand-written lexer and recursive-descent parser. The lexer never reads
 * past len and treats a NUL byte as an error; every token carries its
 * line:col. Errors stop the parse at the first problem (one clear message,
 * as compilers do for syntax errors) and the partial test is freed. */
#include "litmus/lisa_parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "litmus/asm_dialect.h"
#include "litmus/c_parse.h"
#include "litmus/parse_common.h"

enum { MAX_THREADS = LITMUS_MAX_THREADS, MAX_INSTRS = 100000 };

typedef enum tok_kind {
    T_EOF = LITMUS_T_EOF, T_IDENT = LITMUS_T_IDENT, T_NUM = LITMUS_T_NUM,
    T_STRING = LITMUS_T_STRING, T_ERROR = LITMUS_T_ERROR, T_LBRACE = LITMUS_T_LBRACE,
    T_RBRACE = LITMUS_T_RBRACE, T_LBRACK = LITMUS_T_LBRACK, T_RBRACK = LITMUS_T_RBRACK,
    T_LPAR = LITMUS_T_LPAR, T_RPAR = LITMUS_T_RPAR, T_SEMI = LITMUS_T_SEMI,
    T_COLON = LITMUS_T_COLON, T_COMMA = LITMUS_T_COMMA, T_EQ = LITMUS_T_EQ,
    T_TILDE = LITMUS_T_TILDE, T_AND = LITMUS_T_CONJ, T_OR = LITMUS_T_DISJ,
    T_IMPLIES = LITMUS_T_IMPLIES,
    T_PIPE = LITMUS_T_NSHARED, T_AMP, T_STAR, T_PLUS,
    T_HASH, T_BANG, /* AArch64: immediates #1, pre-index [X1,#8]! */
} tok_kind;
_Static_assert((int)T_HASH == (int)LITMUS_ASM_T_HASH && (int)T_BANG == (int)LITMUS_ASM_T_BANG,
               "asm_dialect.h names these token kinds");

typedef litmus_token token;

/* Per-thread building state. */
typedef struct thread_build {
    BASE_VEC(litmus_instr) instrs;
    BASE_VEC(base_sym) regs;
    BASE_VEC(litmus_reg_init) inits;
    BASE_VEC(base_sym) label_names;
    BASE_VEC(uint32_t) label_targets;
    BASE_VEC(uint8_t) types; /* per register: the litmus_reg_type the init block gives it */
    BASE_VEC(uint32_t) pcs;  /* an assembly's k-th instruction: its first in instrs */
    BASE_VEC(base_sym) texts; /* an assembly's k-th instruction: its text (herd's instr:"...") */
} thread_build;

/* A code address the test names (AArch64's `P1:L0`, ADR's label, BL's
 * return address): the code location loc (litmus_location.code) stands
 * for the instruction label names in thread `thread`, or, label 0, for
 * the assembly instruction number ret_pc (the one after a BL). */
typedef struct code_ref {
    uint32_t loc, thread, ret_pc;
    base_sym label;
    litmus_token at;
} code_ref;

typedef struct parser {
    litmus_parser b; /* first: the hooks get &b and cast back */
    thread_build *tbs; /* MAX_THREADS builds, the first nthreads in use */
    uint32_t nthreads; /* known once the thread header is read */
    uint32_t max_init_thread; /* 1 + the highest thread the init block names */
    bool x86;          /* herd's X86 format (Intel syntax) instead of LISA */
    const litmus_asm_dialect *dialect; /* another assembly (asm_dialect.h), or NULL */
    BASE_VEC(code_ref) code_refs;
} parser;

/* The assembly dialects read in the table layout (asm_dialect.h). */
static const litmus_asm_dialect *const dialects[] = { &litmus_riscv_dialect,
                                                      &litmus_aarch64_dialect,
                                                      &litmus_x86_64_dialect };

static const litmus_asm_dialect *dialect_named(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++)
        if (strlen(dialects[i]->arch) == n && memcmp(dialects[i]->arch, s, n) == 0)
            return dialects[i];
    return NULL;
}

/* --- lexer --- */

static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static bool is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static int hex_digit(int c)
{
    return litmus_is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static token lex_raw(parser *p)
{
    litmus_parser *b = &p->b;
    for (;;) {
        int c = litmus_peekc(b, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            litmus_advance(b);
        } else if (c == '(' && litmus_peekc(b, 1) == '*') {
            token open = { .line = b->line, .col = b->col };
            int depth = 0;
            do {
                if (litmus_peekc(b, 0) == '(' && litmus_peekc(b, 1) == '*') {
                    depth++;
                    litmus_advance(b);
                    litmus_advance(b);
                } else if (litmus_peekc(b, 0) == '*' && litmus_peekc(b, 1) == ')') {
                    depth--;
                    litmus_advance(b);
                    litmus_advance(b);
                } else if (litmus_peekc(b, 0) < 0) {
                    open.kind = T_ERROR;
                    litmus_error_at(b, &open, "unterminated comment");
                    return open;
                } else {
                    litmus_advance(b);
                }
            } while (depth > 0);
        } else {
            break;
        }
    }
    token t = { .start = b->src + b->pos, .line = b->line, .col = b->col };
    int c = litmus_peekc(b, 0);
    if (c < 0) {
        t.kind = T_EOF;
        return t;
    }
    if (c == 0) {
        t.kind = T_ERROR;
        litmus_error_at(b, &t, "unexpected NUL byte");
        return t;
    }
    if (c == '0' && (litmus_peekc(b, 1) == 'x' || litmus_peekc(b, 1) == 'X') &&
        isxdigit(litmus_peekc(b, 2))) { /* hexadecimal: 64 bits, taken as two's complement */
        litmus_advance(b);
        litmus_advance(b);
        uint64_t v = 0;
        int digits = 0;
        while (isxdigit(litmus_peekc(b, 0))) {
            int d = litmus_peekc(b, 0);
            v = v * 16 + (uint64_t)(isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
            digits++;
            litmus_advance(b);
        }
        if (digits > 16) {
            t.kind = T_ERROR;
            litmus_error_at(b, &t, "integer too large");
            return t;
        }
        t.kind = T_NUM;
        t.num = (int64_t)v;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    if (litmus_is_digit(c) || (c == '-' && litmus_is_digit(litmus_peekc(b, 1)))) {
        bool neg = c == '-';
        if (neg)
            litmus_advance(b);
        uint64_t v = 0;
        bool overflow = false;
        if (p->dialect == &litmus_x86_64_dialect && litmus_peekc(b, 0) == '0' &&
            (litmus_peekc(b, 1) == 'x' || litmus_peekc(b, 1) == 'X') &&
            hex_digit(litmus_peekc(b, 2)) >= 0) { /* 0x202: herd's hex values (X86_64 only:
                                                    * AArch64's W registers do not narrow) */
            litmus_advance(b);
            litmus_advance(b);
            for (int d; (d = hex_digit(litmus_peekc(b, 0))) >= 0; litmus_advance(b)) {
                overflow |= v > UINT64_MAX >> 4;
                v = v << 4 | (uint64_t)d;
            }
            if (!neg && !overflow) { /* as herd: the 64-bit pattern */
                t.kind = T_NUM;
                t.num = (int64_t)v;
                t.len = (size_t)(b->src + b->pos - t.start);
                return t;
            }
        }
        while (litmus_is_digit(litmus_peekc(b, 0))) {
            unsigned d = (unsigned)(litmus_peekc(b, 0) - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = true;
            else
                v = v * 10 + d;
            litmus_advance(b);
        }
        if (overflow || v > (uint64_t)INT64_MAX + (neg ? 1 : 0)) {
            t.kind = T_ERROR;
            litmus_error_at(b, &t, "integer too large");
            return t;
        }
        t.kind = T_NUM;
        t.num = neg ? (int64_t)(0 - v) : (int64_t)v;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    /* AArch64's `.text` (a label) and `.+8` (the address 8 bytes on) */
    bool dot = c == '.' && p->dialect == &litmus_aarch64_dialect;
    if (dot && (litmus_peekc(b, 1) == '+' || litmus_peekc(b, 1) == '-') &&
        litmus_is_digit(litmus_peekc(b, 2))) {
        litmus_advance(b);
        litmus_advance(b);
        while (litmus_is_digit(litmus_peekc(b, 0)))
            litmus_advance(b);
        t.kind = T_IDENT;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    if (is_ident_start(c) || (dot && is_ident_start(litmus_peekc(b, 1)))) {
        litmus_advance(b);
        while (is_ident_char(litmus_peekc(b, 0)))
            litmus_advance(b);
        t.kind = T_IDENT;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    if (c == '"') {
        litmus_advance(b);
        while (litmus_peekc(b, 0) >= 0 && litmus_peekc(b, 0) != '"' && litmus_peekc(b, 0) != '\n')
            litmus_advance(b);
        if (litmus_peekc(b, 0) != '"') {
            t.kind = T_ERROR;
            litmus_error_at(b, &t, "unterminated string");
            return t;
        }
        litmus_advance(b);
        t.kind = T_STRING;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    static const litmus_punct ops[] = {
        { "/\\", T_AND }, { "\\/", T_OR }, { "=>", T_IMPLIES }, { "{", T_LBRACE }, { "}", T_RBRACE },
        { "[", T_LBRACK }, { "]", T_RBRACK }, { "(", T_LPAR }, { ")", T_RPAR }, { "|", T_PIPE },
        { ";", T_SEMI }, { ":", T_COLON }, { ",", T_COMMA }, { "=", T_EQ }, { "&", T_AMP },
        { "*", T_STAR }, { "~", T_TILDE }, { "+", T_PLUS },
        { "#", T_HASH }, { "!", T_BANG },
    };
    litmus_lex_punct(b, ops, sizeof ops / sizeof ops[0], &t);
    if ((t.kind == T_HASH || t.kind == T_BANG) && !p->dialect) { /* AArch64's only */
        litmus_error_at(b, &t, "unexpected character '%c'", c);
        t.kind = T_ERROR;
    }
    return t;
}

/* --- names --- */

/* X86 (Intel syntax): the 32- and 64-bit general registers. */
static bool is_x86_register(const token *t)
{
    static const char *const regs[] = { "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP",
                                        "RAX", "RBX", "RCX", "RDX", "RSI", "RDI", "RBP", "RSP" };
    if (t->kind != T_IDENT)
        return false;
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        if (litmus_tok_is(t, regs[i]))
            return true;
    if (t->len < 2 || t->len > 4 || t->start[0] != 'R')
        return false; /* R8 .. R15, R8D .. R15D */
    size_t n = t->len;
    if (t->start[n - 1] == 'D')
        n--;
    for (size_t i = 1; i < n; i++)
        if (!litmus_is_digit((unsigned char)t->start[i]))
            return false;
    return n > 1;
}

static bool is_register_name(const parser *p, const token *t)
{
    if (p->x86)
        return is_x86_register(t);
    if (p->dialect)
        return p->dialect->is_reg(t);
    if (t->kind != T_IDENT || t->len < 2 || t->start[0] != 'r')
        return false;
    for (size_t i = 1; i < t->len; i++)
        if (!litmus_is_digit((unsigned char)t->start[i]))
            return false;
    return true;
}

/* A thread name: P<digits>. Returns -1 when t is not one. */
static uint32_t reg_index(parser *p, thread_build *tb, const token *t)
{
    char canon[32];
    token ct = *t;
    if (p->dialect && p->dialect->is_reg(t)) {
        p->dialect->canon_reg(t, canon, sizeof canon);
        ct.start = canon;
        ct.len = strlen(canon);
    }
    base_sym s = litmus_tok_sym(&p->b, &ct);
    for (size_t i = 0; i < tb->regs.len; i++)
        if (tb->regs.data[i] == s)
            return (uint32_t)i;
    base_vec_push(&tb->regs, s);
    return (uint32_t)(tb->regs.len - 1);
}

/* --- values, operands, expressions --- */

/* --- code addresses and instructions as values (AArch64) --- */

/* An instruction's text as herd prints it (`LDR W2,[X1]`): blanks
 * collapsed to one space, none next to ',', '[' or ']'. */
static base_sym instr_text(parser *p, const char *s, size_t n)
{
    char buf[128];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof buf - 1; i++) {
        bool blank = s[i] == ' ' || s[i] == '\t';
        if (blank && (k == 0 || buf[k - 1] == ' ' || buf[k - 1] == ',' || buf[k - 1] == '['))
            continue;
        if (!blank && (s[i] == ',' || s[i] == ']') && k > 0 && buf[k - 1] == ' ')
            k--;
        buf[k++] = blank ? ' ' : s[i];
    }
    while (k > 0 && buf[k - 1] == ' ')
        k--;
    return base_intern(p->b.syms, buf, k);
}

/* The code location for label (or, label 0, assembly instruction ret_pc)
 * of thread th, named `P<th>:<label>` (code_ref). */
static uint32_t code_location(parser *p, uint32_t th, base_sym label, uint32_t ret_pc,
                              const token *at)
{
    char name[160];
    if (label)
        snprintf(name, sizeof name, "P%u:%s", th, base_sym_str(p->b.syms, label));
    else
        snprintf(name, sizeof name, "P%u:%%ret%u", th, ret_pc);
    token t = *at;
    t.start = name;
    t.len = strlen(name);
    uint32_t loc = litmus_location_of(&p->b, &t);
    for (size_t i = 0; i < p->code_refs.len; i++)
        if (p->code_refs.data[i].loc == loc)
            return loc;
    code_ref r = { loc, th, ret_pc, label, *at };
    base_vec_push(&p->code_refs, r);
    return loc;
}

/* At `P1:L0` (a code address) or `instr:"B .+8"` (an instruction). */
static bool code_value(parser *p, litmus_value *v)
{
    litmus_parser *b = &p->b;
    token first = b->tok;
    litmus_next(b);
    litmus_next(b);
    if (litmus_tok_is(&first, "instr")) {
        if (b->tok.kind != T_STRING) {
            char buf[64];
            litmus_error_at(b, &b->tok, "expected an instruction in quotes after 'instr:', found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return false;
        }
        v->kind = LITMUS_VAL_INSTR;
        v->num = 0;
        v->loc = instr_text(p, b->tok.start + 1, b->tok.len - 2);
        litmus_next(b);
        return true;
    }
    if (litmus_tok_is(&first, "label") && b->tok.kind == T_STRING) { /* as herd prints it */
        const char *q = b->tok.start + 1, *colon = memchr(q, ':', b->tok.len - 2);
        token pt = b->tok, lt = b->tok;
        pt.kind = lt.kind = T_IDENT;
        pt.start = q;
        pt.len = colon ? (size_t)(colon - q) : 0;
        long th = colon ? litmus_thread_number(&pt) : -1;
        if (th < 0 || colon + 1 >= b->tok.start + b->tok.len - 1) {
            litmus_error_at(b, &b->tok, "expected a code address like \"P0:L0\" after 'label:'");
            return false;
        }
        lt.start = colon + 1;
        lt.len = (size_t)(b->tok.start + b->tok.len - 1 - lt.start);
        *v = litmus_addr(code_location(p, (uint32_t)th, litmus_tok_sym(b, &lt), 0, &b->tok));
        litmus_next(b);
        return true;
    }
    long th = litmus_thread_number(&first);
    if (th < 0 || first.kind != T_IDENT) {
        litmus_error_at(b, &first, "unsupported: a value '%.*s:...' (expected a code address like "
                        "P0:L0 or instr:\"...\")", (int)(first.len > 40 ? 40 : first.len), first.start);
        return false;
    }
    if (b->tok.kind != T_IDENT) {
        char buf[64];
        litmus_error_at(b, &b->tok, "expected a label after 'P%ld:', found %s", th,
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    *v = litmus_addr(code_location(p, (uint32_t)th, litmus_tok_sym(b, &b->tok), 0, &b->tok));
    litmus_next(b);
    return true;
}

/* value := NUM | ['&'] IDENT (a location's address) */
static bool parse_value(parser *p, litmus_value *v)
{
    litmus_parser *b = &p->b;
    if (b->tok.kind == T_NUM) {
        *v = litmus_int(b->tok.num);
        litmus_next(b);
        return true;
    }
    if (b->tok.kind == T_AMP)
        litmus_next(b);
    if (p->dialect == &litmus_aarch64_dialect && b->tok.kind == T_IDENT &&
        litmus_peek2(b)->kind == T_COLON)
        return code_value(p, v);
    if (p->dialect && b->tok.kind == T_IDENT && litmus_peek2(b)->kind == T_COLON) {
        litmus_error_at(b, &b->tok, "unsupported: a code address or instruction as a value ('%.*s:')",
                        (int)(b->tok.len > 40 ? 40 : b->tok.len), b->tok.start);
        return false;
    }
    /* an assembly's value is never a register: `0:X1=x0` names location x0 */
    if (b->tok.kind == T_IDENT && (p->dialect || !is_register_name(p, &b->tok))) {
        *v = litmus_addr(litmus_location_of(b, &b->tok));
        litmus_next(b);
        return true;
    }
    char buf[64];
    litmus_error_at(b, &b->tok, "expected a value (an integer or a location), found %s",
                    litmus_tok_desc(&b->tok, buf, sizeof buf));
    return false;
}

static bool parse_operand(parser *p, thread_build *tb, litmus_operand *o)
{
    litmus_parser *b = &p->b;
    const token *t = &b->tok;
    if (t->kind == T_NUM) {
        o->kind = LITMUS_OPND_IMM;
        o->imm = t->num;
    } else if (is_register_name(p, t)) {
        o->kind = LITMUS_OPND_REG;
        o->reg = reg_index(p, tb, t);
    } else if (t->kind == T_IDENT) {
        o->kind = LITMUS_OPND_LOC;
        o->loc = litmus_location_of(b, t);
    } else {
        char buf[64];
        litmus_error_at(b, t, "expected a register, an integer or a location, found %s",
                        litmus_tok_desc(t, buf, sizeof buf));
        return false;
    }
    litmus_next(b);
    return true;
}

static bool parse_address(parser *p, thread_build *tb, litmus_address *a)
{
    litmus_parser *b = &p->b;
    if (b->tok.kind == T_NUM) {
        litmus_error_at(b, &b->tok,
                        "expected an address (a location or a register), found an integer");
        return false;
    }
    if (!parse_operand(p, tb, &a->base))
        return false;
    if (b->tok.kind == T_PLUS) {
        litmus_next(b);
        a->has_offset = true;
        if (!parse_operand(p, tb, &a->offset))
            return false;
        if (a->offset.kind == LITMUS_OPND_LOC) {
            litmus_error_at(b, &b->tok, "an address offset must be a register or an integer");
            return false;
        }
    }
    return true;
}

static litmus_expr *parse_expr(parser *p, thread_build *tb, int depth)
{
    litmus_parser *b = &p->b;
    litmus_expr *e = BASE_ARENA_NEW(&b->t->arena, litmus_expr);
    if (depth > 64) {
        litmus_error_at(b, &b->tok, "expression nested too deeply");
        return NULL;
    }
    if (b->tok.kind != T_LPAR) {
        e->op = LITMUS_OP_NONE;
        return parse_operand(p, tb, &e->opnd) ? e : NULL;
    }
    litmus_next(b);
    static const struct { const char *name; litmus_op op; } ops[] = {
        { "add", LITMUS_OP_ADD }, { "sub", LITMUS_OP_SUB }, { "mul", LITMUS_OP_MUL },
        { "xor", LITMUS_OP_XOR }, { "and", LITMUS_OP_AND }, { "or", LITMUS_OP_OR },
        { "eq", LITMUS_OP_EQ }, { "ne", LITMUS_OP_NE }, { "neq", LITMUS_OP_NE },
    };
    litmus_op op = LITMUS_OP_NONE;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (litmus_tok_is(&b->tok, ops[i].name))
            op = ops[i].op;
    if (op == LITMUS_OP_NONE) {
        litmus_expr *inner = parse_expr(p, tb, depth + 1);
        if (!inner || !litmus_expect(b, T_RPAR, "')'"))
            return NULL;
        return inner;
    }
    litmus_next(b);
    e->op = op;
    e->lhs = parse_expr(p, tb, depth + 1);
    if (!e->lhs)
        return NULL;
    e->rhs = parse_expr(p, tb, depth + 1);
    if (!e->rhs || !litmus_expect(b, T_RPAR, "')' after the operands"))
        return NULL;
    return e;
}

/* --- init block --- */

static bool init_location(parser *p, const token *name);
static bool init_array(parser *p, const token *ctype);

/* The register type a C type name gives (test.h), e.g. uint64_t. */
static int reg_type_named(const token *t)
{
    static const struct { const char *name; litmus_reg_type type; } types[] = {
        { "int", LITMUS_RT_INT }, { "int32_t", LITMUS_RT_INT }, { "uint32_t", LITMUS_RT_UINT32 },
        { "unsigned", LITMUS_RT_UINT32 }, { "int64_t", LITMUS_RT_INT64 },
        { "uint64_t", LITMUS_RT_UINT64 }, { "long", LITMUS_RT_INT64 },
        { "intptr_t", LITMUS_RT_INT64 }, { "uintptr_t", LITMUS_RT_INT64 },
        { "int8_t", LITMUS_RT_INT8 }, { "uint8_t", LITMUS_RT_UINT8 }, { "char", LITMUS_RT_INT8 },
        { "int16_t", LITMUS_RT_INT16 }, { "uint16_t", LITMUS_RT_UINT16 }, { "short", LITMUS_RT_INT16 },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (litmus_tok_is(t, types[i].name))
            return (int)types[i].type;
    return LITMUS_RT_INT;
}

/* One entry of the init block: [*]LOC [= VALUE] or THREAD:REG [= VALUE]. */
static bool init_entry(litmus_parser *b)
{
    parser *p = (parser *)b;
    if (b->tok.kind == T_STAR) /* herd's `*x` pointer declarations */
        litmus_next(b);
    token ctype = { .kind = T_EOF };
    int type = -1;
    if (p->dialect) /* a C type before the name: `int64_t 0:a0 = 1` */
        while (b->tok.kind == T_IDENT && !is_register_name(p, &b->tok) &&
               (litmus_peek2(b)->kind == T_IDENT || litmus_peek2(b)->kind == T_NUM ||
                litmus_peek2(b)->kind == T_STAR)) {
            ctype = b->tok;
            type = reg_type_named(&b->tok);
            litmus_next(b);
            if (b->tok.kind == T_STAR) { /* `uint64_t *p = &x`: a pointer */
                type = LITMUS_RT_INT64;
                litmus_next(b);
            }
        }
    if (p->dialect && b->tok.kind == T_LBRACK) { /* [x]=1 */
        litmus_next(b);
        if (b->tok.kind != T_IDENT || is_register_name(p, &b->tok) ||
            litmus_peek2(b)->kind != T_RBRACK) {
            char buf[64];
            litmus_error_at(b, &b->tok, "expected a location in '[...]', found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return false;
        }
        token name = b->tok;
        litmus_next(b);
        litmus_next(b);
        return init_location(p, &name);
    }
    /* Arrays (X86_64 and AArch64; AArch64's states print them herd's way,
     * `x={1,2}` and `x[1]`: test.h's litmus_shape) */
    if ((p->dialect == &litmus_x86_64_dialect || p->dialect == &litmus_aarch64_dialect) &&
        b->tok.kind == T_IDENT && litmus_peek2(b)->kind == T_LBRACK)
        return init_array(p, &ctype);
    long th = -1;
    token name = b->tok;
    if (litmus_at_thread_prefix(b)) {
        th = litmus_thread_number(&b->tok);
        if (th < 0) {
            litmus_error_at(b, &b->tok, "expected a thread number like 0 or P0 before ':'");
            return false;
        }
        litmus_next(b);
        litmus_next(b);
        name = b->tok;
        if (!is_register_name(p, &name)) {
            char buf[64];
            litmus_error_at(b, &name, "expected a register after '%ld:', found %s", th,
                            litmus_tok_desc(&name, buf, sizeof buf));
            return false;
        }
    } else if (b->tok.kind != T_IDENT) {
        char buf[64];
        litmus_error_at(b, &b->tok,
                        "expected a location or a register in the init block, found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    litmus_next(b);
    litmus_value v = litmus_int(0);
    if (b->tok.kind == T_EQ) {
        litmus_next(b);
        if (b->tok.kind == T_STAR)
            litmus_next(b);
        if (!parse_value(p, &v))
            return false;
    }
    if (th >= 0) {
        thread_build *tb = &p->tbs[th];
        litmus_reg_init ri = { reg_index(p, tb, &name), v };
        base_vec_push(&tb->inits, ri);
        if (type >= 0) {
            while (tb->types.len <= ri.reg)
                base_vec_push(&tb->types, (uint8_t)LITMUS_RT_INT);
            tb->types.data[ri.reg] = (uint8_t)type;
        }
        if ((uint32_t)th + 1 > p->max_init_thread)
            p->max_init_thread = (uint32_t)th + 1;
    } else {
        uint32_t l = litmus_location_of(b, &name);
        b->locs.data[l].init = v;
        if (type >= 0) {
            b->locs.data[l].typed = true;
            b->locs.data[l].type = (uint8_t)type;
        }
    }
    return true;
}

/* After LOC in the init block: [= VALUE]. */
static bool init_location(parser *p, const token *name)
{
    litmus_parser *b = &p->b;
    uint32_t l = litmus_location_of(b, name);
    if (b->tok.kind != T_EQ)
        return true;
    litmus_next(b);
    litmus_value v;
    if (!parse_value(p, &v))
        return false;
    b->locs.data[l].init = v;
    return true;
}

/* The size in bytes of a C type of herd's init blocks (int64_t, char, ...). */
static uint32_t ctype_size(const token *t)
{
    static const struct { const char *name; uint32_t size; } types[] = {
        { "char", 1 }, { "int8_t", 1 }, { "uint8_t", 1 }, { "short", 2 }, { "int16_t", 2 },
        { "uint16_t", 2 }, { "int", 4 }, { "int32_t", 4 }, { "uint32_t", 4 }, { "long", 8 },
        { "int64_t", 8 }, { "uint64_t", 8 }, { "intptr_t", 8 }, { "uintptr_t", 8 },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (litmus_tok_is(t, types[i].name))
            return types[i].size;
    return 0;
}

/* TYPE NAME[N] [= {V, ...}]: an array of N cells, the locations NAME and
 * NAME[1] .. NAME[N-1], numbered in a row (test.h). */
static bool init_array(parser *p, const token *ctype)
{
    litmus_parser *b = &p->b;
    token name = b->tok;
    uint32_t size = ctype_size(ctype);
    if (size == 0) {
        litmus_error_at(b, ctype->kind == T_IDENT ? ctype : &name,
                        "unsupported: an array without a known C type (int64_t, int, ...)");
        return false;
    }
    litmus_next(b);
    litmus_next(b);
    if (b->tok.kind != T_NUM || b->tok.num < 1 || b->tok.num > 4096) {
        litmus_error_at(b, &b->tok, "expected an array size from 1 to 4096");
        return false;
    }
    uint32_t n = (uint32_t)b->tok.num;
    litmus_next(b);
    if (!litmus_expect(b, T_RBRACK, "']'"))
        return false;
    base_sym s = litmus_tok_sym(b, &name);
    /* named before (`0:X2=x; int x[2]`): fine while its cells can follow it */
    for (size_t i = 0; i < b->locs.len; i++)
        if (b->locs.data[i].name == s && (i + 1 != b->locs.len || b->locs.data[i].cells)) {
            litmus_error_at(b, &name, "array '%.*s' is declared after its first use",
                            (int)name.len, name.start);
            return false;
        }
    uint32_t first = litmus_location_of(b, &name);
    b->locs.data[first].cells = n;
    b->locs.data[first].cell_size = size;
    b->locs.data[first].type = (uint8_t)reg_type_named(ctype);
    for (uint32_t i = 1; i < n; i++) {
        char buf[300];
        snprintf(buf, sizeof buf, "%.*s[%u]", (int)(name.len > 256 ? 256 : name.len), name.start, i);
        token cell = name;
        cell.start = buf;
        cell.len = strlen(buf);
        uint32_t l = litmus_location_of(b, &cell);
        if (l != first + i) {
            litmus_error_at(b, &name, "array cell '%s' is named before its array", buf);
            return false;
        }
        b->locs.data[l].cell = i;
        b->locs.data[l].type = b->locs.data[first].type;
    }
    if (b->tok.kind != T_EQ)
        return true;
    litmus_next(b);
    if (!litmus_expect(b, T_LBRACE, "'{' before the array's values"))
        return false;
    for (uint32_t i = 0; b->tok.kind != T_RBRACE; i++) {
        if (i && !litmus_expect(b, T_COMMA, "',' or '}'"))
            return false;
        if (i >= n) {
            litmus_error_at(b, &b->tok, "more values than the array's %u cells", n);
            return false;
        }
        litmus_value v;
        if (!parse_value(p, &v))
            return false;
        b->locs.data[first + i].init = v;
    }
    litmus_next(b);
    return true;
}

/* --- code --- */

static bool parse_annots(parser *p, litmus_annots *out)
{
    litmus_parser *b = &p->b;
    out->count = 0;
    out->syms = NULL;
    if (b->tok.kind != T_LBRACK)
        return true;
    litmus_next(b);
    BASE_VEC(base_sym) names = { 0 };
    while (b->tok.kind != T_RBRACK) {
        if (b->tok.kind != T_IDENT) {
            char buf[64];
            litmus_error_at(b, &b->tok, "expected an annotation name or ']', found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            base_vec_free(&names);
            return false;
        }
        base_sym s = litmus_tok_sym(b, &b->tok);
        size_t i = 0;
        while (i < names.len && names.data[i] < s)
            i++;
        if (i == names.len || names.data[i] != s) {
            base_vec_push(&names, s);
            memmove(names.data + i + 1, names.data + i, (names.len - 1 - i) * sizeof *names.data);
            names.data[i] = s;
        }
        litmus_next(b);
        if (b->tok.kind == T_COMMA)
            litmus_next(b);
        else if (b->tok.kind != T_RBRACK) {
            char buf[64];
            litmus_error_at(b, &b->tok, "expected ',' or ']' in an annotation list, found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            base_vec_free(&names);
            return false;
        }
    }
    litmus_next(b);
    out->count = (uint32_t)names.len;
    out->syms = BASE_ARENA_ARRAY(&b->t->arena, base_sym, names.len ? names.len : 1);
    if (names.len)
        memcpy(out->syms, names.data, names.len * sizeof *names.data);
    base_vec_free(&names);
    return true;
}

/* --- X86 (herd's Intel syntax) --- */

/* An X86 operand: [address], $N or a register. */
typedef struct x86_opnd {
    enum { X86_MEM, X86_IMM, X86_REG } kind;
    litmus_address addr; /* MEM */
    litmus_operand o;    /* IMM, REG */
} x86_opnd;

static bool x86_operand(parser *p, thread_build *tb, x86_opnd *o)
{
    litmus_parser *b = &p->b;
    memset(o, 0, sizeof *o);
    const token *t = &b->tok;
    if (t->kind == T_LBRACK) {
        litmus_next(b);
        o->kind = X86_MEM;
        return parse_address(p, tb, &o->addr) && litmus_expect(b, T_RBRACK, "']'");
    }
    if (t->kind == T_IDENT && t->len >= 2 && t->start[0] == '$') {
        int64_t v = 0;
        for (size_t i = 1; i < t->len; i++) {
            if (!litmus_is_digit((unsigned char)t->start[i]) || v > (INT64_MAX - 9) / 10) {
                litmus_error_at(b, t, "expected an immediate like $1, found '%.*s'",
                                (int)(t->len > 40 ? 40 : t->len), t->start);
                return false;
            }
            v = v * 10 + (t->start[i] - '0');
        }
        o->kind = X86_IMM;
        o->o.kind = LITMUS_OPND_IMM;
        o->o.imm = v;
        litmus_next(b);
        return true;
    }
    if (is_x86_register(t)) {
        o->kind = X86_REG;
        o->o.kind = LITMUS_OPND_REG;
        o->o.reg = reg_index(p, tb, t);
        litmus_next(b);
        return true;
    }
    char buf[64];
    litmus_error_at(b, t, "expected an X86 operand ([x], $1 or a register), found %s",
                    litmus_tok_desc(t, buf, sizeof buf));
    return false;
}

static bool x86_two(parser *p, thread_build *tb, x86_opnd *d, x86_opnd *s)
{
    return x86_operand(p, tb, d) && litmus_expect(&p->b, T_COMMA, "','") &&
           x86_operand(p, tb, s);
}

/* The register that carries a value across the two instructions an
 * exchange becomes; its name cannot be written in a test. */
static uint32_t x86_temp(parser *p, thread_build *tb)
{
    token t = { .kind = T_IDENT, .start = "%tmp", .len = 4 };
    return reg_index(p, tb, &t);
}

static litmus_expr *x86_leaf(parser *p, litmus_operand o)
{
    litmus_expr *e = BASE_ARENA_NEW(&p->b.t->arena, litmus_expr);
    e->op = LITMUS_OP_NONE;
    e->opnd = o;
    return e;
}

static litmus_expr *x86_binop(parser *p, litmus_op op, litmus_operand a, litmus_operand c)
{
    litmus_expr *e = BASE_ARENA_NEW(&p->b.t->arena, litmus_expr);
    e->op = op;
    e->lhs = x86_leaf(p, a);
    e->rhs = x86_leaf(p, c);
    return e;
}

static litmus_operand x86_reg_opnd(uint32_t reg)
{
    litmus_operand o = { .kind = LITMUS_OPND_REG, .reg = reg };
    return o;
}

static litmus_operand x86_imm_opnd(int64_t v)
{
    litmus_operand o = { .kind = LITMUS_OPND_IMM, .imm = v };
    return o;
}

static litmus_annots x86_annots(parser *p, const char *a, const char *c)
{
    litmus_annots an = { 0 };
    base_sym sa = base_intern(p->b.syms, a, strlen(a)), sc = c ? base_intern(p->b.syms, c, strlen(c)) : 0;
    an.count = c ? 2 : 1;
    an.syms = BASE_ARENA_ARRAY(&p->b.t->arena, base_sym, 2);
    an.syms[0] = sa;
    if (c) {
        an.syms[sa < sc ? 1 : 0] = sc;
        an.syms[sa < sc ? 0 : 1] = sa;
    }
    return an;
}

static const struct { const char *name; litmus_op op; } x86_alu[] = {
    { "ADD", LITMUS_OP_ADD }, { "SUB", LITMUS_OP_SUB }, { "XOR", LITMUS_OP_XOR },
    { "AND", LITMUS_OP_AND }, { "OR", LITMUS_OP_OR },
};

/* One X86 instruction at op (already consumed): appends one or two
 * instructions to tb. Locked and exchanging instructions become rmw. */
static bool x86_instr(parser *p, thread_build *tb, litmus_instr in, token op)
{
    litmus_parser *b = &p->b;
    bool lock = litmus_tok_is(&op, "LOCK");
    if (lock) {
        if (b->tok.kind != T_IDENT) {
            litmus_error_at(b, &b->tok, "expected an instruction after LOCK");
            return false;
        }
        op = b->tok;
        litmus_next(b);
    }
    x86_opnd d, s;
    if (!lock && (litmus_tok_is(&op, "MFENCE") || litmus_tok_is(&op, "LFENCE") ||
                  litmus_tok_is(&op, "SFENCE"))) {
        in.kind = LITMUS_I_FENCE;
        /* MFENCE is also the full fence `mb` of the built-in models */
        in.annots = litmus_tok_is(&op, "MFENCE") ? x86_annots(p, "mfence", "mb")
                    : x86_annots(p, litmus_tok_is(&op, "LFENCE") ? "lfence" : "sfence", NULL);
        base_vec_push(&tb->instrs, in);
        return true;
    }
    if (!lock && litmus_tok_is(&op, "MOV")) {
        if (!x86_two(p, tb, &d, &s))
            return false;
        if (d.kind == X86_MEM && s.kind != X86_MEM) {
            in.kind = LITMUS_I_WRITE;
            in.addr = d.addr;
            in.value = s.o;
        } else if (d.kind == X86_REG && s.kind == X86_MEM) {
            in.kind = LITMUS_I_READ;
            in.reg = d.o.reg;
            in.addr = s.addr;
        } else if (d.kind == X86_REG) {
            in.kind = LITMUS_I_MOV;
            in.reg = d.o.reg;
            in.expr = x86_leaf(p, s.o);
        } else {
            litmus_error_at(b, &op, "MOV needs a register or memory destination and not two "
                            "memory operands");
            return false;
        }
        base_vec_push(&tb->instrs, in);
        return true;
    }
    if (litmus_tok_is(&op, "XCHG") || (lock && litmus_tok_is(&op, "XADD"))) {
        if (!x86_two(p, tb, &d, &s))
            return false;
        if (litmus_tok_is(&op, "XCHG") && d.kind == X86_REG && s.kind == X86_MEM) {
            x86_opnd t = d;
            d = s;
            s = t;
        }
        if (d.kind != X86_MEM || s.kind != X86_REG) {
            litmus_error_at(b, &op, "%.*s needs a memory operand and a register", (int)op.len,
                            op.start);
            return false;
        }
        /* tmp := reg; reg := [m]; [m] := tmp (XCHG) or reg + tmp (XADD) */
        uint32_t tmp = x86_temp(p, tb);
        litmus_instr mv = in;
        mv.kind = LITMUS_I_MOV;
        mv.reg = tmp;
        mv.expr = x86_leaf(p, s.o);
        base_vec_push(&tb->instrs, mv);
        in.kind = LITMUS_I_RMW;
        in.reg = s.o.reg;
        in.addr = d.addr;
        in.expr = litmus_tok_is(&op, "XCHG") ? x86_leaf(p, x86_reg_opnd(tmp))
                  : x86_binop(p, LITMUS_OP_ADD, s.o, x86_reg_opnd(tmp));
        base_vec_push(&tb->instrs, in);
        return true;
    }
    bool inc = litmus_tok_is(&op, "INC"), dec = litmus_tok_is(&op, "DEC");
    litmus_op alu = LITMUS_OP_NONE;
    for (size_t i = 0; i < sizeof x86_alu / sizeof x86_alu[0]; i++)
        if (litmus_tok_is(&op, x86_alu[i].name))
            alu = x86_alu[i].op;
    if (inc || dec || alu != LITMUS_OP_NONE) {
        if (inc || dec) {
            if (!x86_operand(p, tb, &d))
                return false;
            s.kind = X86_IMM;
            s.o = x86_imm_opnd(1);
            alu = inc ? LITMUS_OP_ADD : LITMUS_OP_SUB;
        } else if (!x86_two(p, tb, &d, &s)) {
            return false;
        }
        if (s.kind == X86_MEM || d.kind == X86_IMM || (lock != (d.kind == X86_MEM))) {
            litmus_error_at(b, &op, lock ? "LOCK %.*s needs a memory destination and a register "
                                           "or immediate source"
                                         : "unsupported: %.*s with a memory operand (only its "
                                           "LOCK form is supported)",
                            (int)op.len, op.start);
            return false;
        }
        if (d.kind == X86_REG) { /* register arithmetic */
            in.kind = LITMUS_I_MOV;
            in.reg = d.o.reg;
            in.expr = x86_binop(p, alu, d.o, s.o);
        } else { /* tmp := [m]; [m] := tmp op src, atomically */
            uint32_t tmp = x86_temp(p, tb);
            in.kind = LITMUS_I_RMW;
            in.reg = tmp;
            in.addr = d.addr;
            in.expr = x86_binop(p, alu, x86_reg_opnd(tmp), s.o);
        }
        base_vec_push(&tb->instrs, in);
        return true;
    }
    litmus_error_at(b, &op, "unsupported X86 instruction '%s%.*s'", lock ? "LOCK " : "",
                    (int)(op.len > 40 ? 40 : op.len), op.start);
    return false;
}

/* --- the context of an assembly dialect (asm_dialect.h) --- */

struct litmus_asm_ctx {
    parser *p;
    thread_build *tb;
};

litmus_parser *litmus_asm_parser(litmus_asm_ctx *c)
{
    return &c->p->b;
}

const litmus_asm_dialect *litmus_asm_dialect_of(litmus_asm_ctx *c)
{
    return c->p->dialect;
}

uint32_t litmus_asm_reg(litmus_asm_ctx *c, const litmus_token *t)
{
    return reg_index(c->p, c->tb, t);
}

uint32_t litmus_asm_temp(litmus_asm_ctx *c, const char *name)
{
    token t = { .kind = T_IDENT, .start = name, .len = strlen(name) };
    return reg_index(c->p, c->tb, &t);
}

base_sym litmus_asm_pc_label(litmus_asm_ctx *c, int64_t delta)
{
    char name[40];
    snprintf(name, sizeof name, "%%pc%" PRId64, (int64_t)c->tb->pcs.len - 1 + delta);
    token t = { .kind = T_IDENT, .start = name, .len = strlen(name) };
    return litmus_tok_sym(&c->p->b, &t);
}

void litmus_asm_emit(litmus_asm_ctx *c, const litmus_instr *in)
{
    base_vec_push(&c->tb->instrs, *in);
}

litmus_expr *litmus_asm_leaf(litmus_asm_ctx *c, litmus_operand o)
{
    return x86_leaf(c->p, o);
}

litmus_expr *litmus_asm_binop(litmus_asm_ctx *c, litmus_op op, litmus_operand a, litmus_operand b)
{
    return x86_binop(c->p, op, a, b);
}

litmus_expr *litmus_asm_node(litmus_asm_ctx *c, litmus_op op, litmus_expr *lhs, litmus_expr *rhs,
                             litmus_expr *cond)
{
    litmus_expr *e = BASE_ARENA_NEW(&c->p->b.t->arena, litmus_expr);
    e->op = op;
    e->lhs = lhs;
    e->rhs = rhs;
    e->cond = cond;
    return e;
}

uint32_t litmus_asm_code_label(litmus_asm_ctx *c, const litmus_token *label)
{
    return code_location(c->p, (uint32_t)(c->tb - c->p->tbs), litmus_tok_sym(&c->p->b, label), 0,
                         label);
}

uint32_t litmus_asm_code_next(litmus_asm_ctx *c, const litmus_token *at)
{
    return code_location(c->p, (uint32_t)(c->tb - c->p->tbs), 0, (uint32_t)c->tb->pcs.len, at);
}

litmus_annots litmus_asm_annots(litmus_asm_ctx *c, const char *const *names, uint32_t n)
{
    litmus_annots an = { 0 };
    an.syms = BASE_ARENA_ARRAY(&c->p->b.t->arena, base_sym, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        base_sym s = base_intern(c->p->b.syms, names[i], strlen(names[i]));
        uint32_t k = 0;
        while (k < an.count && an.syms[k] < s)
            k++;
        if (k < an.count && an.syms[k] == s)
            continue;
        memmove(an.syms + k + 1, an.syms + k, (an.count - k) * sizeof *an.syms);
        an.syms[k] = s;
        an.count++;
    }
    return an;
}

static bool cell_end(const parser *p)
{
    return p->b.tok.kind == T_PIPE || p->b.tok.kind == T_SEMI;
}

/* After an instruction: the cell ends here, and the thread is not too long. */
static bool cell_done(parser *p, const thread_build *tb, const token *op)
{
    if (!cell_end(p)) {
        char buf[64];
        litmus_error_at(&p->b, &p->b.tok, "expected '|' or ';' after the instruction, found %s",
                        litmus_tok_desc(&p->b.tok, buf, sizeof buf));
        return false;
    }
    if (tb->instrs.len >= MAX_INSTRS) {
        litmus_error_at(&p->b, op, "too many instructions (more than %d)", MAX_INSTRS);
        return false;
    }
    return true;
}

/* One cell: [LABEL ':'] [instruction]. Appends to tb. */
static bool parse_cell(parser *p, thread_build *tb)
{
    if (cell_end(p))
        return true;
    litmus_instr in;
    memset(&in, 0, sizeof in);
    in.loc = litmus_here(&p->b, &p->b.tok);
    while (p->b.tok.kind == T_IDENT && litmus_peek2(&p->b)->kind == T_COLON) {
        base_sym l = litmus_tok_sym(&p->b, &p->b.tok);
        for (size_t i = 0; i < tb->label_names.len; i++) {
            if (tb->label_names.data[i] == l) {
                litmus_error_at(&p->b, &p->b.tok, "label '%.*s' is defined twice in this thread",
                                (int)p->b.tok.len, p->b.tok.start);
                return false;
            }
        }
        base_vec_push(&tb->label_names, l);
        base_vec_push(&tb->label_targets, (uint32_t)tb->instrs.len);
        litmus_next(&p->b);
        litmus_next(&p->b);
        if (cell_end(p)) {
            in.kind = LITMUS_I_NOP;
            base_vec_push(&tb->instrs, in);
            return true;
        }
        in.loc = litmus_here(&p->b, &p->b.tok);
    }
    /* Several labels may name one instruction (herd's grammar: NAME ':' instr_option). */
    token op = p->b.tok;
    if (op.kind != T_IDENT) {
        char buf[64];
        litmus_error_at(&p->b, &op, "expected an instruction, found %s",
                        litmus_tok_desc(&op, buf, sizeof buf));
        return false;
    }
    litmus_next(&p->b);
    if (p->x86)
        return x86_instr(p, tb, in, op) && cell_done(p, tb, &op);
    if (p->dialect) {
        litmus_asm_ctx c = { p, tb };
        base_vec_push(&tb->pcs, (uint32_t)tb->instrs.len);
        if (!p->dialect->instr(&c, in, &op) || !cell_done(p, tb, &op))
            return false;
        base_vec_push(&tb->texts, instr_text(p, op.start, (size_t)(p->b.tok.start - op.start)));
        return true;
    }
    bool annotated = !litmus_tok_is(&op, "mov");
    if (annotated && !parse_annots(p, &in.annots))
        return false;
    if (litmus_tok_is(&op, "r")) {
        in.kind = LITMUS_I_READ;
        if (!is_register_name(p, &p->b.tok)) {
            char buf[64];
            litmus_error_at(&p->b, &p->b.tok, "expected a destination register, found %s",
                            litmus_tok_desc(&p->b.tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->b.tok);
        litmus_next(&p->b);
        if (!parse_address(p, tb, &in.addr))
            return false;
    } else if (litmus_tok_is(&op, "w")) {
        in.kind = LITMUS_I_WRITE;
        if (!parse_address(p, tb, &in.addr) || !parse_operand(p, tb, &in.value))
            return false;
    } else if (litmus_tok_is(&op, "f")) {
        in.kind = LITMUS_I_FENCE;
        if (p->b.tok.kind == T_LBRACE) {
            litmus_error_at(&p->b, &p->b.tok, "fence label sets are not supported");
            return false;
        }
    } else if (litmus_tok_is(&op, "rmw")) {
        in.kind = LITMUS_I_RMW;
        if (!is_register_name(p, &p->b.tok)) {
            char buf[64];
            litmus_error_at(&p->b, &p->b.tok, "expected a destination register, found %s",
                            litmus_tok_desc(&p->b.tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->b.tok);
        litmus_next(&p->b);
        in.expr = parse_expr(p, tb, 0);
        if (!in.expr || !parse_address(p, tb, &in.addr))
            return false;
    } else if (litmus_tok_is(&op, "mov")) {
        in.kind = LITMUS_I_MOV;
        if (!is_register_name(p, &p->b.tok)) {
            char buf[64];
            litmus_error_at(&p->b, &p->b.tok, "expected a destination register, found %s",
                            litmus_tok_desc(&p->b.tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->b.tok);
        litmus_next(&p->b);
        in.expr = parse_expr(p, tb, 0);
        if (!in.expr)
            return false;
    } else if (litmus_tok_is(&op, "b")) {
        in.kind = LITMUS_I_BRANCH;
        if (is_register_name(p, &p->b.tok)) {
            in.has_reg = true;
            in.reg = reg_index(p, tb, &p->b.tok);
            litmus_next(&p->b);
        }
        if (p->b.tok.kind != T_IDENT) {
            char buf[64];
            litmus_error_at(&p->b, &p->b.tok, "expected a label after the branch, found %s",
                            litmus_tok_desc(&p->b.tok, buf, sizeof buf));
            return false;
        }
        in.label = litmus_tok_sym(&p->b, &p->b.tok);
        litmus_next(&p->b);
    } else if (litmus_tok_is(&op, "call")) {
        in.kind = LITMUS_I_CALL;
        if (in.annots.count != 1) {
            litmus_error_at(&p->b, &op,
                            "call needs exactly one name in brackets, as in call[sync]");
            return false;
        }
        in.label = in.annots.syms[0];
    } else {
        litmus_error_at(&p->b, &op, "unknown instruction '%.*s'", (int)op.len, op.start);
        return false;
    }
    if (!cell_done(p, tb, &op))
        return false;
    base_vec_push(&tb->instrs, in);
    return true;
}

static bool is_section_keyword(const token *t)
{
    return litmus_tok_is(t, "exists") || litmus_tok_is(t, "forall") ||
           litmus_tok_is(t, "locations") || litmus_tok_is(t, "filter") ||
           litmus_tok_is(t, "scopes") || litmus_tok_is(t, "regions") || t->kind == T_TILDE ||
           t->kind == T_EOF;
}

/* --- the hooks of the shared condition parser (parse_common.h) --- */

/* A state variable: N:REG, PN:REG, LOC or [LOC]. */
static bool state_var(litmus_parser *lp, litmus_observable *o)
{
    parser *p = (parser *)lp;
    char buf[64];
    if (litmus_at_thread_prefix(lp)) {
        long th = litmus_thread_prefix(lp, p->nthreads);
        if (th < 0)
            return false;
        if (!is_register_name(p, &lp->tok)) {
            litmus_error_at(lp, &lp->tok, "expected a register after ':', found %s",
                            litmus_tok_desc(&lp->tok, buf, sizeof buf));
            return false;
        }
        o->is_reg = true;
        o->thread = (uint32_t)th;
        o->reg = reg_index(p, &p->tbs[th], &lp->tok);
        litmus_next(lp);
        return true;
    }
    bool bracket = lp->tok.kind == T_LBRACK;
    if (bracket)
        litmus_next(lp);
    if (lp->tok.kind != T_IDENT || (!p->dialect && is_register_name(p, &lp->tok))) {
        litmus_error_at(lp, &lp->tok, "expected a location or THREAD:REGISTER, found %s",
                        litmus_tok_desc(&lp->tok, buf, sizeof buf));
        return false;
    }
    o->is_reg = false;
    o->shape = LITMUS_SHAPE_PLAIN;
    o->location = litmus_location_of(lp, &lp->tok);
    litmus_next(lp);
    if (bracket)
        return litmus_expect(lp, T_RBRACK, "']'");
    const litmus_location *l = &lp->locs.data[o->location];
    if (p->dialect != &litmus_aarch64_dialect || l->cells < 2)
        return true;
    /* herd's AArch64 arrays: x[k] is a cell, x alone the whole array */
    if (lp->tok.kind != T_LBRACK) {
        o->shape = LITMUS_SHAPE_ARRAY;
        return true;
    }
    litmus_next(lp);
    if (lp->tok.kind != T_NUM || lp->tok.num < 0 || lp->tok.num >= (int64_t)l->cells) {
        litmus_error_at(lp, &lp->tok, "expected a cell index from 0 to %u", l->cells - 1);
        return false;
    }
    o->shape = LITMUS_SHAPE_CELL;
    o->location += (uint32_t)lp->tok.num;
    litmus_next(lp);
    return litmus_expect(lp, T_RBRACK, "']' after the cell index");
}

static bool value(litmus_parser *lp, litmus_value *v)
{
    return parse_value((parser *)lp, v);
}

static litmus_token lex(litmus_parser *lp)
{
    return lex_raw((parser *)lp);
}

/* herd's scope tree, read while `scopes:` is skipped: a node is `(NAME`
 * then threads `Pn` or nodes, then `)`. Anything else marks the tree bad
 * (scopes_bad: the models that read it refuse the test). */
typedef struct scope_reader {
    BASE_VEC(litmus_scope) nodes;
    BASE_VEC(uint32_t) procs;
    BASE_VEC(uint32_t) open; /* indices of the open nodes */
    bool want_name, bad;
} scope_reader;

static void scope_token(litmus_parser *lp, scope_reader *sr, const token *t)
{
    if (sr->bad)
        return;
    if (sr->want_name) {
        sr->want_name = false;
        if (t->kind != T_IDENT) {
            sr->bad = true;
            return;
        }
        litmus_scope n = { base_arena_strndup(&lp->t->arena, t->start, t->len),
                           (uint32_t)sr->procs.len, 0 };
        base_vec_push(&sr->open, (uint32_t)sr->nodes.len);
        base_vec_push(&sr->nodes, n);
    } else if (t->kind == T_LPAR) {
        sr->want_name = true;
    } else if (t->kind == T_RPAR && sr->open.len > 0) {
        sr->nodes.data[sr->open.data[--sr->open.len]].hi = (uint32_t)sr->procs.len;
    } else if (t->kind == T_IDENT && sr->open.len > 0 && t->len >= 2 && t->len < 8 &&
               t->start[0] == 'P' && litmus_is_digit((unsigned char)t->start[1])) {
        uint32_t k = 0;
        for (size_t i = 1; i < t->len; i++) {
            if (!litmus_is_digit((unsigned char)t->start[i])) {
                sr->bad = true;
                return;
            }
            k = k * 10 + (uint32_t)(t->start[i] - '0');
        }
        base_vec_push(&sr->procs, k);
    } else {
        sr->bad = true;
    }
}

static void scope_finish(litmus_parser *lp, scope_reader *sr)
{
    litmus_test *t = lp->t;
    if (sr->open.len > 0 || sr->want_name || sr->nodes.len == 0 || t->nscopes > 0)
        sr->bad = true;
    if (sr->bad) {
        t->scopes_bad = true;
    } else {
        t->scopes = BASE_ARENA_ARRAY(&t->arena, litmus_scope, sr->nodes.len);
        memcpy(t->scopes, sr->nodes.data, sr->nodes.len * sizeof *t->scopes);
        t->nscopes = (uint32_t)sr->nodes.len;
        t->scope_procs = BASE_ARENA_ARRAY(&t->arena, uint32_t, sr->procs.len + 1);
        if (sr->procs.len)
            memcpy(t->scope_procs, sr->procs.data, sr->procs.len * sizeof *t->scope_procs);
        t->nscope_procs = (uint32_t)sr->procs.len;
    }
    base_vec_free(&sr->nodes);
    base_vec_free(&sr->procs);
    base_vec_free(&sr->open);
}

/* At `scopes:` or `regions:`: skips `scopes: (...)...` or `regions: ...` up
 * to the next section, reading a scope tree on the way. */
static void skip_scopes(litmus_parser *lp)
{
    bool tree = litmus_tok_is(&lp->tok, "scopes");
    scope_reader sr = { 0 };
    litmus_next(lp);
    litmus_next(lp);
    int depth = 0;
    while (lp->tok.kind != T_EOF && !lp->failed) {
        const token *t = &lp->tok;
        bool scopes = litmus_tok_is(t, "scopes") || litmus_tok_is(t, "regions");
        if (t->kind == T_LPAR)
            depth++;
        else if (t->kind == T_RPAR)
            depth--;
        else if (depth <= 0 && is_section_keyword(t) && !scopes)
            break;
        else if (depth <= 0 && scopes && litmus_peek2(lp)->kind == T_COLON)
            break;
        if (tree)
            scope_token(lp, &sr, t);
        litmus_next(lp);
    }
    if (tree)
        scope_finish(lp, &sr);
}

/* --- the whole test --- */

static void free_builds(thread_build *tbs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        base_vec_free(&tbs[i].instrs);
        base_vec_free(&tbs[i].regs);
        base_vec_free(&tbs[i].inits);
        base_vec_free(&tbs[i].label_names);
        base_vec_free(&tbs[i].label_targets);
        base_vec_free(&tbs[i].types);
        base_vec_free(&tbs[i].pcs);
        base_vec_free(&tbs[i].texts);
    }
    free(tbs);
}

/* The condition's register values as the registers' types take them. */
static void typed_values(const litmus_test *t, litmus_prop *pr)
{
    if (!pr)
        return;
    if (pr->kind == LITMUS_P_REG)
        pr->value = litmus_reg_value(&t->threads[pr->thread], pr->reg, pr->value);
    if (pr->kind == LITMUS_P_LOC && t->locs[pr->location].typed)
        pr->value = litmus_typed_value((litmus_reg_type)t->locs[pr->location].type, pr->value);
    typed_values(t, pr->lhs);
    typed_values(t, pr->rhs);
}

/* The instruction a jump to target runs first: empty cells (a label's
 * own NOP) skipped. */
static uint32_t code_canon(const thread_build *tb, uint32_t target)
{
    while (target < tb->instrs.len && tb->instrs.data[target].kind == LITMUS_I_NOP)
        target++;
    return target;
}

static void remap_operand(parser *p, thread_build *to, const thread_build *from, litmus_operand *o)
{
    if (o->kind != LITMUS_OPND_REG)
        return;
    const char *name = base_sym_str(p->b.syms, from->regs.data[o->reg]);
    token t = { .kind = T_IDENT, .start = name, .len = strlen(name) };
    o->reg = reg_index(p, to, &t);
}

static uint32_t remap_reg(parser *p, thread_build *to, const thread_build *from, uint32_t r)
{
    if (r == UINT32_MAX || r >= from->regs.len)
        return r;
    litmus_operand o = litmus_reg_operand(r);
    remap_operand(p, to, from, &o);
    return o.reg;
}

static litmus_expr *remap_expr(parser *p, thread_build *to, const thread_build *from,
                               const litmus_expr *e)
{
    if (!e)
        return NULL;
    litmus_expr *c = BASE_ARENA_NEW(&p->b.t->arena, litmus_expr);
    *c = *e;
    remap_operand(p, to, from, &c->opnd);
    c->lhs = remap_expr(p, to, from, e->lhs);
    c->rhs = remap_expr(p, to, from, e->rhs);
    c->cond = remap_expr(p, to, from, e->cond);
    return c;
}

/* Thread `from`'s first n instructions appended to `to`, its registers
 * renamed to `to`'s of the same names; a jump to from's end goes to `end`. */
static void copy_code(parser *p, thread_build *to, const thread_build *from, uint32_t n,
                      uint32_t end)
{
    uint32_t base = (uint32_t)to->instrs.len;
    for (uint32_t k = 0; k < n; k++) {
        litmus_instr in = from->instrs.data[k];
        in.reg = remap_reg(p, to, from, in.reg);
        in.reg2 = remap_reg(p, to, from, in.reg2);
        in.ok_reg = remap_reg(p, to, from, in.ok_reg);
        litmus_operand *ops[] = { &in.addr.base, &in.addr.offset, &in.addr2.base, &in.addr2.offset,
                                  &in.value, &in.value2, &in.cmp, &in.cmp2 };
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            remap_operand(p, to, from, ops[i]);
        in.expr = remap_expr(p, to, from, in.expr);
        if (in.kind == LITMUS_I_BRANCH && !in.indirect)
            in.target = in.target >= n ? end : base + in.target;
        base_vec_push(&to->instrs, in);
    }
}

static void alias_operand(litmus_operand *o, uint32_t from, uint32_t to)
{
    if (o->kind == LITMUS_OPND_LOC && o->loc == from)
        o->loc = to;
}

static void alias_expr(litmus_expr *e, uint32_t from, uint32_t to)
{
    if (!e)
        return;
    alias_operand(&e->opnd, from, to);
    alias_expr(e->lhs, from, to);
    alias_expr(e->rhs, from, to);
    alias_expr(e->cond, from, to);
}

static void alias_value(litmus_value *v, uint32_t from, uint32_t to)
{
    if (v->kind == LITMUS_VAL_ADDR && v->loc == from)
        v->loc = to;
}

static void alias_prop(litmus_prop *pr, uint32_t from, uint32_t to)
{
    if (!pr)
        return;
    alias_value(&pr->value, from, to);
    alias_prop(pr->lhs, from, to);
    alias_prop(pr->rhs, from, to);
}

/* Every mention of code location `from` made one of `to` (two names of
 * one code address, e.g. a label and BL's return address). */
static void code_alias(parser *p, thread_build *tbs, uint32_t nthreads, uint32_t from, uint32_t to)
{
    for (uint32_t th = 0; th < nthreads; th++) {
        thread_build *tb = &tbs[th];
        for (size_t k = 0; k < tb->instrs.len; k++) {
            litmus_instr *in = &tb->instrs.data[k];
            litmus_operand *ops[] = { &in->addr.base, &in->addr2.base, &in->value, &in->value2,
                                      &in->cmp, &in->cmp2 };
            for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
                alias_operand(ops[i], from, to);
            alias_expr(in->expr, from, to);
        }
        for (size_t k = 0; k < tb->inits.len; k++)
            alias_value(&tb->inits.data[k].value, from, to);
    }
    for (size_t l = 0; l < p->b.locs.len; l++)
        alias_value(&p->b.locs.data[l].init, from, to);
    alias_prop(p->b.t->cond, from, to);
    alias_prop(p->b.t->filter, from, to);
}

/* The code locations (code_ref): each named after the first label of its
 * instruction, its initial value that instruction; when there are some,
 * every thread gets a copy of the code of each thread with code locations
 * (after its own code, which then ends with a jump to the end), so that a
 * branch to a register may run another thread's code with its own
 * registers, as herd's threads share one code memory. */
static bool resolve_code(parser *p, thread_build *tbs, uint32_t nthreads)
{
    litmus_parser *b = &p->b;
    bool owner[MAX_THREADS] = { false };
    uint32_t *target = base_xcalloc(p->code_refs.len, sizeof *target);
    bool ok = true;
    for (size_t i = 0; i < p->code_refs.len && ok; i++) {
        code_ref *r = &p->code_refs.data[i];
        if (r->thread >= nthreads) {
            litmus_error_at(b, &r->at, "the code address names thread P%u, which the test does not have",
                            r->thread);
            ok = false;
            break;
        }
        thread_build *tb = &tbs[r->thread];
        uint32_t t;
        if (r->label) {
            size_t j = 0;
            while (j < tb->label_names.len && tb->label_names.data[j] != r->label)
                j++;
            if (j == tb->label_names.len) {
                litmus_error_at(b, &r->at, "undefined label '%s' in thread P%u",
                                base_sym_str(b->syms, r->label), r->thread);
                ok = false;
                break;
            }
            t = tb->label_targets.data[j];
        } else {
            t = r->ret_pc < tb->pcs.len ? tb->pcs.data[r->ret_pc] : (uint32_t)tb->instrs.len;
        }
        t = code_canon(tb, t);
        target[i] = t;
        owner[r->thread] = true;
        litmus_location *l = &b->locs.data[r->loc];
        size_t same = 0;
        while (same < i && !(p->code_refs.data[same].thread == r->thread && target[same] == t))
            same++;
        if (same < i) { /* another name of the same address: that one's location */
            uint32_t to = p->code_refs.data[same].loc;
            code_alias(p, tbs, nthreads, r->loc, to);
            char name[200];
            snprintf(name, sizeof name, "%s%%alias", base_sym_str(b->syms, l->name));
            l->name = base_intern(b->syms, name, strlen(name));
            r->loc = to;
            continue;
        }
        /* herd names a code address by its instruction's first label */
        for (size_t j = 0; j < tb->label_names.len; j++) {
            if (code_canon(tb, tb->label_targets.data[j]) != t)
                continue;
            char name[160];
            snprintf(name, sizeof name, "P%u:%s", r->thread, base_sym_str(b->syms, tb->label_names.data[j]));
            l->name = base_intern(b->syms, name, strlen(name));
            break;
        }
        l->code = true;
        l->init = litmus_int(0);
        for (size_t k = 0; k < tb->pcs.len; k++)
            if (tb->pcs.data[k] == t && k < tb->texts.len) {
                l->init.kind = LITMUS_VAL_INSTR;
                l->init.loc = tb->texts.data[k];
            }
    }
    if (!ok) {
        free(target);
        return false;
    }
    uint32_t own[MAX_THREADS];
    uint32_t *base = base_xcalloc(base_mul_size(nthreads, nthreads), sizeof *base); /* [th][o] */
    for (uint32_t th = 0; th < nthreads; th++)
        own[th] = (uint32_t)tbs[th].instrs.len;
    for (uint32_t th = 0; th < nthreads; th++) {
        uint32_t end = own[th];
        for (uint32_t o = 0; o < nthreads; o++)
            if (owner[o] && o != th)
                end += 1 + own[o];
        litmus_instr halt;
        memset(&halt, 0, sizeof halt);
        halt.kind = LITMUS_I_BRANCH;
        halt.target = end;
        for (uint32_t o = 0; o < nthreads; o++) {
            if (!owner[o] || o == th)
                continue;
            halt.loc = tbs[th].instrs.len ? tbs[th].instrs.data[0].loc : halt.loc;
            base_vec_push(&tbs[th].instrs, halt);
            base[(size_t)th * nthreads + o] = (uint32_t)tbs[th].instrs.len;
            copy_code(p, &tbs[th], &tbs[o], own[o], end);
        }
        /* a jump to the thread's own end is one to the new end */
        for (uint32_t k = 0; k < own[th]; k++) {
            litmus_instr *in = &tbs[th].instrs.data[k];
            if (in->kind == LITMUS_I_BRANCH && !in->indirect && in->target >= own[th])
                in->target = end;
        }
    }
    for (size_t i = 0; i < p->code_refs.len; i++) {
        const code_ref *r = &p->code_refs.data[i];
        litmus_location *l = &b->locs.data[r->loc];
        l->code_targets = BASE_ARENA_ARRAY(&b->t->arena, uint32_t, nthreads);
        for (uint32_t th = 0; th < nthreads; th++) {
            uint32_t t = target[i];
            if (th != r->thread)
                t = t >= own[r->thread] ? (uint32_t)tbs[th].instrs.len : base[(size_t)th * nthreads + r->thread] + t;
            else if (t >= own[th])
                t = (uint32_t)tbs[th].instrs.len;
            l->code_targets[th] = t;
        }
    }
    free(target);
    free(base);
    return true;
}

static bool parse_body(parser *p, thread_build *tbs)
{
    litmus_parser *b = &p->b;
    litmus_test *t = b->t;
    litmus_next(b);
    if (!litmus_parse_init(&p->b))
        return false;

    /* Thread header: [;] P0 | P1 ... ; */
    if (b->tok.kind == T_SEMI)
        litmus_next(b);
    uint32_t nthreads = 0;
    for (;;) {
        long th = litmus_thread_number(&b->tok);
        if (b->tok.kind != T_IDENT || th < 0) {
            char buf[64];
            litmus_error_at(b, &b->tok, "expected a thread name like P%u, found %s", nthreads,
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return false;
        }
        if ((uint32_t)th != nthreads) {
            litmus_error_at(b, &b->tok, "threads must be named P0, P1, ... in order; expected P%u",
                            nthreads);
            return false;
        }
        if (++nthreads > MAX_THREADS) {
            litmus_error_at(b, &b->tok, "too many threads (more than %d)", MAX_THREADS);
            return false;
        }
        litmus_next(b);
        if (b->tok.kind == T_SEMI) {
            litmus_next(b);
            break;
        }
        if (!litmus_expect(b, T_PIPE, "'|' or ';' in the thread header"))
            return false;
    }
    if (p->max_init_thread > nthreads) {
        litmus_error_at(b, &b->tok, "the init block names thread %u, which the test does not have",
                        p->max_init_thread - 1);
        return false;
    }
    p->nthreads = nthreads;

    /* Rows of cells. */
    while (!is_section_keyword(&b->tok)) {
        token row = b->tok;
        uint32_t cells = 0;
        for (;;) {
            if (cells >= nthreads) {
                litmus_error_at(b, &row, "row has more cells than the test's %u thread%s", nthreads,
                                nthreads == 1 ? "" : "s");
                return false;
            }
            if (!parse_cell(p, &tbs[cells]))
                return false;
            cells++;
            if (b->tok.kind == T_SEMI) {
                litmus_next(b);
                break;
            }
            litmus_next(b); /* '|' */
        }
        if (cells != nthreads) {
            litmus_error_at(b, &row, "row has %u cell%s but the test has %u threads", cells,
                            cells == 1 ? "" : "s", nthreads);
            return false;
        }
    }

    if (!litmus_parse_sections(b))
        return false;

    /* Resolve labels and move everything into the test's arena. */
    t->nthreads = nthreads;
    t->threads = BASE_ARENA_ARRAY(&t->arena, litmus_thread, nthreads ? nthreads : 1);
    for (uint32_t i = 0; i < nthreads; i++) {
        thread_build *tb = &tbs[i];
        litmus_thread *th = &t->threads[i];
        th->proc = i;
        for (size_t k = 0; k < tb->instrs.len; k++) {
            litmus_instr *in = &tb->instrs.data[k];
            if (in->kind != LITMUS_I_BRANCH)
                continue;
            if (in->label == 0) { /* no label (X86_64's ret): the end of the thread */
                in->target = (uint32_t)tb->instrs.len;
                continue;
            }
            size_t j = 0;
            while (j < tb->label_names.len && tb->label_names.data[j] != in->label)
                j++;
            const char *name = base_sym_str(b->syms, in->label);
            if (j == tb->label_names.len && strncmp(name, "%pc", 3) == 0) { /* litmus_asm_pc_label */
                long pc = strtol(name + 3, NULL, 10);
                if (pc >= 0 && (size_t)pc <= tb->pcs.len) {
                    in->target = (size_t)pc < tb->pcs.len ? tb->pcs.data[pc] : (uint32_t)tb->instrs.len;
                    continue;
                }
                token at = { .line = in->loc.line, .col = in->loc.col };
                litmus_error_at(b, &at, "the branch target lies outside thread P%u", i);
                return false;
            }
            if (j == tb->label_names.len) {
                token at = { .line = in->loc.line, .col = in->loc.col };
                litmus_error_at(b, &at, "undefined label '%s' in thread P%u",
                                base_sym_str(b->syms, in->label), i);
                return false;
            }
            in->target = tb->label_targets.data[j];
        }
    }
    if (p->code_refs.len && !resolve_code(p, tbs, nthreads))
        return false;
    for (uint32_t i = 0; i < nthreads; i++) {
        thread_build *tb = &tbs[i];
        litmus_thread *th = &t->threads[i];
        th->ninstrs = (uint32_t)tb->instrs.len;
        th->instrs = BASE_ARENA_ARRAY(&t->arena, litmus_instr, th->ninstrs ? th->ninstrs : 1);
        if (th->ninstrs)
            memcpy(th->instrs, tb->instrs.data, th->ninstrs * sizeof *th->instrs);
        th->nregs = (uint32_t)tb->regs.len;
        th->regs = BASE_ARENA_ARRAY(&t->arena, base_sym, th->nregs ? th->nregs : 1);
        if (th->nregs)
            memcpy(th->regs, tb->regs.data, th->nregs * sizeof *th->regs);
        th->ninits = (uint32_t)tb->inits.len;
        th->inits = BASE_ARENA_ARRAY(&t->arena, litmus_reg_init, th->ninits ? th->ninits : 1);
        if (th->ninits)
            memcpy(th->inits, tb->inits.data, th->ninits * sizeof *th->inits);
        if (p->dialect == &litmus_aarch64_dialect) { /* herd's types of AArch64 registers */
            th->reg_types = BASE_ARENA_ARRAY(&t->arena, uint8_t, th->nregs ? th->nregs : 1);
            for (uint32_t r = 0; r < th->nregs; r++)
                th->reg_types[r] = r < tb->types.len ? tb->types.data[r] : (uint8_t)LITMUS_RT_INT;
        }
    }
    if (p->dialect == &litmus_aarch64_dialect) /* herd's types of AArch64 locations */
        for (size_t l = 0; l < b->locs.len; l++) {
            b->locs.data[l].typed = true; /* int by default */
            b->locs.data[l].init = litmus_typed_value(b->locs.data[l].type, b->locs.data[l].init);
        }
    litmus_finish_test(b);
    typed_values(t, t->cond);
    typed_values(t, t->filter);
    return true;
}

/* The first line (`LISA name`) and the free lines up to the init block. */
static bool parse_header(parser *p)
{
    litmus_parser *b = &p->b;
    litmus_test *t = b->t;
    while (b->pos < b->len && (b->src[b->pos] == ' ' || b->src[b->pos] == '\t' ||
                               b->src[b->pos] == '\n' || b->src[b->pos] == '\r'))
        litmus_advance(b);
    token first = lex_raw(p);
    p->x86 = litmus_tok_is(&first, "X86");
    p->dialect = first.kind == T_IDENT ? dialect_named(first.start, first.len) : NULL;
    p->b.asm_syntax = p->dialect != NULL;
    if (!b->failed && !(litmus_tok_is(&first, "LISA") || litmus_tok_is(&first, "Bell") || p->x86 ||
                        p->dialect)) {
        char buf[64];
        litmus_error_at(b, &first, "expected 'LISA' or 'X86' on the first line, found %s",
                        litmus_tok_desc(&first, buf, sizeof buf));
    }
    if (b->failed)
        return false;
    t->arch = p->x86 ? "X86" : p->dialect ? p->dialect->arch
              : litmus_tok_is(&first, "LISA") ? "LISA" : "Bell";
    if (!litmus_parse_name(b, &first, t->arch))
        return false;

    /* Metadata up to the init block: an optional doc string, then free lines. */
    while (b->pos < b->len) {
        int c = litmus_peekc(b, 0);
        while (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            litmus_advance(b);
            c = litmus_peekc(b, 0);
        }
        if (c < 0 || c == '{')
            break;
        litmus_doc_line(b);
        if (!litmus_skip_line(b))
            return false;
    }
    return true;
}

litmus_test *litmus_parse_lisa(const char *file, const char *text, size_t len,
                               base_intern_pool *syms, base_diag *diag)
{
    litmus_test *t = litmus_new_test(file, syms);
    parser p = { .b = { .file = t->file, .src = text, .len = len, .line = 1, .col = 1,
                        .diag = diag, .syms = syms, .t = t, .lex = lex, .state_var = state_var,
                        .value = value, .skip_scopes = skip_scopes, .init_entry = init_entry } };
    bool ok = parse_header(&p);
    if (ok) {
        p.tbs = base_xcalloc(MAX_THREADS, sizeof *p.tbs);
        ok = parse_body(&p, p.tbs);
        free_builds(p.tbs, MAX_THREADS);
    }
    base_vec_free(&p.code_refs);
    litmus_parser_free(&p.b);
    if (!ok || p.b.failed) {
        litmus_test_free(t);
        return NULL;
    }
    return t;
}

litmus_test *litmus_load(const char *path, base_intern_pool *syms, base_diag *diag)
{
    return litmus_load_macros(path, syms, NULL, diag);
}

litmus_test *litmus_load_macros(const char *path, base_intern_pool *syms,
                                const struct litmus_macros *macros, base_diag *diag)
{
    size_t len;
    char *text = base_read_file(path, &len);
    if (!text) {
        base_diag_error(diag, base_srcloc_make(path, 0, 0), "cannot open file: %s", strerror(errno));
        return NULL;
    }
    size_t i = 0;
    uint32_t line = 1;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        line += text[i++] == '\n';
    size_t w = i;
    while (w < len && is_ident_char((unsigned char)text[w]))
        w++;
    litmus_test *t = NULL;
    if ((w - i == 4 && memcmp(text + i, "LISA", 4) == 0) || (w - i == 4 && memcmp(text + i, "Bell", 4) == 0) ||
        (w - i == 3 && memcmp(text + i, "X86", 3) == 0) || dialect_named(text + i, w - i)) {
        t = litmus_parse_lisa(path, text, len, syms, diag);
    } else if (w - i == 1 && text[i] == 'C') {
        t = litmus_parse_c_macros(path, text, len, syms, macros, diag);
    } else if (w == i) {
        base_diag_error(diag, base_srcloc_make(path, line, 1),
                        "not a litmus test (expected 'LISA <name>', 'X86 <name>' or 'C <name>' on the first line)");
    } else {
        base_diag_error(diag, base_srcloc_make(path, line, 1),
                        "unsupported litmus architecture '%.*s' (ravel reads LISA, X86, AArch64, RISCV and C)",
                        (int)(w - i > 40 ? 40 : w - i), text + i);
    }
    free(text);
    return t;
}
