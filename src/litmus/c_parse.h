/* c_parse: herd7's C litmus format, read into the same litmus_test as LISA.
 *
 *     C name                         first line: `C` and the test's name
 *     "optional doc" / (* ... *)     then free lines (Variant=..., comments)
 *     { [x] = 0; int y = 1; z; }     init: locations, typed or not
 *     P0 (atomic_int* x, int* y) {   threads: C functions P0, P1, ... whose
 *       int r0 = atomic_load_explicit(x, memory_order_acquire);
 *       if (r0 == 1) { *y = 1; }     parameters are the shared locations
 *     }
 *     locations [0:r0; x;]           optional extra observables
 *     exists (0:r0=1 /\ y=1)         or ~exists, forall; `!=` also allowed
 *
 * Statements: declarations of int-like locals (`int r0 = e;`), assignments
 * to locals and through pointers (`*x = e;`), expression statements,
 * blocks, `if`/`else`. Expressions: integers, locals, `*p` (a non-atomic
 * access), + - * ^ & | == != < <= > >= && || ! ~ and unary -, and the C11
 * atomics atomic_load, atomic_store, atomic_exchange, atomic_fetch_{add,
 * sub,or,and,xor}, atomic_compare_exchange_{strong,weak} (each also
 * `_explicit`), atomic_thread_fence, with memory_order_* constants.
 *
 * Modes become the LISA annotations the c11 model reads (mm_c11.c): a plain
 * access is `na`, memory_order_relaxed `rlx`, consume and acquire `acq`,
 * release `rel`, acq_rel `acq_rel`, seq_cst `sc`; the non-explicit forms
 * are `sc`. The declared types (atomic_int, volatile int, ...) do not
 * change an access's mode, as in herd7. A compare-exchange reads its
 * `expected` location non-atomically first and, when it fails, writes the
 * value it read there (a LITMUS_I_CAS between the two).
 *
 * Memory accesses inside one expression are performed left to right (C
 * leaves some unsequenced; a warning says so when it matters). Everything
 * else — loops, locks, other calls, casts, division, narrow types, arrays,
 * register initialisers — is an `unsupported` error at its position: a test
 * is returned only when it was understood completely and exactly. */
#ifndef RAVEL_LITMUS_C_PARSE_H
#define RAVEL_LITMUS_C_PARSE_H

#include <stddef.h>

#include "base/diag.h"
#include "base/intern.h"
#include "litmus/test.h"

/* Parses text[0..len) (which need not be NUL-terminated). file names the
 * input in diagnostics and is copied. NULL on any error (reported to diag);
 * warnings may be reported for a test that is returned. */
litmus_test *litmus_parse_c(const char *file, const char *text, size_t len,
                            base_intern_pool *syms, base_diag *diag);
/* The same with herd's macros (c_macros.h; NULL: none) expanded in thread
 * bodies, and herd's C primitives they use read (`__load{once}(*x)`, ...:
 * see litmus_parse_c_macros in c_parse.c for the events each becomes). */
struct litmus_macros;
litmus_test *litmus_parse_c_macros(const char *file, const char *text, size_t len,
                                   base_intern_pool *syms, const struct litmus_macros *macros,
                                   base_diag *diag);

#endif
