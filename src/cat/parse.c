#include "cat/parse.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <stdint.h>

typedef enum tok {
    T_EOF, T_NAME, T_TAG, T_STRING, T_ZERO,
    T_LPAR, T_RPAR, T_LBRAC, T_RBRAC, T_LACC, T_RACC,
    T_BAR, T_ALT, T_AMP, T_BSLASH, T_SEMI, T_STAR, T_PLUS, T_OPT, T_INV, T_TILDE,
    T_COMMA, T_EQ, T_ARROW, T_PLUSPLUS, T_UNDERSCORE,
    /* keywords */
    T_LET, T_REC, T_AND, T_IN, T_ACYCLIC, T_IRREFLEXIVE, T_EMPTY, T_AS, T_SHOW, T_UNSHOW,
    T_INCLUDE, T_FUN, T_PROCEDURE, T_CALL, T_FORALL, T_DO, T_FROM, T_WITH, T_TRY,
    T_INSTRUCTIONS, T_DEFAULT, T_IF, T_THEN, T_ELSE, T_REQUIRES, T_FLAG, T_ASSERT, T_ENUM,
    T_DEBUG, T_MATCH, T_END, T_BEGIN, T_WHEN, T_SUBSET,
} tok;

static const struct { const char *word; tok t; } keywords[] = {
    { "let", T_LET }, { "rec", T_REC }, { "and", T_AND }, { "in", T_IN },
    { "acyclic", T_ACYCLIC }, { "irreflexive", T_IRREFLEXIVE }, { "empty", T_EMPTY },
    { "as", T_AS }, { "show", T_SHOW }, { "unshow", T_UNSHOW }, { "include", T_INCLUDE },
    { "fun", T_FUN }, { "procedure", T_PROCEDURE }, { "call", T_CALL }, { "forall", T_FORALL },
    { "do", T_DO }, { "from", T_FROM }, { "with", T_WITH }, { "try", T_TRY },
    { "instructions", T_INSTRUCTIONS }, { "default", T_DEFAULT }, { "if", T_IF },
    { "then", T_THEN }, { "else", T_ELSE }, { "requires", T_REQUIRES }, { "flag", T_FLAG }, { "assert", T_ASSERT },
    { "enum", T_ENUM }, { "debug", T_DEBUG }, { "match", T_MATCH }, { "end", T_END },
    { "begin", T_BEGIN }, { "when", T_WHEN }, { "subset", T_SUBSET },
    { "undefined_unless", T_REQUIRES }, /* herd's spelling of requires */
};

typedef struct parser {
    base_arena *a;
    const char *path;
    const char *s;
    size_t len, pos;
    uint32_t line, col;
    /* current token */
    tok t;
    const char *text; /* NAME, TAG, STRING (arena copy) */
    base_srcloc loc;
    size_t tstart;    /* where the current token starts */
    char desc[48];    /* tok_desc's text */
    base_diag *diag;
    jmp_buf fail;
    uint32_t depth;
    const cat_variants *variants; /* herd7's -variant names set (NULL: none) */
} parser;

static _Noreturn void fail_at(parser *p, base_srcloc loc, const char *fmt, const char *arg)
{
    base_diag_error(p->diag, loc, fmt, arg);
    longjmp(p->fail, 1);
}

static int peekc(const parser *p, size_t k)
{
    return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1;
}

static void adv(parser *p)
{
    if (p->s[p->pos] == '\n') {
        p->line++;
        p->col = 1;
    } else {
        p->col++;
    }
    p->pos++;
}

static bool name_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(int c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

static void skip_space(parser *p)
{
    for (;;) {
        int c = peekc(p, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            adv(p);
        } else if (c == '#' || (c == '/' && peekc(p, 1) == '/')) {
            while (peekc(p, 0) >= 0 && peekc(p, 0) != '\n')
                adv(p);
        } else if (c == '(' && peekc(p, 1) == '*') {
            base_srcloc start = base_srcloc_make(p->path, p->line, p->col);
            uint32_t level = 0;
            do {
                if (peekc(p, 0) < 0)
                    fail_at(p, start, "%s", "unterminated comment");
                if (peekc(p, 0) == '(' && peekc(p, 1) == '*') {
                    level++;
                    adv(p);
                } else if (peekc(p, 0) == '*' && peekc(p, 1) == ')') {
                    level--;
                    adv(p);
                }
                adv(p);
            } while (level);
        } else {
            return;
        }
    }
}

/* A one- or two-character operator: `second` after the first makes t2. */
static tok pair(parser *p, int d, int second, tok t2, tok t1)
{
    if (d != second)
        return t1;
    adv(p);
    return t2;
}

static void next(parser *p)
{
    skip_space(p);
    p->tstart = p->pos;
    p->loc = base_srcloc_make(p->path, p->line, p->col);
    p->text = NULL;
    int c = peekc(p, 0);
    if (c < 0) {
        p->t = T_EOF;
        return;
    }
    if (name_start(c)) {
        size_t start = p->pos;
        while (name_char(peekc(p, 0)))
            adv(p);
        size_t n = p->pos - start;
        if (n == 1 && c == '_') {
            p->t = T_UNDERSCORE;
            return;
        }
        for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
            if (strlen(keywords[k].word) == n && memcmp(keywords[k].word, p->s + start, n) == 0) {
                p->t = keywords[k].t;
                return;
            }
        p->t = T_NAME;
        p->text = base_arena_strndup(p->a, p->s + start, n);
        return;
    }
    if (c == '\'') {
        adv(p);
        size_t start = p->pos;
        while (name_char(peekc(p, 0)))
            adv(p);
        if (p->pos == start)
            fail_at(p, p->loc, "%s", "expected a tag name after '");
        p->t = T_TAG;
        p->text = base_arena_strndup(p->a, p->s + start, p->pos - start);
        return;
    }
    if (c == '"') {
        adv(p);
        size_t start = p->pos;
        while (peekc(p, 0) >= 0 && peekc(p, 0) != '"' && peekc(p, 0) != '\n')
            adv(p);
        if (peekc(p, 0) != '"')
            fail_at(p, p->loc, "%s", "unterminated string");
        p->t = T_STRING;
        p->text = base_arena_strndup(p->a, p->s + start, p->pos - start);
        adv(p);
        return;
    }
    if (c >= '0' && c <= '9') {
        if (c == '0' && !name_char(peekc(p, 1))) {
            adv(p);
            p->t = T_ZERO;
            return;
        }
        fail_at(p, p->loc, "%s", "unexpected number (only 0, the empty relation, is a constant)");
    }
    int d = peekc(p, 1);
    adv(p);
    switch (c) {
    case '(': p->t = T_LPAR; return;
    case ')': p->t = T_RPAR; return;
    case '[': p->t = T_LBRAC; return;
    case ']': p->t = T_RBRAC; return;
    case '{': p->t = T_LACC; return;
    case '}': p->t = T_RACC; return;
    case '&': p->t = T_AMP; return;
    case '\\': p->t = T_BSLASH; return;
    case ';': p->t = T_SEMI; return;
    case '*': p->t = T_STAR; return;
    case '?': p->t = T_OPT; return;
    case '~': p->t = T_TILDE; return;
    case ',': p->t = T_COMMA; return;
    case '=': p->t = T_EQ; return;
    case '|': p->t = pair(p, d, '|', T_ALT, T_BAR); return;
    case '+': p->t = pair(p, d, '+', T_PLUSPLUS, T_PLUS); return;
    case '-':
        if (d == '>') {
            adv(p);
            p->t = T_ARROW;
            return;
        }
        break;
    case '^':
        if (d == '-' && peekc(p, 1) == '1') {
            adv(p);
            adv(p);
            p->t = T_INV;
            return;
        }
        fail_at(p, p->loc, "%s", "'^' must be followed by -1 (inverse)");
    default:
        break;
    }
    char buf[8];
    if (c >= 0x20 && c < 0x7f) {
        buf[0] = (char)c;
        buf[1] = 0;
    } else {
        buf[0] = '?';
        buf[1] = 0;
    }
    fail_at(p, p->loc, "unexpected character '%s'", buf);
}

static const char *tok_desc(parser *p)
{
    switch (p->t) {
    case T_EOF: return "end of file";
    case T_NAME: snprintf(p->desc, sizeof p->desc, "the name '%.24s'", p->text); return p->desc;
    case T_TAG: return "a tag";
    case T_STRING: return "a string";
    default:
        snprintf(p->desc, sizeof p->desc, "'%.*s'", (int)(p->pos - p->tstart > 24 ? 24 : p->pos - p->tstart),
                 p->s + p->tstart);
        return p->desc;
    }
}

static _Noreturn void expected(parser *p, const char *what)
{
    base_diag_error(p->diag, p->loc, "expected %s, found %s", what, tok_desc(p));
    longjmp(p->fail, 1);
}

static void expect(parser *p, tok t, const char *what)
{
    if (p->t != t)
        expected(p, what);
    next(p);
}

static bool accept(parser *p, tok t)
{
    if (p->t != t)
        return false;
    next(p);
    return true;
}

static cat_expr *mk(parser *p, cat_ekind k, base_srcloc loc)
{
    cat_expr *e = BASE_ARENA_NEW(p->a, cat_expr);
    e->kind = k;
    e->loc = loc;
    return e;
}

static cat_expr *mk2(parser *p, cat_ekind k, base_srcloc loc, cat_expr *a, cat_expr *b)
{
    cat_expr *e = mk(p, k, loc);
    e->a = a;
    e->b = b;
    return e;
}

/* Growable arrays in the arena, so that a parse error (a longjmp) leaks
 * nothing. */
typedef struct avec {
    const void **data;
    uint32_t len, cap;
} avec;

static void apush(parser *p, avec *v, const void *x)
{
    if (v->len == v->cap) {
        uint32_t cap = v->cap ? v->cap * 2 : 4;
        const void **d = BASE_ARENA_ARRAY(p->a, const void *, cap);
        if (v->len)
            memcpy(d, v->data, v->len * sizeof *d);
        v->data = d;
        v->cap = cap;
    }
    v->data[v->len++] = x;
}

typedef avec expr_vec;
typedef avec name_vec;

static cat_expr **arena_exprs(parser *p, expr_vec *v, uint32_t *n)
{
    cat_expr **out = BASE_ARENA_ARRAY(p->a, cat_expr *, v->len ? v->len : 1);
    for (uint32_t i = 0; i < v->len; i++)
        out[i] = (cat_expr *)(uintptr_t)v->data[i];
    *n = v->len;
    return out;
}

static const char **arena_names(parser *p, name_vec *v, uint32_t *n)
{
    const char **out = BASE_ARENA_ARRAY(p->a, const char *, v->len ? v->len : 1);
    for (uint32_t i = 0; i < v->len; i++)
        out[i] = v->data[i];
    *n = v->len;
    return out;
}

static cat_expr *parse_exp(parser *p);
static cat_expr *parse_base(parser *p, int level);
static void parse_ins_list(parser *p, cat_ins_list *out);
static bool parse_variant_cond(parser *p, uint32_t depth);

static bool starts_arg(tok t)
{
    return t == T_NAME || t == T_LPAR || t == T_LBRAC || t == T_LACC || t == T_UNDERSCORE ||
           t == T_ZERO || t == T_TAG || t == T_BEGIN;
}

static void enter(parser *p)
{
    if (++p->depth > 400)
        fail_at(p, p->loc, "%s", "expression nested too deeply");
}

/* simple: 0 'tag {args} _ () (e) begin e end [e] */
static cat_expr *parse_simple(parser *p)
{
    base_srcloc loc = p->loc;
    switch (p->t) {
    case T_ZERO:
        next(p);
        return mk(p, CAT_E_EMPTY, loc);
    case T_TAG: {
        cat_expr *e = mk(p, CAT_E_TAG, loc);
        e->name = p->text;
        next(p);
        return e;
    }
    case T_UNDERSCORE:
        next(p);
        return mk(p, CAT_E_UNIV, loc);
    case T_LACC: {
        next(p);
        if (accept(p, T_RACC))
            return mk(p, CAT_E_EMPTY, loc);
        expr_vec v = { 0 };
        do {
            apush(p, &v, parse_base(p, 1));
        } while (accept(p, T_COMMA));
        cat_expr *e = mk(p, CAT_E_SET, loc);
        e->items = arena_exprs(p, &v, &e->nitems);
        expect(p, T_RACC, "'}'");
        return e;
    }
    case T_LPAR: {
        next(p);
        if (accept(p, T_RPAR))
            return mk(p, CAT_E_TUPLE, loc);
        cat_expr *e = parse_exp(p);
        expect(p, T_RPAR, "')'");
        return e;
    }
    case T_BEGIN: {
        next(p);
        cat_expr *e = parse_exp(p);
        expect(p, T_END, "'end'");
        return e;
    }
    case T_LBRAC: {
        next(p);
        cat_expr *e = mk2(p, CAT_E_TOID, loc, parse_exp(p), NULL);
        expect(p, T_RBRAC, "']'");
        return e;
    }
    default:
        expected(p, "an expression");
    }
}

/* a name applied to arguments, or a simple expression; then postfix ops */
static cat_expr *parse_postfix(parser *p)
{
    enter(p);
    base_srcloc loc = p->loc;
    cat_expr *e;
    if (p->t == T_TILDE) {
        next(p);
        e = mk2(p, CAT_E_COMP, loc, parse_postfix(p), NULL);
        p->depth--;
        return e;
    }
    if (p->t == T_NAME) {
        e = mk(p, CAT_E_VAR, loc);
        e->name = p->text;
        next(p);
        while (starts_arg(p->t)) {
            base_srcloc aloc = p->loc;
            cat_expr *arg;
            if (p->t == T_NAME) {
                arg = mk(p, CAT_E_VAR, aloc);
                arg->name = p->text;
                next(p);
            } else {
                arg = parse_simple(p);
            }
            e = mk2(p, CAT_E_APP, aloc, e, arg);
        }
    } else {
        e = parse_simple(p);
    }
    for (;;) {
        base_srcloc oloc = p->loc;
        if (p->t == T_PLUS) {
            next(p);
            e = mk2(p, CAT_E_PLUS, oloc, e, NULL);
        } else if (p->t == T_OPT) {
            next(p);
            e = mk2(p, CAT_E_OPT, oloc, e, NULL);
        } else if (p->t == T_INV) {
            next(p);
            e = mk2(p, CAT_E_INV, oloc, e, NULL);
        } else if (p->t == T_STAR) {
            /* postfix unless an operand follows (then: cartesian product) */
            size_t save_pos = p->pos;
            uint32_t sl = p->line, sc = p->col;
            base_srcloc sloc = p->loc;
            next(p);
            if (starts_arg(p->t) || p->t == T_TILDE) {
                p->pos = save_pos;
                p->line = sl;
                p->col = sc;
                p->loc = sloc;
                p->t = T_STAR;
                break;
            }
            e = mk2(p, CAT_E_STAR, oloc, e, NULL);
        } else {
            break;
        }
    }
    p->depth--;
    return e;
}

/* Binary levels: 1 |, 2 ++, 3 ;, 4 \, 5 &, 6 * (product). */
static int bin_level(tok t)
{
    switch (t) {
    case T_BAR: return 1;
    case T_PLUSPLUS: return 2;
    case T_SEMI: return 3;
    case T_BSLASH: return 4;
    case T_AMP: return 5;
    case T_STAR: return 6;
    default: return 0;
    }
}

static cat_ekind bin_kind(tok t)
{
    switch (t) {
    case T_BAR: return CAT_E_UNION;
    case T_PLUSPLUS: return CAT_E_ADD;
    case T_SEMI: return CAT_E_SEQ;
    case T_BSLASH: return CAT_E_DIFF;
    case T_AMP: return CAT_E_INTER;
    default: return CAT_E_PROD;
    }
}

static cat_expr *parse_base(parser *p, int level)
{
    enter(p);
    cat_expr *lhs = parse_postfix(p);
    for (;;) {
        int l = bin_level(p->t);
        if (l == 0 || l < level)
            break;
        tok op = p->t;
        base_srcloc loc = p->loc;
        next(p);
        /* \ is left associative, * is not associative, the rest right */
        int rlevel = op == T_BSLASH || op == T_STAR ? l + 1 : l;
        cat_expr *rhs = parse_base(p, rlevel);
        lhs = mk2(p, bin_kind(op), loc, lhs, rhs);
        if (op == T_STAR && p->t == T_STAR)
            fail_at(p, p->loc, "%s", "write (a * b) * c: the product is not associative");
    }
    p->depth--;
    return lhs;
}

static void parse_formals(parser *p, cat_params *out, tok close)
{
    name_vec v = { 0 };
    if (p->t != close) {
        do {
            if (p->t == T_UNDERSCORE) {
                apush(p, &v, NULL);
                next(p);
            } else if (p->t == T_NAME) {
                apush(p, &v, p->text);
                next(p);
            } else {
                expected(p, "a parameter name");
            }
        } while (accept(p, T_COMMA));
    }
    out->names = arena_names(p, &v, &out->n);
}

static void one_param(parser *p, cat_params *out, const char *name)
{
    out->n = 1;
    out->tuple = false;
    out->names = BASE_ARENA_ARRAY(p->a, const char *, 1);
    out->names[0] = name;
}

static cat_expr *mk_fun(parser *p, base_srcloc loc, cat_params params, cat_expr *body)
{
    cat_expr *f = mk2(p, CAT_E_FUN, loc, body, NULL);
    f->params = params;
    return f;
}

/* pat_bind: (a, b) = e | a, b = e | f x = e | f(x, y) = e | a = e */
static void parse_bind(parser *p, cat_bind *out)
{
    out->loc = p->loc;
    if (p->t == T_LPAR) {
        next(p);
        parse_formals(p, &out->lhs, T_RPAR);
        out->lhs.tuple = true;
        expect(p, T_RPAR, "')'");
        expect(p, T_EQ, "'='");
        out->rhs = parse_exp(p);
        return;
    }
    const char *name = NULL;
    if (p->t == T_NAME)
        name = p->text;
    else if (p->t != T_UNDERSCORE)
        expected(p, "a name to bind");
    next(p);
    if (name && p->t == T_LPAR) { /* f(x, y) = e */
        base_srcloc loc = p->loc;
        next(p);
        cat_params params = { 0 };
        parse_formals(p, &params, T_RPAR);
        params.tuple = params.n != 1;
        expect(p, T_RPAR, "')'");
        expect(p, T_EQ, "'='");
        one_param(p, &out->lhs, name);
        out->rhs = mk_fun(p, loc, params, parse_exp(p));
        return;
    }
    if (name && (p->t == T_NAME || p->t == T_UNDERSCORE)) { /* f x = e */
        base_srcloc loc = p->loc;
        cat_params params = { 0 };
        one_param(p, &params, p->t == T_NAME ? p->text : NULL);
        next(p);
        expect(p, T_EQ, "'='");
        one_param(p, &out->lhs, name);
        out->rhs = mk_fun(p, loc, params, parse_exp(p));
        return;
    }
    if (p->t == T_COMMA) { /* a, b = e */
        name_vec v = { 0 };
        apush(p, &v, name);
        while (accept(p, T_COMMA)) {
            if (p->t == T_NAME)
                apush(p, &v, p->text);
            else if (p->t == T_UNDERSCORE)
                apush(p, &v, NULL);
            else {
                expected(p, "a name to bind");
            }
            next(p);
        }
        out->lhs.names = arena_names(p, &v, &out->lhs.n);
        out->lhs.tuple = true;
        expect(p, T_EQ, "'='");
        out->rhs = parse_exp(p);
        return;
    }
    one_param(p, &out->lhs, name);
    expect(p, T_EQ, "'='");
    out->rhs = parse_exp(p);
}

static cat_bind *parse_binds(parser *p, uint32_t *n)
{
    avec v = { 0 };
    do {
        cat_bind *b = BASE_ARENA_NEW(p->a, cat_bind);
        parse_bind(p, b);
        apush(p, &v, b);
    } while (accept(p, T_AND));
    cat_bind *out = BASE_ARENA_ARRAY(p->a, cat_bind, v.len);
    for (uint32_t i = 0; i < v.len; i++)
        out[i] = *(const cat_bind *)v.data[i];
    *n = v.len;
    return out;
}

/* match e with [||] clause || clause ... end; each clause is
 * 'tag -> e, _ -> e, {} -> e, x ++ s -> e or x | y ++ s -> e. The bodies
 * are items; the patterns are binds (one per clause, rhs its body): {} is a
 * tuple of no names, x ++ s a tuple of two (x | y ++ s: three), a name or _
 * one name (NULL for _), a tag one name starting with a quote. */
static cat_expr *parse_match(parser *p, base_srcloc loc)
{
    cat_expr *m = mk2(p, CAT_E_MATCH, loc, parse_exp(p), NULL);
    expect(p, T_WITH, "'with'");
    accept(p, T_ALT);
    expr_vec v = { 0 };
    avec pats = { 0 };
    do {
        cat_bind *pb = BASE_ARENA_NEW(p->a, cat_bind);
        pb->loc = p->loc;
        const char *names[3] = { 0 };
        uint32_t n = 0;
        bool tuple = true;
        if (p->t == T_LACC) {
            next(p);
            expect(p, T_RACC, "'}'");
        } else if (p->t == T_TAG || p->t == T_UNDERSCORE || p->t == T_NAME) {
            if (p->t == T_TAG) {
                char buf[128];
                snprintf(buf, sizeof buf, "'%s", p->text);
                names[n++] = base_arena_strdup(p->a, buf);
            } else {
                names[n++] = p->t == T_NAME ? base_arena_strdup(p->a, p->text) : NULL;
            }
            tuple = false;
            next(p);
            while (p->t == T_BAR || p->t == T_PLUSPLUS) {
                tuple = true;
                next(p);
                if (p->t != T_NAME && p->t != T_UNDERSCORE) {
                    expected(p, "a pattern name");
                }
                if (n < 3)
                    names[n++] = p->t == T_NAME ? base_arena_strdup(p->a, p->text) : NULL;
                next(p);
            }
        } else {
            expected(p, "a match pattern");
        }
        pb->lhs.tuple = tuple;
        pb->lhs.n = n;
        pb->lhs.names = BASE_ARENA_ARRAY(p->a, const char *, 3);
        for (uint32_t i = 0; i < n; i++)
            pb->lhs.names[i] = names[i];
        expect(p, T_ARROW, "'->'");
        pb->rhs = parse_exp(p);
        apush(p, &v, pb->rhs);
        apush(p, &pats, pb);
    } while (accept(p, T_ALT));
    m->items = arena_exprs(p, &v, &m->nitems);
    m->binds = BASE_ARENA_ARRAY(p->a, cat_bind, pats.len ? pats.len : 1);
    for (uint32_t i = 0; i < pats.len; i++)
        m->binds[i] = *(const cat_bind *)pats.data[i];
    m->nbinds = pats.len;
    expect(p, T_END, "'end'");
    return m;
}

/* if a = b then e1 else e2 (also subset, in) */
static cat_expr *parse_if(parser *p, base_srcloc loc)
{
    cat_expr *e;
    e = mk(p, CAT_E_IF, loc);
    e->items = BASE_ARENA_ARRAY(p->a, cat_expr *, 2);
    e->nitems = 2;
    e->items[0] = parse_base(p, 1);
    e->op = p->t == T_EQ ? "=" : p->t == T_SUBSET ? "subset" : p->t == T_IN ? "in" : NULL;
    if (!e->op)
        expected(p, "'=', 'subset' or 'in'");
    next(p);
    e->items[1] = parse_base(p, 1);
    expect(p, T_THEN, "'then'");
    e->a = parse_exp(p);
    expect(p, T_ELSE, "'else'");
    e->b = parse_exp(p);
    return e;
}

/* A variant condition: "name", not, ||, &&, parentheses; a name is true
 * when it was given with -variant (cat/variant.h). */
static bool parse_variant_cond(parser *p, uint32_t depth)
{
    if (depth > 100)
        fail_at(p, p->loc, "%s", "variant condition nested too deeply");
    bool v;
    if (p->t == T_STRING) {
        v = cat_variant_is_set(p->variants, p->text);
        next(p);
    } else if (p->t == T_NAME && strcmp(p->text, "not") == 0) {
        next(p);
        v = !parse_variant_cond(p, depth + 1);
        return v;
    } else if (accept(p, T_LPAR)) {
        v = parse_variant_cond(p, depth + 1);
        expect(p, T_RPAR, "')'");
    } else {
        expected(p, "a variant name in double quotes");
    }
    for (;;) {
        if (accept(p, T_ALT)) {
            bool w = parse_variant_cond(p, depth + 1);
            v = v || w;
        } else if (p->t == T_AMP && peekc(p, 0) == '&') {
            next(p);
            next(p);
            bool w = parse_variant_cond(p, depth + 1);
            v = v && w;
        } else {
            return v;
        }
    }
}

static cat_expr *parse_variant_if(parser *p, base_srcloc loc)
{
    cat_expr *e = mk(p, CAT_E_IF, loc);
    e->op = "variant";
    e->nitems = parse_variant_cond(p, 0) ? 1 : 0;
    expect(p, T_THEN, "'then'");
    e->a = parse_exp(p);
    expect(p, T_ELSE, "'else'");
    e->b = parse_exp(p);
    return e;
}

static cat_expr *parse_exp(parser *p)
{
    enter(p);
    base_srcloc loc = p->loc;
    cat_expr *e;
    if (accept(p, T_LET)) {
        bool rec = accept(p, T_REC);
        e = mk(p, rec ? CAT_E_LETREC : CAT_E_LET, loc);
        e->binds = parse_binds(p, &e->nbinds);
        expect(p, T_IN, "'in'");
        e->a = parse_exp(p);
    } else if (accept(p, T_FUN)) {
        cat_params params = { 0 };
        if (accept(p, T_LPAR)) {
            parse_formals(p, &params, T_RPAR);
            params.tuple = params.n != 1;
            expect(p, T_RPAR, "')'");
        } else if (p->t == T_NAME || p->t == T_UNDERSCORE) {
            one_param(p, &params, p->t == T_NAME ? p->text : NULL);
            next(p);
        } else {
            expected(p, "a parameter");
        }
        expect(p, T_ARROW, "'->'");
        e = mk_fun(p, loc, params, parse_exp(p));
    } else if (accept(p, T_TRY)) {
        cat_expr *a = parse_exp(p);
        expect(p, T_WITH, "'with'");
        e = mk2(p, CAT_E_TRY, loc, a, parse_exp(p));
    } else if (accept(p, T_IF)) {
        bool variant = p->t == T_STRING || p->t == T_LPAR ||
                       (p->t == T_NAME && strcmp(p->text, "not") == 0);
        e = variant ? parse_variant_if(p, loc) : parse_if(p, loc);
    } else if (accept(p, T_MATCH)) {
        e = parse_match(p, loc);
    } else {
        e = parse_base(p, 1);
        if (p->t == T_COMMA) {
            expr_vec v = { 0 };
            apush(p, &v, e);
            while (accept(p, T_COMMA))
                apush(p, &v, parse_base(p, 1));
            e = mk(p, CAT_E_TUPLE, loc);
            e->items = arena_exprs(p, &v, &e->nitems);
        }
    }
    p->depth--;
    return e;
}

static cat_ins *mk_ins(parser *p, cat_ikind k, base_srcloc loc)
{
    cat_ins *i = BASE_ARENA_NEW(p->a, cat_ins);
    i->kind = k;
    i->loc = loc;
    return i;
}

static const char *expect_name(parser *p)
{
    if (p->t != T_NAME)
        expected(p, "a name");
    const char *s = p->text;
    next(p);
    return s;
}

static cat_ins *parse_check(parser *p, base_srcloc loc, cat_check_kind ck)
{
    cat_ins *i = mk_ins(p, CAT_I_CHECK, loc);
    i->check = ck;
    i->negated = accept(p, T_TILDE);
    if (accept(p, T_ACYCLIC))
        i->test = CAT_T_ACYCLIC;
    else if (accept(p, T_IRREFLEXIVE))
        i->test = CAT_T_IRREFLEXIVE;
    else if (accept(p, T_EMPTY))
        i->test = CAT_T_EMPTY;
    else
        expected(p, "'acyclic', 'irreflexive' or 'empty'");
    i->e = parse_exp(p);
    if (accept(p, T_AS))
        i->name = expect_name(p);
    return i;
}

static bool ends_list(tok t)
{
    return t == T_EOF || t == T_END || t == T_ELSE || t == T_ALT;
}

static cat_ins *parse_ins(parser *p)
{
    base_srcloc loc = p->loc;
    switch (p->t) {
    case T_LET: {
        next(p);
        bool rec = accept(p, T_REC);
        cat_ins *i = mk_ins(p, rec ? CAT_I_REC : CAT_I_LET, loc);
        i->binds = parse_binds(p, &i->nbinds);
        if (rec && p->t == T_WHEN)
            fail_at(p, p->loc, "%s", "unsupported: 'let rec ... when'");
        accept(p, T_IN);
        return i;
    }
    case T_ACYCLIC:
    case T_IRREFLEXIVE:
    case T_EMPTY:
    case T_TILDE:
        return parse_check(p, loc, CAT_C_CHECK);
    case T_FLAG:
        next(p);
        return parse_check(p, loc, CAT_C_FLAG);
    case T_REQUIRES:
        next(p);
        return parse_check(p, loc, CAT_C_REQUIRES);
    case T_ASSERT:
        next(p);
        return parse_check(p, loc, CAT_C_ASSERT);
    case T_SHOW:
    case T_UNSHOW: {
        bool show = p->t == T_SHOW;
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_SHOW, loc);
        i->e = parse_base(p, 1);
        if (show && accept(p, T_AS)) {
            i->name = expect_name(p);
        } else {
            while (accept(p, T_COMMA))
                expect_name(p);
        }
        return i;
    }
    case T_INCLUDE: {
        next(p);
        if (p->t != T_STRING)
            expected(p, "a file name in double quotes");
        cat_ins *i = mk_ins(p, CAT_I_INCLUDE, loc);
        i->file = p->text;
        next(p);
        return i;
    }
    case T_PROCEDURE: {
        next(p);
        accept(p, T_REC);
        cat_ins *i = mk_ins(p, CAT_I_PROC, loc);
        i->name = expect_name(p);
        if (accept(p, T_LPAR)) {
            parse_formals(p, &i->params, T_RPAR);
            i->params.tuple = i->params.n != 1;
            expect(p, T_RPAR, "')'");
        } else if (p->t == T_NAME || p->t == T_UNDERSCORE) {
            one_param(p, &i->params, p->t == T_NAME ? p->text : NULL);
            next(p);
        } else {
            expected(p, "'(' or a parameter");
        }
        expect(p, T_EQ, "'='");
        parse_ins_list(p, &i->body);
        expect(p, T_END, "'end'");
        return i;
    }
    case T_CALL: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_CALL, loc);
        i->name = expect_name(p);
        i->e = parse_simple(p);
        if (accept(p, T_AS))
            expect_name(p);
        return i;
    }
    case T_DEBUG: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_DEBUG, loc);
        i->e = parse_exp(p);
        return i;
    }
    case T_FORALL: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_FORALL, loc);
        i->name = expect_name(p);
        expect(p, T_IN, "'in'");
        i->e = parse_exp(p);
        expect(p, T_DO, "'do'");
        parse_ins_list(p, &i->body);
        expect(p, T_END, "'end'");
        return i;
    }
    case T_WITH: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_WITHFROM, loc);
        i->name = expect_name(p);
        expect(p, T_FROM, "'from'");
        i->e = parse_exp(p);
        return i;
    }
    case T_INSTRUCTIONS:
    case T_DEFAULT: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_EVENTS, loc);
        i->name = expect_name(p);
        base_srcloc l2 = p->loc;
        expect(p, T_LBRAC, "'['");
        expr_vec v = { 0 };
        if (p->t != T_RBRAC) {
            do {
                apush(p, &v, parse_base(p, 1));
            } while (accept(p, T_COMMA));
        }
        i->e = mk(p, CAT_E_SET, l2);
        i->e->items = arena_exprs(p, &v, &i->e->nitems);
        expect(p, T_RBRAC, "']'");
        return i;
    }
    case T_ENUM: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_ENUM, loc);
        i->name = expect_name(p);
        expect(p, T_EQ, "'='");
        accept(p, T_ALT);
        name_vec v = { 0 };
        do {
            if (p->t != T_TAG) {
                expected(p, "a tag");
            }
            apush(p, &v, p->text);
            next(p);
        } while (accept(p, T_ALT));
        i->tags = arena_names(p, &v, &i->ntags);
        return i;
    }
    case T_IF: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_VARIANT, loc);
        i->negated = parse_variant_cond(p, 0); /* the condition's value */
        parse_ins_list(p, &i->body);
        if (accept(p, T_ELSE))
            parse_ins_list(p, &i->body2);
        expect(p, T_END, "'end'");
        return i;
    }
    case T_MATCH: {
        next(p);
        cat_ins *i = mk_ins(p, CAT_I_MATCH, loc);
        i->e = parse_exp(p);
        expect(p, T_WITH, "'with'");
        accept(p, T_ALT);
        do {
            if (p->t != T_TAG && p->t != T_UNDERSCORE)
                expected(p, "a tag or _");
            next(p);
            expect(p, T_ARROW, "'->'");
            cat_ins_list tmp = { 0 };
            parse_ins_list(p, &tmp);
        } while (accept(p, T_ALT));
        expect(p, T_END, "'end'");
        return i;
    }
    default:
        expected(p, "an instruction (let, acyclic, irreflexive, empty, show, include, ...)");
    }
}

static void parse_ins_list(parser *p, cat_ins_list *out)
{
    avec v = { 0 };
    while (!ends_list(p->t))
        apush(p, &v, parse_ins(p));
    out->n = v.len;
    out->v = BASE_ARENA_ARRAY(p->a, cat_ins *, v.len ? v.len : 1);
    for (uint32_t i = 0; i < v.len; i++)
        out->v[i] = (cat_ins *)(uintptr_t)v.data[i];
}

cat_file *cat_parse(base_arena *a, const char *path, const char *text, size_t len,
                    base_diag *diag)
{
    return cat_parse_variants(a, path, text, len, NULL, diag);
}

cat_file *cat_parse_variants(base_arena *a, const char *path, const char *text, size_t len,
                             const cat_variants *variants, base_diag *diag)
{
    parser *p = base_xcalloc(1, sizeof *p);
    p->variants = variants;
    p->a = a;
    p->path = path;
    p->s = text;
    p->len = len;
    p->line = 1;
    p->col = 1;
    p->diag = diag;
    cat_file *f = BASE_ARENA_NEW(a, cat_file);
    f->path = path;
    if (setjmp(p->fail)) {
        free(p);
        return NULL;
    }
    if (memchr(text, 0, len))
        fail_at(p, base_srcloc_make(path, 1, 1), "%s", "the file contains a NUL byte");
    next(p);
    /* herd's identity line: NAME [NAME|STRING] | STRING */
    if (p->t == T_NAME) {
        f->title = p->text;
        next(p);
        if (p->t == T_NAME || p->t == T_STRING) {
            f->title = p->text;
            next(p);
        }
    } else if (p->t == T_STRING) {
        f->title = p->text;
        next(p);
    }
    parse_ins_list(p, &f->body);
    if (p->t != T_EOF)
        expected(p, "an instruction");
    free(p);
    return f;
}
