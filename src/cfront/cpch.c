/* cpch: a precompiled header shared by the units that begin alike (see
 * cpch.h). */
#define _GNU_SOURCE /* mkdtemp, memmem */
#include "cfront/cpch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"

typedef struct pch_name {
    char *abs, *plain;
} pch_name;

struct cf_pch_names {
    BASE_VEC(pch_name) v;
    base_hashmap index; /* hash of abs -> 1 + index (first of a chain) */
    BASE_VEC(char *) files; /* what the PCH read, as the unit cache names files */
};

const char *const *cf_pch_files(const cf_pch_names *m, size_t *n)
{
    *n = m->files.len;
    return (const char *const *)m->files.data;
}

typedef struct pch_group {
    char *key;      /* the directory, the flags and the #include line */
    char *header;   /* the in-memory header's path (the units' directory) */
    char *text;     /* its contents: the #include line */
    char *pch;      /* the saved PCH */
    size_t first;   /* the job whose command builds it */
    size_t members;
    int state;      /* 0 not built, 1 being built, 2 usable, 3 not usable */
    cf_pch_names names;
} pch_group;

struct cf_pch {
    char *dir; /* the temporary directory of the PCHs */
    cf_job *jobs; /* those planned */
    size_t min_bytes, min_units;
    BASE_VEC(pch_group) groups;
    base_hashmap index; /* hash of a key -> 1 + group (first of a chain) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t built, used, fallbacks; /* under mu */
};

/* Options whose value (the next argument, or joined) names an output: not
 * part of a group's command. */
static size_t output_option(const char *a)
{
    size_t dep = cf_dep_output_args(a);
    if (dep)
        return dep;
    if (strncmp(a, "-o", 2) == 0)
        return a[2] ? 1 : 2;
    return 0;
}

/* Options that put text before the unit's first line: no group. */
static bool prepends(const char *a)
{
    return strncmp(a, "-include", 8) == 0 || strncmp(a, "-imacros", 8) == 0 ||
           strncmp(a, "--include", 9) == 0 || strncmp(a, "-fmodules", 9) == 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The argument that names j's source (full_argv), -1 when not exactly one. */
static int source_arg(const cf_job *j)
{
    int at = -1;
    for (int i = 1; i < j->nargs; i++) {
        if (cf_takes_value(j->args[i])) {
            i++;
            continue;
        }
        if (j->args[i][0] == '-' || strcmp(base_name(j->args[i]), base_name(j->path)) != 0)
            continue;
        if (at >= 0)
            return -1;
        at = i;
    }
    return at;
}

/* The source as j's command spells it (clang names the file so). */
static const char *spelling(const cf_job *j)
{
    return j->full_argv ? j->args[j->src_arg] : j->path;
}

bool cf_pch_first_include(const char *s, size_t len, size_t *off, size_t *n)
{
    const char *p = s, *e = s + len;
    while (p < e) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f') {
            p++;
            continue;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '*') {
            const char *q = p + 2;
            while (q + 1 < e && !(q[0] == '*' && q[1] == '/')) {
                if (*q == '\\' || (q[0] == '?' && q[1] == '?'))
                    return false; /* a line splice (or trigraph ??/) could end it elsewhere */
                q++;
            }
            if (q + 1 >= e)
                return false;
            p = q + 2;
            continue;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '/') {
            /* a backslash (or the trigraph ??/) before the newline joins the
             * next line to the comment: give up rather than misread it */
            while (p < e && *p != '\n') {
                if (*p == '\\' || (p + 1 < e && p[0] == '?' && p[1] == '?'))
                    return false;
                p++;
            }
            continue;
        }
        break;
    }
    if (p >= e || *p != '#')
        return false;
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
        return false;
    const char *q = p + 1;
    while (q < nl && (*q == ' ' || *q == '\t'))
        q++;
    if ((size_t)(nl - q) < 8 || strncmp(q, "include", 7) != 0 || (q[7] != ' ' && q[7] != '\t' &&
                                                                   q[7] != '"' && q[7] != '<'))
        return false;
    for (const char *r = p; r < nl; r++)
        if (*r == '\\' || *r == '\0' || (r + 1 < nl && r[0] == '/' && (r[1] == '*' || r[1] == '/')))
            return false;
    *off = (size_t)(p - s);
    *n = (size_t)(nl - p);
    return true;
}

/* The group key of j (NULL: j is in no group); sets its pch_text. */
static char *group_key(cf_job *j)
{
    for (int i = 0; i < j->nargs; i++)
        if (prepends(j->args[i]))
            return NULL;
    j->src_arg = j->full_argv ? source_arg(j) : -1;
    if (j->full_argv && j->src_arg < 0)
        return NULL;
    size_t len;
    char *text = base_read_file(j->path, &len);
    size_t off, n;
    if (!text || !cf_pch_first_include(text, len, &off, &n)) {
        free(text);
        return NULL;
    }
    base_strbuf k = { 0 };
    const char *slash = strrchr(j->path, '/'), *src = spelling(j);
    base_strbuf_printf(&k, "%.*s%c%.*s%c%d", slash ? (int)(slash - j->path) : 0, j->path, 0,
                       (int)(base_name(src) - src), src, 0, j->full_argv);
    for (int i = 0; i < j->nargs; i++) {
        size_t skip = output_option(j->args[i]);
        if (i == j->src_arg || skip) {
            i += skip ? (int)skip - 1 : 0;
            continue;
        }
        base_strbuf_printf(&k, "%c%s", 0, j->args[i]);
    }
    base_strbuf_printf(&k, "%c%.*s", 0, (int)n, text + off);
    memset(text + off, ' ', n);
    j->pch_text = text;
    j->pch_len = len;
    /* the key is compared whole: it holds NULs, so keep its length first */
    char *key = base_xmalloc(k.len + sizeof(size_t));
    memcpy(key, &k.len, sizeof(size_t));
    memcpy(key + sizeof(size_t), k.data, k.len);
    base_strbuf_free(&k);
    return key;
}

static bool same_key(const char *a, const char *b)
{
    size_t na, nb;
    memcpy(&na, a, sizeof na);
    memcpy(&nb, b, sizeof nb);
    return na == nb && memcmp(a, b, na + sizeof na) == 0;
}

/* The group of key, made when new (the key is then its). */
static size_t group_of(cf_pch *k, char *key, size_t job, const char *text, size_t n)
{
    size_t len;
    memcpy(&len, key, sizeof len);
    uint64_t h = base_hash_bytes(key, len + sizeof len);
    for (uint64_t probe = h;; probe++) {
        uint64_t at;
        if (probe == BASE_HASHMAP_EMPTY)
            continue;
        if (!base_hashmap_get(&k->index, probe, &at)) {
            pch_group g = { .key = key, .first = job };
            base_hashmap_init(&g.names.index);
            g.text = base_xmalloc(n + 2);
            memcpy(g.text, text, n);
            g.text[n] = '\n';
            g.text[n + 1] = 0;
            base_vec_push(&k->groups, g);
            base_hashmap_put(&k->index, probe, k->groups.len);
            return k->groups.len - 1;
        }
        if (same_key(k->groups.data[at - 1].key, key)) {
            free(key);
            return at - 1;
        }
    }
}

cf_pch *cf_pch_plan(const cfront_opts *o, cf_job *jobs, size_t n)
{
    (void)o;
    if (n < 2)
        return NULL;
    cf_pch *k = base_xcalloc(1, sizeof *k);
    base_hashmap_init(&k->index);
    const char *mb = getenv("RAVEL_PCH_MIN_BYTES"); /* for the tests */
    k->min_bytes = mb && *mb ? (size_t)strtoull(mb, NULL, 10) : CF_PCH_MIN_BYTES;
    const char *mu = getenv("RAVEL_PCH_MIN_UNITS"); /* for the tests */
    k->min_units = mu && *mu ? (size_t)strtoull(mu, NULL, 10) : CF_PCH_MIN_UNITS;
    if (k->min_units < 2)
        k->min_units = 2;
    k->jobs = jobs;
    for (size_t i = 0; i < n; i++) {
        cf_job *j = &jobs[i];
        j->pch_group = -1;
        if (j->probe == 1)
            continue; /* its unit is in the cache: never parsed, no PCH for it */
        char *key = group_key(j);
        if (!key)
            continue;
        size_t klen; /* the #include line is the key's last field */
        memcpy(&klen, key, sizeof klen);
        const char *line = key + sizeof klen + klen;
        while (line > key + sizeof klen && line[-1] != 0)
            line--;
        size_t g = group_of(k, key, i, line, (size_t)(key + sizeof klen + klen - line));
        k->groups.data[g].members++;
        j->pch_group = (int)g;
    }
    size_t shared = 0;
    for (size_t i = 0; i < n; i++) {
        cf_job *j = &jobs[i];
        if (j->pch_group >= 0 && k->groups.data[j->pch_group].members < k->min_units) {
            j->pch_group = -1;
            free(j->pch_text);
            j->pch_text = NULL;
        }
        shared += j->pch_group >= 0;
    }
    if (shared) {
        const char *tmp = getenv("TMPDIR");
        base_strbuf d = { 0 };
        base_strbuf_printf(&d, "%s/ravel-pch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(d.data)) {
            k->dir = d.data;
            d.data = NULL;
        }
        base_strbuf_free(&d);
    }
    if (!k->dir) {
        for (size_t i = 0; i < n; i++) {
            jobs[i].pch_group = -1;
            free(jobs[i].pch_text);
            jobs[i].pch_text = NULL;
        }
        cf_pch_free(k, NULL);
        return NULL;
    }
    for (size_t g = 0; g < k->groups.len; g++) {
        pch_group *pg = &k->groups.data[g];
        /* beside the units, spelt as their commands spell them, so that
         * what it includes is found and named as from them */
        const char *src = spelling(&jobs[pg->first]);
        base_strbuf h = { 0 };
        base_strbuf_printf(&h, "%.*s.ravel-pch-%zu.h", (int)(base_name(src) - src), src, g);
        pg->header = h.data;
        base_strbuf p = { 0 };
        base_strbuf_printf(&p, "%s/%zu.pch", k->dir, g);
        pg->pch = p.data;
    }
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    return k;
}

const char *cf_pch_plain_name(const cf_pch_names *m, const char *name)
{
    for (uint64_t probe = base_hash_bytes(name, strlen(name));; probe++) {
        uint64_t at;
        if (probe == BASE_HASHMAP_EMPTY)
            continue;
        if (!base_hashmap_get(&m->index, probe, &at))
            return name;
        if (strcmp(m->v.data[at - 1].abs, name) == 0)
            return m->v.data[at - 1].plain;
    }
}

/* name as clang's PCH writer writes it: made absolute against the working
 * directory, "." components and repeated '/' dropped. */
static char *absolute(const char *wd, const char *name)
{
    base_strbuf in = { 0 }, out = { 0 };
    if (name[0] == '/')
        base_strbuf_printf(&in, "%s", name);
    else
        base_strbuf_printf(&in, "%s/%s", wd, name);
    for (char *p = in.data; *p;) {
        while (*p == '/')
            p++;
        char *e = p;
        while (*e && *e != '/')
            e++;
        if (e > p && !(e - p == 1 && *p == '.'))
            base_strbuf_printf(&out, "/%.*s", (int)(e - p), p);
        p = e;
    }
    base_strbuf_free(&in);
    if (!out.data)
        base_strbuf_printf(&out, "/");
    return out.data;
}

/* What the PCH's header read: the bytes of its files (the in-memory
 * header left out) and the map of their names. */
typedef struct read_files {
    const char *header, *wd;
    size_t bytes;
    cf_pch_names *names;
    bool base_file; /* one of them says __BASE_FILE__ */
} read_files;

static void read_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    (void)stack;
    (void)n;
    read_files *r = data;
    CXString s = clang_getFileName(f);
    const char *p = clang_getCString(s);
    struct stat st;
    if (p && strcmp(p, r->header) != 0) {
        CXString rs = clang_File_tryGetRealPathName(f);
        const char *rp = clang_getCString(rs);
        base_vec_push(&r->names->files, base_xstrdup(rp && *rp ? rp : p));
        clang_disposeString(rs);
        char *abs = absolute(r->wd, p); /* p may be relative to the working directory */
        if (stat(abs, &st) == 0)
            r->bytes += (size_t)st.st_size;
        /* __BASE_FILE__ in the PCH would be its header, not the unit */
        size_t len;
        char *text = r->base_file ? NULL : base_read_file(abs, &len);
        r->base_file |= text && memmem(text, len, "__BASE_FILE__", 13);
        free(text);
        if (strcmp(abs, p) != 0 && strcmp(cf_pch_plain_name(r->names, abs), abs) == 0) {
            pch_name nm = { abs, base_xstrdup(p) };
            base_vec_push(&r->names->v, nm);
            uint64_t probe = base_hash_bytes(abs, strlen(abs));
            while (probe == BASE_HASHMAP_EMPTY || base_hashmap_get(&r->names->index, probe, NULL))
                probe++;
            base_hashmap_put(&r->names->index, probe, r->names->v.len);
        } else {
            free(abs);
        }
    }
    clang_disposeString(s);
}

/* The working directory of j's command. */
static char *working_dir(const cf_job *j)
{
    for (int i = 0; i < j->nargs; i++) {
        if (strncmp(j->args[i], "-working-directory=", 19) == 0)
            return base_xstrdup(j->args[i] + 19);
        if (strcmp(j->args[i], "-working-directory") == 0 && i + 1 < j->nargs)
            return base_xstrdup(j->args[i + 1]);
    }
    char cwd[4096];
    return base_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
}

static bool has_error(CXTranslationUnit tu)
{
    bool r = false;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n && !r; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        r = clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error;
        clang_disposeDiagnostic(dg);
    }
    return r;
}

/* Builds g's PCH with j's command; true when it is usable. */
static bool build(const cfront_opts *o, CXIndex idx, pch_group *g, const cf_job *j, cf_flagset *bad,
                  size_t min_bytes)
{
    const char **args = base_xmalloc((size_t)(j->nargs + 4) * sizeof *args);
    int m = 0;
    for (int i = 0; i < j->nargs; i++) {
        size_t skip = output_option(j->args[i]);
        if (i == j->src_arg || skip) {
            i += skip ? (int)skip - 1 : 0;
            continue;
        }
        args[m++] = j->args[i];
    }
    args[m++] = "-x";
    args[m++] = "c-header";
    if (j->full_argv)
        args[m++] = g->header;
    cf_job hj = { .path = g->header, .args = (char **)args, .nargs = m, .full_argv = j->full_argv,
                  .pch_group = -1, .src_arg = -1 };
    struct CXUnsavedFile un = { g->header, g->text, (unsigned long)strlen(g->text) };
    cf_parse_with with = { .unsaved = &un,
                           .flags = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization };
    cf_parse_once(o, idx, &hj, bad, &with);
    if (hj.tu && bad && cf_learn_bad_flags(bad, hj.tu)) {
        clang_disposeTranslationUnit(hj.tu);
        hj.tu = NULL;
        cf_parse_once(o, idx, &hj, bad, &with);
    }
    bool ok = false;
    if (hj.tu && !has_error(hj.tu)) {
        char *wd = working_dir(j);
        read_files r = { g->header, wd, 0, &g->names, false };
        clang_getInclusions(hj.tu, read_inclusion, &r);
        free(wd);
        ok = r.bytes >= min_bytes && !r.base_file &&
             clang_saveTranslationUnit(hj.tu, g->pch, clang_defaultSaveOptions(hj.tu)) ==
                 CXSaveError_None;
    }
    if (hj.tu)
        clang_disposeTranslationUnit(hj.tu);
    for (size_t i = 0; i < hj.dropped.len; i++)
        free(hj.dropped.data[i]);
    base_vec_free(&hj.dropped);
    free(args);
    return ok;
}

void cf_pch_retried(cf_pch *k)
{
    pthread_mutex_lock(&k->mu);
    k->used--;
    k->fallbacks++;
    pthread_mutex_unlock(&k->mu);
}

/* Builds group gi's PCH with the command of job j unless it is built or
 * being built (then waits for it); its state. */
static int ensure_built(cf_pch *k, const cfront_opts *o, CXIndex idx, size_t gi, const cf_job *j,
                        cf_flagset *bad)
{
    pch_group *g = &k->groups.data[gi];
    pthread_mutex_lock(&k->mu);
    while (g->state == 1)
        pthread_cond_wait(&k->cv, &k->mu);
    if (g->state == 0) {
        g->state = 1;
        pthread_mutex_unlock(&k->mu);
        bool ok = build(o, idx, g, j, bad, k->min_bytes);
        pthread_mutex_lock(&k->mu);
        g->state = ok ? 2 : 3;
        k->built += ok;
        pthread_cond_broadcast(&k->cv);
    }
    int state = g->state;
    pthread_mutex_unlock(&k->mu);
    return state;
}

static CXIndex pch_index(CXIndex *pidx)
{
    if (!*pidx) /* its parses list only their own declarations (the PCH's are not visited) */
        *pidx = clang_createIndex(1, 0);
    return *pidx;
}

size_t cf_pch_groups(const cf_pch *k)
{
    return k ? k->groups.len : 0;
}

void cf_pch_prebuild(cf_pch *k, const cfront_opts *o, CXIndex *pidx, size_t g, cf_flagset *bad)
{
    pch_group *pg = &k->groups.data[g];
    if (pg->members < k->min_units)
        return;
    pthread_mutex_lock(&k->mu);
    bool todo = pg->state == 0;
    pthread_mutex_unlock(&k->mu);
    if (todo)
        ensure_built(k, o, pch_index(pidx), g, &k->jobs[pg->first], bad);
}

bool cf_pch_parse(cf_pch *k, const cfront_opts *o, CXIndex *pidx, cf_job *j, cf_flagset *bad)
{
    if (j->pch_group < 0)
        return false;
    CXIndex idx = pch_index(pidx);
    pch_group *g = &k->groups.data[j->pch_group];
    if (ensure_built(k, o, idx, (size_t)j->pch_group, j, bad) != 2)
        return false;
    const char *args[] = { "-include-pch", g->pch };
    /* named as the command names it: clang's name of the main file (and
     * __FILE__) stay as without the PCH */
    struct CXUnsavedFile un = { spelling(j), j->pch_text, (unsigned long)j->pch_len };
    cf_parse_with with = { .args = args, .nargs = 2, .unsaved = &un };
    cf_parse_once(o, idx, j, bad, &with);
    bool ok = j->tu && !j->err && !has_error(j->tu);
    if (!ok && j->tu) {
        if (bad)
            cf_learn_bad_flags(bad, j->tu);
        clang_disposeTranslationUnit(j->tu);
    }
    pthread_mutex_lock(&k->mu);
    if (ok)
        k->used++;
    else
        k->fallbacks++;
    pthread_mutex_unlock(&k->mu);
    if (!ok) {
        j->tu = NULL;
        j->err = 0;
        return false;
    }
    j->pch_header = g->header;
    j->pch_names = &g->names;
    return true;
}

void cf_pch_free(cf_pch *k, cfront_stats *st)
{
    if (st) {
        st->pch_built += k->built;
        st->units_pch += k->used;
        st->pch_fallbacks += k->fallbacks;
    }
    for (size_t g = 0; g < k->groups.len; g++) {
        pch_group *pg = &k->groups.data[g];
        if (pg->pch)
            unlink(pg->pch);
        free(pg->key);
        free(pg->header);
        free(pg->text);
        free(pg->pch);
        for (size_t i = 0; i < pg->names.v.len; i++) {
            free(pg->names.v.data[i].abs);
            free(pg->names.v.data[i].plain);
        }
        base_vec_free(&pg->names.v);
        for (size_t i = 0; i < pg->names.files.len; i++)
            free(pg->names.files.data[i]);
        base_vec_free(&pg->names.files);
        base_hashmap_free(&pg->names.index);
    }
    base_vec_free(&k->groups);
    base_hashmap_free(&k->index);
    if (k->dir) {
        rmdir(k->dir);
        pthread_mutex_destroy(&k->mu);
        pthread_cond_destroy(&k->cv);
    }
    free(k->dir);
    free(k);
}
