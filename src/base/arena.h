/* arena: bump allocation with one free for everything.
 *
 * Invariant: every block handed out lives until base_arena_free; blocks are
 * aligned to max_align_t. Chunks grow geometrically, so n allocations cost
 * O(log n) calls to malloc. */
#ifndef RAVEL_BASE_ARENA_H
#define RAVEL_BASE_ARENA_H

#include <stddef.h>

#include "base/xalloc.h"

typedef struct base_arena_chunk base_arena_chunk;

typedef struct base_arena {
    base_arena_chunk *head; /* newest chunk, allocation happens here */
    size_t used;            /* bytes used in head */
    size_t total;           /* bytes handed out over the arena's life */
} base_arena;

void base_arena_init(base_arena *a);
void base_arena_free(base_arena *a);
void *base_arena_alloc(base_arena *a, size_t size);      /* uninitialised */
void *base_arena_zalloc(base_arena *a, size_t size);     /* zeroed */
char *base_arena_strndup(base_arena *a, const char *s, size_t n);
char *base_arena_strdup(base_arena *a, const char *s);

#define BASE_ARENA_NEW(a, T) ((T *)base_arena_zalloc((a), sizeof(T)))
#define BASE_ARENA_ARRAY(a, T, n) \
    ((T *)base_arena_zalloc((a), base_mul_size((n), sizeof(T))))

#endif
