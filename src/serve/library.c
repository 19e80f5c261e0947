/* library: samples and cat models from directories (see library.h). */
#include "serve/library.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir (not . or ..), sorted; NULL if it cannot be opened. */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t len = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (len == cap) {
            cap = cap ? cap * 2 : 32;
            names = base_xrealloc(names, cap * sizeof *names);
        }
        names[len++] = base_xstrdup(de->d_name);
    }
    closedir(d);
    if (len)
        qsort(names, len, sizeof *names, cmp_name);
    *n = len;
    return names ? names : base_xcalloc(1, sizeof *names);
}

static void free_list(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void add_sample(serve_library *lib, const char *path, const char *name, const char *group,
                       bool litmus)
{
    if (lib->nsamples >= SERVE_LIBRARY_MAX_SAMPLES) {
        lib->dropped++;
        return;
    }
    if ((lib->nsamples & (lib->nsamples - 1)) == 0)
        lib->samples = base_xrealloc(lib->samples,
                                     (lib->nsamples ? lib->nsamples * 2 : 1) * sizeof *lib->samples);
    lib->samples[lib->nsamples++] = (serve_sample){ .name = base_xstrdup(name),
                                                    .group = base_xstrdup(group),
                                                    .path = base_xstrdup(path),
                                                    .litmus = litmus };
}

static void scan(serve_library *lib, const char *dir, const char *group, int depth)
{
    size_t n = 0;
    char **names = list_dir(dir, &n);
    if (!names)
        return;
    for (size_t i = 0; i < n; i++) {
        base_strbuf path = { 0 };
        base_strbuf_printf(&path, "%s/%s", dir, names[i]);
        struct stat sb;
        if (stat(base_strbuf_cstr(&path), &sb) == 0) {
            if (S_ISDIR(sb.st_mode) && depth < 16) {
                base_strbuf sub = { 0 };
                base_strbuf_printf(&sub, "%s/%s", group, names[i]);
                scan(lib, base_strbuf_cstr(&path), base_strbuf_cstr(&sub), depth + 1);
                base_strbuf_free(&sub);
            } else if (S_ISREG(sb.st_mode)) {
                bool litmus = has_suffix(names[i], ".litmus") || has_suffix(names[i], ".lisa");
                if (litmus || has_suffix(names[i], ".c"))
                    add_sample(lib, base_strbuf_cstr(&path), names[i], group, litmus);
            }
        }
        base_strbuf_free(&path);
    }
    free_list(names, n);
}

/* dir without trailing slashes, and its last component. */
static char *trimmed(const char *dir, const char **base)
{
    char *d = base_xstrdup(dir);
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '/')
        d[--n] = 0;
    const char *slash = strrchr(d, '/');
    *base = slash && slash[1] ? slash + 1 : d;
    return d;
}

bool serve_library_add_samples(serve_library *lib, const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        fprintf(stderr, "ravel serve: error: --samples %s: %s\n", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "ravel serve: error: --samples %s: not a directory\n", dir);
        return false;
    }
    const char *base;
    char *d = trimmed(dir, &base);
    scan(lib, d, base, 0);
    free(d);
    return true;
}

bool serve_library_add_models(serve_library *lib, const char *dir)
{
    size_t n = 0;
    char **names = list_dir(dir, &n);
    if (!names) {
        fprintf(stderr, "ravel serve: error: --models %s: %s\n", dir, strerror(errno));
        return false;
    }
    const char *base;
    char *d = trimmed(dir, &base);
    for (size_t i = 0; i < n; i++) {
        if (!has_suffix(names[i], ".cat"))
            continue;
        bool seen = false;
        for (size_t k = 0; k < lib->ncats && !seen; k++)
            seen = strcmp(lib->cats[k].name, names[i]) == 0;
        if (seen)
            continue;
        base_strbuf path = { 0 }, bell = { 0 };
        base_strbuf_printf(&path, "%s/%s", d, names[i]);
        base_strbuf_printf(&bell, "%s/%.*s.bell", d, (int)(strlen(names[i]) - 4), names[i]);
        struct stat sb;
        bool has_bell = stat(base_strbuf_cstr(&bell), &sb) == 0 && S_ISREG(sb.st_mode);
        lib->cats = base_xrealloc(lib->cats, (lib->ncats + 1) * sizeof *lib->cats);
        lib->cats[lib->ncats++] = (serve_cat_model){
            .name = base_xstrdup(names[i]),
            .path = base_xstrdup(base_strbuf_cstr(&path)),
            .dir = base_xstrdup(d),
            .bell = has_bell ? base_xstrdup(base_strbuf_cstr(&bell)) : NULL,
        };
        base_strbuf_free(&path);
        base_strbuf_free(&bell);
    }
    free(d);
    free_list(names, n);
    return true;
}

char *serve_library_read(const serve_library *lib, size_t id, size_t max_bytes, size_t *len)
{
    if (id >= lib->nsamples) {
        errno = ENOENT;
        return NULL;
    }
    FILE *f = fopen(lib->samples[id].path, "rb");
    if (!f)
        return NULL;
    char *text = base_xmalloc(max_bytes + 1);
    size_t n = fread(text, 1, max_bytes + 1, f);
    bool bad = ferror(f);
    fclose(f);
    if (bad || n > max_bytes) {
        free(text);
        errno = bad ? EIO : EFBIG;
        return NULL;
    }
    text[n] = 0;
    *len = n;
    return text;
}

void serve_library_free(serve_library *lib)
{
    for (size_t i = 0; i < lib->nsamples; i++) {
        free(lib->samples[i].name);
        free(lib->samples[i].group);
        free(lib->samples[i].path);
    }
    free(lib->samples);
    for (size_t i = 0; i < lib->ncats; i++) {
        free((char *)lib->cats[i].name);
        free((char *)lib->cats[i].path);
        free((char *)lib->cats[i].dir);
        free((char *)lib->cats[i].bell);
    }
    free(lib->cats);
    memset(lib, 0, sizeof *lib);
}
