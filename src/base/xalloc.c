#include "base/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "ravel: error: out of memory (allocating %zu bytes)\n", size);
    exit(BASE_EXIT_RESOURCE);
}

size_t base_mul_size(size_t a, size_t b)
{
    if (b != 0 && a > SIZE_MAX / b)
        out_of_memory(SIZE_MAX);
    return a * b;
}

void *base_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *base_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(base_mul_size(count, size));
    return p;
}

void *base_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

char *base_xstrndup(const char *s, size_t n)
{
    char *p = base_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *base_xstrdup(const char *s)
{
    return base_xstrndup(s, strlen(s));
}
