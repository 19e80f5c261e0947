#include "base/intern.h"

#include <string.h>

#include "base/xalloc.h"

void base_intern_init(base_intern_pool *p)
{
    memset(p, 0, sizeof *p);
    base_arena_init(&p->arena);
    base_hashmap_init(&p->index);
    base_intern(p, "", 0); /* symbol 0 */
}

void base_intern_free(base_intern_pool *p)
{
    base_arena_free(&p->arena);
    base_hashmap_free(&p->index);
    free(p->strs);
    free(p->lens);
    free(p->next);
    memset(p, 0, sizeof *p);
}

base_sym base_intern(base_intern_pool *p, const char *s, size_t len)
{
    uint64_t h = base_hash_bytes(s, len) & ~(uint64_t)0 >> 1;
    uint64_t first;
    bool have = base_hashmap_get(&p->index, h, &first);
    if (have) {
        for (uint32_t sym = (uint32_t)first; sym != UINT32_MAX; sym = p->next[sym])
            if (p->lens[sym] == len && memcmp(p->strs[sym], s, len) == 0)
                return sym;
    }
    if (p->count == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->strs = base_xrealloc(p->strs, base_mul_size(p->cap, sizeof *p->strs));
        p->lens = base_xrealloc(p->lens, base_mul_size(p->cap, sizeof *p->lens));
        p->next = base_xrealloc(p->next, base_mul_size(p->cap, sizeof *p->next));
    }
    base_sym sym = (base_sym)p->count++;
    p->strs[sym] = base_arena_strndup(&p->arena, s, len);
    p->lens[sym] = (uint32_t)len;
    p->next[sym] = have ? (uint32_t)first : UINT32_MAX;
    base_hashmap_put(&p->index, h, sym);
    return sym;
}

base_sym base_intern_cstr(base_intern_pool *p, const char *s)
{
    return base_intern(p, s, strlen(s));
}

const char *base_sym_str(const base_intern_pool *p, base_sym sym)
{
    return sym < p->count ? p->strs[sym] : "";
}

size_t base_sym_len(const base_intern_pool *p, base_sym sym)
{
    return sym < p->count ? p->lens[sym] : 0;
}
