/* lisa_lex: the LISA tokenizer (see lisa_lex.h).
 *
 * One pass over the bytes, no lookahead beyond two bytes, no allocation.
 * Every read of src checks pos < len first. Errors are sticky: once an
 * error token has been made, litmus_lex_next returns it again. */
#include "litmus/lisa_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { MAX_SHOWN = 40 }; /* longest token text quoted in a message */

void litmus_lex_init(litmus_lexer *lx, const char *file, const char *src, size_t len,
                     size_t start)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    for (size_t i = 0; i < start && i < len; i++)
        if (src[i] == '\n') {
            lx->line++;
            lx->line_start = i + 1;
        }
    lx->pos = start < len ? start : len;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }
static bool is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The byte at pos + k, or -1 past the end. */
static int peek(const litmus_lexer *lx, size_t k)
{
    return lx->pos + k < lx->len ? (unsigned char)lx->src[lx->pos + k] : -1;
}

static base_srcloc here(const litmus_lexer *lx)
{
    return base_srcloc_make(lx->file, lx->line, (uint32_t)(lx->pos - lx->line_start + 1));
}

static void advance(litmus_lexer *lx)
{
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->line_start = lx->pos + 1;
    }
    lx->pos++;
}

static litmus_token fail(litmus_lexer *lx, base_srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static litmus_token fail(litmus_lexer *lx, base_srcloc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->msg, sizeof lx->msg, fmt, ap);
    va_end(ap);
    lx->failed = true;
    lx->error.kind = LITMUS_TOK_ERROR;
    lx->error.loc = loc;
    lx->error.text = lx->msg;
    lx->error.len = strlen(lx->msg);
    lx->error.num = 0;
    return lx->error;
}

/* Skips whitespace and comments. Returns false (after making the error
 * token) on an unterminated comment. */
static bool skip_blank(litmus_lexer *lx)
{
    for (;;) {
        int c = peek(lx, 0);
        if (c >= 0 && is_space(c)) {
            advance(lx);
        } else if (c == '(' && peek(lx, 1) == '*') {
            base_srcloc start = here(lx);
            size_t depth = 0;
            do {
                if (peek(lx, 0) == '(' && peek(lx, 1) == '*') {
                    depth++;
                    advance(lx);
                    advance(lx);
                } else if (peek(lx, 0) == '*' && peek(lx, 1) == ')') {
                    depth--;
                    advance(lx);
                    advance(lx);
                } else if (peek(lx, 0) < 0) {
                    fail(lx, start, "unterminated comment");
                    return false;
                } else {
                    advance(lx);
                }
            } while (depth > 0);
        } else {
            return true;
        }
    }
}

static litmus_token make(litmus_lexer *lx, litmus_tok_kind kind, base_srcloc loc, size_t start)
{
    litmus_token t = { kind, loc, lx->src + start, lx->pos - start, 0 };
    return t;
}

static litmus_token lex_int(litmus_lexer *lx, base_srcloc loc, size_t start)
{
    bool neg = peek(lx, 0) == '-';
    if (neg)
        advance(lx);
    uint64_t mag = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    bool overflow = false;
    while (peek(lx, 0) >= 0 && is_digit(peek(lx, 0))) {
        uint64_t d = (uint64_t)(peek(lx, 0) - '0');
        if (mag > (limit - d) / 10)
            overflow = true;
        else
            mag = mag * 10 + d;
        advance(lx);
    }
    litmus_token t = make(lx, LITMUS_TOK_INT, loc, start);
    if (overflow)
        return fail(lx, loc, "integer '%.*s%s' overflows int64",
                    (int)(t.len > MAX_SHOWN ? MAX_SHOWN : t.len), t.text,
                    t.len > MAX_SHOWN ? "..." : "");
    t.num = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    return t;
}

litmus_token litmus_lex_next(litmus_lexer *lx)
{
    if (lx->failed)
        return lx->error;
    if (!skip_blank(lx))
        return lx->error;
    base_srcloc loc = here(lx);
    size_t start = lx->pos;
    int c = peek(lx, 0);
    if (c < 0)
        return make(lx, LITMUS_TOK_EOF, loc, start);
    if (is_ident_start(c)) {
        while (peek(lx, 0) >= 0 && is_ident_char(peek(lx, 0)))
            advance(lx);
        return make(lx, LITMUS_TOK_IDENT, loc, start);
    }
    if (is_digit(c) || (c == '-' && peek(lx, 1) >= 0 && is_digit(peek(lx, 1))))
        return lex_int(lx, loc, start);

    litmus_tok_kind kind;
    size_t width = 1;
    switch (c) {
    case '{': kind = LITMUS_TOK_LBRACE; break;
    case '}': kind = LITMUS_TOK_RBRACE; break;
    case '[': kind = LITMUS_TOK_LBRACKET; break;
    case ']': kind = LITMUS_TOK_RBRACKET; break;
    case '(': kind = LITMUS_TOK_LPAREN; break;
    case ')': kind = LITMUS_TOK_RPAREN; break;
    case ';': kind = LITMUS_TOK_SEMI; break;
    case '|': kind = LITMUS_TOK_PIPE; break;
    case ':': kind = LITMUS_TOK_COLON; break;
    case ',': kind = LITMUS_TOK_COMMA; break;
    case '+': kind = LITMUS_TOK_PLUS; break;
    case '&': kind = LITMUS_TOK_AMP; break;
    case '~': kind = LITMUS_TOK_TILDE; break;
    case '=':
        if (peek(lx, 1) == '>') {
            kind = LITMUS_TOK_IMPLIES;
            width = 2;
        } else {
            kind = LITMUS_TOK_EQ;
        }
        break;
    case '/':
        if (peek(lx, 1) != '\\')
            return fail(lx, loc, "unexpected character '/' (did you mean '/\\'?)");
        kind = LITMUS_TOK_AND;
        width = 2;
        break;
    case '\\':
        if (peek(lx, 1) != '/')
            return fail(lx, loc, "unexpected character '\\' (did you mean '\\/'?)");
        kind = LITMUS_TOK_OR;
        width = 2;
        break;
    case '\0':
        return fail(lx, loc, "unexpected NUL byte");
    default:
        if (c >= 0x21 && c < 0x7f)
            return fail(lx, loc, "unexpected character '%c'", c);
        return fail(lx, loc, "unexpected byte 0x%02x", (unsigned)c);
    }
    for (size_t i = 0; i < width; i++)
        advance(lx);
    return make(lx, kind, loc, start);
}

void litmus_lex_describe(const litmus_token *tok, char *buf, size_t size)
{
    if (tok->kind == LITMUS_TOK_EOF)
        snprintf(buf, size, "end of file");
    else if (tok->len > MAX_SHOWN)
        snprintf(buf, size, "'%.*s...'", MAX_SHOWN, tok->text);
    else
        snprintf(buf, size, "'%.*s'", (int)tok->len, tok->text);
}

bool litmus_lex_is(const litmus_token *tok, const char *s)
{
    size_t n = strlen(s);
    return tok->kind == LITMUS_TOK_IDENT && tok->len == n && memcmp(tok->text, s, n) == 0;
}
