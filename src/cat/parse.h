/* parse: herd7's cat language (and bell files, which share its grammar)
 * into the AST of ast.h.
 *
 * Lexical rules: names are letters, digits, '_', '.', '-' (po-loc, co0,
 * _RMW), not starting with a digit; 'tag; "string"; comments (* nested *)
 * and '#' or '//' to the end of a line. Operator precedence, lowest first,
 * as herd's grammar has it: | (right), ++ (right), ; (right), \ (left),
 * & (right), then * + ? ~ (binary * is the cartesian product; a * that no
 * operand follows is the reflexive-transitive closure), then ^-1.
 * Application is juxtaposition (f x, f(x, y)) and binds tightest.
 *
 * Includes are not followed here (model.c does it). The first error stops
 * parsing: it is reported as file:line:col and NULL is returned. */
#ifndef RAVEL_CAT_PARSE_H
#define RAVEL_CAT_PARSE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "cat/ast.h"
#include "cat/variant.h"

/* path must outlive the arena (locations point at it). No variant is set. */
cat_file *cat_parse(base_arena *a, const char *path, const char *text, size_t len,
                    base_diag *diag);
/* The same with herd7's -variant names: `if "name"` is true for those. */
cat_file *cat_parse_variants(base_arena *a, const char *path, const char *text, size_t len,
                             const cat_variants *variants, base_diag *diag);

#endif
