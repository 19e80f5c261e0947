#include "base/diag.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

void base_diag_init(base_diag *d)
{
    memset(d, 0, sizeof *d);
}

void base_diag_free(base_diag *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free(d->msgs[i].file);
        free(d->msgs[i].text);
    }
    free(d->msgs);
    base_diag_init(d);
}

void base_diag_vreport(base_diag *d, base_severity sev, base_srcloc loc, const char *fmt,
                       va_list ap)
{
    if (sev == BASE_SEV_ERROR) {
        d->errors++;
        if (d->max_errors && d->errors > d->max_errors)
            return;
    }
    base_strbuf b = { 0 };
    base_strbuf_vprintf(&b, fmt, ap);
    for (size_t i = 0; i < b.len; i++)
        if (b.data[i] == '\n' || b.data[i] == '\r')
            b.data[i] = ' ';
    if (d->count == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->msgs = base_xrealloc(d->msgs, base_mul_size(d->cap, sizeof *d->msgs));
    }
    base_diag_msg *m = &d->msgs[d->count++];
    m->sev = sev;
    m->file = base_xstrdup(loc.file ? loc.file : "<input>");
    m->loc = loc;
    m->loc.file = m->file;
    m->text = b.data ? b.data : base_xstrdup("");
}

void base_diag_report(base_diag *d, base_severity sev, base_srcloc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_diag_vreport(d, sev, loc, fmt, ap);
    va_end(ap);
}

static const char *sev_name(base_severity s)
{
    switch (s) {
    case BASE_SEV_NOTE: return "note";
    case BASE_SEV_WARNING: return "warning";
    default: return "error";
    }
}

void base_diag_format(const base_diag_msg *m, char *buf, size_t size)
{
    if (m->loc.line == 0)
        snprintf(buf, size, "%s: %s: %s", m->file, sev_name(m->sev), m->text);
    else
        snprintf(buf, size, "%s:%u:%u: %s: %s", m->file, m->loc.line, m->loc.col,
                 sev_name(m->sev), m->text);
}

void base_diag_print(const base_diag *d, FILE *out)
{
    for (size_t i = 0; i < d->count; i++) {
        const base_diag_msg *m = &d->msgs[i];
        if (m->loc.line == 0)
            fprintf(out, "%s: %s: %s\n", m->file, sev_name(m->sev), m->text);
        else
            fprintf(out, "%s:%u:%u: %s: %s\n", m->file, m->loc.line, m->loc.col,
                    sev_name(m->sev), m->text);
    }
}
