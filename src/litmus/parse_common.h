/* parse_common: what the LISA (lisa_parse.c) and C (c_parse.c) litmus
 * parsers share: the source cursor, tokens and their helpers, error
 * reporting, locations, the test's header line and its trailing sections
 * (locations, filter, the final condition exists/forall/~exists).
 *
 * Each parser embeds a litmus_parser as the first member of its own state
 * and fills in the hooks for what differs: its lexer, how a state variable
 * and a value are read, and how `scopes:`/`regions:` are skipped. Its token
 * kinds start with the shared ones below and go on from LITMUS_T_NSHARED.
 *
 * Errors stop the parse at the first problem: after one is reported
 * (failed is set) every later report is dropped. */
#ifndef RAVEL_LITMUS_PARSE_COMMON_H
#define RAVEL_LITMUS_PARSE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/vec.h"
#include "litmus/test.h"

enum {
    LITMUS_MAX_THREADS = 1024,
    /* Parsing a condition recurses at most this deep... */
    LITMUS_MAX_COND_DEPTH = 200,
    /* ...and its tree is as deep as its chain of operators is long (printing
     * and evaluating it recurse): at most this many operators. */
    LITMUS_MAX_PROPS = 2000,
};

/* The token kinds both formats have. */
enum {
    LITMUS_T_EOF, LITMUS_T_IDENT, LITMUS_T_NUM, LITMUS_T_STRING, LITMUS_T_ERROR,
    LITMUS_T_LBRACE, LITMUS_T_RBRACE, LITMUS_T_LPAR, LITMUS_T_RPAR, LITMUS_T_LBRACK,
    LITMUS_T_RBRACK, LITMUS_T_SEMI, LITMUS_T_COMMA, LITMUS_T_COLON,
    LITMUS_T_EQ,      /* `=` */
    LITMUS_T_NE,      /* `!=` (C only) */
    LITMUS_T_TILDE,   /* `~` */
    LITMUS_T_CONJ,    /* `/\` */
    LITMUS_T_DISJ,    /* `\/` */
    LITMUS_T_IMPLIES, /* `=>` */
    LITMUS_T_NSHARED, /* a format's own kinds start here */
};

typedef struct litmus_token {
    int kind; /* LITMUS_T_* or a format's own kind */
    const char *start;
    size_t len;
    int64_t num;
    uint32_t line, col;
} litmus_token;

typedef struct litmus_parser litmus_parser;
struct litmus_parser {
    const char *file;
    const char *src;
    size_t len, pos;
    uint32_t line, col;
    litmus_token tok;   /* current token */
    litmus_token ahead; /* one token of lookahead, valid when have_ahead */
    bool have_ahead;
    base_diag *diag;
    base_intern_pool *syms;
    litmus_test *t;
    bool failed;
    uint32_t nprops; /* operators in the conditions so far */
    BASE_VEC(litmus_location) locs;
    BASE_VEC(litmus_observable) obs;

    /* The format's hooks. */
    litmus_token (*lex)(litmus_parser *p);
    /* A state variable (THREAD:REG, LOC or [LOC]), in a condition or in
     * `locations [...]`. */
    bool (*state_var)(litmus_parser *p, litmus_observable *o);
    /* The value after `=` in a condition. */
    bool (*value)(litmus_parser *p, litmus_value *v);
    /* One entry of the init block, up to the ';' or '}' after it. */
    bool (*init_entry)(litmus_parser *p);
    /* At `scopes:` or `regions:`: skips the section up to the next one. */
    void (*skip_scopes)(litmus_parser *p);
    /* C: conditions also take `not` and `!=`, and a test without a final
     * condition is `forall (true)` as in herd7 (LISA: an error). */
    bool c_syntax;
    /* herd's assembly tests (asm_dialect.h): a missing final condition is
     * `forall (true)` too, and a ';' may end the condition. */
    bool asm_syntax;
};

/* A new empty test named by file (copied) in its own arena. */
litmus_test *litmus_new_test(const char *file, base_intern_pool *syms);

/* Frees the parser's own vectors (not the test). */
void litmus_parser_free(litmus_parser *p);

/* --- errors --- */

base_srcloc litmus_here(const litmus_parser *p, const litmus_token *t);
void litmus_error_at(litmus_parser *p, const litmus_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at the cursor. */
void litmus_error_here(litmus_parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --- characters --- */

/* The byte k ahead of the cursor, or -1 past the end. */
int litmus_peekc(const litmus_parser *p, size_t k);
/* Moves the cursor one byte, keeping line:col. */
void litmus_advance(litmus_parser *p);
bool litmus_is_digit(int c);
/* Moves the cursor to the end of the line; false after reporting a NUL. */
bool litmus_skip_line(litmus_parser *p);

/* --- tokens --- */

/* An operator's spelling and its token kind. */
typedef struct litmus_punct {
    const char *s;
    int kind;
} litmus_punct;

/* At the cursor: the first of ops[0..n) that the input starts with, as
 * t's kind and length; else an error token after reporting the unexpected
 * character. Longer operators must come before their prefixes. */
void litmus_lex_punct(litmus_parser *p, const litmus_punct *ops, size_t n, litmus_token *t);

void litmus_next(litmus_parser *p);
const litmus_token *litmus_peek2(litmus_parser *p);
bool litmus_tok_is(const litmus_token *t, const char *word);
/* 'text' (at most 40 bytes of it), "end of file" or "an invalid token". */
const char *litmus_tok_desc(const litmus_token *t, char *buf, size_t n);
/* Consumes a token of kind k, or reports "expected WHAT, found ...". */
bool litmus_expect(litmus_parser *p, int k, const char *what);
base_sym litmus_tok_sym(litmus_parser *p, const litmus_token *t);

/* --- names --- */

/* The index of the location t names, added (initially 0) when new. */
uint32_t litmus_location_of(litmus_parser *p, const litmus_token *t);
/* A thread name: N or P<digits>. -1 when t is not one. */
long litmus_thread_number(const litmus_token *t);
/* At `N:` or `PN:` (a thread-qualified state variable)? */
bool litmus_at_thread_prefix(litmus_parser *p);
/* Consumes `N:` and returns N; -1 after reporting a thread the test, with
 * nthreads threads, does not have. */
long litmus_thread_prefix(litmus_parser *p, uint32_t nthreads);

/* --- the test --- */

/* After the first word `first` (the arch): the rest of the line, trimmed,
 * is the test's name. false after reporting a missing one ("expected
 * '<arch> <name>'") or a NUL byte. */
bool litmus_parse_name(litmus_parser *p, const litmus_token *first, const char *arch);
/* At the start of a free line: when it is a doc string and the test has
 * none, it becomes the test's doc. Does not move the cursor. */
void litmus_doc_line(litmus_parser *p);

/* The init block `{ ENTRY; ENTRY; ... }` (empty entries allowed), each
 * entry read by the init_entry hook. */
bool litmus_parse_init(litmus_parser *p);

/* A condition: the operators ~ (or `not`) /\ \/ => and parentheses over
 * `true`, `false` and VAR=VALUE (or VAR!=VALUE). */
litmus_prop *litmus_parse_prop(litmus_parser *p, int depth);
/* The trailing sections: locations, filter, scopes/regions and the final
 * condition, which comes last. */
bool litmus_parse_sections(litmus_parser *p);
/* Copies the locations and observables into the test. */
void litmus_finish_test(litmus_parser *p);

#endif
