/* tm: a thread-modular abstract interpreter that proves that no
 * execution of a concurrent IR program fails an assertion, for any number
 * of threads (threads created in loops included), under sequential
 * consistency.
 *
 * The analysis follows the protection-based privatization of
 * thread-modular abstract interpretation (Miné; Vojdani et al.; Schwarz,
 * Saan, Seidl et al., SAS 2021): every thread function is analysed once,
 * for all its instances, against global invariants of the shared
 * variables:
 *  - init(g): g's values when the program became multithreaded (main's
 *    single-threaded prefix, and __ravel_init, are analysed exactly);
 *  - W(g): every value any thread writes to g after that;
 *  - P(g): the mutexes (an atomic section counts as one more) held at
 *    every such write — g is protected by each of them;
 *  - U(g, m): g's values whenever a thread releases m, for m in P(g);
 *  - mono(g): every write to g while multithreaded is non-decreasing.
 * Beside intervals, states keep difference constraints between the
 * frame's locals and a few globals (tm_rel.h); a global that other
 * threads may write keeps only its lower bounds, and only while mono(g).
 * A thread that holds some m of P(g) is the only one that can write g, so
 * it keeps g in its local state; when it acquires the first such m it
 * reads init(g) ⊔ U(g, m) (just U(g, m) once it has itself written g);
 * otherwise a read of g gives init(g) ⊔ W(g) (just W(g) after its own
 * write). The rounds repeat until these invariants are stable; the last
 * round's assertions decide. docs/manual.md has the soundness argument.
 *
 * The engine answers only "proved" or "no proof" (with a reason): any
 * construct outside what it models (heap, pointers it cannot bound,
 * addresses of locals other than as an argument the callee only
 * dereferences, unknown calls, recursion, recursive or error-checking
 * mutexes, rwlocks, ...) gives "no proof". */
#ifndef RAVEL_TM_TM_H
#define RAVEL_TM_TM_H

#include <stdbool.h>

#include "base/srcloc.h"
#include "ir/ir.h"

typedef struct tm_result {
    bool proved;
    char reason[200];     /* !proved: why */
    base_srcloc loc;      /* where, when one applies (file NULL: none) */
    unsigned rounds;      /* global rounds run */
    unsigned threads;     /* thread functions found */
} tm_result;

/* Analyses p from its __ravel_init and entry (main). */
bool tm_check(const ir_program *p, const ir_func *entry, tm_result *r);

#endif
