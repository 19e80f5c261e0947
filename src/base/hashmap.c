#include "base/hashmap.h"

#include <string.h>

#include "base/xalloc.h"

uint64_t base_hash64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t base_hash_bytes(const void *data, size_t len)
{
    /* FNV-1a, then mixed: cheap and good enough for identifiers. */
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return base_hash64(h);
}

void base_hashmap_init(base_hashmap *m)
{
    memset(m, 0, sizeof *m);
}

void base_hashmap_free(base_hashmap *m)
{
    free(m->keys);
    free(m->vals);
    base_hashmap_init(m);
}

void base_hashmap_clear(base_hashmap *m)
{
    if (m->cap)
        memset(m->keys, 0xff, m->cap * sizeof *m->keys);
    m->count = 0;
}

static size_t find_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t mask = cap - 1;
    size_t i = (size_t)base_hash64(key) & mask;
    while (keys[i] != BASE_HASHMAP_EMPTY && keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static void grow(base_hashmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    uint64_t *nkeys = base_xmalloc(base_mul_size(ncap, sizeof *nkeys));
    uint64_t *nvals = base_xmalloc(base_mul_size(ncap, sizeof *nvals));
    memset(nkeys, 0xff, ncap * sizeof *nkeys);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == BASE_HASHMAP_EMPTY)
            continue;
        size_t j = find_slot(nkeys, ncap, m->keys[i]);
        nkeys[j] = m->keys[i];
        nvals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nkeys;
    m->vals = nvals;
    m->cap = ncap;
}

void base_hashmap_put(base_hashmap *m, uint64_t key, uint64_t val)
{
    if ((m->count + 1) * 4 > m->cap * 3)
        grow(m);
    size_t i = find_slot(m->keys, m->cap, key);
    if (m->keys[i] == BASE_HASHMAP_EMPTY) {
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
}

bool base_hashmap_get(const base_hashmap *m, uint64_t key, uint64_t *val)
{
    if (m->cap == 0)
        return false;
    size_t i = find_slot(m->keys, m->cap, key);
    if (m->keys[i] == BASE_HASHMAP_EMPTY)
        return false;
    if (val)
        *val = m->vals[i];
    return true;
}
