/* qbf_io: a sat_qbf query as text — QDIMACS (write and read) and QCIR
 * (write), for external QBF solvers and for tests.
 *
 * Both writers print a closed prenex formula: free variables of the matrix
 * go into the outermost existential block (merged with the first block when
 * that is existential), empty blocks are left out and adjacent blocks of
 * one kind are merged. So a query written and read back has the same
 * levels and clauses, but possibly fewer blocks.
 *
 * The QDIMACS reader reads user files: every malformed input gets a
 * diagnostic (file:line:col) and a NULL result, never a crash. It accepts
 * comment lines ("c ...") anywhere, requires the "p cnf V C" line before
 * anything else, quantifier lines ("e"/"a" ... 0) before the first clause,
 * variables in 1..V, each quantified at most once, and exactly C clauses
 * (a clause may span lines). V is limited to SAT_QBF_IO_MAX_VARS. */
#ifndef RAVEL_SAT_QBF_IO_H
#define RAVEL_SAT_QBF_IO_H

#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "sat/qbf.h"

#define SAT_QBF_IO_MAX_VARS (1 << 24)

void sat_qbf_write_qdimacs(const sat_qbf *q, base_strbuf *out);
void sat_qbf_write_qcir(const sat_qbf *q, base_strbuf *out);

/* Parses text (len bytes, need not be NUL-terminated) as QDIMACS. file
 * names the input in diagnostics and must outlive diag. */
sat_qbf *sat_qbf_read_qdimacs(const char *file, const char *text, size_t len, base_diag *diag);

#endif
