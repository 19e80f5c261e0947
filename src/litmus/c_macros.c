#include "litmus/c_macros.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"

enum { MAX_PARAMS = 16, MAX_MACROS = 100000 };

static bool ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(int c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

typedef BASE_VEC(litmus_macro) macro_vec;

typedef struct reader {
    const char *path, *s;
    size_t len, pos;
    uint32_t line, col;
    base_diag *diag;
    litmus_macros *m;
} reader;

static int peek(const reader *r, size_t k)
{
    return r->pos + k < r->len ? (unsigned char)r->s[r->pos + k] : -1;
}

static void adv(reader *r)
{
    if (r->s[r->pos] == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->pos++;
}

static bool error(reader *r, uint32_t line, uint32_t col, const char *msg)
{
    base_diag_error(r->diag, base_srcloc_make(r->path, line, col), "%s", msg);
    return false;
}

/* Blanks other than line breaks. */
static void skip_spaces(reader *r)
{
    while (peek(r, 0) == ' ' || peek(r, 0) == '\t' || peek(r, 0) == '\r' || peek(r, 0) == '\f' ||
           peek(r, 0) == '\v')
        adv(r);
}

static const char *ident(reader *r)
{
    size_t start = r->pos;
    while (ident_char(peek(r, 0)))
        adv(r);
    return base_arena_strndup(&r->m->arena, r->s + start, r->pos - start);
}

/* One definition, from its name (at an identifier) to the end of its body. */
static bool definition(reader *r, macro_vec *out)
{
    litmus_macro mac = { 0 };
    mac.name = ident(r);
    skip_spaces(r);
    const char *params[MAX_PARAMS];
    if (peek(r, 0) == '(') {
        adv(r);
        skip_spaces(r);
        while (peek(r, 0) != ')') {
            if (!ident_start(peek(r, 0)))
                return error(r, r->line, r->col, "expected a parameter name or ')' in a macro's "
                                                 "parameters");
            if (mac.nparams == MAX_PARAMS)
                return error(r, r->line, r->col, "too many macro parameters");
            params[mac.nparams++] = ident(r);
            skip_spaces(r);
            if (peek(r, 0) == ',') {
                adv(r);
                skip_spaces(r);
                if (!ident_start(peek(r, 0)))
                    return error(r, r->line, r->col, "expected a parameter name after ','");
            } else if (peek(r, 0) != ')') {
                return error(r, r->line, r->col, "expected ',' or ')' in a macro's parameters");
            }
        }
        adv(r);
    }
    for (uint32_t i = 0; i < mac.nparams; i++)
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(params[i], params[j]) == 0)
                return error(r, r->line, r->col, "a macro parameter appears twice");
    mac.params = BASE_ARENA_ARRAY(&r->m->arena, const char *, mac.nparams ? mac.nparams : 1);
    memcpy(mac.params, params, mac.nparams * sizeof *params);
    skip_spaces(r);
    mac.line = r->line;
    mac.col = r->col;
    size_t start = r->pos, end = r->pos;
    mac.stmt = peek(r, 0) == '{';
    int depth = 0;
    uint32_t oline = r->line, ocol = r->col;
    for (;;) {
        int c = peek(r, 0);
        if (c < 0 || (c == '\n' && depth <= 0))
            break;
        if (c == 0)
            return error(r, r->line, r->col, "unexpected NUL byte");
        if (c == '/' && peek(r, 1) == '/') { /* a comment to the end of the line */
            while (peek(r, 0) >= 0 && peek(r, 0) != '\n')
                adv(r);
            continue;
        }
        if (c == '{' || c == '(')
            depth++;
        else if (c == '}' || c == ')')
            depth--;
        if (depth < 0)
            return error(r, r->line, r->col, "unbalanced ')' or '}' in a macro body");
        adv(r);
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            end = r->pos;
    }
    if (depth > 0)
        return error(r, oline, ocol, "unterminated macro body (unbalanced '(' or '{')");
    if (end == start)
        return error(r, mac.line, mac.col, "expected a macro body after the name");
    mac.body_len = end - start;
    mac.body = base_arena_strndup(&r->m->arena, r->s + start, mac.body_len);
    if (mac.stmt && mac.body[mac.body_len - 1] != '}')
        return error(r, oline, ocol, "a statement macro's body must end with its '}'");
    if (out->len == MAX_MACROS)
        return error(r, oline, ocol, "too many macros");
    base_vec_push(out, mac);
    return true;
}

litmus_macros *litmus_macros_parse(const char *path, const char *text, size_t len,
                                   base_diag *diag)
{
    litmus_macros *m = base_xcalloc(1, sizeof *m);
    base_arena_init(&m->arena);
    m->path = base_arena_strdup(&m->arena, path);
    reader r = { m->path, text, len, 0, 1, 1, diag, m };
    macro_vec defs = { 0 };
    bool ok = true;
    while (ok) {
        skip_spaces(&r);
        int c = peek(&r, 0);
        if (c < 0)
            break;
        if (c == '\n') {
            adv(&r);
        } else if (c == '/' && peek(&r, 1) == '/') {
            while (peek(&r, 0) >= 0 && peek(&r, 0) != '\n')
                adv(&r);
        } else if (ident_start(c)) {
            ok = definition(&r, &defs);
        } else {
            ok = error(&r, r.line, r.col, "expected a macro definition like 'NAME(X) body' or a "
                                          "'//' comment");
        }
    }
    if (!ok) {
        base_vec_free(&defs);
        litmus_macros_free(m);
        return NULL;
    }
    m->n = (uint32_t)defs.len;
    m->v = BASE_ARENA_ARRAY(&m->arena, litmus_macro, m->n ? m->n : 1);
    if (m->n)
        memcpy(m->v, defs.data, m->n * sizeof *m->v);
    base_vec_free(&defs);
    return m;
}

litmus_macros *litmus_macros_load(const char *path, base_diag *diag)
{
    size_t len;
    char *text = base_read_file(path, &len);
    if (!text) {
        base_diag_error(diag, base_srcloc_make(path, 0, 0), "cannot open file: %s", strerror(errno));
        return NULL;
    }
    litmus_macros *m = litmus_macros_parse(path, text, len, diag);
    free(text);
    return m;
}

void litmus_macros_free(litmus_macros *m)
{
    if (!m)
        return;
    base_arena_free(&m->arena);
    free(m);
}

const litmus_macro *litmus_macros_find(const litmus_macros *m, const char *name, size_t len)
{
    for (uint32_t i = m->n; i-- > 0;)
        if (strlen(m->v[i].name) == len && memcmp(m->v[i].name, name, len) == 0)
            return &m->v[i];
    return NULL;
}
