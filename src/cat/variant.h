/* variant: herd7's -variant names, as far as ravel has them.
 *
 * herd7's variants do one of two things: they change the events and
 * executions herd7 builds for a test (mixed, vmsa, memtag, ifetch, the
 * RISC-V and AArch64 success/dependency switches, ...), or they are only
 * read by the model, in cat's `if "name" ... else ... end`. ravel accepts
 * the second kind only — those whose effect is the model's conditions:
 * `ets`, `ets2`, `ets3` (translation synchronisation), `exs`, `eis`, `eos`
 * (exception synchronisation). Every other name is refused with the reason
 * (herd7 would build other events, ravel has no such variant, or herd7
 * has no variant of that name). Names compare without case, as in herd7. */
#ifndef RAVEL_CAT_VARIANT_H
#define RAVEL_CAT_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

/* The variants set on the command line (each NAME of -variant NAME,NAME). */
typedef struct cat_variants {
    const char *const *names;
    size_t n;
} cat_variants;

/* Whether ravel supports -variant name; if not, *why says why. */
bool cat_variant_supported(const char *name, const char **why);

/* Whether name is set in v (NULL: none is), without case. */
bool cat_variant_is_set(const cat_variants *v, const char *name);

#endif
