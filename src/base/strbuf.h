/* strbuf: a growable NUL-terminated byte buffer for building text.
 *
 * Invariant: data[len] == '\0' whenever data != NULL. A zeroed strbuf is a
 * valid empty buffer; base_strbuf_cstr never returns NULL. */
#ifndef RAVEL_BASE_STRBUF_H
#define RAVEL_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct base_strbuf {
    char *data;
    size_t len, cap;
} base_strbuf;

void base_strbuf_free(base_strbuf *b);
void base_strbuf_clear(base_strbuf *b);
void base_strbuf_putc(base_strbuf *b, char c);
void base_strbuf_puts(base_strbuf *b, const char *s);
void base_strbuf_put(base_strbuf *b, const char *s, size_t n);
void base_strbuf_printf(base_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void base_strbuf_vprintf(base_strbuf *b, const char *fmt, va_list ap);
const char *base_strbuf_cstr(const base_strbuf *b);
/* Writes the JSON string literal for s (with quotes and escapes). */
void base_strbuf_json_string(base_strbuf *b, const char *s);

/* Reads a whole file. Returns NULL and sets errno on failure. Appends a NUL;
 * *len excludes it. */
char *base_read_file(const char *path, size_t *len);

#endif
