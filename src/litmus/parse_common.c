/* parse_common: what the LISA and C litmus parsers share (parse_common.h). */
#include "litmus/parse_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

litmus_test *litmus_new_test(const char *file, base_intern_pool *syms)
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

void litmus_parser_free(litmus_parser *p)
{
    base_vec_free(&p->locs);
    base_vec_free(&p->obs);
}

/* --- errors --- */

base_srcloc litmus_here(const litmus_parser *p, const litmus_token *t)
{
    return base_srcloc_make(p->file, t->line, t->col);
}

static void verror_at(litmus_parser *p, const litmus_token *t, const char *fmt, va_list ap)
{
    if (p->failed)
        return;
    p->failed = true;
    base_diag_vreport(p->diag, BASE_SEV_ERROR, litmus_here(p, t), fmt, ap);
}

void litmus_error_at(litmus_parser *p, const litmus_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror_at(p, t, fmt, ap);
    va_end(ap);
}

void litmus_error_here(litmus_parser *p, const char *fmt, ...)
{
    litmus_token at = { .kind = LITMUS_T_ERROR, .line = p->line, .col = p->col };
    va_list ap;
    va_start(ap, fmt);
    verror_at(p, &at, fmt, ap);
    va_end(ap);
}

/* --- characters --- */

int litmus_peekc(const litmus_parser *p, size_t k)
{
    return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1;
}

void litmus_advance(litmus_parser *p)
{
    if (p->src[p->pos] == '\n') {
        p->line++;
        p->col = 1;
    } else {
        p->col++;
    }
    p->pos++;
}

bool litmus_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

bool litmus_skip_line(litmus_parser *p)
{
    while (p->pos < p->len && p->src[p->pos] != '\n') {
        if (p->src[p->pos] == '\0') {
            litmus_error_here(p, "unexpected NUL byte");
            return false;
        }
        litmus_advance(p);
    }
    return true;
}

/* --- tokens --- */

void litmus_lex_punct(litmus_parser *p, const litmus_punct *ops, size_t n, litmus_token *t)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(ops[i].s);
        if (p->pos + len <= p->len && memcmp(p->src + p->pos, ops[i].s, len) == 0) {
            for (size_t k = 0; k < len; k++)
                litmus_advance(p);
            t->kind = ops[i].kind;
            t->len = len;
            return;
        }
    }
    int c = litmus_peekc(p, 0);
    t->kind = LITMUS_T_ERROR;
    if (c >= 0x20 && c < 0x7f)
        litmus_error_at(p, t, "unexpected character '%c'", c);
    else
        litmus_error_at(p, t, "unexpected byte 0x%02x", (unsigned)c);
}

void litmus_next(litmus_parser *p)
{
    if (p->have_ahead) {
        p->tok = p->ahead;
        p->have_ahead = false;
    } else {
        p->tok = p->lex(p);
    }
}

const litmus_token *litmus_peek2(litmus_parser *p)
{
    if (!p->have_ahead) {
        p->ahead = p->lex(p);
        p->have_ahead = true;
    }
    return &p->ahead;
}

bool litmus_tok_is(const litmus_token *t, const char *word)
{
    return t->kind == LITMUS_T_IDENT && t->len == strlen(word) && memcmp(t->start, word, t->len) == 0;
}

const char *litmus_tok_desc(const litmus_token *t, char *buf, size_t n)
{
    if (t->kind == LITMUS_T_EOF)
        return "end of file";
    if (t->kind == LITMUS_T_ERROR)
        return "an invalid token";
    size_t len = t->len < 40 ? t->len : 40;
    snprintf(buf, n, "'%.*s'", (int)len, t->start);
    return buf;
}

bool litmus_expect(litmus_parser *p, int k, const char *what)
{
    if (p->tok.kind == k) {
        litmus_next(p);
        return true;
    }
    char buf[64];
    litmus_error_at(p, &p->tok, "expected %s, found %s", what,
                    litmus_tok_desc(&p->tok, buf, sizeof buf));
    return false;
}

base_sym litmus_tok_sym(litmus_parser *p, const litmus_token *t)
{
    return base_intern(p->syms, t->start, t->len);
}

/* --- names --- */

uint32_t litmus_location_of(litmus_parser *p, const litmus_token *t)
{
    base_sym s = litmus_tok_sym(p, t);
    for (size_t i = 0; i < p->locs.len; i++)
        if (p->locs.data[i].name == s)
            return (uint32_t)i;
    litmus_location l = { .name = s, .init = litmus_int(0), .loc = litmus_here(p, t) };
    base_vec_push(&p->locs, l);
    return (uint32_t)(p->locs.len - 1);
}

long litmus_thread_number(const litmus_token *t)
{
    if (t->kind == LITMUS_T_NUM)
        return t->num >= 0 && t->num < LITMUS_MAX_THREADS ? (long)t->num : -1;
    if (t->kind != LITMUS_T_IDENT || t->len < 2 || t->start[0] != 'P' || t->len > 6)
        return -1;
    long v = 0;
    for (size_t i = 1; i < t->len; i++) {
        if (!litmus_is_digit((unsigned char)t->start[i]))
            return -1;
        v = v * 10 + (t->start[i] - '0');
    }
    return v;
}

bool litmus_at_thread_prefix(litmus_parser *p)
{
    return (p->tok.kind == LITMUS_T_NUM || p->tok.kind == LITMUS_T_IDENT) &&
           litmus_peek2(p)->kind == LITMUS_T_COLON;
}

long litmus_thread_prefix(litmus_parser *p, uint32_t nthreads)
{
    long th = litmus_thread_number(&p->tok);
    if (th < 0 || (uint32_t)th >= nthreads) {
        char buf[64];
        litmus_error_at(p, &p->tok, "the condition names thread %s, which the test does not have",
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return -1;
    }
    litmus_next(p);
    litmus_next(p);
    return th;
}

/* --- the test --- */

bool litmus_parse_name(litmus_parser *p, const litmus_token *first, const char *arch)
{
    size_t s = p->pos;
    if (!litmus_skip_line(p))
        return false;
    size_t e = p->pos;
    const char *src = p->src;
    while (s < e && (src[s] == ' ' || src[s] == '\t'))
        s++;
    while (e > s && (src[e - 1] == ' ' || src[e - 1] == '\t' || src[e - 1] == '\r'))
        e--;
    if (s == e) {
        litmus_error_at(p, first, "the test has no name (expected '%s <name>')", arch);
        return false;
    }
    /* a comment after the name (`AArch64 AK002 (* MP+rel *)`) is no part of it */
    for (size_t k = s; k + 1 < e; k++)
        if (src[k] == '(' && src[k + 1] == '*' && k > s) {
            e = k;
            while (e > s && (src[e - 1] == ' ' || src[e - 1] == '\t'))
                e--;
            break;
        }
    /* herd7 names a test written `C NAME.litmus` NAME */
    if (e - s > 7 && memcmp(src + e - 7, ".litmus", 7) == 0)
        e -= 7;
    p->t->name = base_arena_strndup(&p->t->arena, src + s, e - s);
    return true;
}

void litmus_doc_line(litmus_parser *p)
{
    litmus_test *t = p->t;
    size_t at = p->pos;
    if (at >= p->len || p->src[at] != '"' || t->doc)
        return;
    size_t q = at + 1;
    while (q < p->len && p->src[q] != '"' && p->src[q] != '\n')
        q++;
    if (q < p->len && p->src[q] == '"')
        t->doc = base_arena_strndup(&t->arena, p->src + at + 1, q - at - 1);
}

bool litmus_parse_init(litmus_parser *p)
{
    if (!litmus_expect(p, LITMUS_T_LBRACE, "'{' to open the init block"))
        return false;
    while (p->tok.kind != LITMUS_T_RBRACE) {
        if (p->tok.kind == LITMUS_T_SEMI) {
            litmus_next(p);
            continue;
        }
        if (p->tok.kind == LITMUS_T_EOF) {
            litmus_error_at(p, &p->tok, "unexpected end of file in the init block");
            return false;
        }
        if (!p->init_entry(p))
            return false;
        if (p->tok.kind != LITMUS_T_SEMI && p->tok.kind != LITMUS_T_RBRACE) {
            char buf[64];
            litmus_error_at(p, &p->tok, "expected ';' or '}' in the init block, found %s",
                            litmus_tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
    }
    litmus_next(p);
    return true;
}

/* --- the condition --- */

static litmus_prop *new_prop(litmus_parser *p, litmus_prop_kind k, const litmus_token *at)
{
    if ((k == LITMUS_P_AND || k == LITMUS_P_OR || k == LITMUS_P_IMPLIES || k == LITMUS_P_NOT) &&
        ++p->nprops > LITMUS_MAX_PROPS) {
        litmus_error_at(p, at, "condition too long (more than %d operators)", LITMUS_MAX_PROPS);
        return NULL;
    }
    litmus_prop *pr = BASE_ARENA_NEW(&p->t->arena, litmus_prop);
    pr->kind = k;
    pr->loc = litmus_here(p, at);
    return pr;
}

/* The REG or LOC atom of state variable o (its value still to set), made
 * observable. */
static litmus_prop *obs_atom(litmus_parser *p, const litmus_observable *o, const litmus_token *at)
{
    litmus_prop *a = new_prop(p, o->is_reg ? LITMUS_P_REG : LITMUS_P_LOC, at);
    if (!a)
        return NULL;
    a->thread = o->thread;
    a->reg = o->reg;
    a->location = o->location;
    a->shape = o->shape;
    base_vec_push(&p->obs, *o);
    return a;
}

/* A state variable as a REG or LOC atom (its value still to set), made
 * observable. */
static litmus_prop *state_atom(litmus_parser *p)
{
    litmus_token at = p->tok;
    litmus_observable o = { 0 };
    if (!p->state_var(p, &o))
        return NULL;
    return obs_atom(p, &o, &at);
}

/* The observables of a whole array's cells (o: its first, shape ARRAY). */
static void push_array(litmus_parser *p, const litmus_observable *o)
{
    for (uint32_t k = 0; k < p->locs.data[o->location].cells; k++) {
        litmus_observable c = *o;
        c.location += k;
        base_vec_push(&p->obs, c);
    }
}

/* After a whole array x (o): `={V0,V1,...}`, one value a cell, as the AND of
 * its cells' atoms (shape ARRAY, printed back as `x={...}`). */
static litmus_prop *array_atom(litmus_parser *p, const litmus_observable *o, const litmus_token *at)
{
    uint32_t n = p->locs.data[o->location].cells;
    if (!litmus_expect(p, LITMUS_T_EQ, "'=' in the condition") ||
        !litmus_expect(p, LITMUS_T_LBRACE, "'{' before the array's values"))
        return NULL;
    litmus_prop *all = NULL;
    for (uint32_t k = 0; k < n; k++) {
        if (k && !litmus_expect(p, LITMUS_T_COMMA, "',' between the array's values"))
            return NULL;
        litmus_prop *a = new_prop(p, LITMUS_P_LOC, at);
        a->location = o->location + k;
        a->shape = LITMUS_SHAPE_ARRAY;
        if (!p->value(p, &a->value))
            return NULL;
        if (!all) {
            all = a;
            continue;
        }
        litmus_prop *c = new_prop(p, LITMUS_P_AND, at);
        if (!c)
            return NULL;
        c->lhs = all;
        c->rhs = a;
        c->shape = LITMUS_SHAPE_ARRAY;
        all = c;
    }
    if (!litmus_expect(p, LITMUS_T_RBRACE, "'}' after the array's values"))
        return NULL;
    push_array(p, o);
    return all;
}

static litmus_prop *parse_atom(litmus_parser *p, int depth)
{
    litmus_token at = p->tok;
    if (depth > LITMUS_MAX_COND_DEPTH) {
        litmus_error_at(p, &at, "condition nested too deeply");
        return NULL;
    }
    /* herd's conditions take `not` in every format; outside C only
     * before a parenthesis, where a location named `not` cannot be */
    bool word_not = litmus_tok_is(&p->tok, "not") &&
                    (p->c_syntax || litmus_peek2(p)->kind == LITMUS_T_LPAR);
    if (p->tok.kind == LITMUS_T_TILDE || word_not) {
        litmus_next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_NOT, &at);
        if (!n)
            return NULL;
        n->lhs = parse_atom(p, depth + 1);
        return n->lhs ? n : NULL;
    }
    if (p->tok.kind == LITMUS_T_LPAR) {
        litmus_next(p);
        litmus_prop *in = litmus_parse_prop(p, depth + 1);
        if (!in || !litmus_expect(p, LITMUS_T_RPAR, "')' in the condition"))
            return NULL;
        return in;
    }
    if (litmus_tok_is(&p->tok, "true") || litmus_tok_is(&p->tok, "false")) {
        litmus_prop *c =
            new_prop(p, litmus_tok_is(&p->tok, "true") ? LITMUS_P_TRUE : LITMUS_P_FALSE, &at);
        litmus_next(p);
        return c;
    }
    litmus_observable o = { 0 };
    if (!p->state_var(p, &o))
        return NULL;
    if (!o.is_reg && o.shape == LITMUS_SHAPE_ARRAY)
        return array_atom(p, &o, &at);
    bool ne = p->c_syntax && p->tok.kind == LITMUS_T_NE;
    if (ne)
        litmus_next(p);
    else if (!litmus_expect(p, LITMUS_T_EQ,
                            p->c_syntax ? "'=' or '!=' in the condition" : "'=' in the condition"))
        return NULL;
    litmus_prop *a = obs_atom(p, &o, &at);
    if (!a)
        return NULL;
    if (litmus_at_thread_prefix(p) && p->tok.kind == LITMUS_T_NUM) {
        /* N:NAME = M:NAME': two variables with the same final value */
        if (p->t->arch && strcmp(p->t->arch, "AArch64") == 0) {
            /* its registers and locations have C types (test.h) */
            litmus_error_at(p, &p->tok, "unsupported: comparing two typed variables");
            return NULL;
        }
        litmus_prop *b = state_atom(p);
        litmus_prop *same = b ? new_prop(p, LITMUS_P_SAME, &at) : NULL;
        if (!same)
            return NULL;
        same->lhs = a;
        same->rhs = b;
        a = same;
    } else if (!p->value(p, &a->value)) {
        return NULL;
    }
    if (!ne)
        return a;
    litmus_prop *n = new_prop(p, LITMUS_P_NOT, &at);
    if (!n)
        return NULL;
    n->lhs = a;
    return n;
}

/* A left-associative chain of operand ops joined by tokens of kind op. */
static litmus_prop *parse_chain(litmus_parser *p, int depth, int op, litmus_prop_kind k,
                                litmus_prop *(*operand)(litmus_parser *, int))
{
    litmus_prop *l = operand(p, depth);
    while (l && p->tok.kind == op) {
        litmus_token at = p->tok;
        litmus_next(p);
        litmus_prop *n = new_prop(p, k, &at);
        if (!n)
            return NULL;
        n->lhs = l;
        n->rhs = operand(p, depth);
        l = n->rhs ? n : NULL;
    }
    return l;
}

static litmus_prop *parse_and(litmus_parser *p, int depth)
{
    return parse_chain(p, depth, LITMUS_T_CONJ, LITMUS_P_AND, parse_atom);
}

static litmus_prop *parse_or(litmus_parser *p, int depth)
{
    return parse_chain(p, depth, LITMUS_T_DISJ, LITMUS_P_OR, parse_and);
}

litmus_prop *litmus_parse_prop(litmus_parser *p, int depth)
{
    litmus_prop *l = parse_or(p, depth);
    if (l && p->tok.kind == LITMUS_T_IMPLIES) {
        litmus_token at = p->tok;
        litmus_next(p);
        litmus_prop *n = new_prop(p, LITMUS_P_IMPLIES, &at);
        if (!n)
            return NULL;
        n->lhs = l;
        n->rhs = litmus_parse_prop(p, depth + 1);
        return n->rhs ? n : NULL;
    }
    return l;
}

/* --- the trailing sections --- */

/* `locations [VAR; VAR; ...]`, after the keyword. */
static bool parse_locations(litmus_parser *p)
{
    if (!litmus_expect(p, LITMUS_T_LBRACK, "'[' after locations"))
        return false;
    while (p->tok.kind != LITMUS_T_RBRACK) {
        litmus_observable o = { 0 };
        if (!p->state_var(p, &o))
            return false;
        if (!o.is_reg && o.shape == LITMUS_SHAPE_ARRAY)
            push_array(p, &o);
        else
            base_vec_push(&p->obs, o);
        if (p->tok.kind == LITMUS_T_SEMI || p->tok.kind == LITMUS_T_COMMA) {
            litmus_next(p);
        } else if (p->tok.kind != LITMUS_T_RBRACK) {
            char buf[64];
            litmus_error_at(p, &p->tok, "expected ';' or ']' in locations, found %s",
                            litmus_tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
    }
    litmus_next(p);
    return true;
}

/* `exists COND`, `forall COND` or `~exists COND`. */
static bool parse_final(litmus_parser *p)
{
    litmus_test *t = p->t;
    if (p->tok.kind == LITMUS_T_TILDE) {
        litmus_next(p);
        if (!litmus_tok_is(&p->tok, "exists")) {
            char buf[64];
            litmus_error_at(p, &p->tok, "expected 'exists' after '~', found %s",
                            litmus_tok_desc(&p->tok, buf, sizeof buf));
            return false;
        }
        t->quant = LITMUS_Q_NOT_EXISTS;
    } else {
        t->quant = litmus_tok_is(&p->tok, "exists") ? LITMUS_Q_EXISTS : LITMUS_Q_FORALL;
    }
    litmus_next(p);
    t->cond = litmus_parse_prop(p, 0);
    return t->cond != NULL;
}

bool litmus_parse_sections(litmus_parser *p)
{
    litmus_test *t = p->t;
    bool have_cond = false;
    char buf[64];
    while (!p->failed && p->tok.kind != LITMUS_T_EOF) {
        const litmus_token *tok = &p->tok;
        if (have_cond && p->asm_syntax && tok->kind == LITMUS_T_SEMI &&
            litmus_peek2(p)->kind == LITMUS_T_EOF) {
            litmus_next(p);
            continue;
        }
        if (have_cond) {
            litmus_error_at(p, tok, "unexpected %s after the final condition",
                            litmus_tok_desc(tok, buf, sizeof buf));
            return false;
        }
        if ((litmus_tok_is(tok, "scopes") || litmus_tok_is(tok, "regions")) &&
            litmus_peek2(p)->kind == LITMUS_T_COLON) {
            p->skip_scopes(p);
        } else if (litmus_tok_is(tok, "locations")) {
            litmus_next(p);
            if (!parse_locations(p))
                return false;
        } else if (litmus_tok_is(tok, "filter")) {
            litmus_next(p);
            /* herd7 prints what `locations` and the condition name, not
             * what only the filter names */
            size_t nobs = p->obs.len;
            t->filter = litmus_parse_prop(p, 0);
            if (!t->filter)
                return false;
            p->obs.len = nobs;
        } else if (litmus_tok_is(tok, "exists") || litmus_tok_is(tok, "forall") ||
                   tok->kind == LITMUS_T_TILDE) {
            if (!parse_final(p))
                return false;
            have_cond = true;
        } else {
            litmus_error_at(p, tok,
                            "expected a final condition (exists, ~exists or forall), found %s",
                            litmus_tok_desc(tok, buf, sizeof buf));
            return false;
        }
    }
    if (p->failed)
        return false;
    if (!have_cond) {
        if (!p->c_syntax && !p->asm_syntax) {
            litmus_error_at(p, &p->tok, "missing final condition (exists, ~exists or forall)");
            return false;
        }
        /* herd7 reads a C or assembly test without a condition as `forall (true)`. */
        t->quant = LITMUS_Q_FORALL;
        t->cond = new_prop(p, LITMUS_P_TRUE, &p->tok);
    }
    return true;
}

void litmus_finish_test(litmus_parser *p)
{
    litmus_test *t = p->t;
    t->nlocs = (uint32_t)p->locs.len;
    t->locs = BASE_ARENA_ARRAY(&t->arena, litmus_location, t->nlocs ? t->nlocs : 1);
    if (t->nlocs)
        memcpy(t->locs, p->locs.data, t->nlocs * sizeof *t->locs);
    t->nobs = (uint32_t)p->obs.len;
    t->obs = BASE_ARENA_ARRAY(&t->arena, litmus_observable, t->nobs ? t->nobs : 1);
    if (t->nobs)
        memcpy(t->obs, p->obs.data, t->nobs * sizeof *t->obs);
    litmus_test_sort_observables(t);
}
