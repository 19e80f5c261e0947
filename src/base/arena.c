#include "base/arena.h"

#include <stdalign.h>
#include <string.h>

#include "base/xalloc.h"

struct base_arena_chunk {
    base_arena_chunk *prev;
    size_t size; /* usable bytes after the header */
    alignas(max_align_t) unsigned char data[];
};

enum { ARENA_MIN_CHUNK = 4096 };

void base_arena_init(base_arena *a)
{
    a->head = NULL;
    a->used = 0;
    a->total = 0;
}

void base_arena_free(base_arena *a)
{
    base_arena_chunk *c = a->head;
    while (c) {
        base_arena_chunk *prev = c->prev;
        free(c);
        c = prev;
    }
    base_arena_init(a);
}

static size_t align_up(size_t n)
{
    size_t al = alignof(max_align_t);
    return (n + al - 1) & ~(al - 1);
}

void *base_arena_alloc(base_arena *a, size_t size)
{
    size = align_up(size ? size : 1);
    if (!a->head || a->head->size - a->used < size) {
        size_t want = a->head ? a->head->size * 2 : ARENA_MIN_CHUNK;
        if (want < size)
            want = size;
        base_arena_chunk *c = base_xmalloc(sizeof *c + want);
        c->prev = a->head;
        c->size = want;
        a->head = c;
        a->used = 0;
    }
    void *p = a->head->data + a->used;
    a->used += size;
    a->total += size;
    return p;
}

void *base_arena_zalloc(base_arena *a, size_t size)
{
    void *p = base_arena_alloc(a, size);
    memset(p, 0, size);
    return p;
}

char *base_arena_strndup(base_arena *a, const char *s, size_t n)
{
    char *p = base_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *base_arena_strdup(base_arena *a, const char *s)
{
    return base_arena_strndup(a, s, strlen(s));
}
