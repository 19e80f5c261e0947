/* witness: an SV-COMP violation witness (GraphML, witness format 1.0 with
 * the threadId/createThread keys concurrent tasks use) for a BUG trace of
 * `ravel check` or `ravel race`, so that witness validators can replay it.
 *
 * The witness is a path: an entry node, one edge per executed statement of
 * the user's program (startline, threadId, createThread where a thread is
 * started, enterFunction where a thread's function begins, an assumption
 * `lhs == value;` for each value the statement assigned), ending in the
 * violation node. A proof gets a correctness witness instead. */
#ifndef RAVEL_REPORT_WITNESS_H
#define RAVEL_REPORT_WITNESS_H

#include "base/strbuf.h"
#include "report/check_out.h"

typedef struct witness_info {
    const char *program_file;  /* the verified file, as given */
    const char *program_hash;  /* its SHA-256, 64 hex digits */
    const char *specification; /* e.g. CHECK( init(main()), LTL(G ! call(reach_error())) ) */
    const char *architecture;  /* "32bit" or "64bit" */
    const char *producer;      /* "ravel 0.x" */
    const char *creation_time; /* ISO 8601 */
} witness_info;

void report_witness_graphml(base_strbuf *out, const check_report *c, const witness_info *w);

/* A correctness witness for a proof (`true`): the same graph data with
 * witness-type correctness_witness and one entry node, no invariants
 * (format 1.0 allows that: every invariant is `true`). */
void report_witness_correctness_graphml(base_strbuf *out, const witness_info *w);

#endif
