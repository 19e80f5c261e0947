/* diag: diagnostics for the user, as compilers print them.
 *
 *     file:line:col: error: message
 *
 * A base_diag collects messages in order; analyses never print, they report
 * here and the cli prints (or a test inspects). The message text is one line:
 * newlines in it are replaced by spaces. */
#ifndef RAVEL_BASE_DIAG_H
#define RAVEL_BASE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/srcloc.h"

typedef enum base_severity {
    BASE_SEV_NOTE,
    BASE_SEV_WARNING,
    BASE_SEV_ERROR,
} base_severity;

typedef struct base_diag_msg {
    base_severity sev;
    base_srcloc loc;
    char *file; /* owned copy of loc.file */
    char *text; /* owned, one line */
} base_diag_msg;

typedef struct base_diag {
    base_diag_msg *msgs;
    size_t count, cap;
    size_t errors;
    size_t max_errors; /* stop recording errors after this many (0 = unlimited) */
} base_diag;

void base_diag_init(base_diag *d);
void base_diag_free(base_diag *d);
void base_diag_report(base_diag *d, base_severity sev, base_srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void base_diag_vreport(base_diag *d, base_severity sev, base_srcloc loc, const char *fmt,
                       va_list ap);
#define base_diag_error(d, loc, ...) base_diag_report((d), BASE_SEV_ERROR, (loc), __VA_ARGS__)
#define base_diag_warning(d, loc, ...) base_diag_report((d), BASE_SEV_WARNING, (loc), __VA_ARGS__)
static inline bool base_diag_has_errors(const base_diag *d) { return d->errors > 0; }
/* Formats one message as "file:line:col: error: text" (no newline). */
void base_diag_format(const base_diag_msg *m, char *buf, size_t size);
/* Prints every message, one a line. */
void base_diag_print(const base_diag *d, FILE *out);

#endif
