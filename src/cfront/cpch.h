/* cpch: a precompiled header shared by the units that begin alike
 * (internal to src/cfront; cfront_opts.no_pch turns it off).
 *
 * Most of a unit's parse is the headers it includes, and the units of one
 * program include the same ones. Units whose command is the same (every
 * flag but the source and the outputs: -o, -MF, -MT, -MQ, -MD...), whose
 * main file is in the same directory and whose first line that is not
 * blank or a comment is the same `#include` form a group; a unit the
 * unit cache has is in none. A group of at least CF_PCH_MIN_UNITS builds
 * one PCH (parallel workers build every group's first, cf_pch_prebuild;
 * else the first time one of its units is parsed): a
 * header holding that line, given to clang as an in-memory file in the
 * units' directory (so quoted includes resolve as from the unit), parsed
 * with the group's flags as an incomplete unit and saved. Each unit of
 * the group is then parsed with `-include-pch` and its own text with that
 * line blanked (same length, so every location stays).
 *
 * It never changes what is lowered: a unit whose parse with the PCH has an
 * error (the PCH itself had one, clang rejects it, a flag unknown) is
 * parsed again as usual, and so is every unit of a group whose PCH has an
 * error or cannot be saved. Units whose command has -include, -imacros or
 * -include-pch are in no group. Its parses use an index that lists only
 * the unit's own declarations (clang_createIndex(1, 0): visiting the
 * PCH's would read them all back, the cost saved); a lowering that looks
 * for a function among the unit's declarations and misses it (a cleanup
 * attribute's) is done again from a parse without the PCH. The cache keys a unit parsed with a PCH
 * on the files it read, the PCH's headers among them (clang lists them).
 *
 * A PCH that reads less than CF_PCH_MIN_BYTES of headers is not used: it
 * saves less than it costs (gnulib's config.h; the environment variable
 * RAVEL_PCH_MIN_BYTES changes the bound, for the tests). Nor is one whose
 * headers say __BASE_FILE__ (it would name the PCH's header, not the
 * unit). The PCHs live in a
 * temporary directory removed by cf_pch_free. Thread-safe: the first
 * worker that needs a group's PCH builds it, the others wait for it. */
#ifndef RAVEL_CFRONT_CPCH_H
#define RAVEL_CFRONT_CPCH_H

#include "cfront/lower.h"

#define CF_PCH_MIN_BYTES (256u * 1024u)
/* A PCH costs about two plain parses (clang's parse of the headers and
 * as much again to save it): it pays from the third unit on. */
#define CF_PCH_MIN_UNITS 3u

typedef struct cf_pch cf_pch;

/* A PCH names the files it read by their absolute paths (clang writes
 * them so), where a parse without it names them as the include search
 * found them ("./items.h"): the group's map from one to the other, made
 * when the PCH is built, lets the lowering name them as without it. */
typedef struct cf_pch_names cf_pch_names;
/* name as a parse without the PCH names it (name when not in m). */
const char *cf_pch_plain_name(const cf_pch_names *m, const char *name);
/* The files the PCH read (clang does not list them among the inclusions
 * of a unit parsed with it; the unit cache adds them to its manifest). */
const char *const *cf_pch_files(const cf_pch_names *m, size_t *n);

/* The first line of the unit's text s that is not blank or a comment,
 * when it is a whole `#include` line with no comment or continuation: its
 * offset and length, without the newline (false: none). */
bool cf_pch_first_include(const char *s, size_t len, size_t *off, size_t *n);

/* Groups the jobs (sets their pch_ fields; a job whose unit the cache
 * has, j->probe == 1, is in no group: it is never parsed); NULL when no
 * group has two units. The jobs must outlive k. */
cf_pch *cf_pch_plan(const cfront_opts *o, cf_job *jobs, size_t n);
/* Parses j with its group's PCH (building it first); true when j->tu is
 * a parse without errors, false (nothing set) when j must be parsed as
 * usual. */
bool cf_pch_parse(cf_pch *k, const cfront_opts *o, CXIndex *pidx, cf_job *j, cf_flagset *bad);
/* A PCH shared by processes, for one job (a capture's wrapper, which
 * sees one unit): kept in the directory cache, keyed by the group's key
 * (the command less the source and its outputs, the directory, the
 * #include line, clang's and ravel's versions), with a manifest
 * (<key>.pcm) that lists the files it read and their hashes, like the
 * unit cache's. A manifest whose files are unchanged gives the PCH,
 * which is only read. Without one, the group's first units parse as
 * usual and count themselves (<key>.seen); the one that makes it
 * CF_PCH_MIN_UNITS builds it, when it gets the lock (<key>.lock, flock,
 * never waited for: without it a unit parses as usual), into a
 * temporary file renamed to its content's hash, then writes the manifest
 * (also for a PCH not usable: too small, __BASE_FILE__, an error). NULL:
 * parse j as usual. Nothing in cache is ever deleted. */
cf_pch *cf_pch_shared(const cfront_opts *o, cf_job *j, const char *cache);
/* How many groups there are (some of a single unit, which build nothing). */
size_t cf_pch_groups(const cf_pch *k);
/* Builds group g's PCH now unless it has fewer than two units or is built
 * or being built: parallel workers call it for every group before they
 * take units, so that two groups' PCHs are built at the same time rather
 * than each while the other worker waits for it. Thread-safe. */
void cf_pch_prebuild(cf_pch *k, const cfront_opts *o, CXIndex *pidx, size_t g, cf_flagset *bad);
/* j's lowering needed a parse without the PCH after all (counted). */
void cf_pch_retried(cf_pch *k);
/* Adds its counts to st, removes the PCHs, frees. */
void cf_pch_free(cf_pch *k, cfront_stats *st);

#endif
