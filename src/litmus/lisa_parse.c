/* lisa_parse: herd7's LISA litmus format (see lisa_parse.h for the shape).
 *
 * A hand-written lexer and recursive-descent parser. The lexer never reads
 * past len and treats a NUL byte as an error; every token carries its
 * line:col. Errors stop the parse at the first problem (one clear message,
 * as compilers do for syntax errors) and the partial test is freed. */
#include "litmus/lisa_parse.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "litmus/c_parse.h"

enum { MAX_THREADS = 1024, MAX_INSTRS = 100000 };

typedef enum tok_kind {
    T_EOF, T_IDENT, T_NUM, T_STRING,
    T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_LPAR, T_RPAR,
    T_PIPE, T_SEMI, T_COLON, T_COMMA, T_EQ, T_AMP, T_STAR, T_TILDE, T_PLUS,
    T_AND, T_OR, T_IMPLIES, T_ERROR,
} tok_kind;

typedef struct token {
    tok_kind kind;
    const char *start;
    size_t len;
    int64_t num;
    uint32_t line, col;
} token;

typedef struct parser {
    const char *file;
    const char *src;
    size_t len, pos;
    uint32_t line, col;
    token tok;          /* current token */
    token ahead;        /* one token of lookahead, valid when have_ahead */
    bool have_ahead;
    base_diag *diag;
    base_intern_pool *syms;
    litmus_test *t;
    bool failed;
    uint32_t nprops; /* operators in the conditions so far */
    BASE_VEC(litmus_location) locs;
    BASE_VEC(litmus_observable) obs;
} parser;

/* Per-thread building state. */
typedef struct thread_build {
    BASE_VEC(litmus_instr) instrs;
    BASE_VEC(base_sym) regs;
    BASE_VEC(litmus_reg_init) inits;
    BASE_VEC(base_sym) label_names;
    BASE_VEC(uint32_t) label_targets;
} thread_build;

static base_srcloc here(const parser *p, const token *t)
{
    return base_srcloc_make(p->file, t->line, t->col);
}

static void error_at(parser *p, const token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error_at(parser *p, const token *t, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    base_diag_vreport(p->diag, BASE_SEV_ERROR, here(p, t), fmt, ap);
    va_end(ap);
}

/* --- lexer --- */

static int peekc(const parser *p, size_t k)
{
    return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1;
}

static void advance(parser *p)
{
    if (p->src[p->pos] == '\n') {
        p->line++;
        p->col = 1;
    } else {
        p->col++;
    }
    p->pos++;
}

static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static bool is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static token lex_raw(parser *p)
{
    for (;;) {
        int c = peekc(p, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance(p);
        } else if (c == '(' && peekc(p, 1) == '*') {
            token open = { .line = p->line, .col = p->col };
            int depth = 0;
            do {
                if (peekc(p, 0) == '(' && peekc(p, 1) == '*') {
                    depth++;
                    advance(p);
                    advance(p);
                } else if (peekc(p, 0) == '*' && peekc(p, 1) == ')') {
                    depth--;
                    advance(p);
                    advance(p);
                } else if (peekc(p, 0) < 0) {
                    open.kind = T_ERROR;
                    error_at(p, &open, "unterminated comment");
                    return open;
                } else {
                    advance(p);
                }
            } while (depth > 0);
        } else {
            break;
        }
    }
    token t = { .start = p->src + p->pos, .line = p->line, .col = p->col };
    int c = peekc(p, 0);
    if (c < 0) {
        t.kind = T_EOF;
        return t;
    }
    if (c == 0) {
        t.kind = T_ERROR;
        error_at(p, &t, "unexpected NUL byte");
        return t;
    }
    if (is_digit(c) || (c == '-' && is_digit(peekc(p, 1)))) {
        bool neg = c == '-';
        if (neg)
            advance(p);
        uint64_t v = 0;
        bool overflow = false;
        while (is_digit(peekc(p, 0))) {
            unsigned d = (unsigned)(peekc(p, 0) - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = true;
            else
                v = v * 10 + d;
            advance(p);
        }
        if (overflow || v > (uint64_t)INT64_MAX + (neg ? 1 : 0)) {
            t.kind = T_ERROR;
            error_at(p, &t, "integer too large");
            return t;
        }
        t.kind = T_NUM;
        t.num = neg ? (int64_t)(0 - v) : (int64_t)v;
        t.len = (size_t)(p->src + p->pos - t.start);
        return t;
    }
    if (is_ident_start(c)) {
        while (is_ident_char(peekc(p, 0)))
            advance(p);
        t.kind = T_IDENT;
        t.len = (size_t)(p->src + p->pos - t.start);
        return t;
    }
    if (c == '"') {
        advance(p);
        while (peekc(p, 0) >= 0 && peekc(p, 0) != '"' && peekc(p, 0) != '\n')
            advance(p);
        if (peekc(p, 0) != '"') {
            t.kind = T_ERROR;
            error_at(p, &t, "unterminated string");
            return t;
        }
        advance(p);
        t.kind = T_STRING;
        t.len = (size_t)(p->src + p->pos - t.start);
        return t;
    }
    struct { const char *s; tok_kind k; } ops[] = {
        { "/\\", T_AND }, { "\\/", T_OR }, { "=>", T_IMPLIES }, { "{", T_LBRACE }, { "}", T_RBRACE },
        { "[", T_LBRACK }, { "]", T_RBRACK }, { "(", T_LPAR }, { ")", T_RPAR }, { "|", T_PIPE },
        { ";", T_SEMI }, { ":", T_COLON }, { ",", T_COMMA }, { "=", T_EQ }, { "&", T_AMP },
        { "*", T_STAR }, { "~", T_TILDE }, { "+", T_PLUS },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].s);
        if (p->pos + n <= p->len && memcmp(p->src + p->pos, ops[i].s, n) == 0) {
            for (size_t k = 0; k < n; k++)
                advance(p);
            t.kind = ops[i].k;
            t.len = n;
            return t;
        }
    }
    t.kind = T_ERROR;
    if (c >= 0x20 && c < 0x7f)
        error_at(p, &t, "unexpected character '%c'", c);
    else
        error_at(p, &t, "unexpected byte 0x%02x", (unsigned)c);
    return t;
}

static void next(parser *p)
{
    if (p->have_ahead) {
        p->tok = p->ahead;
        p->have_ahead = false;
    } else {
        p->tok = lex_raw(p);
    }
}

static const token *peek2(parser *p)
{
    if (!p->have_ahead) {
        p->ahead = lex_raw(p);
        p->have_ahead = true;
    }
    return &p->ahead;
}

static bool tok_is(const token *t, const char *word)
{
    return t->kind == T_IDENT && t->len == strlen(word) && memcmp(t->start, word, t->len) == 0;
}

static const char *tok_desc(const token *t, char *buf, size_t n)
{
    if (t->kind == T_EOF)
        return "end of file";
    size_t len = t->len < 40 ? t->len : 40;
    snprintf(buf, n, "'%.*s'", (int)len, t->start);
    return buf;
}

static bool expect(parser *p, tok_kind k, const char *what)
{
    if (p->tok.kind == k) {
        next(p);
        return true;
    }
    char buf[64];
    error_at(p, &p->tok, "expected %s, found %s", what, tok_desc(&p->tok, buf, sizeof buf));
    return false;
}

static base_sym tok_sym(parser *p, const token *t)
{
    return base_intern(p->syms, t->start, t->len);
}

/* --- names --- */

static bool is_register_name(const token *t)
{
    if (t->kind != T_IDENT || t->len < 2 || t->start[0] != 'r')
        return false;
    for (size_t i = 1; i < t->len; i++)
        if (!is_digit((unsigned char)t->start[i]))
            return false;
    return true;
}

/* A thread name: P<digits>. Returns -1 when t is not one. */
static long thread_number(const token *t)
{
    if (t->kind == T_NUM)
        return t->num >= 0 && t->num < MAX_THREADS ? (long)t->num : -1;
    if (t->kind != T_IDENT || t->len < 2 || t->start[0] != 'P' || t->len > 6)
        return -1;
    long v = 0;
    for (size_t i = 1; i < t->len; i++) {
        if (!is_digit((unsigned char)t->start[i]))
            return -1;
        v = v * 10 + (t->start[i] - '0');
    }
    return v;
}

static uint32_t location(parser *p, const token *t)
{
    base_sym s = tok_sym(p, t);
    for (size_t i = 0; i < p->locs.len; i++)
        if (p->locs.data[i].name == s)
            return (uint32_t)i;
    litmus_location l = { .name = s, .init = litmus_int(0), .loc = here(p, t) };
    base_vec_push(&p->locs, l);
    return (uint32_t)(p->locs.len - 1);
}

static uint32_t reg_index(parser *p, thread_build *tb, const token *t)
{
    base_sym s = tok_sym(p, t);
    for (size_t i = 0; i < tb->regs.len; i++)
        if (tb->regs.data[i] == s)
            return (uint32_t)i;
    base_vec_push(&tb->regs, s);
    return (uint32_t)(tb->regs.len - 1);
}

/* --- values, operands, expressions --- */

/* value := NUM | ['&'] IDENT (a location's address) */
static bool parse_value(parser *p, litmus_value *v)
{
    if (p->tok.kind == T_NUM) {
        *v = litmus_int(p->tok.num);
        next(p);
        return true;
    }
    if (p->tok.kind == T_AMP)
        next(p);
    if (p->tok.kind == T_IDENT && !is_register_name(&p->tok)) {
        *v = litmus_addr(location(p, &p->tok));
        next(p);
        return true;
    }
    char buf[64];
    error_at(p, &p->tok, "expected a value (an integer or a location), found %s",
             tok_desc(&p->tok, buf, sizeof buf));
    return false;
}

static bool parse_operand(parser *p, thread_build *tb, litmus_operand *o)
{
    const token *t = &p->tok;
    if (t->kind == T_NUM) {
        o->kind = LITMUS_OPND_IMM;
        o->imm = t->num;
    } else if (is_register_name(t)) {
        o->kind = LITMUS_OPND_REG;
        o->reg = reg_index(p, tb, t);
    } else if (t->kind == T_IDENT) {
        o->kind = LITMUS_OPND_LOC;
        o->loc = location(p, t);
    } else {
        char buf[64];
        error_at(p, t, "expected a register, an integer or a location, found %s",
                 tok_desc(t, buf, sizeof buf));
        return false;
    }
    next(p);
    return true;
}

static bool parse_address(parser *p, thread_build *tb, litmus_address *a)
{
    if (p->tok.kind == T_NUM) {
        error_at(p, &p->tok, "expected an address (a location or a register), found an integer");
        return false;
    }
    if (!parse_operand(p, tb, &a->base))
        return false;
    if (p->tok.kind == T_PLUS) {
        next(p);
        a->has_offset = true;
        if (!parse_operand(p, tb, &a->offset))
            return false;
        if (a->offset.kind == LITMUS_OPND_LOC) {
            error_at(p, &p->tok, "an address offset must be a register or an integer");
            return false;
        }
    }
    return true;
}

static litmus_expr *parse_expr(parser *p, thread_build *tb, int depth)
{
    litmus_expr *e = BASE_ARENA_NEW(&p->t->arena, litmus_expr);
    if (depth > 64) {
        error_at(p, &p->tok, "expression nested too deeply");
        return NULL;
    }
    if (p->tok.kind != T_LPAR) {
        e->op = LITMUS_OP_NONE;
        return parse_operand(p, tb, &e->opnd) ? e : NULL;
    }
    next(p);
    static const struct { const char *name; litmus_op op; } ops[] = {
        { "add", LITMUS_OP_ADD }, { "sub", LITMUS_OP_SUB }, { "mul", LITMUS_OP_MUL },
        { "xor", LITMUS_OP_XOR }, { "and", LITMUS_OP_AND }, { "or", LITMUS_OP_OR },
        { "eq", LITMUS_OP_EQ }, { "ne", LITMUS_OP_NE }, { "neq", LITMUS_OP_NE },
    };
    litmus_op op = LITMUS_OP_NONE;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (tok_is(&p->tok, ops[i].name))
            op = ops[i].op;
    if (op == LITMUS_OP_NONE) {
        litmus_expr *inner = parse_expr(p, tb, depth + 1);
        if (!inner || !expect(p, T_RPAR, "')'"))
            return NULL;
        return inner;
    }
    next(p);
    e->op = op;
    e->lhs = parse_expr(p, tb, depth + 1);
    if (!e->lhs)
        return NULL;
    e->rhs = parse_expr(p, tb, depth + 1);
    if (!e->rhs || !expect(p, T_RPAR, "')' after the operands"))
        return NULL;
    return e;
}

/* --- init block --- */

static bool parse_init(parser *p, thread_build *tbs, uint32_t *max_thread_seen)
{
    if (!expect(p, T_LBRACE, "'{' to open the init block"))
        return false;
    while (p->tok.kind != T_RBRACE) {
        if (p->tok.kind == T_SEMI) {
            next(p);
            continue;
        }
        if (p->tok.kind == T_EOF) {
            error_at(p, &p->tok, "unexpected end of file in the init block");
            return false;
        }
        if (p->tok.kind == T_STAR) /* herd's `*x` pointer declarations */
            next(p);
        long th = -1;
        token name = p->tok;
        if ((p->tok.kind == T_NUM || p->tok.kind == T_IDENT) && peek2(p)->kind == T_COLON) {
            th = thread_number(&p->tok);
            if (th < 0) {
                error_at(p, &p->tok, "expected a thread number like 0 or P0 before ':'");
                return false;
            }
            next(p);
            next(p);
            name = p->tok;
            if (!is_register_name(&name)) {
                char buf[64];
                error_at(p, &name, "expected a register after '%ld:', found %s", th,
                         tok_desc(&name, buf, sizeof buf));
                return false;
            }
        } else if (p->tok.kind != T_IDENT) {
            char buf[64];
            error_at(p, &p->tok, "expected a location or a register in the init block, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        next(p);
        litmus_value v = litmus_int(0);
        if (p->tok.kind == T_EQ) {
            next(p);
            if (p->tok.kind == T_STAR)
                next(p);
            if (!parse_value(p, &v))
                return false;
        }
        if (th >= 0) {
            thread_build *tb = &tbs[th];
            litmus_reg_init ri = { reg_index(p, tb, &name), v };
            base_vec_push(&tb->inits, ri);
            if ((uint32_t)th + 1 > *max_thread_seen)
                *max_thread_seen = (uint32_t)th + 1;
        } else {
            uint32_t l = location(p, &name);
            p->locs.data[l].init = v;
        }
        if (p->tok.kind != T_SEMI && p->tok.kind != T_RBRACE) {
            char buf[64];
            error_at(p, &p->tok, "expected ';' or '}' in the init block, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
    }
    next(p);
    return true;
}

/* --- code --- */

static bool parse_annots(parser *p, litmus_annots *out)
{
    out->count = 0;
    out->syms = NULL;
    if (p->tok.kind != T_LBRACK)
        return true;
    next(p);
    BASE_VEC(base_sym) names = { 0 };
    while (p->tok.kind != T_RBRACK) {
        if (p->tok.kind != T_IDENT) {
            char buf[64];
            error_at(p, &p->tok, "expected an annotation name or ']', found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            base_vec_free(&names);
            return false;
        }
        base_sym s = tok_sym(p, &p->tok);
        size_t i = 0;
        while (i < names.len && names.data[i] < s)
            i++;
        if (i == names.len || names.data[i] != s) {
            base_vec_push(&names, s);
            memmove(names.data + i + 1, names.data + i, (names.len - 1 - i) * sizeof *names.data);
            names.data[i] = s;
        }
        next(p);
        if (p->tok.kind == T_COMMA)
            next(p);
        else if (p->tok.kind != T_RBRACK) {
            char buf[64];
            error_at(p, &p->tok, "expected ',' or ']' in an annotation list, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            base_vec_free(&names);
            return false;
        }
    }
    next(p);
    out->count = (uint32_t)names.len;
    out->syms = BASE_ARENA_ARRAY(&p->t->arena, base_sym, names.len ? names.len : 1);
    if (names.len)
        memcpy(out->syms, names.data, names.len * sizeof *names.data);
    base_vec_free(&names);
    return true;
}

static bool cell_end(const parser *p)
{
    return p->tok.kind == T_PIPE || p->tok.kind == T_SEMI;
}

/* One cell: [LABEL ':'] [instruction]. Appends to tb. */
static bool parse_cell(parser *p, thread_build *tb)
{
    if (cell_end(p))
        return true;
    litmus_instr in;
    memset(&in, 0, sizeof in);
    in.loc = here(p, &p->tok);
    while (p->tok.kind == T_IDENT && peek2(p)->kind == T_COLON) {
        base_sym l = tok_sym(p, &p->tok);
        for (size_t i = 0; i < tb->label_names.len; i++) {
            if (tb->label_names.data[i] == l) {
                error_at(p, &p->tok, "label '%.*s' is defined twice in this thread",
                         (int)p->tok.len, p->tok.start);
                return false;
            }
        }
        base_vec_push(&tb->label_names, l);
        base_vec_push(&tb->label_targets, (uint32_t)tb->instrs.len);
        next(p);
        next(p);
        if (cell_end(p)) {
            in.kind = LITMUS_I_NOP;
            base_vec_push(&tb->instrs, in);
            return true;
        }
        in.loc = here(p, &p->tok);
    }
    /* Several labels may name one instruction (herd's grammar: NAME ':' instr_option). */
    token op = p->tok;
    if (op.kind != T_IDENT) {
        char buf[64];
        error_at(p, &op, "expected an instruction, found %s", tok_desc(&op, buf, sizeof buf));
        return false;
    }
    next(p);
    bool annotated = !tok_is(&op, "mov");
    if (annotated && !parse_annots(p, &in.annots))
        return false;
    if (tok_is(&op, "r")) {
        in.kind = LITMUS_I_READ;
        if (!is_register_name(&p->tok)) {
            char buf[64];
            error_at(p, &p->tok, "expected a destination register, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->tok);
        next(p);
        if (!parse_address(p, tb, &in.addr))
            return false;
    } else if (tok_is(&op, "w")) {
        in.kind = LITMUS_I_WRITE;
        if (!parse_address(p, tb, &in.addr) || !parse_operand(p, tb, &in.value))
            return false;
    } else if (tok_is(&op, "f")) {
        in.kind = LITMUS_I_FENCE;
        if (p->tok.kind == T_LBRACE) {
            error_at(p, &p->tok, "fence label sets are not supported");
            return false;
        }
    } else if (tok_is(&op, "rmw")) {
        in.kind = LITMUS_I_RMW;
        if (!is_register_name(&p->tok)) {
            char buf[64];
            error_at(p, &p->tok, "expected a destination register, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->tok);
        next(p);
        in.expr = parse_expr(p, tb, 0);
        if (!in.expr || !parse_address(p, tb, &in.addr))
            return false;
    } else if (tok_is(&op, "mov")) {
        in.kind = LITMUS_I_MOV;
        if (!is_register_name(&p->tok)) {
            char buf[64];
            error_at(p, &p->tok, "expected a destination register, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        in.reg = reg_index(p, tb, &p->tok);
        next(p);
        in.expr = parse_expr(p, tb, 0);
        if (!in.expr)
            return false;
    } else if (tok_is(&op, "b")) {
        in.kind = LITMUS_I_BRANCH;
        if (is_register_name(&p->tok)) {
            in.has_reg = true;
            in.reg = reg_index(p, tb, &p->tok);
            next(p);
        }
        if (p->tok.kind != T_IDENT) {
            char buf[64];
            error_at(p, &p->tok, "expected a label after the branch, found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        in.label = tok_sym(p, &p->tok);
        next(p);
    } else if (tok_is(&op, "call")) {
        in.kind = LITMUS_I_CALL;
        if (in.annots.count != 1) {
            error_at(p, &op, "call needs exactly one name in brackets, as in call[sync]");
            return false;
        }
        in.label = in.annots.syms[0];
    } else {
        error_at(p, &op, "unknown instruction '%.*s'", (int)op.len, op.start);
        return false;
    }
    if (!cell_end(p)) {
        char buf[64];
        error_at(p, &p->tok, "expected '|' or ';' after the instruction, found %s",
                 tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    if (tb->instrs.len >= MAX_INSTRS) {
        error_at(p, &op, "too many instructions (more than %d)", MAX_INSTRS);
        return false;
    }
    base_vec_push(&tb->instrs, in);
    return true;
}

static bool is_section_keyword(const token *t)
{
    return tok_is(t, "exists") || tok_is(t, "forall") || tok_is(t, "locations") ||
           tok_is(t, "filter") || tok_is(t, "scopes") || tok_is(t, "regions") ||
           t->kind == T_TILDE || t->kind == T_EOF;
}

/* --- the condition --- */

/* A condition's tree is as deep as its chain of operators is long, and
 * evaluating or printing it recurses: at most MAX_PROPS operators. */
enum { MAX_PROPS = 2000 };

static litmus_prop *new_prop(parser *p, litmus_prop_kind k, const token *at)
{
    if ((k == LITMUS_P_AND || k == LITMUS_P_OR || k == LITMUS_P_IMPLIES || k == LITMUS_P_NOT) &&
        ++p->nprops > MAX_PROPS) {
        error_at(p, at, "condition too long (more than %d operators)", MAX_PROPS);
        return NULL;
    }
    litmus_prop *pr = BASE_ARENA_NEW(&p->t->arena, litmus_prop);
    pr->kind = k;
    pr->loc = here(p, at);
    return pr;
}

static void add_obs(parser *p, litmus_observable o)
{
    base_vec_push(&p->obs, o);
}

/* A state variable: N:REG, PN:REG, LOC or [LOC]. */
static bool parse_state_var(parser *p, thread_build *tbs, uint32_t nthreads,
                            litmus_observable *o, token *at)
{
    *at = p->tok;
    if ((p->tok.kind == T_NUM || p->tok.kind == T_IDENT) && peek2(p)->kind == T_COLON) {
        long th = thread_number(&p->tok);
        if (th < 0 || (uint32_t)th >= nthreads) {
            char buf[64];
            error_at(p, &p->tok, "the condition names thread %s, which the test does not have",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        next(p);
        next(p);
        if (!is_register_name(&p->tok)) {
            char buf[64];
            error_at(p, &p->tok, "expected a register after ':', found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        o->is_reg = true;
        o->thread = (uint32_t)th;
        o->reg = reg_index(p, &tbs[th], &p->tok);
        next(p);
        return true;
    }
    bool bracket = p->tok.kind == T_LBRACK;
    if (bracket)
        next(p);
    if (p->tok.kind != T_IDENT || is_register_name(&p->tok)) {
        char buf[64];
        error_at(p, &p->tok, "expected a location or THREAD:REGISTER, found %s",
                 tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    o->is_reg = false;
    o->location = location(p, &p->tok);
    next(p);
    return !bracket || expect(p, T_RBRACK, "']'");
}

static litmus_prop *parse_prop(parser *p, thread_build *tbs, uint32_t nthreads, int depth);

static litmus_prop *parse_atom(parser *p, thread_build *tbs, uint32_t nthreads, int depth)
{
    token at = p->tok;
    if (depth > 200) {
        error_at(p, &at, "condition nested too deeply");
        return NULL;
    }
    if (p->tok.kind == T_TILDE) {
        next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_NOT, &at);
        if (!n)
            return NULL;
        n->lhs = parse_atom(p, tbs, nthreads, depth + 1);
        return n->lhs ? n : NULL;
    }
    if (p->tok.kind == T_LPAR) {
        next(p);
        litmus_prop *in = parse_prop(p, tbs, nthreads, depth + 1);
        if (!in || !expect(p, T_RPAR, "')' in the condition"))
            return NULL;
        return in;
    }
    if (tok_is(&p->tok, "true") || tok_is(&p->tok, "false")) {
        litmus_prop *c = new_prop(p, tok_is(&p->tok, "true") ? LITMUS_P_TRUE : LITMUS_P_FALSE, &at);
        next(p);
        return c;
    }
    litmus_observable o;
    if (!parse_state_var(p, tbs, nthreads, &o, &at))
        return NULL;
    if (!expect(p, T_EQ, "'=' in the condition"))
        return NULL;
    litmus_prop *a = new_prop(p, o.is_reg ? LITMUS_P_REG : LITMUS_P_LOC, &at);
    a->thread = o.thread;
    a->reg = o.reg;
    a->location = o.location;
    if (!parse_value(p, &a->value))
        return NULL;
    add_obs(p, o);
    return a;
}

static litmus_prop *parse_and(parser *p, thread_build *tbs, uint32_t nthreads, int depth)
{
    litmus_prop *l = parse_atom(p, tbs, nthreads, depth);
    while (l && p->tok.kind == T_AND) {
        token at = p->tok;
        next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_AND, &at);
        if (!n)
            return NULL;
        n->lhs = l;
        n->rhs = parse_atom(p, tbs, nthreads, depth);
        l = n->rhs ? n : NULL;
    }
    return l;
}

static litmus_prop *parse_or(parser *p, thread_build *tbs, uint32_t nthreads, int depth)
{
    litmus_prop *l = parse_and(p, tbs, nthreads, depth);
    while (l && p->tok.kind == T_OR) {
        token at = p->tok;
        next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_OR, &at);
        if (!n)
            return NULL;
        n->lhs = l;
        n->rhs = parse_and(p, tbs, nthreads, depth);
        l = n->rhs ? n : NULL;
    }
    return l;
}

static litmus_prop *parse_prop(parser *p, thread_build *tbs, uint32_t nthreads, int depth)
{
    litmus_prop *l = parse_or(p, tbs, nthreads, depth);
    if (l && p->tok.kind == T_IMPLIES) {
        token at = p->tok;
        next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_IMPLIES, &at);
        if (!n)
            return NULL;
        n->lhs = l;
        n->rhs = parse_prop(p, tbs, nthreads, depth + 1);
        return n->rhs ? n : NULL;
    }
    return l;
}

/* Skips `scopes: (...)...` or `regions: ...` up to the next section. */
static void skip_section(parser *p)
{
    next(p);
    int depth = 0;
    while (p->tok.kind != T_EOF && !p->failed) {
        if (p->tok.kind == T_LPAR)
            depth++;
        else if (p->tok.kind == T_RPAR)
            depth--;
        else if (depth <= 0 && is_section_keyword(&p->tok) && !tok_is(&p->tok, "scopes") &&
                 !tok_is(&p->tok, "regions"))
            return;
        else if (depth <= 0 && (tok_is(&p->tok, "scopes") || tok_is(&p->tok, "regions")) &&
                 peek2(p)->kind == T_COLON)
            return;
        next(p);
    }
}

/* --- the whole test --- */

static litmus_test *new_test(const char *file, base_intern_pool *syms)
{
    base_arena a;
    base_arena_init(&a);
    litmus_test *t = BASE_ARENA_NEW(&a, litmus_test);
    t->arena = a;
    /* The arena now lives inside t; further allocations go through t->arena. */
    t->syms = syms;
    t->file = base_arena_strdup(&t->arena, file);
    return t;
}

static void free_builds(thread_build *tbs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        base_vec_free(&tbs[i].instrs);
        base_vec_free(&tbs[i].regs);
        base_vec_free(&tbs[i].inits);
        base_vec_free(&tbs[i].label_names);
        base_vec_free(&tbs[i].label_targets);
    }
    free(tbs);
}

static bool parse_body(parser *p, thread_build *tbs)
{
    litmus_test *t = p->t;
    uint32_t max_init_thread = 0;
    next(p);
    if (!parse_init(p, tbs, &max_init_thread))
        return false;

    /* Thread header: [;] P0 | P1 ... ; */
    if (p->tok.kind == T_SEMI)
        next(p);
    uint32_t nthreads = 0;
    for (;;) {
        long th = thread_number(&p->tok);
        if (p->tok.kind != T_IDENT || th < 0) {
            char buf[64];
            error_at(p, &p->tok, "expected a thread name like P%u, found %s", nthreads,
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        if ((uint32_t)th != nthreads) {
            error_at(p, &p->tok, "threads must be named P0, P1, ... in order; expected P%u",
                     nthreads);
            return false;
        }
        if (++nthreads > MAX_THREADS) {
            error_at(p, &p->tok, "too many threads (more than %d)", MAX_THREADS);
            return false;
        }
        next(p);
        if (p->tok.kind == T_SEMI) {
            next(p);
            break;
        }
        if (!expect(p, T_PIPE, "'|' or ';' in the thread header"))
            return false;
    }
    if (max_init_thread > nthreads) {
        error_at(p, &p->tok, "the init block names thread %u, which the test does not have",
                 max_init_thread - 1);
        return false;
    }

    /* Rows of cells. */
    while (!is_section_keyword(&p->tok)) {
        token row = p->tok;
        uint32_t cells = 0;
        for (;;) {
            if (cells >= nthreads) {
                error_at(p, &row, "row has more cells than the test's %u thread%s", nthreads,
                         nthreads == 1 ? "" : "s");
                return false;
            }
            if (!parse_cell(p, &tbs[cells]))
                return false;
            cells++;
            if (p->tok.kind == T_SEMI) {
                next(p);
                break;
            }
            next(p); /* '|' */
        }
        if (cells != nthreads) {
            error_at(p, &row, "row has %u cell%s but the test has %u threads", cells,
                     cells == 1 ? "" : "s", nthreads);
            return false;
        }
    }

    /* Trailing sections. */
    bool have_cond = false;
    while (!p->failed && p->tok.kind != T_EOF) {
        if (have_cond) {
            char buf[64];
            error_at(p, &p->tok, "unexpected %s after the final condition",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        if ((tok_is(&p->tok, "scopes") || tok_is(&p->tok, "regions")) && peek2(p)->kind == T_COLON) {
            next(p);
            skip_section(p);
        } else if (tok_is(&p->tok, "locations")) {
            next(p);
            if (!expect(p, T_LBRACK, "'[' after locations"))
                return false;
            while (p->tok.kind != T_RBRACK) {
                litmus_observable o;
                token at;
                if (!parse_state_var(p, tbs, nthreads, &o, &at))
                    return false;
                add_obs(p, o);
                if (p->tok.kind == T_SEMI || p->tok.kind == T_COMMA)
                    next(p);
                else if (p->tok.kind != T_RBRACK) {
                    char buf[64];
                    error_at(p, &p->tok, "expected ';' or ']' in locations, found %s",
                             tok_desc(&p->tok, buf, sizeof buf));
                    return false;
                }
            }
            next(p);
        } else if (tok_is(&p->tok, "filter")) {
            next(p);
            t->filter = parse_prop(p, tbs, nthreads, 0);
            if (!t->filter)
                return false;
        } else if (tok_is(&p->tok, "exists") || tok_is(&p->tok, "forall") ||
                   p->tok.kind == T_TILDE) {
            if (p->tok.kind == T_TILDE) {
                next(p);
                if (!tok_is(&p->tok, "exists")) {
                    char buf[64];
                    error_at(p, &p->tok, "expected 'exists' after '~', found %s",
                             tok_desc(&p->tok, buf, sizeof buf));
                    return false;
                }
                t->quant = LITMUS_Q_NOT_EXISTS;
            } else {
                t->quant = tok_is(&p->tok, "exists") ? LITMUS_Q_EXISTS : LITMUS_Q_FORALL;
            }
            next(p);
            t->cond = parse_prop(p, tbs, nthreads, 0);
            if (!t->cond)
                return false;
            have_cond = true;
        } else {
            char buf[64];
            error_at(p, &p->tok, "expected a final condition (exists, ~exists or forall), found %s",
                     tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
    }
    if (p->failed)
        return false;
    if (!have_cond) {
        error_at(p, &p->tok, "missing final condition (exists, ~exists or forall)");
        return false;
    }

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
            size_t j = 0;
            while (j < tb->label_names.len && tb->label_names.data[j] != in->label)
                j++;
            if (j == tb->label_names.len) {
                token at = { .line = in->loc.line, .col = in->loc.col };
                error_at(p, &at, "undefined label '%s' in thread P%u",
                         base_sym_str(p->syms, in->label), i);
                return false;
            }
            in->target = tb->label_targets.data[j];
        }
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
    }
    t->nlocs = (uint32_t)p->locs.len;
    t->locs = BASE_ARENA_ARRAY(&t->arena, litmus_location, t->nlocs ? t->nlocs : 1);
    if (t->nlocs)
        memcpy(t->locs, p->locs.data, t->nlocs * sizeof *t->locs);
    t->nobs = (uint32_t)p->obs.len;
    t->obs = BASE_ARENA_ARRAY(&t->arena, litmus_observable, t->nobs ? t->nobs : 1);
    if (t->nobs)
        memcpy(t->obs, p->obs.data, t->nobs * sizeof *t->obs);
    litmus_test_sort_observables(t);
    return true;
}

litmus_test *litmus_parse_lisa(const char *file, const char *text, size_t len,
                               base_intern_pool *syms, base_diag *diag)
{
    parser p = { .file = file, .src = text, .len = len, .line = 1, .col = 1, .diag = diag,
                 .syms = syms };
    p.t = new_test(file, syms);
    p.file = p.t->file;
    litmus_test *t = p.t;

    /* Line 1: the arch and the name. */
    while (p.pos < len && (text[p.pos] == ' ' || text[p.pos] == '\t' || text[p.pos] == '\n' ||
                           text[p.pos] == '\r'))
        advance(&p);
    token first = lex_raw(&p);
    if (!p.failed && !(tok_is(&first, "LISA") || tok_is(&first, "Bell"))) {
        char buf[64];
        error_at(&p, &first, "expected 'LISA' on the first line, found %s",
                 tok_desc(&first, buf, sizeof buf));
    }
    if (p.failed) {
        litmus_test_free(t);
        return NULL;
    }
    t->arch = tok_is(&first, "LISA") ? "LISA" : "Bell";
    size_t s = p.pos;
    while (p.pos < len && text[p.pos] != '\n') {
        if (text[p.pos] == '\0') {
            token at = { .line = p.line, .col = p.col };
            error_at(&p, &at, "unexpected NUL byte");
            litmus_test_free(t);
            return NULL;
        }
        advance(&p);
    }
    size_t e = p.pos;
    while (s < e && (text[s] == ' ' || text[s] == '\t'))
        s++;
    while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
        e--;
    if (s == e) {
        error_at(&p, &first, "the test has no name (expected 'LISA <name>')");
        litmus_test_free(t);
        return NULL;
    }
    t->name = base_arena_strndup(&t->arena, text + s, e - s);

    /* Metadata up to the init block: an optional doc string, then free lines. */
    while (p.pos < len) {
        size_t ls = p.pos;
        while (ls < len && (text[ls] == ' ' || text[ls] == '\t' || text[ls] == '\n' || text[ls] == '\r'))
            ls++;
        while (p.pos < ls)
            advance(&p);
        if (ls >= len || text[ls] == '{')
            break;
        if (text[ls] == '"' && !t->doc) {
            size_t q = ls + 1;
            while (q < len && text[q] != '"' && text[q] != '\n')
                q++;
            if (q < len && text[q] == '"')
                t->doc = base_arena_strndup(&t->arena, text + ls + 1, q - ls - 1);
        }
        while (p.pos < len && text[p.pos] != '\n') {
            if (text[p.pos] == '\0') {
                token at = { .line = p.line, .col = p.col };
                error_at(&p, &at, "unexpected NUL byte");
                litmus_test_free(t);
                return NULL;
            }
            advance(&p);
        }
    }

    uint32_t maxthreads = MAX_THREADS;
    thread_build *tbs = base_xcalloc(maxthreads, sizeof *tbs);
    bool ok = parse_body(&p, tbs);
    free_builds(tbs, maxthreads);
    base_vec_free(&p.locs);
    base_vec_free(&p.obs);
    if (!ok || p.failed) {
        litmus_test_free(t);
        return NULL;
    }
    return t;
}

litmus_test *litmus_load(const char *path, base_intern_pool *syms, base_diag *diag)
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
    if ((w - i == 4 && memcmp(text + i, "LISA", 4) == 0) || (w - i == 4 && memcmp(text + i, "Bell", 4) == 0)) {
        t = litmus_parse_lisa(path, text, len, syms, diag);
    } else if (w - i == 1 && text[i] == 'C') {
        t = litmus_parse_c(path, text, len, syms, diag);
    } else if (w == i) {
        base_diag_error(diag, base_srcloc_make(path, line, 1),
                        "not a litmus test (expected 'LISA <name>' or 'C <name>' on the first line)");
    } else {
        base_diag_error(diag, base_srcloc_make(path, line, 1),
                        "unsupported litmus architecture '%.*s' (ravel reads LISA and C)",
                        (int)(w - i > 40 ? 40 : w - i), text + i);
    }
    free(text);
    return t;
}
