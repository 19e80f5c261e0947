/* vocab: the names of the relations an event structure provides to memory
 * models (the interpreted symbols of PrideMM §3). litmus/encode.c fills a
 * logic_structure with exactly these; models in mm_*.c read them. The
 * universe is the set of events, initial writes included.
 *
 * Sets (arity 1):
 *   R, W, F      reads (rmw reads too), writes (initial and rmw writes too), fences
 *   M            R | W
 *   IW           the initial writes, one per location
 *   RMW          both events of every read-modify-write
 *   a:NAME       events whose instruction carries annotation NAME (r[acq] -> a:acq)
 * Relations (arity 2):
 *   po           program order: strict, transitive, within one thread's tree of
 *                alternatives (x is an ancestor of y)
 *   conflict     x and y are in different branches of one thread's tree
 *                (they never belong to one execution); symmetric
 *   loc          memory events on the same location (reflexive on M)
 *   int, ext     same thread / different threads (initial writes are external
 *                to everything)
 *   rf-cand      write -> read on the same location with the same value, not in
 *                conflict: the possible reads-from pairs (a symbolic read,
 *                litmus/evstruct.h: every value of its domain)
 *   co-cand      write -> write on the same location, distinct, not in conflict,
 *                the second not initial: the possible coherence pairs
 *   jf-cand      write -> read on the same location with the same value, in
 *                any thread or branch (conflicting pairs too): Jeffrey and
 *                Riely's justification of a read by a write (mm_jr)
 *   addr, data, ctrl  dependencies from a read to a later event through registers
 *   rmw          the read of a read-modify-write -> its write
 */
#ifndef RAVEL_LOGIC_VOCAB_H
#define RAVEL_LOGIC_VOCAB_H

#define LOGIC_V_READ "R"
#define LOGIC_V_WRITE "W"
#define LOGIC_V_FENCE "F"
#define LOGIC_V_MEM "M"
#define LOGIC_V_INIT "IW"
#define LOGIC_V_RMWEV "RMW"
#define LOGIC_V_ANNOT_PREFIX "a:"
#define LOGIC_V_PO "po"
#define LOGIC_V_CONFLICT "conflict"
#define LOGIC_V_LOC "loc"
#define LOGIC_V_INT "int"
#define LOGIC_V_EXT "ext"
#define LOGIC_V_RF_CAND "rf-cand"
#define LOGIC_V_CO_CAND "co-cand"
#define LOGIC_V_JF_CAND "jf-cand"
#define LOGIC_V_ADDR "addr"
#define LOGIC_V_DATA "data"
#define LOGIC_V_CTRL "ctrl"
#define LOGIC_V_RMW "rmw"
/* located fences: events with a location that are not accesses (herd's lock
 * and SRCU events, litmus/evstruct.h); and the pairs of events that both
 * have a value (accesses and located fences), different values (herd's
 * different-values) */
#define LOGIC_V_LOCATED "located"
#define LOGIC_V_DIFFVAL "diffval"
/* the pairs of distinct events of one single-copy-atomic access (AArch64's
 * exclusive pairs, litmus/evstruct.h), both ways: herd's sm adds them */
#define LOGIC_V_SCA "sca"

#include <stdint.h>

#include "logic/structure.h"

/* The indices of the vocabulary's relations in a structure. */
typedef struct logic_vocab {
    uint32_t R, W, F, M, IW, RMWEV;
    uint32_t po, conflict, loc, in, ext, rf_cand, co_cand, jf_cand, addr, data, ctrl, rmw;
} logic_vocab;

/* Adds every relation of the vocabulary (empty) to s; their indices in *v. */
void logic_vocab_add(logic_structure *s, logic_vocab *v);

#endif
