/* c_macros: herd7's macro files (`-macros FILE.def`), which define the
 * Linux-kernel primitives of C litmus tests (READ_ONCE, smp_mb, xchg,
 * spin_lock, ...) in terms of herd's C primitives with tags (`__load{once}`,
 * `__fence{mb}`, `__xchg{mb}`, `__lock`, ...).
 *
 * A file is a list of definitions, one per line (a `{ ... }` body may go on
 * over lines until its braces balance), and `//` comments:
 *
 *   NAME(P1,P2) BODY       an expression macro (BODY is an expression)
 *   NAME(P1) { STMTS }     a statement macro
 *
 * The C front end (c_parse.h) expands a call NAME(args) inside a thread
 * body by substituting the arguments' tokens for the parameters and
 * rescanning, like the C preprocessor; an expression macro's body is
 * parenthesised. A later definition of a name replaces an earlier one.
 *
 * Invariants: names and parameters are C identifiers; everything lives in
 * the arena and is freed with litmus_macros_free. */
#ifndef RAVEL_LITMUS_C_MACROS_H
#define RAVEL_LITMUS_C_MACROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct litmus_macro {
    const char *name;
    const char **params;
    uint32_t nparams;
    const char *body;      /* NUL-terminated, comments and line breaks kept */
    size_t body_len;
    uint32_t line, col;    /* where the body starts in the file */
    bool stmt;             /* the body is a { ... } block */
} litmus_macro;

typedef struct litmus_macros {
    base_arena arena;
    const char *path;
    litmus_macro *v;
    uint32_t n;
} litmus_macros;

/* Parses text[0..len); NULL after reporting `path:line:col: error: ...`. */
litmus_macros *litmus_macros_parse(const char *path, const char *text, size_t len,
                                   base_diag *diag);
/* Reads and parses a file; NULL after reporting (a missing file too). */
litmus_macros *litmus_macros_load(const char *path, base_diag *diag);
void litmus_macros_free(litmus_macros *m);
/* The definition of name[0..len), or NULL. */
const litmus_macro *litmus_macros_find(const litmus_macros *m, const char *name, size_t len);

#endif
