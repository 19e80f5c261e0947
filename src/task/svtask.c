/* svtask: see svtask.h. A line-based reader: each line is `key: value`,
 * `- key: value` (a list item, opening a map) or `- value`, with its
 * indentation deciding whether it belongs to the current top-level key.
 * Quotes (single or double) around scalars are removed; `#` starts a
 * comment outside quotes. */
#include "task/svtask.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

typedef struct reader {
    svtask *t;
    const char *path;
    base_diag *d;
    bool ok;
} reader;

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return base_xstrdup(".");
    size_t n = (size_t)(slash - path);
    char *r = base_xmalloc(n + 1);
    memcpy(r, path, n);
    r[n] = 0;
    return r[0] ? r : (free(r), base_xstrdup("/"));
}

static char *resolve(const char *task_path, const char *rel)
{
    if (rel[0] == '/')
        return base_xstrdup(rel);
    char *dir = dir_of(task_path);
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *r = base_xmalloc(n);
    snprintf(r, n, "%s/%s", dir, rel);
    free(dir);
    return r;
}

/* A scalar: trims blanks and a comment, removes quotes. NULL when a quote
 * is not closed. */
static char *scalar(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    if (n && (*s == '\'' || *s == '"')) {
        char q = *s;
        const char *end = memchr(s + 1, q, n - 1);
        if (!end)
            return NULL;
        size_t m = (size_t)(end - s - 1);
        char *r = base_xmalloc(m + 1);
        memcpy(r, s + 1, m);
        r[m] = 0;
        return r;
    }
    const char *hash = memchr(s, '#', n);
    if (hash)
        n = (size_t)(hash - s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    char *r = base_xmalloc(n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

static void error(reader *r, unsigned line, unsigned col, const char *msg)
{
    base_diag_error(r->d, base_srcloc_make(r->path, line, col), "%s", msg);
    r->ok = false;
}

static void add_input(reader *r, const char *v)
{
    svtask *t = r->t;
    t->inputs = base_xrealloc(t->inputs, (t->ninputs + 1) * sizeof *t->inputs);
    t->inputs[t->ninputs++] = resolve(r->path, v);
}

static svtask_prop_kind prop_kind(const char *file)
{
    size_t len;
    char *text = base_read_file(file, &len);
    svtask_prop_kind k = SVTASK_OTHER;
    if (text) {
        if (strstr(text, "call(reach_error())"))
            k = SVTASK_UNREACH_CALL;
        else if (strstr(text, "data-race"))
            k = SVTASK_NO_DATA_RACE;
        free(text);
    } else if (strstr(file, "unreach-call.prp")) {
        k = SVTASK_UNREACH_CALL;
    } else if (strstr(file, "no-data-race.prp")) {
        k = SVTASK_NO_DATA_RACE;
    }
    return k;
}

static void prop_field(reader *r, unsigned line, unsigned col, const char *key, const char *val)
{
    svtask *t = r->t;
    if (!t->nprops) {
        error(r, line, col, "a property field outside a list item");
        return;
    }
    svtask_prop *p = &t->props[t->nprops - 1];
    if (strcmp(key, "property_file") == 0) {
        free(p->file);
        p->file = resolve(r->path, val);
        p->kind = prop_kind(p->file);
    } else if (strcmp(key, "expected_verdict") == 0) {
        if (strcmp(val, "true") == 0)
            p->expected = 1;
        else if (strcmp(val, "false") == 0)
            p->expected = 0;
        else
            error(r, line, col, "expected_verdict must be true or false");
    } /* subproperty and others: not needed */
}

bool svtask_parse(svtask *t, const char *path, const char *text, size_t len, base_diag *d)
{
    memset(t, 0, sizeof *t);
    reader r = { t, path, d, true };
    char section[64] = "";
    unsigned line = 0;
    for (size_t pos = 0; pos < len;) {
        const char *s = text + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + 1;
        line++;
        if (memchr(s, 0, n)) {
            error(&r, line, 1, "the task file contains a NUL byte");
            break;
        }
        size_t ind = 0;
        while (ind < n && (s[ind] == ' ' || s[ind] == '\t'))
            ind++;
        if (ind == n || s[ind] == '#' || s[ind] == '\r')
            continue;
        bool item = s[ind] == '-' && (ind + 1 == n || s[ind + 1] == ' ');
        size_t kstart = ind;
        if (item) /* past "- ", or past a lone "-" at the end of the line */
            kstart = ind + 2 <= n ? ind + 2 : n;
        while (kstart < n && s[kstart] == ' ')
            kstart++;
        const char *colon = memchr(s + kstart, ':', n - kstart);
        bool quoted = kstart < n && (s[kstart] == '\'' || s[kstart] == '"');
        if (colon && !quoted && (colon + 1 == s + n || colon[1] == ' ' || colon[1] == '\r')) {
            size_t klen = (size_t)(colon - s - kstart);
            char key[64];
            if (klen >= sizeof key) {
                error(&r, line, (unsigned)kstart + 1, "a key longer than 63 characters");
                continue;
            }
            memcpy(key, s + kstart, klen);
            key[klen] = 0;
            char *val = scalar(colon + 1, (size_t)(s + n - colon - 1));
            if (!val) {
                size_t q = (size_t)(colon - s) + 1;
                while (q < n && s[q] == ' ')
                    q++;
                error(&r, line, (unsigned)q + 1, "a quote that is not closed");
                continue;
            }
            if (ind == 0 && !item) {
                snprintf(section, sizeof section, "%s", key);
                if (strcmp(key, "input_files") == 0 && *val)
                    add_input(&r, val);
            } else if (strcmp(section, "properties") == 0) {
                if (item) {
                    t->props = base_xrealloc(t->props, (t->nprops + 1) * sizeof *t->props);
                    t->props[t->nprops++] = (svtask_prop){ NULL, SVTASK_OTHER, -1 };
                }
                prop_field(&r, line, (unsigned)kstart + 1, key, val);
            } else if (strcmp(section, "options") == 0) {
                if (strcmp(key, "data_model") == 0)
                    t->ilp32 = strcmp(val, "ILP32") == 0;
                else if (strcmp(key, "language") == 0) {
                    free(t->language);
                    t->language = base_xstrdup(val);
                }
            }
            free(val);
        } else if (item && strcmp(section, "input_files") == 0) {
            char *val = scalar(s + kstart, n - kstart);
            if (!val)
                error(&r, line, (unsigned)kstart + 1, "a quote that is not closed");
            else if (*val)
                add_input(&r, val);
            free(val);
        } else {
            error(&r, line, (unsigned)ind + 1, "expected `key: value` or a list item");
        }
    }
    if (r.ok && !t->ninputs)
        error(&r, 0, 0, "the task names no input_files");
    for (size_t i = 0; r.ok && i < t->nprops; i++)
        if (!t->props[i].file)
            error(&r, 0, 0, "a property without property_file");
    return r.ok;
}

bool svtask_load(svtask *t, const char *path, base_diag *d)
{
    size_t len;
    char *text = base_read_file(path, &len);
    if (!text) {
        memset(t, 0, sizeof *t);
        base_diag_error(d, base_srcloc_make(path, 0, 0), "cannot read the task file: %s",
                        strerror(errno));
        return false;
    }
    bool ok = svtask_parse(t, path, text, len, d);
    free(text);
    return ok;
}

void svtask_free(svtask *t)
{
    for (size_t i = 0; i < t->ninputs; i++)
        free(t->inputs[i]);
    free(t->inputs);
    for (size_t i = 0; i < t->nprops; i++)
        free(t->props[i].file);
    free(t->props);
    free(t->language);
    memset(t, 0, sizeof *t);
}

const svtask_prop *svtask_find(const svtask *t, svtask_prop_kind kind)
{
    for (size_t i = 0; i < t->nprops; i++)
        if (t->props[i].kind == kind)
            return &t->props[i];
    return NULL;
}
