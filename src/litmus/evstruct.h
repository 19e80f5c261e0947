/* evstruct: the event structure of a litmus test (PrideMM §3).
 *
 * Each thread is unfolded into a tree: a read becomes one read event per
 * value its location may hold (the location's initial value and every
 * value some write may store there, computed as a fixpoint), and each
 * alternative continues the thread with that value in the register. Events
 * of different branches are in conflict, and so is everything after them.
 * A path through a thread's tree is one way the thread can run; it ends at
 * a leaf and fixes the thread's final registers. Initial writes, one per
 * location, come first and belong to no thread.
 *
 * A compare-and-swap (LITMUS_I_CAS) forks like a read: per value, a
 * successful rmw (read and write) when the value equals the expected one,
 * else a lone read with the failure annotations; a weak one also has the
 * lone read for the equal value.
 *
 * A symbolic read (unless limits.fork_all_reads) does not fork: a plain
 * read (LITMUS_I_READ, not an rmw or CAS) of a thread without loops whose
 * register no later instruction of its thread uses (no address, data or
 * control dependency, no branch, no copy: only the final condition may
 * look at it) becomes one read event with no value of its own. It may read
 * from any write of its location whose value lies in its domain (the
 * values a forked read would have had, litmus_event_may_read), and its
 * register's final value is the value of the write it reads from (a path
 * records the read in litmus_path.sym). The forked structure repeats the
 * rest of the thread below each value without any difference but the
 * register, so both have the same executions, one for one, and the same
 * final states; the symbolic one has one event per read instead of a
 * subtree per value (a reader of m locations: m events instead of 2^m
 * paths). Not with every_write_value (jr judges the event structure
 * itself).
 *
 * Loops (backward branches) are unrolled at most `unroll` times per branch
 * instruction on a path; a path that would go further is dropped, as herd
 * does, and the structure records that it dropped some.
 *
 * Invariants: events are numbered parents first (parent < child); every
 * event lies on at least one complete path; a path's last event is unique
 * to it (or UINT32_MAX for a thread with no events, which has one path). */
#ifndef RAVEL_LITMUS_EVSTRUCT_H
#define RAVEL_LITMUS_EVSTRUCT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "litmus/test.h"

#define LITMUS_NONE UINT32_MAX

typedef enum litmus_ev_kind {
    LITMUS_EV_INIT,  /* initial write */
    LITMUS_EV_READ,
    LITMUS_EV_WRITE,
    LITMUS_EV_FENCE, /* also call[name] */
} litmus_ev_kind;

typedef struct litmus_event {
    litmus_ev_kind kind;
    uint32_t thread;       /* index into test->threads; LITMUS_NONE for INIT */
    uint32_t instr;        /* instruction index in its thread */
    uint32_t loc;          /* READ, WRITE, INIT: the location */
    litmus_value value;    /* READ: value read; WRITE, INIT: value written */
    uint32_t parent;       /* previous event of the thread on this branch, or NONE */
    uint32_t rmw_write;    /* READ of an rmw: its write event; else NONE */
    bool rmw;              /* part of an rmw */
    bool symbolic;         /* READ: a symbolic read (value unused; see above) */
    uint32_t dom_first, dom_count; /* symbolic READ: its domain, es->domvals[first..+count) */
    bool located;          /* FENCE: has loc and value (a located fence: LITMUS_I_FENCE's located) */
    const litmus_annots *annots; /* the instruction's annotations (NULL for INIT) */
    /* FENCE events that stand for register reads (lim->ports): 'A' the
     * address registers of the next event (a memory access), 'D' the data
     * register of the next event (a write), 'B' a conditional branch's
     * registers; 0 for other events. */
    char port;
    /* WRITE: the read event whose value it stores by plain copying (through
     * registers, no operation), or LITMUS_NONE: a constant or a computed
     * value (the reads a computed value depends on are in `vuse`). */
    uint32_t copy_of;
} litmus_event;

typedef struct litmus_dep {
    uint32_t from, to; /* a read and a later event */
} litmus_dep;

typedef struct litmus_path {
    uint32_t thread;
    uint32_t last;        /* last event of the path, or NONE */
    litmus_value *regs;   /* final value of each of the thread's registers */
    uint32_t *sym;        /* NULL, or per register: the symbolic read whose value it
                           * holds (regs[] is then meaningless), or LITMUS_NONE */
    uint32_t *src;        /* per register: the read event whose value it holds by
                           * plain copying (symbolic reads too), or LITMUS_NONE */
    bool fault;           /* it ends at a branch to a register holding no code address
                           * (AArch64's BR): an execution taking it has no answer */
} litmus_path;

typedef struct litmus_evstruct {
    litmus_event *events;
    uint32_t nevents, cap;
    litmus_dep *addr, *data, *ctrl;
    uint32_t naddr, ndata, nctrl, addr_cap, data_cap, ctrl_cap;
    /* With lim->ports, herd's register-level relations in summary: rf-reg
     * from a read to the ports its value reaches through registers (pick:
     * through a compare only, as iico_ctrl), iico_data from a port to its
     * access. */
    litmus_dep *rfreg, *iico_data, *iico_ctrl;
    uint32_t nrfreg, niico_data, niico_ctrl, rfreg_cap, iico_data_cap, iico_ctrl_cap;
    /* The two events of one single-copy-atomic pair access (AArch64's
     * LDXP reads, STXP writes: herd's para_atomic), for the model's sm. */
    litmus_dep *sca;
    uint32_t nsca, sca_cap;
    /* Value uses (herd's equations on a read's value): (read, at): the
     * read's value takes part in an operation, a comparison, a branch
     * condition or an address computed right after event `at`, on every
     * path through `at`. With copy_of and litmus_path.src this tells which
     * reads' values are out of thin air in an execution (litmus/simulate). */
    litmus_dep *vuse;
    uint32_t nvuse, vuse_cap;
    /* Value dependencies of computed writes: (read, write) when the value
     * the write stores is computed (no plain copy) from the read's value. */
    litmus_dep *wdep;
    uint32_t nwdep, wdep_cap;
    /* Some location's value may flow back into it through reads and
     * writes of the threads (a cycle of locations, l -> m when a write of
     * m copies or computes its value from a read of l: copy_of, wdep):
     * only then can an execution hold a value out of thin air. */
    bool copy_cycle;
    litmus_path *paths;
    uint32_t npaths, paths_cap;
    uint32_t *init_of_loc; /* location -> its initial write event */
    litmus_value *domvals; /* the domains of symbolic reads */
    uint32_t ndomvals, domvals_cap;
    uint32_t nsymbolic;    /* symbolic read events */
    bool dropped_paths;    /* some path exceeded the unroll bound */
    uint32_t nfault_paths; /* paths with fault */
    uint32_t unroll;
} litmus_evstruct;

typedef struct litmus_es_limits {
    uint32_t unroll;       /* backward jumps per branch instruction on one path */
    uint32_t max_events;   /* stop with an error beyond this many events */
    uint32_t max_values;   /* distinct values a location may hold */
    /* Every value some write of the location stores, in any thread or
     * branch, is a value each read of it may return: neither exclusion of
     * read_domain (evstruct.c) applies. For models without coherence whose
     * reads may be justified by writes of other branches (jr). */
    bool every_write_value;
    /* Fork every read per value, symbolic reads too (the structure of
     * PrideMM §3 as it is; --fork-reads). */
    bool fork_all_reads;
    /* Port events and the register relations (see litmus_event.port), for
     * models that compute dependencies themselves (herd's catdep: AArch64). */
    bool ports;
} litmus_es_limits;

/* Builds the event structure. Returns false with a diagnostic (at the
 * instruction responsible, when there is one) when the test goes beyond
 * what can be represented: a limit, an address that is not a location. */
bool litmus_evstruct_build(const litmus_test *t, const litmus_es_limits *lim,
                           litmus_evstruct *es, base_diag *diag);
void litmus_evstruct_free(litmus_evstruct *es);
/* May read event e return value v? A forked read: v is its value; a
 * symbolic one: v lies in its domain. */
bool litmus_event_may_read(const litmus_evstruct *es, const litmus_event *e, litmus_value v);
/* The symbolic read whose value register reg of path p holds, or LITMUS_NONE. */
static inline uint32_t litmus_path_sym(const litmus_path *p, uint32_t reg)
{
    return p->sym ? p->sym[reg] : LITMUS_NONE;
}

#endif
