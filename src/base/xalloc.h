/* xalloc: allocation that never returns NULL.
 *
 * Out of memory is not a recoverable condition for ravel: every allocation
 * goes through these functions, which print one line and exit with
 * BASE_EXIT_RESOURCE (the documented "out of memory" exit code). */
#ifndef RAVEL_BASE_XALLOC_H
#define RAVEL_BASE_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

/* Exit code used when memory runs out (documented in ravel --help). */
#define BASE_EXIT_RESOURCE 4

void *base_xmalloc(size_t size);
void *base_xcalloc(size_t count, size_t size);
void *base_xrealloc(void *ptr, size_t size);
char *base_xstrdup(const char *s);
char *base_xstrndup(const char *s, size_t n);

/* Multiplies with overflow check; overflow counts as out of memory. */
size_t base_mul_size(size_t a, size_t b);

#endif
