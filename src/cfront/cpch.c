/* cpch: a precompiled header shared by the units that begin alike (see
 * cpch.h). */
#define _GNU_SOURCE /* mkdtemp, memmem */
#include "cfront/cpch.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
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
    /* shared by processes (cf_pch_shared): the cache directory, the
     * group's key (hex), the lock held while building (-1: none) */
    char *cache, *gkey;
    int lock_fd;
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

/* An empty plan of the jobs, with its bounds (the environment changes
 * them, for the tests). */
static cf_pch *pch_new(cf_job *jobs)
{
    cf_pch *k = base_xcalloc(1, sizeof *k);
    k->lock_fd = -1;
    base_hashmap_init(&k->index);
    const char *mb = getenv("RAVEL_PCH_MIN_BYTES");
    k->min_bytes = mb && *mb ? (size_t)strtoull(mb, NULL, 10) : CF_PCH_MIN_BYTES;
    const char *mu = getenv("RAVEL_PCH_MIN_UNITS");
    k->min_units = mu && *mu ? (size_t)strtoull(mu, NULL, 10) : CF_PCH_MIN_UNITS;
    if (k->min_units < 2)
        k->min_units = 2;
    k->jobs = jobs;
    return k;
}

cf_pch *cf_pch_plan(const cfront_opts *o, cf_job *jobs, size_t n)
{
    (void)o;
    if (n < 2)
        return NULL;
    cf_pch *k = pch_new(jobs);
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

/* --- a PCH shared by processes: the capture's wrappers (cf_pch_shared) --- */

#define SHARED_MAGIC "ravel-pch-manifest 1"

static char *in_cache(const cf_pch *k, const char *ext)
{
    base_strbuf b = { 0 };
    base_strbuf_printf(&b, "%s/%s%s", k->cache, k->gkey, ext);
    return b.data;
}

static void unlink_manifest(cf_pch *k)
{
    char *m = in_cache(k, ".pcm");
    unlink(m);
    free(m);
}

/* Writes text to path by a temporary file and a rename. */
static bool write_atomic(const char *path, const char *text, size_t len)
{
    base_strbuf t = { 0 };
    base_strbuf_printf(&t, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(t.data, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    ok = ok && rename(t.data, path) == 0;
    if (!ok)
        unlink(t.data);
    base_strbuf_free(&t);
    return ok;
}

/* After g's build (ok: usable): the PCH renamed to its content's name and
 * the manifest written (a build that failed is recorded too, keyed by the
 * same files: no other unit tries again until one of them changes).
 * Returns whether the PCH is usable. */
static bool publish(cf_pch *k, pch_group *g, bool ok)
{
    base_sha256 h;
    base_sha256_init(&h);
    base_sha256_update(&h, k->gkey, 65);
    base_strbuf m = { 0 };
    size_t nf = g->names.files.len;
    bool hashed = true;
    for (size_t i = 0; i < nf; i++) {
        const char *f = g->names.files.data[i];
        char hex[65];
        if (!base_sha256_file(f, hex) || strpbrk(f, "\n\t"))
            hashed = false;
        base_sha256_update(&h, f, strlen(f) + 1);
        base_sha256_update(&h, hex, 65);
        base_strbuf_printf(&m, "F %s %s\n", hex, f);
    }
    for (size_t i = 0; i < g->names.v.len; i++) {
        const pch_name *nm = &g->names.v.data[i];
        if (strpbrk(nm->abs, "\n\t") || strpbrk(nm->plain, "\n\t"))
            hashed = false;
        base_strbuf_printf(&m, "N %s\t%s\n", nm->abs, nm->plain);
    }
    uint8_t d[32];
    base_sha256_final(&h, d);
    char content[65];
    base_sha256_hex(d, content);
    base_strbuf final = { 0 };
    base_strbuf_printf(&final, "%s/%s.pch", k->cache, content);
    if (ok && hashed && rename(g->pch, final.data) == 0) {
        free(g->pch);
        g->pch = final.data;
        final.data = NULL;
    } else {
        ok = false;
    }
    if (hashed) {
        base_strbuf t = { 0 };
        base_strbuf_printf(&t, "%s\n%s %s\n%s", SHARED_MAGIC, ok ? "pch" : "none",
                           ok ? base_name(g->pch) : "-", m.data ? m.data : "");
        char *mf = in_cache(k, ".pcm");
        write_atomic(mf, t.data, t.len);
        free(mf);
        base_strbuf_free(&t);
    }
    base_strbuf_free(&final);
    base_strbuf_free(&m);
    return ok;
}

/* Reads g's manifest: 2 (a usable PCH, its names loaded), 3 (recorded as
 * not usable), 0 (none, or one of its files changed). */
static int read_manifest(cf_pch *k, pch_group *g)
{
    char *mf = in_cache(k, ".pcm");
    size_t len;
    char *text = base_read_file(mf, &len);
    free(mf);
    int r = 0;
    if (!text || strlen(text) != len)
        goto out;
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, SHARED_MAGIC) != 0)
        goto out;
    line = strtok_r(NULL, "\n", &save);
    bool usable = line && strncmp(line, "pch ", 4) == 0 && !strchr(line + 4, '/') && line[4];
    if (!line || (!usable && strcmp(line, "none -") != 0))
        goto out;
    char *pch = usable ? line + 4 : NULL;
    cf_pch_names nm = { 0 };
    base_hashmap_init(&nm.index);
    bool bad = false;
    while (!bad && (line = strtok_r(NULL, "\n", &save))) {
        if (strncmp(line, "F ", 2) == 0 && strlen(line) > 68 && line[66] == ' ') {
            line[66] = 0;
            char now[65];
            bad = !base_sha256_file(line + 67, now) || strcmp(now, line + 2) != 0;
            base_vec_push(&nm.files, base_xstrdup(line + 67));
        } else if (strncmp(line, "N ", 2) == 0 && strchr(line, '\t')) {
            char *tab = strchr(line, '\t');
            *tab = 0;
            pch_name n = { base_xstrdup(line + 2), base_xstrdup(tab + 1) };
            base_vec_push(&nm.v, n);
            uint64_t probe = base_hash_bytes(n.abs, strlen(n.abs));
            while (probe == BASE_HASHMAP_EMPTY || base_hashmap_get(&nm.index, probe, NULL))
                probe++;
            base_hashmap_put(&nm.index, probe, nm.v.len);
        } else {
            bad = true;
        }
    }
    base_strbuf p = { 0 };
    if (!bad && pch) {
        base_strbuf_printf(&p, "%s/%s", k->cache, pch);
        bad = access(p.data, R_OK) != 0;
    }
    if (bad) {
        for (size_t i = 0; i < nm.v.len; i++) {
            free(nm.v.data[i].abs);
            free(nm.v.data[i].plain);
        }
        base_vec_free(&nm.v);
        for (size_t i = 0; i < nm.files.len; i++)
            free(nm.files.data[i]);
        base_vec_free(&nm.files);
        base_hashmap_free(&nm.index);
        base_strbuf_free(&p);
        goto out;
    }
    base_hashmap_free(&g->names.index);
    g->names = nm;
    if (pch) {
        free(g->pch);
        g->pch = p.data;
    }
    r = pch ? 2 : 3;
out:
    free(text);
    return r;
}

/* How many units of the group came here before (one byte appended to a
 * file each time: appends are atomic). */
static size_t sightings(const cf_pch *k)
{
    char *sf = in_cache(k, ".seen");
    int fd = open(sf, O_WRONLY | O_CREAT | O_APPEND, 0666);
    free(sf);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t n = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
    if (write(fd, "u", 1) != 1)
        n = 0;
    close(fd);
    return n;
}

cf_pch *cf_pch_shared(const cfront_opts *o, cf_job *j, const char *cache)
{
    j->pch_group = -1;
    for (const char *q = j->path; *q; q++)
        if (*q == '\n' || *q == '\t')
            return NULL;
    mkdir(cache, 0777);
    char *key = group_key(j);
    if (!key)
        return NULL;
    cf_pch *k = pch_new(j);
    k->cache = base_xstrdup(cache);
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    /* the group's key: the command less its source and outputs, the
     * directory, the #include line (group_key), clang's and ravel's versions */
    size_t klen;
    memcpy(&klen, key, sizeof klen);
    base_sha256 h;
    base_sha256_init(&h);
    CXString cv = clang_getClangVersion();
    const char *cvs = clang_getCString(cv);
    char v[96];
    snprintf(v, sizeof v, "%s %d", o->tool_version ? o->tool_version : "?", o->m32 ? 32 : 64);
    base_sha256_update(&h, v, strlen(v) + 1);
    base_sha256_update(&h, cvs ? cvs : "", cvs ? strlen(cvs) + 1 : 1);
    clang_disposeString(cv);
    base_sha256_update(&h, key, klen + sizeof klen);
    uint8_t d[32];
    base_sha256_final(&h, d);
    k->gkey = base_xmalloc(65);
    base_sha256_hex(d, k->gkey);
    const char *line = key + sizeof klen + klen; /* the #include line is the key's last field */
    while (line > key + sizeof klen && line[-1] != 0)
        line--;
    size_t g = group_of(k, key, 0, line, (size_t)(key + sizeof klen + klen - line));
    pch_group *pg = &k->groups.data[g];
    pg->members = 1;
    j->pch_group = (int)g;
    const char *src = spelling(j);
    base_strbuf hd = { 0 };
    base_strbuf_printf(&hd, "%.*s.ravel-pch-%.16s.h", (int)(base_name(src) - src), src, k->gkey);
    pg->header = hd.data;
    pg->state = read_manifest(k, pg);
    if (pg->state == 0 && sightings(k) + 1 >= k->min_units) {
        /* the one that holds the lock builds it; the others parse as usual */
        char *lf = in_cache(k, ".lock");
        k->lock_fd = open(lf, O_RDWR | O_CREAT, 0666);
        free(lf);
        if (k->lock_fd >= 0 && flock(k->lock_fd, LOCK_EX | LOCK_NB) == 0) {
            pg->state = read_manifest(k, pg); /* built while we looked */
            if (pg->state == 0) {
                base_strbuf t = { 0 };
                base_strbuf_printf(&t, "%s/%s.tmp.%ld.pch", cache, k->gkey, (long)getpid());
                pg->pch = t.data;
                return k; /* cf_pch_parse builds it and publishes it */
            }
        } else {
            pg->state = 3;
        }
    } else if (pg->state == 0) {
        pg->state = 3;
    }
    if (pg->state != 2) {
        j->pch_group = -1;
        free(j->pch_text);
        j->pch_text = NULL;
        cf_pch_free(k, NULL);
        return NULL;
    }
    return k;
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
        if (k->cache)
            ok = publish(k, g, ok);
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
        if (k->cache) /* clang rejected it (a header touched since): the next unit builds it again */
            unlink_manifest(k);
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
        if (pg->pch && (!k->cache || pg->state != 2))
            unlink(pg->pch); /* a shared one stays, unless its build failed (a temporary) */
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
    if (k->dir || k->cache) {
        if (k->dir)
            rmdir(k->dir);
        pthread_mutex_destroy(&k->mu);
        pthread_cond_destroy(&k->cv);
    }
    if (k->lock_fd >= 0)
        close(k->lock_fd); /* releases the lock */
    free(k->dir);
    free(k->cache);
    free(k->gkey);
    free(k);
}
