/* intern: a pool of unique strings, each named by a small integer symbol.
 *
 * Invariant: two symbols of one pool are equal exactly when their strings
 * are equal; symbol 0 is the empty string; base_sym_str stays valid until
 * the pool is freed. */
#ifndef RAVEL_BASE_INTERN_H
#define RAVEL_BASE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"

typedef uint32_t base_sym;

typedef struct base_intern_pool {
    base_arena arena;  /* the string bytes */
    const char **strs; /* symbol -> string */
    uint32_t *lens;    /* symbol -> length */
    size_t count, cap;
    base_hashmap index; /* hash of bytes -> first symbol in its chain */
    uint32_t *next;     /* collision chain: symbol -> next symbol or UINT32_MAX */
} base_intern_pool;

void base_intern_init(base_intern_pool *p);
void base_intern_free(base_intern_pool *p);
base_sym base_intern(base_intern_pool *p, const char *s, size_t len);
base_sym base_intern_cstr(base_intern_pool *p, const char *s);
const char *base_sym_str(const base_intern_pool *p, base_sym sym);
size_t base_sym_len(const base_intern_pool *p, base_sym sym);

#endif
