/* cucache: lowered translation units kept on disk, one content-addressed
 * file per unit (internal to src/cfront; cfront_opts.unit_cache_dir, and
 * the files a capture writes).
 *
 * A unit's job key hashes ravel's version, the unit format's version, the
 * data model, the source path and every flag of its command. For a job
 * key the directory holds a manifest, DIR/<job key>.rtm: the unit's
 * source path, its unit key, and every file the unit read (clang's
 * inclusion list, the main file among them, and the headers of a shared
 * PCH the unit was parsed with, cpch.h) with the SHA-256 of its
 * contents. The unit key hashes the job key and those (path, hash) pairs,
 * and names the unit file, DIR/<unit key>.rtu (cunit.h's bytes).
 *
 * A lookup reads the manifest, hashes the files it lists as they are now
 * (each file once per run), and takes the unit file when the unit key it
 * gets is the one recorded: a unit none of whose files changed is never
 * parsed again. (As with ccache's direct mode, a header newly created
 * earlier on the include path than the one read is not seen; changing
 * the flags or the version changes the key.) Anything unreadable,
 * truncated or malformed is a miss. Files are written to a temporary
 * name and renamed, so parallel runs and remote captures see a whole file
 * or none; a capture of one unit writes only its own two files. */
#ifndef RAVEL_CFRONT_CUCACHE_H
#define RAVEL_CFRONT_CUCACHE_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "cfront/lower.h"

typedef struct cf_ucache cf_ucache;

/* Opens (creating it when missing) the cache in dir. capture: a unit that
 * clang could not parse is stored too (its error goes with it). */
cf_ucache *cf_ucache_open(const char *dir, const cfront_opts *o, bool capture);
/* Whether j's unit is in the cache, its key unchanged (the manifest's
 * files hashed as they are now; the unit file not read). The answer is
 * kept in j (j->probe): a later lookup reads the unit it found. Thread-safe. */
bool cf_ucache_probe(cf_ucache *k, cf_job *j);
/* On a hit sets j->unit and returns true (probes first when j was not
 * probed). Thread-safe. */
bool cf_ucache_lookup(cf_ucache *k, cf_job *j);
/* Stores j->unit, parsed as tu (NULL: the parse failed). Thread-safe. */
void cf_ucache_store(cf_ucache *k, cf_job *j, CXTranslationUnit tu);
/* Frees; returns how many files could not be written. */
size_t cf_ucache_close(cf_ucache *k);

/* The job key of a command (hex, for the unit tests and capture). */
void cf_ucache_job_key(const cfront_opts *o, const char *path, const char *const *args, int nargs,
                       char hex[65]);
/* The unit key of a job key and its files' (path, hash) pairs, in order. */
void cf_ucache_unit_key(const char *job_key, const char *const *paths, const char *const *hashes,
                        size_t n, char hex[65]);

/* A manifest's source path and unit key (false: not a manifest). */
bool cf_ucache_read_manifest(const char *file, char **path, char unit_key[65]);

#endif
