/* c_parse: herd7's C litmus format (see c_parse.h for what is accepted).
 *
 * A hand-written lexer and recursive-descent parser. Statements are lowered
 * as they are parsed, appending LISA instructions (test.h) to the thread;
 * expressions are parsed into a small tree first, so that `&&`/`||` can
 * tell whether their right operand touches memory before lowering it.
 *
 * Invariants:
 *  - the lexer never reads past len; a NUL byte is an error;
 *  - the first error stops the parse (p->b.failed) and the partial test is
 *    freed; nothing is emitted for a construct that is not understood;
 *  - branch targets are only ever patched forward to the current end of
 *    the thread, so every target is <= ninstrs;
 *  - a register named by the user is a declared local; hidden temporaries
 *    are named `#N`, which no condition can mention. */
#include "litmus/c_parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/xalloc.h"
#include "litmus/c_macros.h"
#include "litmus/parse_common.h"

/* MAX_DEPTH bounds recursion while parsing; MAX_HEIGHT the height of an
 * expression tree (lowering and evaluation recurse on it) and MAX_PROPS the
 * operators of a condition (its tree is as deep as its chain is long). */
enum { MAX_THREADS = LITMUS_MAX_THREADS, MAX_INSTRS = 100000, MAX_DEPTH = LITMUS_MAX_COND_DEPTH,
       MAX_ARGS = 5, MAX_HEIGHT = 400 };

typedef enum tok_kind {
    T_EOF = LITMUS_T_EOF, T_IDENT = LITMUS_T_IDENT, T_NUM = LITMUS_T_NUM,
    T_STRING = LITMUS_T_STRING, T_ERROR = LITMUS_T_ERROR, T_LBRACE = LITMUS_T_LBRACE,
    T_RBRACE = LITMUS_T_RBRACE, T_LPAR = LITMUS_T_LPAR, T_RPAR = LITMUS_T_RPAR,
    T_LBRACK = LITMUS_T_LBRACK, T_RBRACK = LITMUS_T_RBRACK, T_SEMI = LITMUS_T_SEMI,
    T_COMMA = LITMUS_T_COMMA, T_COLON = LITMUS_T_COLON, T_ASSIGN = LITMUS_T_EQ,
    T_NE = LITMUS_T_NE, T_TILDE = LITMUS_T_TILDE, T_CONJ = LITMUS_T_CONJ, T_DISJ = LITMUS_T_DISJ,
    T_IMPLIES = LITMUS_T_IMPLIES,
    T_EQEQ = LITMUS_T_NSHARED, T_LT, T_LE, T_GT, T_GE, T_PLUS, T_MINUS, T_STAR, T_SLASH,
    T_PERCENT, T_AMP, T_ANDAND, T_PIPE, T_OROR, T_CARET, T_BANG, T_SHL, T_SHR,
    T_QUEST, T_DOT, T_ARROW, T_INCR, T_DECR, T_OPASSIGN, T_HASH,
} tok_kind;

typedef litmus_token token;
typedef BASE_VEC(token) token_vec;

/* Expression trees (parser-local, in p->scratch). */
typedef enum cx_kind {
    CX_NUM,    /* num */
    CX_LOCAL,  /* reg: a declared local */
    CX_PARAM,  /* loc: a parameter, i.e. the address of a shared location */
    CX_ORDER,  /* num: a memory_order_* constant (index into mode_names) */
    CX_DEREF,  /* *a */
    CX_CALL,   /* fn(args) */
    CX_UNARY,  /* op a: T_MINUS, T_BANG, T_TILDE */
    CX_BINARY, /* a op b */
} cx_kind;

typedef struct cexpr cexpr;
struct cexpr {
    cx_kind kind;
    token at;
    tok_kind op;
    int64_t num;
    uint32_t reg, loc;
    cexpr *a, *b;
    cexpr *args[MAX_ARGS];
    uint32_t nargs;
    uint32_t height; /* 1 for a leaf; <= MAX_HEIGHT */
    bool mem;    /* it (or a subexpression) accesses memory */
    bool atomic; /* CX_PARAM: declared with an atomic type */
    int prim;    /* CX_CALL: one of herd's primitives (P_*), or 0 */
    const char *annot; /* prim: its tag ({once}), or NULL */
    tok_kind aop;      /* prim: the operator of __atomic_op and friends */
};

typedef struct local {
    base_sym name;
    uint32_t depth;
} local;

typedef struct param {
    base_sym name;
    uint32_t loc;
    bool atomic; /* declared with an atomic type (atomic_int, _Atomic ...) */
} param;

typedef struct thread_build {
    BASE_VEC(litmus_instr) instrs;
    BASE_VEC(base_sym) regs;      /* register index -> name */
    BASE_VEC(base_sym) declared;  /* every local ever declared */
    BASE_VEC(local) scope;        /* the locals in scope, innermost last */
    BASE_VEC(local) implicit;     /* assigned undeclared (herd7: registers), thread-wide */
    BASE_VEC(param) params;
    BASE_VEC(litmus_instr) srcu_locks; /* the srcu-lock fences herd would number otherwise:
                                        * reg is the result's register */
    uint32_t ntemps;
    uint32_t depth;
    /* herd7's program-order index of the statement being read (herd
     * numbers a srcu_read_lock() by it), while known: see herd_count */
    uint32_t herd_poi;
    bool herd_poi_lost;
} thread_build;

/* N:NAME = VALUE in the init block: a variable of thread N starting at VALUE */
typedef struct reg_init_decl {
    uint32_t thread;
    base_sym name;
    litmus_value value;
    token at;
} reg_init_decl;

typedef struct parser {
    litmus_parser b; /* first: the hooks get &b and cast back */
    bool herd_comments; /* (* ... *) is a comment (outside thread bodies) */
    base_arena scratch;
    thread_build *tbs; /* tbs_cap builds, the first nthreads in use */
    uint32_t nthreads, tbs_cap;
    litmus_annots mode[6]; /* na, rlx, acq, rel, acq_rel, sc */
    litmus_annots sc_fence; /* sc and mb: a seq_cst fence is x86's MFENCE */
    litmus_annots mb;       /* the MFENCE after a seq_cst store */
    const litmus_macros *macros; /* -macros, or NULL */
    BASE_VEC(token) pending;     /* macro expansion: tokens to read next, last first */
    BASE_VEC(reg_init_decl) reg_inits; /* the init block's thread variables with a value */
    uint32_t expansions;
} parser;

/* Modes, as the c11 model's annotation names. */
enum { M_NA, M_RLX, M_ACQ, M_REL, M_ACQ_REL, M_SC };
static const char *const mode_names[] = { "na", "rlx", "acq", "rel", "acq_rel", "sc" };

/* --- lexer --- */

static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(int c)
{
    return is_ident_start(c) || litmus_is_digit(c);
}

/* Skips blanks and comments; false after reporting an unterminated one. */
static bool skip_blank(parser *p)
{
    litmus_parser *b = &p->b;
    for (;;) {
        int c = litmus_peekc(b, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            litmus_advance(b);
        } else if (c == '/' && litmus_peekc(b, 1) == '/') {
            while (litmus_peekc(b, 0) > 0 && litmus_peekc(b, 0) != '\n')
                litmus_advance(b);
        } else if ((c == '/' && litmus_peekc(b, 1) == '*') ||
                   (c == '(' && litmus_peekc(b, 1) == '*' && p->herd_comments)) {
            token open = { .kind = T_ERROR, .line = b->line, .col = b->col };
            bool herd = c == '(';
            int depth = 0;
            do {
                if (litmus_peekc(b, 0) < 0) {
                    litmus_error_at(b, &open, "unterminated comment");
                    return false;
                }
                if (litmus_peekc(b, 0) == 0) {
                    token at = { .kind = T_ERROR, .line = b->line, .col = b->col };
                    litmus_error_at(b, &at, "unexpected NUL byte");
                    return false;
                }
                if (herd && litmus_peekc(b, 0) == '(' && litmus_peekc(b, 1) == '*') {
                    depth++;
                    litmus_advance(b);
                } else if (!herd && depth == 0 && litmus_peekc(b, 0) == '/' &&
                           litmus_peekc(b, 1) == '*') {
                    depth++;
                    litmus_advance(b);
                } else if (litmus_peekc(b, 0) == '*' && litmus_peekc(b, 1) == (herd ? ')' : '/')) {
                    depth--;
                    litmus_advance(b);
                }
                litmus_advance(b);
            } while (depth > 0);
        } else {
            return true;
        }
    }
}

static token lex_raw(parser *p)
{
    litmus_parser *b = &p->b;
    token t = { .kind = T_ERROR, .line = b->line, .col = b->col };
    if (!skip_blank(p))
        return t;
    t.start = b->src + b->pos;
    t.line = b->line;
    t.col = b->col;
    int c = litmus_peekc(b, 0);
    if (c < 0) {
        t.kind = T_EOF;
        return t;
    }
    if (c == 0) {
        litmus_error_at(b, &t, "unexpected NUL byte");
        return t;
    }
    if (litmus_is_digit(c)) {
        uint64_t v = 0;
        bool overflow = false, hex = c == '0' && (litmus_peekc(b, 1) == 'x' ||
                                                  litmus_peekc(b, 1) == 'X');
        unsigned base = hex ? 16 : 10;
        if (hex) {
            litmus_advance(b);
            litmus_advance(b);
        }
        size_t ndig = 0;
        for (;;) {
            int d = litmus_peekc(b, 0);
            unsigned dv;
            if (litmus_is_digit(d))
                dv = (unsigned)(d - '0');
            else if (hex && d >= 'a' && d <= 'f')
                dv = (unsigned)(d - 'a' + 10);
            else if (hex && d >= 'A' && d <= 'F')
                dv = (unsigned)(d - 'A' + 10);
            else
                break;
            if (v > (UINT64_MAX - dv) / base)
                overflow = true;
            else
                v = v * base + dv;
            ndig++;
            litmus_advance(b);
        }
        while (litmus_peekc(b, 0) == 'u' || litmus_peekc(b, 0) == 'U' ||
               litmus_peekc(b, 0) == 'l' || litmus_peekc(b, 0) == 'L')
            litmus_advance(b);
        if (is_ident_char(litmus_peekc(b, 0)) || (hex && ndig == 0)) {
            litmus_error_at(b, &t, "malformed number");
            return t;
        }
        if (overflow || v > (uint64_t)INT64_MAX) {
            litmus_error_at(b, &t, "integer too large");
            return t;
        }
        t.kind = T_NUM;
        t.num = (int64_t)v;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    if (is_ident_start(c)) {
        while (is_ident_char(litmus_peekc(b, 0)))
            litmus_advance(b);
        t.kind = T_IDENT;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    if (c == '"') {
        litmus_advance(b);
        while (litmus_peekc(b, 0) > 0 && litmus_peekc(b, 0) != '"' && litmus_peekc(b, 0) != '\n')
            litmus_advance(b);
        if (litmus_peekc(b, 0) != '"') {
            litmus_error_at(b, &t, "unterminated string");
            return t;
        }
        litmus_advance(b);
        t.kind = T_STRING;
        t.len = (size_t)(b->src + b->pos - t.start);
        return t;
    }
    static const litmus_punct ops[] = {
        { "<<=", T_OPASSIGN }, { ">>=", T_OPASSIGN },
        { "/\\", T_CONJ }, { "\\/", T_DISJ }, { "=>", T_IMPLIES }, { "==", T_EQEQ }, { "!=", T_NE },
        { "<=", T_LE }, { ">=", T_GE }, { "&&", T_ANDAND }, { "||", T_OROR }, { "<<", T_SHL },
        { ">>", T_SHR }, { "->", T_ARROW }, { "++", T_INCR }, { "--", T_DECR }, { "+=", T_OPASSIGN },
        { "-=", T_OPASSIGN }, { "*=", T_OPASSIGN }, { "/=", T_OPASSIGN }, { "%=", T_OPASSIGN },
        { "&=", T_OPASSIGN }, { "|=", T_OPASSIGN }, { "^=", T_OPASSIGN },
        { "{", T_LBRACE }, { "}", T_RBRACE }, { "(", T_LPAR }, { ")", T_RPAR }, { "[", T_LBRACK },
        { "]", T_RBRACK }, { ";", T_SEMI }, { ",", T_COMMA }, { ":", T_COLON }, { "=", T_ASSIGN },
        { "<", T_LT }, { ">", T_GT }, { "+", T_PLUS }, { "-", T_MINUS }, { "*", T_STAR },
        { "/", T_SLASH }, { "%", T_PERCENT }, { "&", T_AMP }, { "|", T_PIPE }, { "^", T_CARET },
        { "!", T_BANG }, { "~", T_TILDE }, { "?", T_QUEST }, { ".", T_DOT }, { "#", T_HASH },
    };
    litmus_lex_punct(b, ops, sizeof ops / sizeof ops[0], &t);
    return t;
}

/* --- types --- */

/* Words of an integer type ravel represents (values are 64-bit integers). */
static bool is_int_type_word(const token *t)
{
    static const char *const w[] = {
        "int", "long", "unsigned", "signed", "const", "volatile", "_Atomic", "atomic_int",
        "atomic_uint", "atomic_long", "atomic_ulong", "atomic_llong", "atomic_ullong",
        "atomic_intptr_t", "atomic_uintptr_t", "intptr_t", "uintptr_t", "int32_t", "uint32_t",
        "int64_t", "uint64_t", "__int128_t", "__uint128_t", "__int128", "size_t", "ptrdiff_t",
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (litmus_tok_is(t, w[i]))
            return true;
    return false;
}

/* Types whose width matters for the values litmus tests use. */
static bool is_narrow_type_word(const token *t)
{
    static const char *const w[] = {
        "char", "short", "bool", "_Bool", "atomic_bool", "atomic_char", "atomic_short", "int8_t",
        "uint8_t", "int16_t", "uint16_t", "float", "double", "void", "struct", "union", "enum",
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (litmus_tok_is(t, w[i]))
            return true;
    return false;
}

/* Skips a declaration's type words; false (with an error) on a type ravel
 * does not represent. At least one word must be present. */
static bool skip_type(parser *p)
{
    litmus_parser *b = &p->b;
    if (!is_int_type_word(&b->tok)) {
        char buf[64];
        if (is_narrow_type_word(&b->tok))
            litmus_error_at(b, &b->tok,
                            "unsupported: type %s (ravel's values are unbounded integers)",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
        else
            litmus_error_at(b, &b->tok, "expected a type, found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    while (is_int_type_word(&b->tok) || is_narrow_type_word(&b->tok)) {
        if (is_narrow_type_word(&b->tok)) {
            char buf[64];
            litmus_error_at(b, &b->tok,
                            "unsupported: type %s (ravel's values are unbounded integers)",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return false;
        }
        litmus_next(b);
    }
    return true;
}

/* --- names --- */

static uint32_t reg_of(thread_build *tb, base_sym s)
{
    for (size_t i = 0; i < tb->regs.len; i++)
        if (tb->regs.data[i] == s)
            return (uint32_t)i;
    base_vec_push(&tb->regs, s);
    return (uint32_t)(tb->regs.len - 1);
}

static uint32_t new_temp(parser *p, thread_build *tb)
{
    char name[32];
    snprintf(name, sizeof name, "#%u", ++tb->ntemps);
    return reg_of(tb, base_intern_cstr(p->b.syms, name));
}

static const local *find_local(const thread_build *tb, base_sym s)
{
    for (size_t i = tb->scope.len; i-- > 0;)
        if (tb->scope.data[i].name == s)
            return &tb->scope.data[i];
    for (size_t i = 0; i < tb->implicit.len; i++)
        if (tb->implicit.data[i].name == s)
            return &tb->implicit.data[i];
    return NULL;
}

static const param *find_param(const thread_build *tb, base_sym s)
{
    for (size_t i = 0; i < tb->params.len; i++)
        if (tb->params.data[i].name == s)
            return &tb->params.data[i];
    return NULL;
}

/* Is s a variable the init block gives thread tb a value? */
static bool has_init_value(const parser *p, const thread_build *tb, base_sym s)
{
    for (size_t i = 0; i < p->reg_inits.len; i++)
        if (p->tbs + p->reg_inits.data[i].thread == tb && p->reg_inits.data[i].name == s)
            return true;
    return false;
}

/* --- emitting instructions --- */

static litmus_instr *emit(parser *p, thread_build *tb, litmus_instr_kind k, const token *at)
{
    if (tb->instrs.len >= MAX_INSTRS) {
        litmus_error_at(&p->b, at, "too many instructions (more than %d)", MAX_INSTRS);
        return NULL;
    }
    litmus_instr in;
    memset(&in, 0, sizeof in);
    in.kind = k;
    in.loc = litmus_here(&p->b, at);
    base_vec_push(&tb->instrs, in);
    return &base_vec_last(&tb->instrs);
}

static litmus_expr *x_opnd(parser *p, litmus_operand o)
{
    litmus_expr *e = BASE_ARENA_NEW(&p->b.t->arena, litmus_expr);
    e->op = LITMUS_OP_NONE;
    e->opnd = o;
    return e;
}

static litmus_expr *x_imm(parser *p, int64_t v)
{
    litmus_operand o = { .kind = LITMUS_OPND_IMM, .imm = v };
    return x_opnd(p, o);
}

static litmus_expr *x_reg(parser *p, uint32_t r)
{
    litmus_operand o = { .kind = LITMUS_OPND_REG, .reg = r };
    return x_opnd(p, o);
}

static litmus_expr *x_bin(parser *p, litmus_op op, litmus_expr *a, litmus_expr *b)
{
    litmus_expr *e = BASE_ARENA_NEW(&p->b.t->arena, litmus_expr);
    e->op = op;
    e->lhs = a;
    e->rhs = b;
    return e;
}

/* mov reg e */
static bool emit_mov(parser *p, thread_build *tb, const token *at, uint32_t reg, litmus_expr *e)
{
    litmus_instr *in = emit(p, tb, LITMUS_I_MOV, at);
    if (!in)
        return false;
    in->reg = reg;
    in->expr = e;
    return true;
}

/* e as an operand: itself when it is one, else a temporary holding it. */
static bool as_operand(parser *p, thread_build *tb, const token *at, litmus_expr *e,
                       litmus_operand *o)
{
    if (e->op == LITMUS_OP_NONE) {
        *o = e->opnd;
        return true;
    }
    uint32_t r = new_temp(p, tb);
    if (!emit_mov(p, tb, at, r, e))
        return false;
    o->kind = LITMUS_OPND_REG;
    o->reg = r;
    return true;
}

/* A branch to be patched: jumps when reg != 0 (or always when !has_reg). */
static bool emit_branch(parser *p, thread_build *tb, const token *at, bool has_reg, uint32_t reg,
                        size_t *index)
{
    litmus_instr *in = emit(p, tb, LITMUS_I_BRANCH, at);
    if (!in)
        return false;
    in->has_reg = has_reg;
    in->reg = reg;
    *index = tb->instrs.len - 1;
    return true;
}

static void patch_here(thread_build *tb, size_t index)
{
    tb->instrs.data[index].target = (uint32_t)tb->instrs.len;
}

/* --- expressions: parsing --- */

static cexpr *node(parser *p, cx_kind k, const token *at)
{
    cexpr *e = BASE_ARENA_NEW(&p->scratch, cexpr);
    e->kind = k;
    e->at = *at;
    e->height = 1;
    return e;
}

/* Sets e's height from its operand(s); false (with an error) when too high. */
static bool grow(parser *p, cexpr *e, const cexpr *a, const cexpr *b)
{
    e->height = 1 + (b && b->height > a->height ? b->height : a->height);
    if (e->height > MAX_HEIGHT) {
        litmus_error_at(&p->b, &e->at, "expression nested too deeply");
        return false;
    }
    return true;
}

static cexpr *parse_expr(parser *p, thread_build *tb, int depth);
static bool known_call(parser *p, const token *at);

static int order_of(const token *t)
{
    static const struct { const char *name; int mode; } orders[] = {
        { "memory_order_relaxed", M_RLX }, { "memory_order_consume", M_ACQ },
        { "memory_order_acquire", M_ACQ }, { "memory_order_release", M_REL },
        { "memory_order_acq_rel", M_ACQ_REL }, { "memory_order_seq_cst", M_SC },
    };
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (litmus_tok_is(t, orders[i].name))
            return orders[i].mode;
    return -1;
}

/* herd's C primitives (what -macros files define the kernel's in terms of). */
enum { P_NONE, P_LOAD, P_STORE, P_FENCE, P_XCHG, P_CMPXCHG, P_LOCK, P_UNLOCK, P_TRYLOCK,
       P_ISLOCKED, P_SRCU, P_AOP, P_AOP_RETURN, P_AFETCH_OP };

static int prim_of(const token *t)
{
    static const char *const names[] = { NULL, "__load", "__store", "__fence", "__xchg",
                                         "__cmpxchg", "__lock", "__unlock", "__trylock",
                                         "__islocked", "__srcu", "__atomic_op",
                                         "__atomic_op_return", "__atomic_fetch_op" };
    for (int i = 1; i < (int)(sizeof names / sizeof names[0]); i++)
        if (litmus_tok_is(t, names[i]))
            return i;
    return P_NONE;
}

/* After a primitive's name: its optional {tag} and its arguments; the
 * second argument of the atomic-op forms is an operator (`+`, `-`, ...). */
static cexpr *parse_prim(parser *p, thread_build *tb, const token *at, int prim, int depth)
{
    litmus_parser *b = &p->b;
    char buf[64];
    cexpr *e = node(p, CX_CALL, at);
    e->prim = prim;
    e->mem = true;
    if (b->tok.kind == T_LBRACE) {
        token open = b->tok;
        char tag[64];
        size_t n = 0;
        litmus_next(b);
        while (b->tok.kind != T_RBRACE) {
            if (b->tok.kind == T_EOF || b->tok.kind == T_ERROR || b->failed ||
                n + b->tok.len >= sizeof tag) {
                if (!b->failed)
                    litmus_error_at(b, &open, "expected a tag like '{once}' after '%.*s'",
                                    (int)at->len, at->start);
                return NULL;
            }
            memcpy(tag + n, b->tok.start, b->tok.len);
            n += b->tok.len;
            litmus_next(b);
        }
        litmus_next(b);
        tag[n] = 0;
        e->annot = base_arena_strdup(&p->scratch, tag);
    }
    bool tagged = prim == P_LOAD || prim == P_STORE || prim == P_FENCE || prim == P_XCHG ||
                  prim == P_CMPXCHG || prim == P_SRCU || prim == P_AOP_RETURN ||
                  prim == P_AFETCH_OP;
    if (tagged != (e->annot != NULL)) {
        litmus_error_at(b, at, tagged ? "'%.*s' needs a tag, as in '%.*s{once}'"
                                      : "'%.*s' takes no tag", (int)at->len, at->start,
                        (int)at->len, at->start);
        return NULL;
    }
    if (prim == P_FENCE)
        return e;
    if (!litmus_expect(b, T_LPAR, "'('"))
        return NULL;
    bool op_arg = prim == P_AOP || prim == P_AOP_RETURN || prim == P_AFETCH_OP;
    while (b->tok.kind != T_RPAR) {
        if (e->nargs == MAX_ARGS) {
            litmus_error_at(b, &b->tok, "too many arguments to '%.*s'", (int)at->len, at->start);
            return NULL;
        }
        if (op_arg && e->nargs == 1) {
            tok_kind k = (tok_kind)b->tok.kind;
            if (k != T_PLUS && k != T_MINUS && k != T_AMP && k != T_PIPE && k != T_CARET) {
                litmus_error_at(b, &b->tok, "expected an operator (+ - & | ^) as the second "
                                            "argument of '%.*s', found %s", (int)at->len,
                                at->start, litmus_tok_desc(&b->tok, buf, sizeof buf));
                return NULL;
            }
            e->aop = k;
            e->args[e->nargs++] = node(p, CX_NUM, &b->tok); /* a placeholder */
            litmus_next(b);
        } else {
            cexpr *a = parse_expr(p, tb, depth + 1);
            if (!a)
                return NULL;
            e->args[e->nargs++] = a;
            if (!grow(p, e, e, a))
                return NULL;
        }
        if (b->tok.kind == T_COMMA)
            litmus_next(b);
        else if (b->tok.kind != T_RPAR) {
            litmus_error_at(b, &b->tok, "expected ',' or ')' in a call, found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return NULL;
        }
    }
    litmus_next(b);
    return e;
}

static cexpr *parse_unary(parser *p, thread_build *tb, int depth);

static cexpr *parse_primary(parser *p, thread_build *tb, int depth)
{
    litmus_parser *b = &p->b;
    token at = b->tok;
    char buf[64];
    if (at.kind == T_NUM) {
        cexpr *e = node(p, CX_NUM, &at);
        e->num = at.num;
        litmus_next(b);
        return e;
    }
    if (at.kind == T_LPAR) {
        litmus_next(b);
        /* a cast to an integer type, or to a pointer to any type ((char
         * *), (void **)): the value unchanged (ravel's values are unbounded
         * integers and addresses); to a narrow type it is not */
        bool narrow = is_narrow_type_word(&b->tok);
        if (is_int_type_word(&b->tok) || (narrow && litmus_peek2(b)->kind == T_STAR)) {
            while (is_int_type_word(&b->tok) || is_narrow_type_word(&b->tok))
                litmus_next(b);
            while (b->tok.kind == T_STAR)
                litmus_next(b);
            if (!litmus_expect(b, T_RPAR, "')' after the type of a cast"))
                return NULL;
            return parse_unary(p, tb, depth + 1);
        }
        if (narrow) {
            litmus_error_at(b, &at, "unsupported: casts to narrow or non-integer types");
            return NULL;
        }
        cexpr *e = parse_expr(p, tb, depth + 1);
        if (!e || !litmus_expect(b, T_RPAR, "')'"))
            return NULL;
        return e;
    }
    if (at.kind != T_IDENT) {
        litmus_error_at(b, &at, "expected an expression, found %s",
                        litmus_tok_desc(&at, buf, sizeof buf));
        return NULL;
    }
    litmus_next(b);
    int prim = prim_of(&at);
    if (prim != P_NONE)
        return parse_prim(p, tb, &at, prim, depth);
    if (b->tok.kind == T_LPAR) {
        if (!known_call(p, &at))
            return NULL;
        cexpr *e = node(p, CX_CALL, &at);
        litmus_next(b);
        while (b->tok.kind != T_RPAR) {
            if (e->nargs == MAX_ARGS) {
                litmus_error_at(b, &b->tok, "too many arguments to '%.*s'", (int)at.len, at.start);
                return NULL;
            }
            cexpr *a = parse_expr(p, tb, depth + 1);
            if (!a)
                return NULL;
            e->args[e->nargs++] = a;
            e->mem |= a->mem;
            if (!grow(p, e, e, a)) /* max(e's height so far, a's) + 1 */
                return NULL;
            if (b->tok.kind == T_COMMA)
                litmus_next(b);
            else if (b->tok.kind != T_RPAR) {
                litmus_error_at(b, &b->tok, "expected ',' or ')' in a call, found %s",
                                litmus_tok_desc(&b->tok, buf, sizeof buf));
                return NULL;
            }
        }
        litmus_next(b);
        e->mem = true;
        return e;
    }
    int mo = order_of(&at);
    if (mo >= 0) {
        cexpr *e = node(p, CX_ORDER, &at);
        e->num = mo;
        return e;
    }
    base_sym s = litmus_tok_sym(b, &at);
    const local *l = find_local(tb, s);
    if (l) {
        cexpr *e = node(p, CX_LOCAL, &at);
        e->reg = reg_of(tb, s);
        return e;
    }
    const param *pa = find_param(tb, s);
    if (pa) {
        cexpr *e = node(p, CX_PARAM, &at);
        e->loc = pa->loc;
        e->atomic = pa->atomic;
        return e;
    }
    if (is_int_type_word(&at) || is_narrow_type_word(&at))
        litmus_error_at(b, &at, "unsupported: a declaration inside an expression");
    else
        litmus_error_at(b, &at, "'%.*s' is not declared in this thread", (int)at.len, at.start);
    return NULL;
}

static cexpr *parse_unary(parser *p, thread_build *tb, int depth)
{
    litmus_parser *b = &p->b;
    token at = b->tok;
    if (depth > MAX_DEPTH) {
        litmus_error_at(b, &at, "expression nested too deeply");
        return NULL;
    }
    switch (at.kind) {
    case T_MINUS:
    case T_BANG:
    case T_TILDE:
    case T_STAR: {
        litmus_next(b);
        cexpr *a = parse_unary(p, tb, depth + 1);
        if (!a)
            return NULL;
        if (at.kind == T_MINUS && a->kind == CX_NUM) {
            a->num = (int64_t)(0 - (uint64_t)a->num);
            a->at = at;
            return a;
        }
        cexpr *e = node(p, at.kind == T_STAR ? CX_DEREF : CX_UNARY, &at);
        e->op = at.kind;
        e->a = a;
        e->mem = a->mem || at.kind == T_STAR;
        return grow(p, e, a, NULL) ? e : NULL;
    }
    case T_AMP:
        litmus_error_at(b, &at, "unsupported: taking an address with '&'");
        return NULL;
    case T_INCR:
    case T_DECR:
        litmus_error_at(b, &at, "unsupported: '%.*s'", (int)at.len, at.start);
        return NULL;
    default:
        break;
    }
    cexpr *e = parse_primary(p, tb, depth);
    if (e && (b->tok.kind == T_INCR || b->tok.kind == T_DECR || b->tok.kind == T_LBRACK ||
              b->tok.kind == T_DOT || b->tok.kind == T_ARROW)) {
        litmus_error_at(b, &b->tok, "unsupported: '%.*s'", (int)b->tok.len, b->tok.start);
        return NULL;
    }
    return e;
}

/* Binary operators by precedence level, loosest first. */
static int prec(tok_kind k)
{
    switch (k) {
    case T_OROR: return 1;
    case T_ANDAND: return 2;
    case T_PIPE: return 3;
    case T_CARET: return 4;
    case T_AMP: return 5;
    case T_EQEQ: case T_NE: return 6;
    case T_LT: case T_LE: case T_GT: case T_GE: return 7;
    case T_SHL: case T_SHR: return 8;
    case T_PLUS: case T_MINUS: return 9;
    case T_STAR: case T_SLASH: case T_PERCENT: return 10;
    default: return 0;
    }
}

static cexpr *parse_binary(parser *p, thread_build *tb, int min, int depth)
{
    if (depth > MAX_DEPTH) {
        litmus_error_at(&p->b, &p->b.tok, "expression nested too deeply");
        return NULL;
    }
    cexpr *l = parse_unary(p, tb, depth + 1);
    while (l && prec(p->b.tok.kind) >= min) {
        token op = p->b.tok;
        int pr = prec(op.kind);
        if (op.kind == T_SLASH || op.kind == T_PERCENT || op.kind == T_SHL || op.kind == T_SHR) {
            litmus_error_at(&p->b, &op, "unsupported: operator '%.*s'", (int)op.len, op.start);
            return NULL;
        }
        litmus_next(&p->b);
        cexpr *r = parse_binary(p, tb, pr + 1, depth + 1);
        if (!r)
            return NULL;
        cexpr *e = node(p, CX_BINARY, &op);
        e->op = op.kind;
        e->a = l;
        e->b = r;
        e->mem = l->mem || r->mem;
        if (!grow(p, e, l, r))
            return NULL;
        l = e;
    }
    if (l && p->b.tok.kind == T_QUEST) {
        litmus_error_at(&p->b, &p->b.tok, "unsupported: the conditional operator '?:'");
        return NULL;
    }
    return l;
}

static cexpr *parse_expr(parser *p, thread_build *tb, int depth)
{
    return parse_binary(p, tb, 1, depth);
}

/* --- expressions: lowering --- */

typedef enum call_kind {
    C_LOAD, C_STORE, C_EXCHANGE, C_FETCH, C_CAS, C_FENCE,
} call_kind;

typedef struct call_info {
    const char *name;
    call_kind kind;
    uint32_t nargs;    /* without orders */
    uint32_t norders;  /* orders of the _explicit form (0 for the plain one) */
    litmus_op op;      /* FETCH */
    bool weak;         /* CAS */
} call_info;

static const call_info calls[] = {
    { "atomic_load", C_LOAD, 1, 0, LITMUS_OP_NONE, false },
    { "atomic_load_explicit", C_LOAD, 1, 1, LITMUS_OP_NONE, false },
    { "atomic_store", C_STORE, 2, 0, LITMUS_OP_NONE, false },
    { "atomic_store_explicit", C_STORE, 2, 1, LITMUS_OP_NONE, false },
    { "atomic_exchange", C_EXCHANGE, 2, 0, LITMUS_OP_NONE, false },
    { "atomic_exchange_explicit", C_EXCHANGE, 2, 1, LITMUS_OP_NONE, false },
    { "atomic_fetch_add", C_FETCH, 2, 0, LITMUS_OP_ADD, false },
    { "atomic_fetch_add_explicit", C_FETCH, 2, 1, LITMUS_OP_ADD, false },
    { "atomic_fetch_sub", C_FETCH, 2, 0, LITMUS_OP_SUB, false },
    { "atomic_fetch_sub_explicit", C_FETCH, 2, 1, LITMUS_OP_SUB, false },
    { "atomic_fetch_or", C_FETCH, 2, 0, LITMUS_OP_OR, false },
    { "atomic_fetch_or_explicit", C_FETCH, 2, 1, LITMUS_OP_OR, false },
    { "atomic_fetch_and", C_FETCH, 2, 0, LITMUS_OP_AND, false },
    { "atomic_fetch_and_explicit", C_FETCH, 2, 1, LITMUS_OP_AND, false },
    { "atomic_fetch_xor", C_FETCH, 2, 0, LITMUS_OP_XOR, false },
    { "atomic_fetch_xor_explicit", C_FETCH, 2, 1, LITMUS_OP_XOR, false },
    { "atomic_compare_exchange_strong", C_CAS, 3, 0, LITMUS_OP_NONE, false },
    { "atomic_compare_exchange_strong_explicit", C_CAS, 3, 2, LITMUS_OP_NONE, false },
    { "atomic_compare_exchange_weak", C_CAS, 3, 0, LITMUS_OP_NONE, true },
    { "atomic_compare_exchange_weak_explicit", C_CAS, 3, 2, LITMUS_OP_NONE, true },
    { "atomic_thread_fence", C_FENCE, 0, 1, LITMUS_OP_NONE, false },
};

static const call_info *find_call(const token *t)
{
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (litmus_tok_is(t, calls[i].name))
            return &calls[i];
    return NULL;
}

/* False, with an `unsupported` error, for a call that is not a C11 atomic. */
static bool known_call(parser *p, const token *at)
{
    if (find_call(at))
        return true;
    char buf[64];
    bool lock = false;
    for (size_t i = 0; i + 4 <= at->len; i++)
        lock |= memcmp(at->start + i, "lock", 4) == 0;
    if (lock)
        litmus_error_at(&p->b, at, "unsupported: locks (call to %s)",
                        litmus_tok_desc(at, buf, sizeof buf));
    else
        litmus_error_at(&p->b, at, "unsupported: call to %s (ravel reads the C11 atomics)",
                        litmus_tok_desc(at, buf, sizeof buf));
    return false;
}

static bool lower(parser *p, thread_build *tb, const cexpr *e, litmus_expr **out);

/* The address operand of an access: a parameter (a location) or a local
 * holding an address. A plain (`*p`) access through a parameter of an
 * atomic type gets a warning: it is non-atomic here, as in herd7's C. */
static bool lower_pointer(parser *p, const cexpr *e, bool plain, litmus_address *a)
{
    if (plain && e->kind == CX_PARAM && e->atomic)
        base_diag_warning(p->b.diag, litmus_here(&p->b, &e->at),
                          "'*%.*s' is a non-atomic access although '%.*s' points to an atomic type "
                          "(C would make it seq_cst; use atomic_load/atomic_store for that)",
                          (int)e->at.len, e->at.start, (int)e->at.len, e->at.start);
    memset(a, 0, sizeof *a);
    if (e->kind == CX_PARAM) {
        a->base.kind = LITMUS_OPND_LOC;
        a->base.loc = e->loc;
        return true;
    }
    if (e->kind == CX_LOCAL) {
        a->base.kind = LITMUS_OPND_REG;
        a->base.reg = e->reg;
        return true;
    }
    litmus_error_at(&p->b, &e->at,
                    "unsupported: this pointer expression (ravel accesses a parameter or a "
                    "local holding an address)");
    return false;
}

static bool lower_operand(parser *p, thread_build *tb, const cexpr *e, litmus_operand *o)
{
    litmus_expr *x;
    if (e->kind == CX_ORDER) {
        litmus_error_at(&p->b, &e->at, "a memory order is not a value here");
        return false;
    }
    return lower(p, tb, e, &x) && as_operand(p, tb, &e->at, x, o);
}

/* The mode of an order argument; `allowed` is a bit set of modes. */
static bool order_arg(parser *p, const cexpr *call, const cexpr *e, unsigned allowed, int *mode)
{
    if (e->kind != CX_ORDER) {
        litmus_error_at(&p->b, &e->at, "expected a memory_order_* constant");
        return false;
    }
    if (!(allowed >> e->num & 1)) {
        litmus_error_at(&p->b, &e->at, "'%.*s' is not a valid order for '%.*s'", (int)e->at.len,
                        e->at.start,
                        (int)call->at.len, call->at.start);
        return false;
    }
    *mode = (int)e->num;
    return true;
}

static const litmus_annots *mode_annots(parser *p, int mode)
{
    return &p->mode[mode];
}

/* One annotation, interned, in the test's arena. */
static litmus_annots annot1(parser *p, const char *name)
{
    litmus_annots a;
    a.syms = BASE_ARENA_NEW(&p->b.t->arena, base_sym);
    a.syms[0] = base_intern_cstr(p->b.syms, name);
    a.count = 1;
    return a;
}

static litmus_op aop_of(tok_kind k)
{
    switch (k) {
    case T_PLUS: return LITMUS_OP_ADD;
    case T_MINUS: return LITMUS_OP_SUB;
    case T_AMP: return LITMUS_OP_AND;
    case T_PIPE: return LITMUS_OP_OR;
    default: return LITMUS_OP_XOR;
    }
}

/* herd's C primitives, as herd7's C semantics makes events of them (tags
 * become annotations, which a bell file's enum turns into sets):
 * __load{t}(*p), __store{t}(*p,v): a read, a write tagged t; __fence{t}: a
 * fence; __xchg{t}(p,v), __cmpxchg{t}(p,old,new) (its failure a lone read
 * tagged once, still in the set RMW), __atomic_op_return{t}(p,op,v) (the new value),
 * __atomic_fetch_op{t}(p,op,v) (the old one): the read tagged acquire for
 * t = acquire, else once, the write tagged release for t = release, else
 * once, and for t = mb a fence tagged mb on each side (a cmpxchg's only
 * when it succeeds); __atomic_op(p,op,v): the read tagged noreturn, the
 * write once; __lock(p): a located fence tagged LKR (a lock read, not an
 * access) then a write of 1 tagged LKW; __unlock(p): a located fence of
 * value 0 tagged UL; __srcu{t}(p[,v]): a located fence tagged t, with value v, or for
 * srcu-lock a value of its own (the result). */
/* A located fence (a lock event, not an access) at addr, of value 0. */
static litmus_instr *emit_located(parser *p, thread_build *tb, const token *at,
                                  const litmus_address *addr, const char *annot)
{
    litmus_instr *in = emit(p, tb, LITMUS_I_FENCE, at);
    if (!in)
        return NULL;
    in->located = true;
    in->addr = *addr;
    in->value.kind = LITMUS_OPND_IMM;
    in->annots = annot1(p, annot);
    return in;
}

/* A lock's write: 1, tagged LKW. */
static bool emit_lock_write(parser *p, thread_build *tb, const token *at, const litmus_address *addr)
{
    litmus_instr *in = emit(p, tb, LITMUS_I_WRITE, at);
    if (!in)
        return false;
    in->addr = *addr;
    in->value.kind = LITMUS_OPND_IMM;
    in->value.imm = 1;
    in->annots = annot1(p, "LKW");
    return true;
}

static bool lower_prim(parser *p, thread_build *tb, const cexpr *e, uint32_t dest, uint32_t *value)
{
    static const uint32_t nargs[] = { [P_LOAD] = 1, [P_STORE] = 2, [P_FENCE] = 0, [P_XCHG] = 2,
                                      [P_CMPXCHG] = 3, [P_LOCK] = 1, [P_UNLOCK] = 1,
                                      [P_TRYLOCK] = 1, [P_ISLOCKED] = 1, [P_SRCU] = 1,
                                      [P_AOP] = 3, [P_AOP_RETURN] = 3, [P_AFETCH_OP] = 3 };
    const token *at = &e->at;
    *value = UINT32_MAX;
    bool srcu_value = e->prim == P_SRCU && e->nargs == 2;
    if (e->nargs != nargs[e->prim] + srcu_value) {
        litmus_error_at(&p->b, at, "'%.*s' takes %u argument%s, not %u", (int)at->len, at->start,
                        nargs[e->prim], nargs[e->prim] == 1 ? "" : "s", e->nargs);
        return false;
    }
    if (e->prim == P_FENCE) {
        litmus_instr *in = emit(p, tb, LITMUS_I_FENCE, at);
        if (!in)
            return false;
        in->annots = annot1(p, e->annot);
        return true;
    }
    litmus_address addr;
    if (e->prim == P_LOAD || e->prim == P_STORE) {
        if (e->args[0]->kind != CX_DEREF) {
            litmus_error_at(&p->b, &e->args[0]->at, "the location of '%.*s' must be '*pointer'",
                            (int)at->len, at->start);
            return false;
        }
        if (!lower_pointer(p, e->args[0]->a, false, &addr))
            return false;
    } else if (!lower_pointer(p, e->args[0], false, &addr)) {
        return false;
    }
    const char *a = e->annot ? e->annot : "once";
    litmus_annots ra = annot1(p, strcmp(a, "acquire") == 0 ? a : "once");
    litmus_annots wa = annot1(p, strcmp(a, "release") == 0 ? a : "once");
    litmus_annots fa = { 0 };
    if (strcmp(a, "mb") == 0)
        fa = annot1(p, "mb");
    switch (e->prim) {
    case P_LOAD: {
        uint32_t r = dest != UINT32_MAX ? dest : new_temp(p, tb);
        litmus_instr *in = emit(p, tb, LITMUS_I_READ, at);
        if (!in)
            return false;
        in->reg = r;
        in->addr = addr;
        in->annots = annot1(p, a);
        *value = r;
        return true;
    }
    case P_STORE: {
        litmus_operand v;
        if (!lower_operand(p, tb, e->args[1], &v))
            return false;
        litmus_instr *in = emit(p, tb, LITMUS_I_WRITE, at);
        if (!in)
            return false;
        in->addr = addr;
        in->value = v;
        in->annots = annot1(p, a);
        return true;
    }
    case P_XCHG:
    case P_AOP:
    case P_AOP_RETURN:
    case P_AFETCH_OP: {
        litmus_operand v;
        if (!lower_operand(p, tb, e->args[e->prim == P_XCHG ? 1 : 2], &v))
            return false;
        uint32_t r = new_temp(p, tb);
        litmus_instr *in = emit(p, tb, LITMUS_I_RMW, at);
        if (!in)
            return false;
        in->reg = r;
        in->addr = addr;
        litmus_op op = aop_of(e->aop);
        in->expr = e->prim == P_XCHG ? x_opnd(p, v) : x_bin(p, op, x_reg(p, r), x_opnd(p, v));
        in->annots = e->prim == P_AOP ? annot1(p, "noreturn") : ra;
        in->wannots = wa;
        if (e->prim != P_AOP)
            in->fence_annots = fa;
        if (e->prim == P_AOP_RETURN) {
            uint32_t n = new_temp(p, tb);
            if (!emit_mov(p, tb, at, n, x_bin(p, op, x_reg(p, r), x_opnd(p, v))))
                return false;
            r = n;
        }
        *value = e->prim == P_AOP ? UINT32_MAX : r;
        return true;
    }
    case P_CMPXCHG: {
        litmus_operand old, des;
        if (!lower_operand(p, tb, e->args[1], &old) || !lower_operand(p, tb, e->args[2], &des))
            return false;
        uint32_t r = new_temp(p, tb), ok = new_temp(p, tb);
        litmus_instr *in = emit(p, tb, LITMUS_I_CAS, at);
        if (!in)
            return false;
        in->reg = r;
        in->ok_reg = ok;
        in->addr = addr;
        in->cmp = old;
        in->value = des;
        in->annots = ra;
        in->wannots = wa;
        in->fence_annots = fa;
        in->fail_annots = annot1(p, "once");
        in->fail_rmw = true;
        *value = r;
        return true;
    }
    case P_LOCK:
        return emit_located(p, tb, at, &addr, "LKR") && emit_lock_write(p, tb, at, &addr);
    case P_TRYLOCK:
    case P_ISLOCKED: {
        /* herd's free choice: a trylock takes the lock (LKR, then LKW:
         * 1) or fails (LF: 0); an islocked sees it held (RL: 1) or not
         * (RU: 0). A choice fence (ok_reg := 1 or 0), the LKW only when
         * it holds 1. */
        bool try = e->prim == P_TRYLOCK;
        uint32_t r = dest != UINT32_MAX ? dest : new_temp(p, tb);
        litmus_instr *in = emit_located(p, tb, at, &addr, try ? "LKR" : "RL");
        if (!in)
            return false;
        in->choice = true;
        in->ok_reg = r;
        in->fail_annots = annot1(p, try ? "LF" : "RU");
        *value = r;
        if (!try)
            return true;
        uint32_t failed = new_temp(p, tb);
        size_t skip;
        if (!emit_mov(p, tb, at, failed, x_bin(p, LITMUS_OP_EQ, x_reg(p, r), x_imm(p, 0))) ||
            !emit_branch(p, tb, at, true, failed, &skip) || !emit_lock_write(p, tb, at, &addr))
            return false;
        patch_here(tb, skip);
        return true;
    }
    case P_UNLOCK: {
        /* a located fence: herd's co is generated without UL (lock.cat
         * merges it in next to its lock), so ravel's co must not order it */
        return emit_located(p, tb, at, &addr, "UL") != NULL;
    }
    case P_SRCU: {
        litmus_operand v = { .kind = LITMUS_OPND_IMM };
        if (srcu_value && !lower_operand(p, tb, e->args[1], &v))
            return false;
        bool lock = strcmp(a, "srcu-lock") == 0;
        /* herd7 numbers it (thread + 1) * 307 + its statement's
         * program-order index * 599; where that index is not known here
         * (herd_count), a number of ravel's own, apart from herd's */
        if (lock)
            v.imm = tb->herd_poi_lost
                        ? (int64_t)1 << 40 | (int64_t)(p->nthreads * 307u + (uint32_t)tb->instrs.len * 599u)
                        : (int64_t)p->nthreads * 307 + (int64_t)tb->herd_poi * 599;
        litmus_instr *in = emit(p, tb, LITMUS_I_FENCE, at);
        if (!in)
            return false;
        in->located = true;
        in->addr = addr;
        in->value = v;
        in->annots = annot1(p, a);
        if (lock) {
            uint32_t r = dest != UINT32_MAX ? dest : new_temp(p, tb);
            litmus_instr mark = *in;
            mark.reg = r;
            if (tb->herd_poi_lost)
                base_vec_push(&tb->srcu_locks, mark);
            if (!emit_mov(p, tb, at, r, x_opnd(p, v)))
                return false;
            *value = r;
        }
        return true;
    }
    default:
        break;
    }
    return false;
}

/* Lowers a call; *value (may be NULL for a call whose value is unused)
 * receives its value's register, or UINT32_MAX when it has none. `dest`
 * is a register to receive the value, or UINT32_MAX for a fresh one. */
static bool lower_call(parser *p, thread_build *tb, const cexpr *e, uint32_t dest, uint32_t *value)
{
    if (e->prim != P_NONE)
        return lower_prim(p, tb, e, dest, value);
    const call_info *ci = find_call(&e->at);
    if (!ci && !known_call(p, &e->at))
        return false;
    uint32_t want = ci->nargs + ci->norders;
    if (e->nargs != want) {
        litmus_error_at(&p->b, &e->at, "'%s' takes %u argument%s, not %u", ci->name, want,
                        want == 1 ? "" : "s",
                        e->nargs);
        return false;
    }
    const unsigned all = (1u << M_RLX) | (1u << M_ACQ) | (1u << M_REL) | (1u << M_ACQ_REL) | (1u << M_SC);
    int mode = M_SC, fail_mode = M_SC;
    if (ci->kind == C_FENCE) {
        if (!order_arg(p, e, e->args[0], all, &mode))
            return false;
        litmus_instr *in = emit(p, tb, LITMUS_I_FENCE, &e->at);
        if (!in)
            return false;
        in->annots = mode == M_SC ? p->sc_fence : *mode_annots(p, mode);
        *value = UINT32_MAX;
        return true;
    }
    if (ci->norders) {
        unsigned allowed = ci->kind == C_LOAD ? (1u << M_RLX) | (1u << M_ACQ) | (1u << M_SC)
                         : ci->kind == C_STORE ? (1u << M_RLX) | (1u << M_REL) | (1u << M_SC)
                         : all;
        if (!order_arg(p, e, e->args[ci->nargs], allowed, &mode))
            return false;
        if (ci->norders == 2 && !order_arg(p, e, e->args[ci->nargs + 1],
                                           (1u << M_RLX) | (1u << M_ACQ) | (1u << M_SC), &fail_mode))
            return false;
    }
    for (uint32_t i = 0; i < ci->nargs; i++) {
        if (e->args[i]->kind == CX_ORDER) {
            litmus_error_at(&p->b, &e->args[i]->at, "a memory order is not a value here");
            return false;
        }
    }
    litmus_address addr;
    if (!lower_pointer(p, e->args[0], false, &addr))
        return false;
    litmus_operand v1 = { 0 };
    if (ci->nargs >= 2 && ci->kind != C_CAS && !lower_operand(p, tb, e->args[1], &v1))
        return false;
    /* Only a load reads straight into dest: an rmw's expression and a
     * CAS's desired value may mention dest, and must see its old value. */
    uint32_t r = dest != UINT32_MAX && ci->kind == C_LOAD ? dest : UINT32_MAX;
    if (r == UINT32_MAX && ci->kind != C_STORE)
        r = new_temp(p, tb);
    switch (ci->kind) {
    case C_LOAD: {
        litmus_instr *in = emit(p, tb, LITMUS_I_READ, &e->at);
        if (!in)
            return false;
        in->reg = r;
        in->addr = addr;
        in->annots = *mode_annots(p, mode);
        *value = r;
        return true;
    }
    case C_STORE: {
        litmus_instr *in = emit(p, tb, LITMUS_I_WRITE, &e->at);
        if (!in)
            return false;
        in->addr = addr;
        in->value = v1;
        in->annots = *mode_annots(p, mode);
        *value = UINT32_MAX;
        if (mode == M_SC) { /* x86 compiles it MOV; MFENCE (tso reads mb; c11 ignores it) */
            in = emit(p, tb, LITMUS_I_FENCE, &e->at);
            if (!in)
                return false;
            in->annots = p->mb;
        }
        return true;
    }
    case C_EXCHANGE:
    case C_FETCH: {
        litmus_instr *in = emit(p, tb, LITMUS_I_RMW, &e->at);
        if (!in)
            return false;
        in->reg = r;
        in->addr = addr;
        in->expr = ci->kind == C_EXCHANGE ? x_opnd(p, v1) : x_bin(p, ci->op, x_reg(p, r), x_opnd(p, v1));
        in->annots = *mode_annots(p, mode);
        *value = r;
        return true;
    }
    case C_CAS: {
        /* expected: a parameter (a location, read and on failure written
         * non-atomically) */
        const cexpr *ex = e->args[1];
        if (ex->kind != CX_PARAM) {
            litmus_error_at(&p->b, &ex->at,
                            "unsupported: the expected value of a compare-exchange must be a "
                            "pointer parameter");
            return false;
        }
        litmus_operand des;
        if (!lower_operand(p, tb, e->args[2], &des))
            return false;
        uint32_t old = new_temp(p, tb), exp = new_temp(p, tb);
        litmus_instr *in = emit(p, tb, LITMUS_I_READ, &ex->at);
        if (!in)
            return false;
        in->reg = exp;
        in->addr.base.kind = LITMUS_OPND_LOC;
        in->addr.base.loc = ex->loc;
        in->annots = *mode_annots(p, M_NA);
        in = emit(p, tb, LITMUS_I_CAS, &e->at);
        if (!in)
            return false;
        in->reg = old;
        in->ok_reg = r;
        in->addr = addr;
        in->cmp.kind = LITMUS_OPND_REG;
        in->cmp.reg = exp;
        in->value = des;
        in->weak = ci->weak;
        in->annots = *mode_annots(p, mode);
        in->fail_annots = *mode_annots(p, fail_mode);
        /* r is 1 on success; on failure (r == 0) *expected := old */
        size_t skip;
        if (!emit_branch(p, tb, &e->at, true, r, &skip))
            return false;
        in = emit(p, tb, LITMUS_I_WRITE, &ex->at);
        if (!in)
            return false;
        in->addr.base.kind = LITMUS_OPND_LOC;
        in->addr.base.loc = ex->loc;
        in->value.kind = LITMUS_OPND_REG;
        in->value.reg = old;
        in->annots = *mode_annots(p, M_NA);
        patch_here(tb, skip);
        *value = r;
        return true;
    }
    case C_FENCE:
        break;
    }
    return false;
}

static bool lower(parser *p, thread_build *tb, const cexpr *e, litmus_expr **out)
{
    switch (e->kind) {
    case CX_NUM:
        *out = x_imm(p, e->num);
        return true;
    case CX_LOCAL:
        *out = x_reg(p, e->reg);
        return true;
    case CX_PARAM: {
        litmus_operand o = { .kind = LITMUS_OPND_LOC, .loc = e->loc };
        *out = x_opnd(p, o);
        return true;
    }
    case CX_ORDER:
        litmus_error_at(&p->b, &e->at, "a memory order is not a value here");
        return false;
    case CX_DEREF: {
        litmus_address a;
        if (!lower_pointer(p, e->a, true, &a))
            return false;
        uint32_t r = new_temp(p, tb);
        litmus_instr *in = emit(p, tb, LITMUS_I_READ, &e->at);
        if (!in)
            return false;
        in->reg = r;
        in->addr = a;
        in->annots = *mode_annots(p, M_NA);
        *out = x_reg(p, r);
        return true;
    }
    case CX_CALL: {
        uint32_t r;
        if (!lower_call(p, tb, e, UINT32_MAX, &r))
            return false;
        if (r == UINT32_MAX) {
            litmus_error_at(&p->b, &e->at, "'%.*s' has no value", (int)e->at.len, e->at.start);
            return false;
        }
        *out = x_reg(p, r);
        return true;
    }
    case CX_UNARY: {
        litmus_expr *a;
        if (!lower(p, tb, e->a, &a))
            return false;
        if (e->op == T_MINUS)
            *out = x_bin(p, LITMUS_OP_SUB, x_imm(p, 0), a);
        else if (e->op == T_BANG)
            *out = x_bin(p, LITMUS_OP_EQ, a, x_imm(p, 0));
        else
            *out = x_bin(p, LITMUS_OP_XOR, a, x_imm(p, -1));
        return true;
    }
    case CX_BINARY:
        break;
    }
    litmus_expr *a, *b;
    if (e->op == T_ANDAND || e->op == T_OROR) {
        bool and = e->op == T_ANDAND;
        if (!lower(p, tb, e->a, &a))
            return false;
        if (!e->b->mem) {
            if (!lower(p, tb, e->b, &b))
                return false;
            *out = x_bin(p, and ? LITMUS_OP_AND : LITMUS_OP_OR, x_bin(p, LITMUS_OP_NE, a, x_imm(p, 0)),
                         x_bin(p, LITMUS_OP_NE, b, x_imm(p, 0)));
            return true;
        }
        /* The right operand accesses memory: only evaluate it when needed. */
        uint32_t t = new_temp(p, tb);
        size_t skip;
        if (!emit_mov(p, tb, &e->at, t, x_bin(p, LITMUS_OP_NE, a, x_imm(p, 0))))
            return false;
        if (and) {
            uint32_t n = new_temp(p, tb);
            if (!emit_mov(p, tb, &e->at, n, x_bin(p, LITMUS_OP_EQ, x_reg(p, t), x_imm(p, 0))) ||
                !emit_branch(p, tb, &e->at, true, n, &skip))
                return false;
        } else if (!emit_branch(p, tb, &e->at, true, t, &skip)) {
            return false;
        }
        if (!lower(p, tb, e->b, &b) ||
            !emit_mov(p, tb, &e->at, t, x_bin(p, LITMUS_OP_NE, b, x_imm(p, 0))))
            return false;
        patch_here(tb, skip);
        *out = x_reg(p, t);
        return true;
    }
    if (e->a->mem && e->b->mem)
        base_diag_warning(p->b.diag, litmus_here(&p->b, &e->at),
                          "the memory accesses on both sides of '%.*s' are unsequenced in C; "
                          "ravel performs them left to right", (int)e->at.len, e->at.start);
    if (!lower(p, tb, e->a, &a))
        return false;
    /* a stays valid while b is lowered: a is pure, and b's instructions
     * only assign fresh temporaries, never a register a mentions. */
    if (!lower(p, tb, e->b, &b))
        return false;
    switch (e->op) {
    case T_PLUS: *out = x_bin(p, LITMUS_OP_ADD, a, b); break;
    case T_MINUS: *out = x_bin(p, LITMUS_OP_SUB, a, b); break;
    case T_STAR: *out = x_bin(p, LITMUS_OP_MUL, a, b); break;
    case T_CARET: *out = x_bin(p, LITMUS_OP_XOR, a, b); break;
    case T_AMP: *out = x_bin(p, LITMUS_OP_AND, a, b); break;
    case T_PIPE: *out = x_bin(p, LITMUS_OP_OR, a, b); break;
    case T_EQEQ: *out = x_bin(p, LITMUS_OP_EQ, a, b); break;
    case T_NE: *out = x_bin(p, LITMUS_OP_NE, a, b); break;
    case T_LT: *out = x_bin(p, LITMUS_OP_LT, a, b); break;
    case T_LE: *out = x_bin(p, LITMUS_OP_LE, a, b); break;
    case T_GT: *out = x_bin(p, LITMUS_OP_LT, b, a); break;
    case T_GE: *out = x_bin(p, LITMUS_OP_LE, b, a); break;
    default:
        litmus_error_at(&p->b, &e->at, "unsupported: operator '%.*s'", (int)e->at.len, e->at.start);
        return false;
    }
    return true;
}

/* reg := e, reading or calling straight into reg when e is one access. */
static bool lower_into(parser *p, thread_build *tb, const cexpr *e, uint32_t reg, const token *at)
{
    if (e->kind == CX_CALL) {
        uint32_t r;
        if (!lower_call(p, tb, e, reg, &r))
            return false;
        if (r == UINT32_MAX) {
            litmus_error_at(&p->b, &e->at, "'%.*s' has no value", (int)e->at.len, e->at.start);
            return false;
        }
        return r == reg || emit_mov(p, tb, at, reg, x_reg(p, r));
    }
    if (e->kind == CX_DEREF) {
        litmus_address a;
        if (!lower_pointer(p, e->a, true, &a))
            return false;
        litmus_instr *in = emit(p, tb, LITMUS_I_READ, &e->at);
        if (!in)
            return false;
        in->reg = reg;
        in->addr = a;
        in->annots = *mode_annots(p, M_NA);
        return true;
    }
    litmus_expr *x;
    return lower(p, tb, e, &x) && emit_mov(p, tb, at, reg, x);
}

/* --- statements --- */

static bool parse_stmt(parser *p, thread_build *tb, int depth);

static bool parse_block(parser *p, thread_build *tb, int depth)
{
    litmus_parser *b = &p->b;
    litmus_next(b); /* '{' */
    size_t mark = tb->scope.len;
    tb->depth++;
    while (b->tok.kind != T_RBRACE && !b->failed) {
        if (b->tok.kind == T_EOF) {
            litmus_error_at(b, &b->tok, "unexpected end of file in a block (missing '}')");
            return false;
        }
        if (!parse_stmt(p, tb, depth + 1))
            return false;
    }
    tb->depth--;
    tb->scope.len = mark;
    return litmus_expect(b, T_RBRACE, "'}'");
}

/* herd7 numbers its C statements as it builds their events (its
 * program-order index): every instruction of a thread, a `{ ... }` block (a
 * statement macro's body is one) and each statement within it counts one,
 * from 1 at the thread's first statement; a declaration without a value
 * counts in a nested block only (herd drops those of the body). After an
 * `if`, or a statement whose form herd reads otherwise (a lock primitive,
 * a call whose value is dropped), the index is lost for the rest of the
 * thread: it then depends on the path or on herd's reading. */
static void herd_count(thread_build *tb, bool lost)
{
    tb->herd_poi++;
    tb->herd_poi_lost |= lost;
}

static bool parse_decl(parser *p, thread_build *tb)
{
    litmus_parser *b = &p->b;
    if (!skip_type(p))
        return false;
    for (;;) {
        while (b->tok.kind == T_STAR || litmus_tok_is(&b->tok, "const") ||
               litmus_tok_is(&b->tok, "volatile"))
            litmus_next(b);
        token name = b->tok;
        char buf[64];
        if (name.kind != T_IDENT || is_int_type_word(&name) || order_of(&name) >= 0) {
            litmus_error_at(b, &name, "expected a variable name, found %s",
                            litmus_tok_desc(&name, buf, sizeof buf));
            return false;
        }
        base_sym s = litmus_tok_sym(b, &name);
        if (find_param(tb, s)) {
            litmus_error_at(b, &name,
                            "unsupported: local '%.*s' hides the parameter of the same name",
                            (int)name.len, name.start);
            return false;
        }
        if (has_init_value(p, tb, s)) {
            litmus_error_at(b, &name,
                            "unsupported: '%.*s' is declared in the thread and given a value in "
                            "the init block", (int)name.len, name.start);
            return false;
        }
        const local *l = find_local(tb, s);
        if (l) {
            litmus_error_at(b, &name,
                            "unsupported: '%.*s' is declared again while another '%.*s' is in scope",
                            (int)name.len, name.start, (int)name.len, name.start);
            return false;
        }
        litmus_next(b);
        if (b->tok.kind == T_LBRACK) {
            litmus_error_at(b, &b->tok, "unsupported: arrays");
            return false;
        }
        uint32_t reg = reg_of(tb, s);
        bool seen = false;
        for (size_t i = 0; i < tb->declared.len; i++)
            seen |= tb->declared.data[i] == s;
        if (!seen)
            base_vec_push(&tb->declared, s);
        /* its scope starts before its initializer (C's), which may name
         * it (a register not yet written holds 0) */
        local nl = { s, tb->depth };
        base_vec_push(&tb->scope, nl);
        if (b->tok.kind == T_ASSIGN || tb->depth > 1)
            herd_count(tb, false);
        if (b->tok.kind == T_ASSIGN) {
            litmus_next(b);
            cexpr *e = parse_expr(p, tb, 0);
            if (!e || !lower_into(p, tb, e, reg, &name))
                return false;
        } else {
            /* An uninitialised local holds 0, as herd7's registers do. */
            if (!emit_mov(p, tb, &name, reg, x_imm(p, 0)))
                return false;
        }
        if (b->tok.kind == T_COMMA) {
            litmus_next(b);
            continue;
        }
        return litmus_expect(b, T_SEMI, "';' after the declaration");
    }
}

static bool parse_stmt(parser *p, thread_build *tb, int depth)
{
    litmus_parser *b = &p->b;
    token at = b->tok;
    char buf[64];
    if (depth > MAX_DEPTH) {
        litmus_error_at(b, &at, "statements nested too deeply");
        return false;
    }
    if (at.kind == T_SEMI) {
        litmus_next(b);
        return true;
    }
    if (at.kind == T_LBRACE) {
        herd_count(tb, false);
        return parse_block(p, tb, depth);
    }
    if (litmus_tok_is(&at, "if")) {
        herd_count(tb, true);
        litmus_next(b);
        if (!litmus_expect(b, T_LPAR, "'(' after if"))
            return false;
        cexpr *c = parse_expr(p, tb, 0);
        if (!c || !litmus_expect(b, T_RPAR, "')' after the condition"))
            return false;
        litmus_expr *x;
        if (!lower(p, tb, c, &x))
            return false;
        uint32_t n = new_temp(p, tb);
        size_t to_else, to_end = 0;
        if (!emit_mov(p, tb, &at, n, x_bin(p, LITMUS_OP_EQ, x, x_imm(p, 0))) ||
            !emit_branch(p, tb, &at, true, n, &to_else))
            return false;
        /* A declaration as the whole branch is scoped to it. */
        size_t mark = tb->scope.len;
        tb->depth++;
        bool ok = parse_stmt(p, tb, depth + 1);
        tb->depth--;
        tb->scope.len = mark;
        if (!ok)
            return false;
        if (litmus_tok_is(&b->tok, "else")) {
            token el = b->tok;
            litmus_next(b);
            if (!emit_branch(p, tb, &el, false, 0, &to_end))
                return false;
            patch_here(tb, to_else);
            tb->depth++;
            ok = parse_stmt(p, tb, depth + 1);
            tb->depth--;
            tb->scope.len = mark;
            if (!ok)
                return false;
            patch_here(tb, to_end);
        } else {
            patch_here(tb, to_else);
        }
        /* as in herd7's C, the control dependency ends with the statement */
        tb->instrs.data[to_else].ctrl_until = (uint32_t)tb->instrs.len;
        return true;
    }
    static const char *const loops[] = { "while", "for", "do", "goto" };
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        if (litmus_tok_is(&at, loops[i])) {
            litmus_error_at(b, &at, "unsupported: loops ('%s')", loops[i]);
            return false;
        }
    }
    if (litmus_tok_is(&at, "else")) {
        litmus_error_at(b, &at, "'else' without 'if'");
        return false;
    }
    static const char *const other[] = { "return", "switch", "break", "continue", "case",
                                         "default", "asm", "__asm__" };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        if (litmus_tok_is(&at, other[i])) {
            litmus_error_at(b, &at, "unsupported: '%s' statements", other[i]);
            return false;
        }
    }
    if (at.kind == T_IDENT && litmus_peek2(b)->kind == T_COLON) {
        litmus_error_at(b, &at, "unsupported: labels");
        return false;
    }
    if (is_int_type_word(&at) || is_narrow_type_word(&at))
        return parse_decl(p, tb);
    if (at.kind == T_IDENT && litmus_peek2(b)->kind == T_ASSIGN && prim_of(&at) == P_NONE) {
        /* herd7's C: assigning to an undeclared name makes it a register
         * of the thread (holding 0 until then) */
        base_sym s = litmus_tok_sym(b, &at);
        if (!find_local(tb, s) && !find_param(tb, s)) {
            (void)reg_of(tb, s);
            bool seen = false;
            for (size_t i = 0; i < tb->declared.len; i++)
                seen |= tb->declared.data[i] == s;
            if (!seen)
                base_vec_push(&tb->declared, s);
            local nl = { s, 0 };
            base_vec_push(&tb->implicit, nl);
        }
    }
    cexpr *e = parse_expr(p, tb, 0);
    if (!e)
        return false;
    if (b->tok.kind == T_OPASSIGN || b->tok.kind == T_INCR || b->tok.kind == T_DECR) {
        litmus_error_at(b, &b->tok, "unsupported: '%.*s'", (int)b->tok.len, b->tok.start);
        return false;
    }
    if (b->tok.kind == T_ASSIGN) {
        token eq = b->tok;
        litmus_next(b);
        cexpr *rhs = parse_expr(p, tb, 0);
        if (!rhs)
            return false;
        herd_count(tb, false);
        if (e->kind == CX_LOCAL) {
            if (!lower_into(p, tb, rhs, e->reg, &eq))
                return false;
        } else if (e->kind == CX_DEREF) {
            litmus_address a;
            litmus_operand v;
            if (!lower_pointer(p, e->a, true, &a) || !lower_operand(p, tb, rhs, &v))
                return false;
            litmus_instr *in = emit(p, tb, LITMUS_I_WRITE, &e->at);
            if (!in)
                return false;
            in->addr = a;
            in->value = v;
            in->annots = *mode_annots(p, M_NA);
        } else if (e->kind == CX_PARAM) {
            litmus_error_at(b, &e->at,
                            "unsupported: assigning to the pointer parameter '%.*s' (did you mean "
                            "'*%.*s'?)", (int)e->at.len, e->at.start, (int)e->at.len, e->at.start);
            return false;
        } else {
            litmus_error_at(b, &eq, "the left of '=' must be a local or '*pointer'");
            return false;
        }
        return litmus_expect(b, T_SEMI, "';' after the assignment");
    }
    herd_count(tb, e->kind != CX_CALL || !(e->prim == P_STORE || e->prim == P_FENCE ||
                                           e->prim == P_SRCU || e->prim == P_AOP));
    if (e->kind == CX_CALL) {
        uint32_t r;
        if (!lower_call(p, tb, e, UINT32_MAX, &r))
            return false;
    } else {
        litmus_expr *x;
        if (!lower(p, tb, e, &x))
            return false;
    }
    if (b->tok.kind != T_SEMI) {
        litmus_error_at(b, &b->tok, "expected ';' after the expression, found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    litmus_next(b);
    return true;
}

/* P<n> ( params ) { body } */
static bool parse_thread(parser *p, thread_build *tb)
{
    litmus_parser *b = &p->b;
    litmus_next(b); /* the name, checked by the caller */
    if (!litmus_expect(b, T_LPAR, "'(' after the thread's name"))
        return false;
    if (litmus_tok_is(&b->tok, "void") && litmus_peek2(b)->kind == T_RPAR)
        litmus_next(b);
    while (b->tok.kind != T_RPAR) {
        char buf[64];
        token first = b->tok;
        if (first.kind != T_IDENT) {
            litmus_error_at(b, &first, "expected a parameter, found %s",
                            litmus_tok_desc(&first, buf, sizeof buf));
            return false;
        }
        /* struct srcu_struct *s: the LKMM's SRCU domain, a location the
         * __srcu events are located at (herd gives its type no size) */
        bool srcu_struct = litmus_tok_is(&first, "struct") && litmus_peek2(b)->kind == T_IDENT &&
                           litmus_tok_is(litmus_peek2(b), "srcu_struct");
        if (srcu_struct) {
            litmus_next(b);
            litmus_next(b);
            if (b->tok.kind != T_STAR) {
                litmus_error_at(b, &b->tok, "expected '*' after 'struct srcu_struct', found %s",
                                litmus_tok_desc(&b->tok, buf, sizeof buf));
                return false;
            }
        } else if (is_narrow_type_word(&first)) {
            litmus_error_at(b, &first,
                            "unsupported: type %s (ravel's values are unbounded integers)",
                            litmus_tok_desc(&first, buf, sizeof buf));
            return false;
        }
        /* Type words (any: the type does not change an access's mode), then
         * at least one '*', then the name. */
        token name = first;
        uint32_t stars = 0;
        /* atomic: some type word (an identifier before the name) is atomic */
        bool atomic = false, last_atomic = false;
        while (b->tok.kind == T_IDENT || b->tok.kind == T_STAR) {
            if (b->tok.kind == T_IDENT) {
                atomic |= last_atomic;
                last_atomic = b->tok.len >= 6 && (memcmp(b->tok.start, "atomic", 6) == 0 ||
                                                  memcmp(b->tok.start, "_Atomi", 6) == 0);
            }
            if (b->tok.kind == T_STAR)
                stars++;
            else if (is_narrow_type_word(&b->tok)) {
                litmus_error_at(b, &b->tok,
                                "unsupported: type %s (ravel's values are unbounded integers)",
                                litmus_tok_desc(&b->tok, buf, sizeof buf));
                return false;
            } else
                name = b->tok;
            litmus_next(b);
        }
        if (b->tok.kind == T_LBRACK) {
            litmus_error_at(b, &b->tok, "unsupported: arrays");
            return false;
        }
        if (name.start == first.start || stars == 0) {
            litmus_error_at(b, &name,
                            "unsupported: parameter '%.*s' is not a pointer to a shared location",
                            (int)name.len, name.start);
            return false;
        }
        base_sym s = litmus_tok_sym(b, &name);
        if (find_param(tb, s)) {
            litmus_error_at(b, &name, "parameter '%.*s' appears twice", (int)name.len, name.start);
            return false;
        }
        param pa = { s, litmus_location_of(b, &name), atomic };
        base_vec_push(&tb->params, pa);
        if (b->tok.kind == T_COMMA)
            litmus_next(b);
        else if (b->tok.kind != T_RPAR) {
            litmus_error_at(b, &b->tok, "expected ',' or ')' in the parameters, found %s",
                            litmus_tok_desc(&b->tok, buf, sizeof buf));
            return false;
        }
    }
    litmus_next(b);
    if (b->tok.kind != T_LBRACE) {
        char buf[64];
        litmus_error_at(b, &b->tok, "expected '{' to open the thread's body, found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    return parse_block(p, tb, 0);
}

/* --- init block --- */

/* value := ['-'] NUM | ['&'] IDENT (a location's address) */
static bool parse_value(parser *p, litmus_value *v)
{
    litmus_parser *b = &p->b;
    bool neg = false;
    if (b->tok.kind == T_MINUS) {
        neg = true;
        litmus_next(b);
    }
    if (b->tok.kind == T_NUM) {
        *v = litmus_int(neg ? (int64_t)(0 - (uint64_t)b->tok.num) : b->tok.num);
        litmus_next(b);
        return true;
    }
    if (!neg && b->tok.kind == T_AMP)
        litmus_next(b);
    if (!neg && b->tok.kind == T_IDENT) {
        *v = litmus_addr(litmus_location_of(b, &b->tok));
        litmus_next(b);
        return true;
    }
    char buf[64];
    litmus_error_at(b, &b->tok, "expected a value (an integer or a location), found %s",
                    litmus_tok_desc(&b->tok, buf, sizeof buf));
    return false;
}

/* [TYPE] N:NAME [= VALUE] in the init block (after the type): herd7's
 * variable of thread N starting at VALUE. The thread's body may use it
 * without declaring it (a declaration there is an error: which of the two
 * herd7 keeps is not settled here); without a value the entry only names
 * the variable's type and is skipped. */
static bool init_thread_var(parser *p, bool typed)
{
    litmus_parser *b = &p->b;
    long th = litmus_thread_number(&b->tok);
    token at = *litmus_peek2(b); /* the ':' */
    if (th < 0 || th >= MAX_THREADS) {
        char buf[64];
        litmus_error_at(b, &b->tok, "expected a thread number before ':', found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    litmus_next(b);
    litmus_next(b);
    if (b->tok.kind != T_IDENT) {
        char buf[64];
        litmus_error_at(b, &b->tok, "expected a variable after ':', found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    at = b->tok;
    base_sym s = litmus_tok_sym(b, &b->tok);
    litmus_next(b);
    if (b->tok.kind != T_ASSIGN) {
        if (typed)
            return true;
        litmus_error_at(b, &b->tok, "expected '=' and a value after the thread variable");
        return false;
    }
    litmus_next(b);
    reg_init_decl d = { (uint32_t)th, s, litmus_int(0), at };
    if (!parse_value(p, &d.value))
        return false;
    for (size_t i = 0; i < p->reg_inits.len; i++)
        if (p->reg_inits.data[i].thread == d.thread && p->reg_inits.data[i].name == s) {
            litmus_error_at(b, &at, "the init block gives '%ld:%.*s' a value twice", th,
                            (int)at.len, at.start);
            return false;
        }
    base_vec_push(&p->reg_inits, d);
    return true;
}

/* The init block's variables of the thread tb (number th): registers of
 * the thread from its start, before its body is read. */
static void declare_thread_vars(parser *p, thread_build *tb, uint32_t th)
{
    for (size_t i = 0; i < p->reg_inits.len; i++) {
        const reg_init_decl *d = &p->reg_inits.data[i];
        if (d->thread != th)
            continue;
        (void)reg_of(tb, d->name);
        base_vec_push(&tb->declared, d->name);
        local nl = { d->name, 0 };
        base_vec_push(&tb->implicit, nl);
    }
}

/* One entry of the init block: [TYPE] LOC [= VALUE] or [LOC] [= VALUE]. */
static bool init_entry(litmus_parser *b)
{
    parser *p = (parser *)b;
    char buf[64];
    if (litmus_at_thread_prefix(b))
        return init_thread_var(p, false);
    bool bracket = false;
    if (b->tok.kind == T_LBRACK) {
        bracket = true;
        litmus_next(b);
    } else if (litmus_tok_is(&b->tok, "atomic_t") && litmus_peek2(b)->kind == T_IDENT) {
        litmus_next(b); /* the kernel's atomic_t: an int */
    } else if (is_int_type_word(&b->tok) || is_narrow_type_word(&b->tok)) {
        if (!skip_type(p))
            return false;
        while (b->tok.kind == T_STAR || litmus_tok_is(&b->tok, "const") ||
               litmus_tok_is(&b->tok, "volatile"))
            litmus_next(b);
        if (litmus_at_thread_prefix(b))
            return init_thread_var(p, true);
    }
    if (b->tok.kind != T_IDENT) {
        litmus_error_at(b, &b->tok, "expected a location in the init block, found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    uint32_t l = litmus_location_of(b, &b->tok);
    litmus_next(b);
    if (bracket && !litmus_expect(b, T_RBRACK, "']'"))
        return false;
    if (b->tok.kind == T_LBRACK) {
        litmus_error_at(b, &b->tok, "unsupported: arrays");
        return false;
    }
    litmus_value v = litmus_int(0);
    if (b->tok.kind == T_ASSIGN) {
        litmus_next(b);
        /* the kernel's ATOMIC_INIT(v) */
        bool wrapped = litmus_tok_is(&b->tok, "ATOMIC_INIT") && litmus_peek2(b)->kind == T_LPAR;
        if (wrapped) {
            litmus_next(b);
            litmus_next(b);
        }
        if (!parse_value(p, &v) || (wrapped && !litmus_expect(b, T_RPAR, "')' after ATOMIC_INIT's value")))
            return false;
    }
    b->locs.data[l].init = v;
    return true;
}

/* --- the condition --- */

/* The hooks of the shared condition parser (parse_common.h): p is the
 * first member of a parser. */

/* A state variable: N:NAME, PN:NAME, LOC or [LOC]. */
static bool state_var(litmus_parser *lp, litmus_observable *o)
{
    parser *p = (parser *)lp;
    char buf[64];
    if (litmus_at_thread_prefix(lp)) {
        long th = litmus_thread_prefix(lp, p->nthreads);
        if (th < 0)
            return false;
        thread_build *tb = &p->tbs[th];
        base_sym s = lp->tok.kind == T_IDENT ? litmus_tok_sym(lp, &lp->tok) : 0;
        bool found = false;
        for (size_t i = 0; lp->tok.kind == T_IDENT && i < tb->declared.len; i++)
            found |= tb->declared.data[i] == s;
        if (!found) {
            if (lp->tok.kind == T_IDENT)
                litmus_error_at(lp, &lp->tok, "thread P%ld has no variable '%.*s'", th,
                                (int)lp->tok.len, lp->tok.start);
            else
                litmus_error_at(lp, &lp->tok, "expected a variable after ':', found %s",
                                litmus_tok_desc(&lp->tok, buf, sizeof buf));
            return false;
        }
        o->is_reg = true;
        o->thread = (uint32_t)th;
        o->reg = reg_of(tb, s);
        litmus_next(lp);
        return true;
    }
    bool bracket = lp->tok.kind == T_LBRACK;
    if (bracket)
        litmus_next(lp);
    if (lp->tok.kind != T_IDENT) {
        litmus_error_at(lp, &lp->tok, "expected a location or THREAD:VARIABLE, found %s",
                        litmus_tok_desc(&lp->tok, buf, sizeof buf));
        return false;
    }
    o->is_reg = false;
    o->location = litmus_location_of(lp, &lp->tok);
    litmus_next(lp);
    return !bracket || litmus_expect(lp, T_RBRACK, "']'");
}

static bool value(litmus_parser *lp, litmus_value *v)
{
    return parse_value((parser *)lp, v);
}

static bool is_section_start(parser *p)
{
    const token *t = &p->b.tok;
    return litmus_tok_is(t, "exists") || litmus_tok_is(t, "forall") ||
           litmus_tok_is(t, "locations") || litmus_tok_is(t, "filter") || t->kind == T_TILDE ||
           t->kind == T_EOF ||
           ((litmus_tok_is(t, "scopes") || litmus_tok_is(t, "regions")) &&
            litmus_peek2(&p->b)->kind == T_COLON);
}

/* `scopes:` or `regions:`: skipped up to the next section. */
static void skip_scopes(litmus_parser *lp)
{
    litmus_next(lp);
    litmus_next(lp);
    while (!lp->failed && !is_section_start((parser *)lp))
        litmus_next(lp);
}

static token next_raw(parser *p)
{
    if (p->pending.len)
        return p->pending.data[--p->pending.len];
    return lex_raw(p);
}

/* The tokens of a macro's body (read from its text with this lexer), at
 * the position `at` of the call. */
static bool body_tokens(parser *p, const litmus_macro *m, const token *at, token_vec *out)
{
    litmus_parser *b = &p->b;
    const char *src = b->src;
    size_t len = b->len, pos = b->pos;
    uint32_t line = b->line, col = b->col;
    b->src = m->body;
    b->len = m->body_len;
    b->pos = 0;
    b->line = at->line;
    b->col = at->col;
    bool ok = true;
    for (;;) {
        token t = lex_raw(p);
        if (t.kind == T_EOF)
            break;
        if (t.kind == T_ERROR || b->failed) {
            ok = false;
            break;
        }
        t.line = at->line;
        t.col = at->col;
        base_vec_push(out, t);
    }
    b->src = src;
    b->len = len;
    b->pos = pos;
    b->line = line;
    b->col = col;
    return ok;
}

/* At a call of macro m (its name `at` read, the '(' too): reads the
 * arguments and queues the expansion. */
static bool expand(parser *p, const litmus_macro *m, const token *at)
{
    enum { MAX_EXPANSIONS = 20000, MAX_MACRO_ARGS = 16 };
    litmus_parser *b = &p->b;
    if (++p->expansions > MAX_EXPANSIONS) {
        litmus_error_at(b, at, "macro expansion does not end (more than %d expansions; a macro "
                               "that calls itself?)", MAX_EXPANSIONS);
        return false;
    }
    BASE_VEC(token) args = { 0 };
    size_t starts[MAX_MACRO_ARGS + 1];
    uint32_t nargs = 0;
    int depth = 0;
    bool ok = true, any = false;
    starts[0] = 0;
    for (;;) {
        token t = next_raw(p);
        if (t.kind == T_EOF || t.kind == T_ERROR || b->failed) {
            if (!b->failed)
                litmus_error_at(b, at, "unterminated call of macro '%s'", m->name);
            ok = false;
            break;
        }
        if (depth == 0 && (t.kind == T_RPAR || t.kind == T_COMMA)) {
            if (nargs == MAX_MACRO_ARGS) {
                litmus_error_at(b, at, "too many arguments to macro '%s'", m->name);
                ok = false;
                break;
            }
            starts[++nargs] = args.len;
            if (t.kind == T_RPAR)
                break;
            continue;
        }
        if (t.kind == T_LPAR || t.kind == T_LBRACE || t.kind == T_LBRACK)
            depth++;
        else if (t.kind == T_RPAR || t.kind == T_RBRACE || t.kind == T_RBRACK)
            depth--;
        any = true;
        base_vec_push(&args, t);
    }
    if (ok && !any && nargs == 1 && m->nparams == 0)
        nargs = 0; /* NAME() */
    if (ok && nargs != m->nparams) {
        litmus_error_at(b, at, "macro '%s' takes %u argument%s, not %u", m->name, m->nparams,
                        m->nparams == 1 ? "" : "s", nargs);
        ok = false;
    }
    token_vec body = { 0 }, exp = { 0 };
    if (ok)
        ok = body_tokens(p, m, at, &body);
    if (ok) {
        token lp = { .kind = T_LPAR, .start = "(", .len = 1, .line = at->line, .col = at->col };
        token rp = { .kind = T_RPAR, .start = ")", .len = 1, .line = at->line, .col = at->col };
        if (!m->stmt)
            base_vec_push(&exp, lp);
        for (size_t i = 0; i < body.len; i++) {
            const token *t = &body.data[i];
            uint32_t k = m->nparams;
            if (t->kind == T_IDENT)
                for (k = 0; k < m->nparams; k++)
                    if (strlen(m->params[k]) == t->len && memcmp(m->params[k], t->start, t->len) == 0)
                        break;
            if (k == m->nparams) {
                base_vec_push(&exp, *t);
                continue;
            }
            for (size_t j = starts[k]; j < starts[k + 1]; j++)
                base_vec_push(&exp, args.data[j]);
        }
        if (!m->stmt)
            base_vec_push(&exp, rp);
        for (size_t i = exp.len; i-- > 0;)
            base_vec_push(&p->pending, exp.data[i]);
    }
    base_vec_free(&args);
    base_vec_free(&body);
    base_vec_free(&exp);
    return ok;
}

static litmus_token lex(litmus_parser *lp)
{
    parser *p = (parser *)lp;
    for (;;) {
        token t = next_raw(p);
        /* macros are expanded in thread bodies */
        if (!p->macros || p->herd_comments || t.kind != T_IDENT)
            return t;
        const litmus_macro *m = litmus_macros_find(p->macros, t.start, t.len);
        if (!m)
            return t;
        token nx = next_raw(p);
        if (nx.kind != T_LPAR) {
            base_vec_push(&p->pending, nx);
            return t;
        }
        if (!expand(p, m, &t)) {
            t.kind = T_ERROR;
            return t;
        }
    }
}

/* --- the whole test --- */

static bool expr_mentions(const litmus_expr *e, const bool *regs)
{
    if (!e)
        return false;
    if (e->op == LITMUS_OP_NONE)
        return e->opnd.kind == LITMUS_OPND_REG && regs[e->opnd.reg];
    return expr_mentions(e->lhs, regs) || expr_mentions(e->rhs, regs) || expr_mentions(e->cond, regs);
}

static bool opnd_in(const litmus_operand *o, const bool *regs)
{
    return o->kind == LITMUS_OPND_REG && regs[o->reg];
}

/* herd7 numbers each srcu_read_lock() by its statement's program-order
 * index; where ravel lost that index (herd_count), the result may only go
 * (through copies) to srcu_read_unlock(), never into memory, an address, a
 * branch or the final state. */
static bool check_srcu_values(parser *p, thread_build *tb, uint32_t th)
{
    if (!tb->srcu_locks.len)
        return true;
    bool *taint = base_xcalloc(tb->regs.len + 1, sizeof *taint);
    for (size_t i = 0; i < tb->srcu_locks.len; i++)
        taint[tb->srcu_locks.data[i].reg] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < tb->instrs.len; i++) {
            const litmus_instr *in = &tb->instrs.data[i];
            if (in->kind == LITMUS_I_MOV && !taint[in->reg] && expr_mentions(in->expr, taint))
                taint[in->reg] = changed = true;
        }
    }
    const litmus_instr *bad = NULL;
    for (size_t i = 0; i < tb->instrs.len && !bad; i++) {
        const litmus_instr *in = &tb->instrs.data[i];
        bool access = in->kind == LITMUS_I_READ || in->kind == LITMUS_I_WRITE ||
                      in->kind == LITMUS_I_RMW || in->kind == LITMUS_I_CAS;
        bool used = access && (opnd_in(&in->addr.base, taint) ||
                               (in->addr.has_offset && opnd_in(&in->addr.offset, taint)));
        if (in->kind == LITMUS_I_WRITE || in->kind == LITMUS_I_CAS)
            used |= opnd_in(&in->value, taint);
        if (in->kind == LITMUS_I_CAS)
            used |= opnd_in(&in->cmp, taint);
        if (in->kind == LITMUS_I_RMW)
            used |= expr_mentions(in->expr, taint);
        if (in->kind == LITMUS_I_BRANCH && in->has_reg)
            used |= taint[in->reg];
        if (used)
            bad = in;
    }
    for (size_t i = 0; i < p->b.obs.len && !bad; i++) {
        const litmus_observable *o = &p->b.obs.data[i];
        if (o->is_reg && o->thread == th && taint[o->reg])
            bad = &tb->srcu_locks.data[0];
    }
    free(taint);
    if (!bad)
        return true;
    litmus_token at = { .kind = T_ERROR, .line = bad->loc.line, .col = bad->loc.col };
    litmus_error_at(&p->b, &at, "unsupported: a srcu_read_lock() result used other than by "
                    "srcu_read_unlock() after an 'if' or a lock (herd7 numbers it by its "
                    "statement's index, which ravel does not follow there)");
    return false;
}

static bool parse_body(parser *p)
{
    litmus_parser *b = &p->b;
    litmus_test *t = b->t;
    p->herd_comments = true;
    litmus_next(b);
    if (!litmus_parse_init(&p->b))
        return false;
    for (;;) {
        long th = litmus_thread_number(&b->tok);
        if (b->tok.kind != T_IDENT || th < 0)
            break;
        if ((uint32_t)th != p->nthreads) {
            litmus_error_at(b, &b->tok, "threads must be named P0, P1, ... in order; expected P%u",
                            p->nthreads);
            return false;
        }
        if (p->nthreads >= MAX_THREADS) {
            litmus_error_at(b, &b->tok, "too many threads (more than %d)", MAX_THREADS);
            return false;
        }
        if (p->nthreads == p->tbs_cap) { /* grow, zeroing the new builds */
            uint32_t cap = p->tbs_cap ? 2 * p->tbs_cap : 4;
            p->tbs = base_xrealloc(p->tbs, base_mul_size(cap, sizeof *p->tbs));
            memset(p->tbs + p->tbs_cap, 0, (cap - p->tbs_cap) * sizeof *p->tbs);
            p->tbs_cap = cap;
        }
        p->nthreads++;
        /* Inside a body `(*` is a parenthesis and a dereference. */
        p->herd_comments = false;
        declare_thread_vars(p, &p->tbs[th], (uint32_t)th);
        bool ok = parse_thread(p, &p->tbs[th]);
        p->herd_comments = true;
        if (!ok)
            return false;
    }
    if (b->failed)
        return false;
    if (p->nthreads == 0) {
        char buf[64];
        litmus_error_at(b, &b->tok, "expected a thread like 'P0 (atomic_int* x) { ... }', found %s",
                        litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    if (!is_section_start(p)) {
        char buf[64];
        litmus_error_at(b, &b->tok,
                        "expected the next thread (P%u) or the final condition, found %s",
                        p->nthreads, litmus_tok_desc(&b->tok, buf, sizeof buf));
        return false;
    }
    if (!litmus_parse_sections(b))
        return false;
    for (uint32_t i = 0; i < p->nthreads; i++)
        if (!check_srcu_values(p, &p->tbs[i], i))
            return false;
    for (size_t i = 0; i < p->reg_inits.len; i++)
        if (p->reg_inits.data[i].thread >= p->nthreads) {
            const token *at = &p->reg_inits.data[i].at;
            litmus_error_at(b, at, "the init block names a variable of thread %u, which the test "
                            "does not have", p->reg_inits.data[i].thread);
            return false;
        }

    t->nthreads = p->nthreads;
    t->threads = BASE_ARENA_ARRAY(&t->arena, litmus_thread, t->nthreads);
    for (uint32_t i = 0; i < t->nthreads; i++) {
        thread_build *tb = &p->tbs[i];
        litmus_thread *th = &t->threads[i];
        th->proc = i;
        th->ninstrs = (uint32_t)tb->instrs.len;
        th->instrs = BASE_ARENA_ARRAY(&t->arena, litmus_instr, th->ninstrs ? th->ninstrs : 1);
        if (th->ninstrs)
            memcpy(th->instrs, tb->instrs.data, th->ninstrs * sizeof *th->instrs);
        th->nregs = (uint32_t)tb->regs.len;
        th->regs = BASE_ARENA_ARRAY(&t->arena, base_sym, th->nregs ? th->nregs : 1);
        if (th->nregs)
            memcpy(th->regs, tb->regs.data, th->nregs * sizeof *th->regs);
        th->inits = BASE_ARENA_ARRAY(&t->arena, litmus_reg_init, p->reg_inits.len + 1);
        th->ninits = 0;
        for (size_t k = 0; k < p->reg_inits.len; k++)
            if (p->reg_inits.data[k].thread == i) {
                litmus_reg_init ri = { reg_of(tb, p->reg_inits.data[k].name),
                                       p->reg_inits.data[k].value };
                th->inits[th->ninits++] = ri;
            }
    }
    litmus_finish_test(b);
    return true;
}

/* The first line (`C name`) and the free lines up to the init block. */
static bool parse_header(parser *p)
{
    litmus_parser *b = &p->b;
    p->herd_comments = true;
    if (!skip_blank(p))
        return false;
    token first = lex_raw(p);
    if (b->failed)
        return false;
    if (!litmus_tok_is(&first, "C")) {
        char buf[64];
        litmus_error_at(b, &first, "expected 'C' on the first line, found %s",
                        litmus_tok_desc(&first, buf, sizeof buf));
        return false;
    }
    if (!litmus_parse_name(b, &first, "C"))
        return false;
    for (;;) {
        if (!skip_blank(p))
            return false;
        if (b->pos >= b->len) {
            litmus_error_here(b, "missing init block ('{ ... }')");
            return false;
        }
        if (b->src[b->pos] == '{')
            return true;
        litmus_doc_line(b);
        if (!litmus_skip_line(b))
            return false;
    }
}

litmus_test *litmus_parse_c(const char *file, const char *text, size_t len,
                            base_intern_pool *syms, base_diag *diag)
{
    return litmus_parse_c_macros(file, text, len, syms, NULL, diag);
}

litmus_test *litmus_parse_c_macros(const char *file, const char *text, size_t len,
                                   base_intern_pool *syms, const litmus_macros *macros,
                                   base_diag *diag)
{
    litmus_test *t = litmus_new_test(file, syms);
    t->arch = "C";
    parser p = { .b = { .file = t->file, .src = text, .len = len, .line = 1, .col = 1,
                        .diag = diag, .syms = syms, .t = t, .lex = lex, .state_var = state_var,
                        .value = value, .skip_scopes = skip_scopes, .init_entry = init_entry,
                        .c_syntax = true },
                .macros = macros };
    base_arena_init(&p.scratch);
    for (int m = 0; m < 6; m++) {
        p.mode[m].syms = BASE_ARENA_NEW(&t->arena, base_sym);
        p.mode[m].syms[0] = base_intern_cstr(syms, mode_names[m]);
        p.mode[m].count = 1;
    }
    p.sc_fence.syms = BASE_ARENA_ARRAY(&t->arena, base_sym, 2);
    p.sc_fence.syms[0] = p.mode[M_SC].syms[0];
    p.sc_fence.syms[1] = base_intern_cstr(syms, "mb");
    p.sc_fence.count = 2;
    p.mb.syms = p.sc_fence.syms + 1;
    p.mb.count = 1;
    bool ok = parse_header(&p) && parse_body(&p) && !p.b.failed;
    for (uint32_t i = 0; i < p.tbs_cap; i++) {
        thread_build *tb = &p.tbs[i];
        base_vec_free(&tb->instrs);
        base_vec_free(&tb->regs);
        base_vec_free(&tb->declared);
        base_vec_free(&tb->scope);
        base_vec_free(&tb->implicit);
        base_vec_free(&tb->srcu_locks);
        base_vec_free(&tb->params);
    }
    free(p.tbs);
    base_vec_free(&p.pending);
    base_vec_free(&p.reg_inits);
    litmus_parser_free(&p.b);
    base_arena_free(&p.scratch);
    if (!ok) {
        litmus_test_free(t);
        return NULL;
    }
    return t;
}
