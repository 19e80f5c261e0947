/* hashmap: open-addressing map from 64-bit keys to 64-bit values.
 *
 * Linear probing over a power-of-two table kept at most 3/4 full. Keys are
 * arbitrary except BASE_HASHMAP_EMPTY, which marks free slots. Callers that
 * key by strings intern them first (base/intern.h) and use the symbol. */
#ifndef RAVEL_BASE_HASHMAP_H
#define RAVEL_BASE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BASE_HASHMAP_EMPTY UINT64_MAX

typedef struct base_hashmap {
    uint64_t *keys;
    uint64_t *vals;
    size_t cap;   /* 0 or a power of two */
    size_t count; /* live entries */
} base_hashmap;

void base_hashmap_init(base_hashmap *m);
void base_hashmap_free(base_hashmap *m);
/* Inserts or overwrites. key must not be BASE_HASHMAP_EMPTY. */
void base_hashmap_put(base_hashmap *m, uint64_t key, uint64_t val);
/* Returns true and sets *val when key is present. */
bool base_hashmap_get(const base_hashmap *m, uint64_t key, uint64_t *val);
void base_hashmap_clear(base_hashmap *m);

/* A good 64-bit mixer (splitmix64 finaliser), also for combining hashes. */
uint64_t base_hash64(uint64_t x);
uint64_t base_hash_bytes(const void *data, size_t len);

#endif
