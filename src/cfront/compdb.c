/* compdb: a compilation database (compile_commands.json, as bear, CMake,
 * meson or `clang -MJ` write it) -> the parse jobs of its C units.
 *
 * Real databases hold more than C units: assembly (`.S`, `.s`), C++ and
 * other languages, and the same file twice when a library is built as
 * PIC and non-PIC. So each entry is
 *
 *   - skipped with a note when it is not C: by `-x LANG`, else by the
 *     file's extension, else by a C++ compiler driver (g++, clang++);
 *   - skipped when an earlier entry has the same file and the same flags
 *     up to those that only name outputs or select code generation
 *     (-o, -c, -MD/-MF/..., -fPIC/-fPIE, -DPIC), one note for them all;
 *   - otherwise a job with the entry's own flags, run in the entry's
 *     directory (a relative `directory` is taken from the database's
 *     folder), plus `extra`.
 *
 * Both the `arguments` and the `command` form come through libclang's
 * reader. Flags clang does not know are dropped when the unit is parsed
 * (cfront.c: parse_job). */
#define _DEFAULT_SOURCE /* realpath */
#include <clang-c/CXCompilationDatabase.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cfront/lower.h"

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* What language an entry is in when it is not C (NULL: C). */
static const char *not_c(const char *path, CXCompileCommand cmd)
{
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    const char *lang = NULL;
    char langbuf[64] = "";
    bool cxx_driver = false;
    for (unsigned a = 0; a < na; a++) {
        CXString s = clang_CompileCommand_getArg(cmd, a);
        const char *t = clang_getCString(s);
        if (a == 0) {
            const char *base = strrchr(t, '/') ? strrchr(t, '/') + 1 : t;
            cxx_driver = strstr(base, "++") != NULL;
        }
        const char *x = NULL;
        if (strncmp(t, "-x", 2) == 0 && t[2])
            x = t + 2;
        else if (strcmp(t, "-x") == 0 && a + 1 < na) {
            CXString n = clang_CompileCommand_getArg(cmd, a + 1);
            snprintf(langbuf, sizeof langbuf, "%s", clang_getCString(n));
            clang_disposeString(n);
            x = langbuf;
        }
        if (x && x != langbuf)
            snprintf(langbuf, sizeof langbuf, "%s", x);
        if (x)
            lang = langbuf;
        clang_disposeString(s);
    }
    if (lang) {
        if (strcmp(lang, "c") == 0 || strcmp(lang, "cpp-output") == 0)
            return NULL;
        if (strncmp(lang, "assembler", 9) == 0)
            return "assembly";
        if (strncmp(lang, "c++", 3) == 0)
            return "C++";
        if (strncmp(lang, "objective-c", 11) == 0)
            return "Objective-C";
        if (strcmp(lang, "c-header") == 0)
            return "a C header";
        return "another language";
    }
    const char *ext = extension(path);
    if (strcmp(ext, "c") == 0 || strcmp(ext, "i") == 0)
        return cxx_driver ? "C++ (compiled by a C++ driver)" : NULL;
    if (strcmp(ext, "S") == 0 || strcmp(ext, "s") == 0 || strcmp(ext, "sx") == 0 ||
        strcmp(ext, "asm") == 0)
        return "assembly";
    static const char *const cxx[] = { "cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "ii", "cppm" };
    for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++)
        if (strcmp(ext, cxx[i]) == 0)
            return "C++";
    if (strcmp(ext, "m") == 0 || strcmp(ext, "mm") == 0)
        return "Objective-C";
    if (strcmp(ext, "h") == 0)
        return "a C header";
    return "not a C file";
}

/* Flags that name outputs or select code generation, which do not change
 * what the program means: left out of the key that finds duplicates.
 * Returns how many arguments the flag at a takes (0: keep it). */
static unsigned codegen_flag(const char *t)
{
    size_t dep = cf_dep_output_args(t);
    if (dep)
        return (unsigned)dep;
    if (strcmp(t, "-o") == 0)
        return 2;
    static const char *const alone[] = { "-c", "-M", "-MM", "-fPIC", "-fpic", "-fPIE", "-fpie",
                                         "-DPIC", "-pie", "-shared" };
    for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
        if (strcmp(t, alone[i]) == 0)
            return 1;
    if (strncmp(t, "-o", 2) == 0 || strncmp(t, "-Wp,-M", 6) == 0)
        return 1;
    return 0;
}

static void entry_key(base_strbuf *key, const char *path, CXCompileCommand cmd)
{
    base_strbuf_printf(key, "%s", path);
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned a = 1; a < na; a++) {
        CXString s = clang_CompileCommand_getArg(cmd, a);
        const char *t = clang_getCString(s);
        unsigned skip = codegen_flag(t);
        if (!skip)
            base_strbuf_printf(key, "\x1f%s", t);
        clang_disposeString(s);
        if (skip == 2)
            a++;
    }
}

/* dir/name, or name when it is absolute. */
static void join(char *out, size_t size, const char *dir, const char *name)
{
    if (name[0] == '/' || !dir[0])
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "%s/%s", dir, name);
}

static bool is_wanted(const char *path, const char *const *files, size_t nfiles)
{
    if (nfiles == 0)
        return true;
    bool wanted = false;
    char *rq = realpath(path, NULL);
    for (size_t k = 0; k < nfiles && !wanted; k++) {
        char *rp = realpath(files[k], NULL);
        wanted = rp && rq && strcmp(rp, rq) == 0;
        free(rp);
    }
    free(rq);
    return wanted;
}

void cf_compdb_jobs(cf_ctx *c, const char *dbdir, const char *const *files, size_t nfiles,
                    const char *const *extra, size_t nextra, cf_job_vec *jobs)
{
    CXCompilationDatabase_Error err;
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dbdir, &err);
    if (err != CXCompilationDatabase_NoError) {
        base_diag_error(c->d, base_srcloc_make(dbdir, 0, 0),
                        "cannot read compile_commands.json in this directory");
        c->errors++;
        return;
    }
    char *dbreal = realpath(dbdir, NULL);
    base_hashmap seen;
    base_hashmap_init(&seen);
    size_t duplicates = 0;
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = clang_CompileCommands_getSize(cmds);
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, i);
        CXString fn = clang_CompileCommand_getFilename(cmd);
        CXString dirs = clang_CompileCommand_getDirectory(cmd);
        char dir[PATH_MAX + 1], path[2 * PATH_MAX + 2];
        join(dir, sizeof dir, dbreal ? dbreal : dbdir, clang_getCString(dirs));
        join(path, sizeof path, dir, clang_getCString(fn));
        clang_disposeString(fn);
        clang_disposeString(dirs);
        if (!is_wanted(path, files, nfiles))
            continue;
        const char *lang = not_c(path, cmd);
        if (lang) {
            base_diag_report(c->d, BASE_SEV_NOTE, base_srcloc_make(path, 0, 0),
                             "not a C translation unit (%s): skipped", lang);
            continue;
        }
        base_strbuf key = { 0 };
        entry_key(&key, path, cmd);
        uint64_t h = base_hash_bytes(key.data, key.len), prev;
        base_strbuf_free(&key);
        if (base_hashmap_get(&seen, h, &prev)) {
            duplicates++;
            continue;
        }
        base_hashmap_put(&seen, h, 1);
        unsigned na = clang_CompileCommand_getNumArgs(cmd);
        const char **args = base_xmalloc((na + nextra + 3) * sizeof *args);
        CXString *strs = base_xmalloc((na + 1) * sizeof *strs);
        int m = 0;
        size_t drop = 0; /* arguments of a dependency-file option still to leave out */
        for (unsigned a = 0; a < na; a++) {
            strs[a] = clang_CompileCommand_getArg(cmd, a);
            if (drop == 0 && a > 0)
                drop = cf_dep_output_args(clang_getCString(strs[a]));
            if (drop) {
                drop--;
                continue;
            }
            args[m++] = clang_getCString(strs[a]);
            if (a == 0)
                for (size_t q = 0; q < nextra; q++)
                    args[m++] = extra[q];
        }
        char wd[PATH_MAX + 32];
        snprintf(wd, sizeof wd, "-working-directory=%s", dir);
        args[m++] = wd;
        args[m++] = "-Wno-error"; /* the unit's own -Werror: clang warns of more than gcc */
        cf_add_job(jobs, path, args, m, true);
        for (unsigned a = 0; a < na; a++)
            clang_disposeString(strs[a]);
        free(strs);
        free(args);
    }
    if (duplicates)
    {
        char where[PATH_MAX + 32];
        snprintf(where, sizeof where, "%s/compile_commands.json", dbdir);
        base_diag_report(c->d, BASE_SEV_NOTE, base_srcloc_make(where, 0, 0),
                         "%zu entr%s the same file with the same flags up to outputs and "
                         "-fPIC (a library built twice): each such file is read once",
                         duplicates, duplicates == 1 ? "y repeats" : "ies repeat");
    }
    clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    base_hashmap_free(&seen);
    free(dbreal);
}
