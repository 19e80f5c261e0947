#include "base/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static void reserve(base_strbuf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < need)
        ncap = base_mul_size(ncap, 2);
    b->data = base_xrealloc(b->data, ncap);
    b->cap = ncap;
}

void base_strbuf_free(base_strbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void base_strbuf_clear(base_strbuf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void base_strbuf_put(base_strbuf *b, const char *s, size_t n)
{
    reserve(b, n);
    if (n) /* s may be NULL when n is 0 (an empty strbuf's data) */
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void base_strbuf_putc(base_strbuf *b, char c)
{
    base_strbuf_put(b, &c, 1);
}

void base_strbuf_puts(base_strbuf *b, const char *s)
{
    base_strbuf_put(b, s, strlen(s));
}

void base_strbuf_vprintf(base_strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void base_strbuf_printf(base_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *base_strbuf_cstr(const base_strbuf *b)
{
    return b->data ? b->data : "";
}

void base_strbuf_json_string(base_strbuf *b, const char *s)
{
    base_strbuf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': base_strbuf_puts(b, "\\\""); break;
        case '\\': base_strbuf_puts(b, "\\\\"); break;
        case '\n': base_strbuf_puts(b, "\\n"); break;
        case '\r': base_strbuf_puts(b, "\\r"); break;
        case '\t': base_strbuf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20)
                base_strbuf_printf(b, "\\u%04x", *p);
            else
                base_strbuf_putc(b, (char)*p);
        }
    }
    base_strbuf_putc(b, '"');
}

char *base_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    base_strbuf b = { 0 };
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        base_strbuf_put(&b, chunk, n);
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {
        base_strbuf_free(&b);
        errno = err ? err : EIO;
        return NULL;
    }
    if (!b.data)
        base_strbuf_put(&b, "", 0);
    if (len)
        *len = b.len;
    return b.data;
}
