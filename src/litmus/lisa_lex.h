/* lisa_lex: the tokens of a LISA litmus test, from the init block on.
 *
 * The header lines (name, doc string, diy metadata) are line-oriented and
 * read by the parser itself; everything from the init block's '{' to the end
 * of the file is a stream of tokens:
 *
 *     identifiers  [A-Za-z_][A-Za-z0-9_]*      (x, r1, P0, rel_acq, LC00)
 *     integers     -?[0-9]+                     (must fit in int64)
 *     punctuation  { } [ ] ( ) ; | : , = + & ~  /\  \/  =>
 *
 * Whitespace (including newlines) separates tokens; OCaml comments
 * (* ... *) may nest and are skipped.
 *
 * Invariants:
 *  - a token's text points into the source and is never read past len (the
 *    source need not be NUL-terminated);
 *  - locations are 1-based lines and 1-based byte columns;
 *  - the first malformed input produces a LITMUS_TOK_ERROR token whose
 *    message is in lexer->msg; the lexer then keeps returning that same
 *    token, so a caller can never loop forever or see a token past it;
 *  - at the end of the input the lexer keeps returning LITMUS_TOK_EOF. */
#ifndef RAVEL_LITMUS_LISA_LEX_H
#define RAVEL_LITMUS_LISA_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/srcloc.h"

typedef enum litmus_tok_kind {
    LITMUS_TOK_EOF,
    LITMUS_TOK_ERROR, /* malformed input; the message is in lexer->msg */
    LITMUS_TOK_IDENT,
    LITMUS_TOK_INT,
    LITMUS_TOK_LBRACE,   /* { */
    LITMUS_TOK_RBRACE,   /* } */
    LITMUS_TOK_LBRACKET, /* [ */
    LITMUS_TOK_RBRACKET, /* ] */
    LITMUS_TOK_LPAREN,   /* ( */
    LITMUS_TOK_RPAREN,   /* ) */
    LITMUS_TOK_SEMI,     /* ; */
    LITMUS_TOK_PIPE,     /* | */
    LITMUS_TOK_COLON,    /* : */
    LITMUS_TOK_COMMA,    /* , */
    LITMUS_TOK_EQ,       /* = */
    LITMUS_TOK_PLUS,     /* + */
    LITMUS_TOK_AMP,      /* & */
    LITMUS_TOK_TILDE,    /* ~ */
    LITMUS_TOK_AND,      /* /\ */
    LITMUS_TOK_OR,       /* \/ */
    LITMUS_TOK_IMPLIES,  /* => */
} litmus_tok_kind;

typedef struct litmus_token {
    litmus_tok_kind kind;
    base_srcloc loc;  /* of the token's first byte */
    const char *text; /* the token's bytes in the source (empty at EOF) */
    size_t len;
    int64_t num;      /* LITMUS_TOK_INT: the value */
} litmus_token;

typedef struct litmus_lexer {
    const char *file;
    const char *src;
    size_t len, pos;
    uint32_t line;     /* of src[pos] */
    size_t line_start; /* offset of the first byte of that line */
    bool failed;       /* an error token was produced; it is in error */
    litmus_token error;
    char msg[128];     /* the error's message, one line */
} litmus_lexer;

/* Starts lexing src[start..len); file is borrowed for the locations. */
void litmus_lex_init(litmus_lexer *lx, const char *file, const char *src, size_t len,
                     size_t start);
litmus_token litmus_lex_next(litmus_lexer *lx);
/* Writes how a message names the token: 'text' or "end of file". */
void litmus_lex_describe(const litmus_token *tok, char *buf, size_t size);
/* True when the token is the identifier spelled s. */
bool litmus_lex_is(const litmus_token *tok, const char *s);

#endif
