/* libFuzzer harness for the scan that finds a unit's leading #include
 * (cfront/cpch.h: the line a shared precompiled header replaces): any
 * bytes as a unit's text. A line it finds lies within the text, begins
 * with '#', names include, holds no newline and is followed by one. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfront/cpch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t off = 0, n = 0;
    if (!cf_pch_first_include(s, size, &off, &n))
        return 0;
    if (off > size || n > size - off || off + n >= size || s[off] != '#' || s[off + n] != '\n')
        abort();
    if (memchr(s + off, '\n', n) || memchr(s + off, '\\', n))
        abort();
    const char *inc = NULL;
    for (size_t i = off + 1; i + 7 <= off + n && !inc; i++)
        if (memcmp(s + i, "include", 7) == 0)
            inc = s + i;
    if (!inc)
        abort();
    return 0;
}
