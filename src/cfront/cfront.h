/* cfront: the C front end — the only code that talks to libclang.
 *
 * Parses C files with clang (preprocessing, system headers, GNU extensions
 * and `.i` files as clang handles them) and lowers them into one ir_program
 * (src/ir/ir.h): every function defined in the given files, the functions
 * and globals they use from headers, and the concurrency API recognised as
 * IR statements (pthread, C11 <threads.h> and <stdatomic.h>, GCC __atomic
 * and __sync builtins, SV-COMP's __VERIFIER_* conventions).
 *
 * Translation units are linked by name: functions and globals with external
 * linkage are one object across files; internal ones keep their name when
 * it is unique and get a `@file` suffix when two files define the same.
 *
 * Errors (clang's own, and constructs that cannot be lowered) go to the
 * diagnostics with their file:line:col; a function that could not be
 * lowered is kept with not_lowered set and no body, never silently
 * dropped. */
#ifndef RAVEL_CFRONT_CFRONT_H
#define RAVEL_CFRONT_CFRONT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "ir/ir.h"

/* A file whose contents are given in memory instead of read from disk. */
typedef struct cfront_unsaved {
    const char *name;
    const char *contents;
    size_t len;
} cfront_unsaved;

/* What the front end did with its translation units. */
typedef struct cfront_stats {
    size_t units;          /* C units parsed (entries that are not C are not counted) */
    size_t units_left_out; /* clang reported errors: nothing of the unit was lowered */
    size_t units_partial;  /* some function or initialiser could not be lowered */
    size_t units_parsed;   /* units parsed and lowered in this run */
    size_t units_cached;   /* units read from the unit cache (never parsed) */
    size_t cache_write_errors; /* unit-cache files that could not be written */
    double parse_seconds;  /* libclang's parses, summed over the units (CPU in workers) */
    double lower_seconds;  /* lowering the parsed units into the IR, and disposing them */
    double link_seconds;   /* resolving calls through pointers and checking the program */
    size_t pch_built;      /* shared precompiled headers built (cpch.h) */
    size_t units_pch;      /* units parsed with one */
    size_t pch_fallbacks;  /* units whose parse with one failed, parsed again without */
} cfront_stats;

typedef struct cfront_opts {
    const char *const *clang_args; /* the user's compiler flags (after `--`) */
    size_t nclang_args;
    const char *compdb_dir;        /* -p DIR: read DIR/compile_commands.json */
    bool m32;                      /* analyse for ILP32 (-m32), as SV-COMP's data_model says */
    unsigned jobs;                 /* parse this many translation units at once (0, 1:
                                      one at a time); lowering stays in order, so the
                                      program does not depend on it */
    const char *main_unit;         /* --main FILE: the unit whose main is the program's
                                      `main` when several units define one (NULL: the
                                      first such unit, with a note) */
    const cfront_unsaved *unsaved; /* in-memory files (the fuzzer's input) */
    size_t nunsaved;
    cfront_stats *stats;           /* filled in when not NULL */
    const char *unit_cache_dir;    /* keep each unit's lowered program here, keyed by its
                                      flags and the contents of every file it includes;
                                      a unit whose key is unchanged is not parsed again */
    const char *tool_version;      /* ravel's version, part of every unit's key */
    void (*progress)(void *ctx, size_t done, size_t total, const char *file);
    void *progress_ctx;
    bool no_pch;                   /* --no-pch: no precompiled header shared by units
                                      that begin with the same #include (cpch.h) */
} cfront_opts;

/* Lowers files (and, with compdb_dir, every translation unit of the
 * compilation database whose file is among files, or all of them when
 * nfiles is 0) into p, which must be freshly initialised. Returns the number
 * of errors reported to d (0: p is complete and passes ir_check). */
size_t cfront_lower(ir_program *p, const char *const *files, size_t nfiles, const cfront_opts *o,
                    base_diag *d);

/* The capture of one compiler command (argv[0] the compiler, run in the
 * current directory): each C source file among its arguments is parsed
 * with the command's flags and lowered, and its unit written into dir
 * (cucache.h's files, whatever clang said of it: its errors are kept with
 * it and reported when it is linked). Writes only those units' own files.
 * Returns how many units could not be written. nsources: set to the C
 * sources found. */
size_t cfront_capture(const char *dir, const char *const *argv, size_t argc, const cfront_opts *o,
                      size_t *nsources);

/* Links every unit captured in dir (the newest capture of each source and
 * flags), in the order of their source paths, into p as cfront_lower
 * would. Returns the number of errors (a directory with no unit is one). */
size_t cfront_link_dir(ir_program *p, const char *dir, const cfront_opts *o, base_diag *d);

#endif
