/* dl_store: where the summary pass may find and keep component summaries
 * (an interface: dl_summary.c uses it, dl_cache.c implements it on disk,
 * deadlock.c connects them; neither side includes the other).
 *
 * key: the key of the component members[0..n) whose callees outside it
 * are callees[0..m) (final summaries); load: on a hit fills the members'
 * summaries (done) and returns true; store: keeps the members' final
 * summaries under key. */
#ifndef RAVEL_DEADLOCK_DL_STORE_H
#define RAVEL_DEADLOCK_DL_STORE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dl_summary_store {
    void *impl;
    uint64_t (*key)(void *impl, const uint32_t *members, uint32_t n, const uint32_t *callees,
                    uint32_t m);
    bool (*load)(void *impl, uint64_t key, const uint32_t *members, uint32_t n);
    void (*store)(void *impl, uint64_t key, const uint32_t *members, uint32_t n);
} dl_summary_store;

#endif
