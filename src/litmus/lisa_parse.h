/* lisa_parse: herd7's LISA (and its old name, Bell) litmus format.
 *
 *     LISA name                 first line: the arch and the test's name
 *     "optional doc string"     then free key=value lines (diy metadata)
 *     { x = 0; 0:r1 = y; }      init: locations and registers, ints or addresses
 *      P0       | P1       ;    thread columns
 *      w[] x 1  | r[] r1 x ;    one row of instructions per line, ';' ends it
 *     locations [x; 0:r1;]      optional extra observables
 *     filter (...)              optional
 *     exists (0:r1=1 /\ x=2)    or ~exists, forall
 *
 * Every error is reported to diag with its file:line:col and the parse
 * returns NULL; a test is returned only when it was understood completely. */
#ifndef RAVEL_LITMUS_LISA_PARSE_H
#define RAVEL_LITMUS_LISA_PARSE_H

#include <stddef.h>

#include "base/diag.h"
#include "base/intern.h"
#include "litmus/test.h"

/* Parses text[0..len) (which need not be NUL-terminated). file names the
 * input in diagnostics and is copied. */
litmus_test *litmus_parse_lisa(const char *file, const char *text, size_t len,
                               base_intern_pool *syms, base_diag *diag);

/* Reads path and parses it according to its first word: LISA or Bell here,
 * C with litmus_parse_c (c_parse.h). A missing or unreadable file is
 * an error at "path" with no line. */
litmus_test *litmus_load(const char *path, base_intern_pool *syms, base_diag *diag);
/* The same, with herd's macros (litmus/c_macros.h; NULL: none) for C tests. */
struct litmus_macros;
litmus_test *litmus_load_macros(const char *path, base_intern_pool *syms,
                                const struct litmus_macros *macros, base_diag *diag);

#endif
