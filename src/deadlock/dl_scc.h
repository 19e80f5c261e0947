/* dl_scc: strongly connected components of a directed graph (Tarjan's
 * algorithm, iterative so deep graphs do not overflow the stack). The
 * deadlock analysis uses it twice: the call graph (summaries bottom-up,
 * recursion as one component) and the lock graph (a cycle never leaves a
 * component).
 *
 * Components are emitted in reverse topological order: a component comes
 * after every component it reaches (callees before callers). */
#ifndef RAVEL_DEADLOCK_DL_SCC_H
#define RAVEL_DEADLOCK_DL_SCC_H

#include <stdbool.h>
#include <stdint.h>

/* Sets *w to v's k-th successor and returns true, or returns false when v
 * has fewer than k + 1 successors. */
typedef bool (*dl_scc_succ)(void *ctx, uint32_t v, uint32_t k, uint32_t *w);
/* Receives one component's nodes (valid only during the call). */
typedef void (*dl_scc_emit)(void *ctx, const uint32_t *nodes, uint32_t n);

void dl_scc(uint32_t n, dl_scc_succ succ, dl_scc_emit emit, void *ctx);

#endif
