/* dl_cache: function summaries kept on disk between runs (--cache DIR).
 *
 * The unit is a strongly connected component of the call graph (usually
 * one function). Its key is a hash of
 *   - the format version, the options that change summaries, the target's
 *     pointer size and every lock initialisation of the program (the
 *     recursive-mutex pre-pass reads them all);
 *   - each member's IR: statements, expressions, types, source locations,
 *     call candidates (by name and type), all by name, never by run ids;
 *   - for each callee outside the component: its name, whether it has a
 *     body and the content hash of its summary, plus its own key when it
 *     branches on a parameter (callers may analyse it again specialised to
 *     constant arguments, which depends on its IR, not on its summary).
 * So an edit re-analyses the changed functions, and their callers only
 * when a summary they use changed (or a specialisable callee changed).
 *
 * A summary is stored in a stable form: paths by their base's name (global,
 * function, local id) and selectors, record types by tag and field names,
 * traces as function + file:line:col, thread starts as function + statement
 * index; each member is a self-contained sequence of definitions that refer
 * only backwards. A file is DIR/<key>.dls: magic, format version, key, the
 * members by name, and a checksum of everything before it. Any file that
 * is unreadable, truncated, corrupt, of another version, or names what the
 * program does not have is a miss (counted in cache_bad), never an error.
 * Files are written to a temporary name and renamed, so readers (also
 * other ravel processes) see a whole file or none.
 *
 * Content hashes of summaries are independent of interning order (sets and
 * lists are hashed as multisets), so a cached and a cold run agree. */
#ifndef RAVEL_DEADLOCK_DL_CACHE_H
#define RAVEL_DEADLOCK_DL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "deadlock/deadlock.h"

#define DL_CACHE_VERSION 13u

struct dl_ctx;
typedef struct dl_cache dl_cache;

/* Opens (creating the directory when missing) the cache in dir. Never
 * fails: an unusable directory makes every lookup miss and every store
 * count a write error. */
dl_cache *dl_cache_open(struct dl_ctx *c, const char *dir);
/* The key of the component members[0..n) whose callees outside it are
 * callees[0..m) (duplicates allowed); the callees' summaries are final. */
uint64_t dl_cache_key(dl_cache *k, const uint32_t *members, uint32_t n, const uint32_t *callees,
                      uint32_t m);
/* On a hit fills the members' summaries (done) and returns true. */
bool dl_cache_load(dl_cache *k, uint64_t key, const uint32_t *members, uint32_t n);
/* Stores the members' (final) summaries under key. */
void dl_cache_store(dl_cache *k, uint64_t key, const uint32_t *members, uint32_t n);
/* The cache as the summary pass's store (dl_store.h), valid until close. */
const struct dl_summary_store *dl_cache_as_store(dl_cache *k);
/* Copies the counts into res and frees. */
void dl_cache_close(dl_cache *k, deadlock_result *res);

#endif
