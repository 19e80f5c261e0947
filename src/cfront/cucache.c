/* cucache: the per-unit cache of lowered translation units (see cucache.h). */
#define _DEFAULT_SOURCE
#include "cfront/cucache.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hashmap.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cfront/cpch.h"
#include "cfront/cunit.h"

#define MANIFEST_MAGIC "ravel-unit-manifest 1"

typedef struct file_hash {
    char *path;
    char hex[65];
    bool ok;
} file_hash;

struct cf_ucache {
    char *dir;
    const cfront_opts *opts;
    bool capture;
    bool usable;
    pthread_mutex_t mu;
    base_hashmap index; /* hash of a path -> 1 + index in files (a chain by probing) */
    BASE_VEC(file_hash) files;
    size_t write_errors;
    unsigned tmp_seq;
};

static void mkdirs(const char *dir)
{
    char *d = base_xstrdup(dir);
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(d, 0777);
            *p = '/';
        }
    mkdir(d, 0777);
    free(d);
}

cf_ucache *cf_ucache_open(const char *dir, const cfront_opts *o, bool capture)
{
    cf_ucache *k = base_xcalloc(1, sizeof *k);
    k->dir = base_xstrdup(dir);
    k->opts = o;
    k->capture = capture;
    mkdirs(dir);
    struct stat st;
    k->usable = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    pthread_mutex_init(&k->mu, NULL);
    base_hashmap_init(&k->index);
    return k;
}

size_t cf_ucache_close(cf_ucache *k)
{
    size_t e = k->write_errors;
    for (size_t i = 0; i < k->files.len; i++)
        free(k->files.data[i].path);
    base_vec_free(&k->files);
    base_hashmap_free(&k->index);
    pthread_mutex_destroy(&k->mu);
    free(k->dir);
    free(k);
    return e;
}

static void put_field(base_sha256 *h, const char *s)
{
    base_sha256_update(h, s, strlen(s) + 1); /* with its NUL: fields cannot run together */
}

void cf_ucache_job_key(const cfront_opts *o, const char *path, const char *const *args, int nargs,
                       char hex[65])
{
    base_sha256 h;
    base_sha256_init(&h);
    char v[64];
    snprintf(v, sizeof v, "ravel-unit %u %d", CF_UNIT_VERSION, o && o->m32 ? 32 : 64);
    put_field(&h, v);
    put_field(&h, o && o->tool_version ? o->tool_version : "?");
    put_field(&h, path);
    for (int i = 0; i < nargs; i++)
        put_field(&h, args[i]);
    uint8_t d[32];
    base_sha256_final(&h, d);
    base_sha256_hex(d, hex);
}

void cf_ucache_unit_key(const char *job_key, const char *const *paths, const char *const *hashes,
                        size_t n, char hex[65])
{
    base_sha256 h;
    base_sha256_init(&h);
    put_field(&h, job_key);
    for (size_t i = 0; i < n; i++) {
        put_field(&h, paths[i]);
        put_field(&h, hashes[i]);
    }
    uint8_t d[32];
    base_sha256_final(&h, d);
    base_sha256_hex(d, hex);
}

/* The hash of a file's contents now, once per run (false: unreadable). */
static bool file_hash_of(cf_ucache *k, const char *path, char hex[65])
{
    uint64_t h = base_hash_bytes(path, strlen(path));
    pthread_mutex_lock(&k->mu);
    for (uint64_t probe = h;; probe++) {
        uint64_t ix;
        if (probe == BASE_HASHMAP_EMPTY || !base_hashmap_get(&k->index, probe, &ix))
            break;
        file_hash *f = &k->files.data[ix - 1];
        if (strcmp(f->path, path) == 0) {
            bool ok = f->ok;
            memcpy(hex, f->hex, 65);
            pthread_mutex_unlock(&k->mu);
            return ok;
        }
    }
    pthread_mutex_unlock(&k->mu);
    file_hash nf = { base_xstrdup(path), { 0 }, false };
    nf.ok = base_sha256_file(path, nf.hex);
    memcpy(hex, nf.hex, 65);
    bool ok = nf.ok;
    pthread_mutex_lock(&k->mu);
    base_vec_push(&k->files, nf);
    uint64_t probe = h;
    while (probe == BASE_HASHMAP_EMPTY || base_hashmap_get(&k->index, probe, NULL))
        probe++;
    base_hashmap_put(&k->index, probe, k->files.len);
    pthread_mutex_unlock(&k->mu);
    return ok;
}

static char *path_in(const cf_ucache *k, const char *name, const char *ext)
{
    size_t n = strlen(k->dir) + strlen(name) + strlen(ext) + 3;
    char *p = base_xmalloc(n);
    snprintf(p, n, "%s/%s%s", k->dir, name, ext);
    return p;
}

static void job_key(const cf_ucache *k, const cf_job *j, char hex[65])
{
    cf_ucache_job_key(k->opts, j->path, (const char *const *)j->args, j->nargs, hex);
}

/* The manifest's lines after the header, split: path, unit key, then
 * "hash path" pairs. */
typedef struct manifest {
    char *text;
    char *path;
    char *unit_key;
    BASE_VEC(char *) hashes;
    BASE_VEC(char *) files;
} manifest;

static void manifest_free(manifest *m)
{
    free(m->text);
    base_vec_free(&m->hashes);
    base_vec_free(&m->files);
}

static bool is_hex64(const char *s)
{
    if (strlen(s) != 64)
        return false;
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

static bool manifest_read(const char *file, manifest *m)
{
    memset(m, 0, sizeof *m);
    size_t len;
    m->text = base_read_file(file, &len);
    if (!m->text || strlen(m->text) != len)
        return false;
    char *save = NULL;
    char *line = strtok_r(m->text, "\n", &save);
    if (!line || strcmp(line, MANIFEST_MAGIC) != 0)
        return false;
    line = strtok_r(NULL, "\n", &save);
    if (!line || strncmp(line, "path ", 5) != 0)
        return false;
    m->path = line + 5;
    line = strtok_r(NULL, "\n", &save);
    if (!line || strncmp(line, "unit ", 5) != 0 || !is_hex64(line + 5))
        return false;
    m->unit_key = line + 5;
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (strlen(line) < 66 || line[64] != ' ')
            return false;
        line[64] = 0;
        if (!is_hex64(line))
            return false;
        base_vec_push(&m->hashes, line);
        base_vec_push(&m->files, line + 65);
    }
    return true;
}

bool cf_ucache_read_manifest(const char *file, char **path, char unit_key[65])
{
    manifest m;
    bool ok = manifest_read(file, &m);
    if (ok) {
        *path = base_xstrdup(m.path);
        memcpy(unit_key, m.unit_key, 65);
    }
    manifest_free(&m);
    return ok;
}

bool cf_ucache_probe(cf_ucache *k, cf_job *j)
{
    if (j->probe)
        return j->probe == 1;
    j->probe = 2;
    if (!k->usable)
        return false;
    char jk[65];
    job_key(k, j, jk);
    char *mf = path_in(k, jk, ".rtm");
    manifest m;
    bool hit = manifest_read(mf, &m) && strcmp(m.path, j->path) == 0;
    free(mf);
    for (size_t i = 0; hit && i < m.files.len; i++) {
        char now[65];
        hit = file_hash_of(k, m.files.data[i], now) && strcmp(now, m.hashes.data[i]) == 0;
    }
    if (hit) {
        cf_ucache_unit_key(jk, (const char *const *)m.files.data, (const char *const *)m.hashes.data,
                           m.files.len, j->unit_key);
        hit = strcmp(j->unit_key, m.unit_key) == 0;
    }
    manifest_free(&m);
    if (hit) { /* the unit file is there (read by the lookup) */
        char *uf = path_in(k, j->unit_key, ".rtu");
        hit = access(uf, R_OK) == 0;
        free(uf);
    }
    j->probe = hit ? 1 : 2;
    return hit;
}

bool cf_ucache_lookup(cf_ucache *k, cf_job *j)
{
    if (!cf_ucache_probe(k, j))
        return false;
    char *uf = path_in(k, j->unit_key, ".rtu");
    size_t len;
    char *data = base_read_file(uf, &len);
    free(uf);
    if (!data)
        return false;
    cf_unit *u = base_xmalloc(sizeof *u);
    bool hit = cf_unit_read(u, data, len) && strcmp(u->path, j->path) == 0;
    free(data);
    if (!hit) {
        if (u->p.syms)
            cf_unit_free(u);
        free(u);
        return false;
    }
    j->unit = u;
    return true;
}

/* Writes data to dir/name by a temporary file and a rename. */
static bool write_file(cf_ucache *k, const char *name, const char *data, size_t len)
{
    pthread_mutex_lock(&k->mu);
    unsigned seq = k->tmp_seq++;
    pthread_mutex_unlock(&k->mu);
    char tmpname[96];
    snprintf(tmpname, sizeof tmpname, ".tmp.%ld.%u", (long)getpid(), seq);
    char *tmp = path_in(k, name, tmpname), *dst = path_in(k, name, "");
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, dst) != 0)
        ok = false;
    if (!ok)
        unlink(tmp);
    free(tmp);
    free(dst);
    return ok;
}

typedef struct incl {
    BASE_VEC(char *) paths;
    const char *skip; /* a shared PCH's in-memory header (cpch.h): no file */
} incl;

static void add_path(incl *in, const char *p)
{
    for (size_t i = 0; i < in->paths.len; i++)
        if (strcmp(in->paths.data[i], p) == 0)
            return;
    base_vec_push(&in->paths, base_xstrdup(p));
}

static void visit_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    (void)stack;
    (void)n;
    incl *in = data;
    CXString s = clang_File_tryGetRealPathName(f);
    const char *p = clang_getCString(s);
    if (!p || !*p) {
        clang_disposeString(s);
        s = clang_getFileName(f);
        p = clang_getCString(s);
    }
    const char *b = p ? strrchr(p, '/') : NULL, *sb = in->skip ? strrchr(in->skip, '/') : NULL;
    if (p && *p && !(in->skip && strcmp(b ? b + 1 : p, sb ? sb + 1 : in->skip) == 0)) {
        add_path(in, p);
    }
    clang_disposeString(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void cf_ucache_store(cf_ucache *k, cf_job *j, CXTranslationUnit tu)
{
    if (!j->unit || (!tu && !k->capture))
        return;
    if (!k->usable) {
        pthread_mutex_lock(&k->mu);
        k->write_errors++;
        pthread_mutex_unlock(&k->mu);
        return;
    }
    incl in = { .skip = j->pch_header };
    if (tu) {
        clang_getInclusions(tu, visit_inclusion, &in);
        size_t nf = 0;
        const char *const *pf = j->pch_names ? cf_pch_files(j->pch_names, &nf) : NULL;
        for (size_t i = 0; i < nf; i++) /* the PCH's headers (cpch.h) */
            add_path(&in, pf[i]);
    } else {
        char *rp = realpath(j->path, NULL);
        base_vec_push(&in.paths, rp ? rp : base_xstrdup(j->path));
    }
    if (in.paths.len)
        qsort(in.paths.data, in.paths.len, sizeof *in.paths.data, cmp_str);
    char **hashes = base_xcalloc(in.paths.len + 1, sizeof *hashes);
    bool ok = true;
    for (size_t i = 0; i < in.paths.len; i++) {
        hashes[i] = base_xmalloc(65);
        if (!file_hash_of(k, in.paths.data[i], hashes[i]))
            ok = false; /* a file that cannot be read again cannot key the unit */
    }
    char jk[65], uk[65];
    job_key(k, j, jk);
    cf_ucache_unit_key(jk, (const char *const *)in.paths.data, (const char *const *)hashes,
                       in.paths.len, uk);
    if (ok) {
        base_strbuf b = { 0 };
        cf_unit_write(&b, j->unit);
        char name[80];
        snprintf(name, sizeof name, "%s.rtu", uk);
        ok = write_file(k, name, b.data ? b.data : "", b.len);
        base_strbuf_free(&b);
        if (ok) {
            base_strbuf m = { 0 };
            base_strbuf_printf(&m, "%s\npath %s\nunit %s\n", MANIFEST_MAGIC, j->path, uk);
            for (size_t i = 0; i < in.paths.len; i++)
                base_strbuf_printf(&m, "%s %s\n", hashes[i], in.paths.data[i]);
            snprintf(name, sizeof name, "%s.rtm", jk);
            ok = write_file(k, name, m.data, m.len);
            base_strbuf_free(&m);
        }
        if (!ok) {
            pthread_mutex_lock(&k->mu);
            k->write_errors++;
            pthread_mutex_unlock(&k->mu);
        }
    }
    for (size_t i = 0; i < in.paths.len; i++) {
        free(in.paths.data[i]);
        free(hashes[i]);
    }
    free(hashes);
    base_vec_free(&in.paths);
}
