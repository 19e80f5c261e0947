/* dl_internal: the data shared by the files of src/deadlock (not a public
 * interface; deadlock.h is).
 *
 * Everything the analysis builds is interned in one dl_ctx, so equal things
 * have equal 32-bit ids and comparing or hashing them is cheap:
 *
 *  - paths: syntactic access paths, a trie of selectors over a base
 *    (global, formal parameter, local of a function, a function's address,
 *    or a formal of a callee whose actual was unknown). A lock is a path.
 *  - values: what a pointer expression evaluates to, as a path id shifted
 *    left once with the low bit set for "address of path" (&p) and clear
 *    for "the pointer stored at path" (p).
 *  - sets: sorted, duplicate-free u32 arrays (locks, lock modes, thread
 *    instances), interned so a summary stores one id per set.
 *  - traces: call chains ending at a lock statement, for the report.
 *  - thread instances: (spawn statement, callee value, argument value,
 *    handle path), so summaries can rename them like paths.
 *  - condition atoms: comparisons between two values that hold on every
 *    path to a dependency (for locks ordered by value: `if (a->id < b->id)`),
 *    and the truth of a scalar read (for locks released under correlated
 *    branches).
 *
 * A lock mode id is lock << 1 | read (read: a shared rwlock acquisition).
 *
 * Invariants: ids are stable for the ctx's life; DL_NONE is never a valid
 * id; path depth is bounded by DL_MAX_DEPTH selectors (a deeper path is
 * folded: the selectors between two equal ones become one DL_SEL_STAR), so
 * the paths are finitely many and fixpoints over recursive calls
 * terminate. */
#ifndef RAVEL_DEADLOCK_DL_INTERNAL_H
#define RAVEL_DEADLOCK_DL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "deadlock/deadlock.h"
#include "ir/ir.h"

#define DL_NONE UINT32_MAX
#define DL_MAX_DEPTH 16
#define DL_MAX_ENV_VALUES 4
#define DL_MAX_SPEC_DEPTH 4
#define DL_MAX_RET_CASES 4
/* the widening: a summary acquiring more than DL_WIDEN_LOCKS distinct locks
 * names them by class (dl_path_class); one with more than DL_WIDEN_DEPS
 * dependencies also merges those that differ only in their threads */
#define DL_WIDEN_LOCKS 48
#define DL_WIDEN_DEPS 2048
#define DL_WIDEN_ROUND 2 /* rounds of a recursive component before all its summaries widen */
#define DL_WIDEN_SCC 64  /* a component of more functions widens from its first round */

/* --- interning of fixed-size tuples --- */

typedef struct dl_tuple { uint64_t a, b, c, d; } dl_tuple;

typedef struct dl_itab {
    BASE_VEC(dl_tuple) items;
    base_hashmap index; /* probe hash -> id */
} dl_itab;

/* --- paths --- */

typedef enum dl_path_kind {
    DL_BASE_GLOBAL, /* a = var id */
    DL_BASE_PARAM,  /* a = parameter index (of the function whose namespace it is) */
    DL_BASE_LOCAL,  /* a = func index, b = local id */
    DL_BASE_FUNC,   /* a = func index: the function itself (its address is a value) */
    DL_BASE_FORMAL, /* a = func index, b = param index: a callee's formal whose actual was unknown */
    DL_SEL_DEREF,
    DL_SEL_FIELD,   /* a = field index, b = struct type pointer (for names) */
    DL_SEL_INDEX,   /* a = constant index */
    DL_SEL_ANY,     /* an element at an index that is not constant */
    DL_SEL_TRUNC,   /* the path was cut at DL_MAX_DEPTH (no longer made: paths fold) */
    DL_BASE_RET,    /* a = func index: what a call of the function returned, when the
                       analysis cannot tell (printed `f()`; two calls may return two
                       objects, so it is never a self-deadlock and findings are "may") */
    DL_BASE_CLASS,  /* a lock class of a widened summary: every lock object (alone: every
                       lock that is not a field; with a FIELD selector: every lock in that
                       field of that struct type). Printed `(any)`; findings are "may" */
    DL_SEL_STAR,    /* a fold: one or more selectors, any (a path that would pass
                       DL_MAX_DEPTH folds the part between two equal selectors into
                       one; an abstract lock, like ANY). a = field index, b = record
                       type when every field folded is that one (printed
                       `(->f)*`), else b = 0 (printed `(...)*`) */
} dl_path_kind;

typedef struct dl_path {
    uint32_t parent; /* DL_NONE for bases */
    uint32_t kind;
    uint64_t a, b;
    uint32_t depth;
} dl_path;

/* --- traces --- */

/* RETAKE: the lock statement that takes a mutex back after
 * pthread_cond_wait / cnd_wait released it (a leaf, like LOCK). */
typedef enum dl_trace_kind { DL_TR_LOCK, DL_TR_CALL, DL_TR_SPAWN, DL_TR_RETAKE } dl_trace_kind;

typedef struct dl_trace {
    dl_trace_kind kind;
    const ir_func *func; /* where the statement is */
    base_srcloc loc;
    uint32_t next;       /* CALL/SPAWN: the callee's trace; LOCK: DL_NONE */
} dl_trace;

/* --- thread instances --- */

typedef struct dl_inst {
    const ir_stmt *site;
    const ir_func *site_func;
    uint32_t callee; /* value: &FUNC f when known */
    uint32_t arg;    /* value or DL_NONE */
    uint32_t handle; /* path of the handle object or DL_NONE */
} dl_inst;

/* --- condition atoms: x op y between two values, true on a path --- */

/* TRUE/FALSE: the value x (a scalar read, `if (d->flag)`) is nonzero / zero;
 * y == x. They correlate branches inside one function (a lock released
 * under `if (!c)` and again under `if (c)`) and never take part in the
 * value order between threads (a flag may change, an id does not). */
/* SINCE and AFTER are markers of the order thread creation gives, kept in
 * a dependency's conditions (never in a state's, never negated):
 * SINCE(&L, &h): the thread whose handle is h was started while this
 * thread held L (write), and L has been held ever since; AFTER(&L, &L):
 * this thread released L before, on every path since its start (so it
 * acquired L after any critical section that started it). */
typedef enum dl_cmp {
    DL_CMP_LT, DL_CMP_LE, DL_CMP_EQ, DL_CMP_NE, DL_CMP_TRUE, DL_CMP_FALSE,
    DL_CMP_SINCE, DL_CMP_AFTER,
} dl_cmp;

typedef struct dl_atom {
    dl_cmp op;
    uint32_t x, y; /* values */
} dl_atom;

/* --- summaries --- */

typedef struct dl_dep {
    uint32_t a, b;       /* lock modes: a held while b acquired */
    uint32_t ta, tb;     /* traces of the two acquisitions */
    uint32_t guards;     /* set of locks held on every path at b's acquisition */
    uint32_t par;        /* set of thread instances that may run at that time */
    uint32_t conds;      /* set of condition atoms true on every path there */
    uint32_t joined;     /* set of thread handles joined before, on every path */
    bool may_held;       /* a held there on some paths only (not must-held): a class
                            waiting for itself through it is no edge (--no-class-may) */
    uint32_t chain;      /* the link b is reached by from a, or a from b (dl_path_chain:
                            `(any).parent` << 1 for a = n->lock, b = n->parent->lock,
                            | 1 the other way round), read from the names
                            where the dependency arose and kept through renaming and the
                            widening (a merge keeps it when both have it); DL_NONE: none */
} dl_dep;

typedef struct dl_acq {
    uint32_t lm;         /* lock mode acquired */
    bool is_try;
    uint32_t trace;
    uint32_t guards;     /* set of locks held (must) inside the function */
    uint32_t released;   /* set of entry locks the function may have released before */
    uint32_t par;
    uint32_t conds;
    uint32_t joined;
    /* the link the lock is reached by (dl_path_anchor): the lock is the
     * same field of the object reached from anchor's object through one or
     * more steps of link (`(any).next` << 1); both DL_NONE when not known.
     * Kept when the widening names the lock by its class, so a caller
     * that holds the anchor gets the link on its dependency */
    uint32_t anchor, link;
} dl_acq;

typedef struct dl_self {
    uint32_t lock;
    uint32_t t1, t2;     /* first acquisition, the second one */
    uint32_t par;
} dl_self;

typedef struct dl_spawn {
    uint32_t inst;
    uint32_t live;       /* set of instances live when it was started */
    uint32_t trace;      /* DL_TR_SPAWN chain */
    bool multi;          /* started while an earlier start of it may still run */
} dl_spawn;

typedef struct dl_summary {
    bool done;
    uint32_t must_held_entry, must_free_entry;   /* sets of locks */
    uint32_t held_may_exit, held_must_exit;      /* sets of lock modes */
    uint32_t rel_may_exit, rel_must_exit;        /* sets of locks */
    uint32_t live_exit;                          /* instances still running at exit */
    uint32_t joins;                              /* set of handle paths joined (may) */
    uint32_t joined_exit;                        /* handle paths joined on every path */
    uint32_t ret;                                /* set of values returned, or DL_NONE */
    bool ret_has_null;                           /* some path returns a null constant */
    uint32_t recursive;                          /* set of locks initialised recursive */
    BASE_VEC(dl_dep) deps;
    BASE_VEC(dl_acq) acqs;
    BASE_VEC(dl_self) selfs;
    BASE_VEC(dl_spawn) spawns;
    uint32_t nunknown;   /* lock statements of this function whose lock has no name */
    uint32_t opaque;     /* set of DL_BASE_FUNC paths: functions without a body that
                            receive a pointer to a held lock (or to an object holding
                            one) here or in a callee; assumed not to release it */
    /* Path sensitivity on the return value: when every return returns a
     * constant and there are 2..DL_MAX_RET_CASES of them, the lock modes
     * held (may) at the returns of each value (a caller that tests the
     * value drops the locks of the cases its branch rules out). */
    uint32_t nret_cases;
    int64_t ret_case_val[DL_MAX_RET_CASES];
    uint32_t ret_case_held[DL_MAX_RET_CASES];
    uint64_t fingerprint;
} dl_summary;

/* An object's field chain (dl_summary.c, "function pointers stored per
 * object"): the fields from a root to a function pointer. The root is one
 * global (OB_GLOBAL), the object a fixed parameter points to (OB_PARAM), or
 * any object of the first field's record type (OB_ANY: reached through a
 * pointer the analysis does not follow, a local, or a chain too long). */
#define DL_CHAIN_MAX 6
typedef enum dl_ob_kind { DL_OB_NONE, DL_OB_ANY, DL_OB_GLOBAL, DL_OB_PARAM } dl_ob_kind;
typedef struct dl_chain {
    dl_ob_kind kind;
    uint32_t root;                    /* GLOBAL: var id; PARAM: parameter index */
    uint32_t n;
    const ir_type *rec[DL_CHAIN_MAX]; /* the canonical record type of each field */
    uint32_t field[DL_CHAIN_MAX];     /* | DL_FIELD_LINK: the object a pointer field
                                       * points to (a followed pointer field's class) */
} dl_chain;
#define DL_FIELD_LINK 0x80000000u
#define DL_FIELD_ESC 0xffffffffu /* (rec NULL) an object a constructor returned,
                                  * where it went is not followed */
#define DL_FIELD_NEW 0xfffffffeu /* (rec NULL) the object a constructor's call
                                  * made, in a query only */

/* A class of pointer fields that may hold one object (dl_summary.c,
 * "objects a constructor returns"): union-find over fields copied into
 * each other; untracked: some store there is not a constructor's result. */
typedef struct dl_fclass {
    const ir_type *rec;
    uint32_t field;
    uint32_t parent;
    bool untracked;
} dl_fclass;

/* A constructor's store through the object it returns (dl_summary.c):
 * of its parameter vparam's argument (DL_NONE: of set), at rel below it. */
typedef struct dl_cstore {
    uint32_t ctor;
    dl_chain rel;
    uint32_t vparam, set;
} dl_cstore;

/* A binding of a specialised summary: calls through `param->chain` reach
 * the functions of set (what the caller's argument object holds there). */
#define DL_MAX_BINDS 8
typedef struct dl_bind {
    uint32_t param;
    dl_chain ch;
    const ir_type *ft; /* the call's function type (NULL: unknown) */
    uint32_t set;
} dl_bind;

/* A summary of a function specialised to constant arguments, and to the
 * function pointers its parameters' objects hold (binds). A specialisation
 * that applied a summary of the component being analysed is provisional:
 * good for the round (gen) it was made in only. */
typedef struct dl_spec {
    uint32_t func;
    bool known[16];
    int64_t vals[16];
    uint32_t nbind;
    dl_bind binds[DL_MAX_BINDS];
    bool provisional;
    bool busy;          /* being analysed (again) */
    uint64_t gen;
    dl_summary sum;
} dl_spec;

/* A direct call: the calling function and the statement's index. */
typedef struct dl_callsite { uint32_t caller, stmt; } dl_callsite;
typedef BASE_VEC(dl_callsite) dl_callsites;

typedef struct dl_ctx {
    const ir_program *prog;
    const deadlock_opts *opts;
    base_arena arena;
    dl_itab paths_t;  BASE_VEC(dl_path) paths;
    dl_itab sets_t;   BASE_VEC(uint32_t *) sets; BASE_VEC(uint32_t) set_len;
    dl_itab traces_t; BASE_VEC(dl_trace) traces;
    dl_itab insts_t;  BASE_VEC(dl_inst) insts;
    dl_itab atoms_t;  BASE_VEC(dl_atom) atoms;
    dl_itab cases_t;  /* return cases at a call: (value, set of lock modes held) */
    base_hashmap func_index;   /* ir_func pointer -> index in prog->funcs */
    dl_summary *sums;          /* one per function */
    uint32_t empty;            /* the empty set */
    base_hashmap rec_locks;    /* lock path -> 1: initialised recursive */
    base_hashmap rec_fields;   /* (struct type, field) key -> 1 */
    base_hashmap nonrec_fields;
    base_hashmap link_cyclic;  /* link field key -> 1 may close a cycle, 2 no evidence (dl_links.c) */
    size_t unknown_locks;      /* lock statements whose lock could not be named */
    uint32_t *scc_of;          /* function -> strongly connected component (0: not yet) */
    uint32_t cur_scc;
    uint8_t *branches_on_param;/* function -> 0 unknown, 1 yes, 2 no */
    BASE_VEC(dl_spec *) specs;
    base_hashmap spec_ix;
    base_hashmap type_canon;   /* struct signature hash -> index in canon_types */
    BASE_VEC(const ir_type *) canon_types;
    /* where function pointers are stored (dl_summary.c, built on first
     * use): store key (a global, or a field of a record type) -> set of
     * function indices stored there, DL_NONE when something else is stored
     * there too; fn_unkeyed: function types stored somewhere with no key */
    bool fnstores_done;
    base_hashmap fnstores;
    BASE_VEC(const ir_type *) fn_unkeyed;
    /* fn_unkeyed_funcs: the functions stored with no key; fn_escaped: the
     * keys whose address is taken (only they can be written with no key);
     * fn_callsites: function -> its direct calls */
    uint32_t fn_unkeyed_funcs;
    base_hashmap fn_escaped;
    /* fn_esc_arg: escaped key -> how many of its address-takings are a
     * call's argument; fn_outp: key -> what calls write through it (memo) */
    base_hashmap fn_esc_arg;
    base_hashmap fn_outp;
    base_hashmap fn_stmt_func; /* call through a pointer (statement) -> its function */
    dl_callsites *fn_callsites;
    /* function pointers stored per object (dl_summary.c): chain key ->
     * set of functions (DL_NONE: unknown), by the exact root and chain
     * (fo_exact) and by every suffix of the chain (fo_cover); fo_copied:
     * record types copied whole (their chains fall back to any object);
     * fo_needs: per function, the calls through its parameters' objects
     * (its own and its callees'), a bounded list of dl_bind (set unused) */
    base_hashmap fo_exact, fo_cover, fo_copied;
    /* fo_fc_index: field key -> index in fo_fc (classes of pointer fields);
     * fo_ctor: function index + 1 -> 1 for a constructor */
    base_hashmap fo_fc_index, fo_ctor;
    BASE_VEC(dl_fclass) fo_fc;
    BASE_VEC(dl_cstore) fo_cstores;
    bool fo_any;               /* some store has a chain */
    BASE_VEC(dl_bind) *fo_needs;
    uint8_t *fo_need_state;    /* 0 not computed, 1 in progress, 2 done */
    uint64_t spec_gen;         /* the round of a component (provisional specialisations) */
    size_t spec_prov;          /* summaries of the current component applied so far */
    size_t prov_used;          /* provisional specialisations applied so far */
    bool bind_used;            /* bindings or per-object stores were used (not cached) */
    const struct dl_summary_store *store; /* --cache (dl_store.h), or NULL */
    size_t funcs_done;         /* summaries finished, for progress */
    unsigned spec_depth;       /* specialisations being analysed (nested) */
    /* budgets (opts->deadline, max_bytes): the deadline in force (the
     * cycle search gets a grace), why the run stopped (NULL: it did not),
     * when the resident set is read next, and what was left out */
    double deadline;
    size_t mem_limit;
    const char *stopped;
    double next_mem_check;
    bool mem_over;
    size_t funcs_unsummarised;
    size_t widened;            /* summaries the widening bounded (dl_summary.c) */
    base_hashmap widened_instsets; /* set of instances -> dl_widen_instset of it */
    base_hashmap path_classes; /* path << 1 | keep_globals -> dl_path_class */
    double scc_started;        /* when the component being summarised was begun */
    bool widen_all;            /* widen every summary (a component past DL_WIDEN_ROUND rounds) */
    bool summary_cut;          /* a summary of the current component was cut short */
    bool unsettled;            /* a component still changed in its last round (max_scc_iters) */
    bool cycles_cut;
} dl_ctx;

/* dl_paths.c */
uint32_t dl_tuple_intern(dl_itab *t, dl_tuple k, bool *is_new);
void dl_itab_free(dl_itab *t);
uint32_t dl_path_base(dl_ctx *c, dl_path_kind k, uint64_t a, uint64_t b);
/* A FIELD selector's b is the canonical record type of its signature (tag,
 * field names): translation units each have their own type nodes, and a
 * field of one struct must be one selector in all of them. */
uint32_t dl_path_sel(dl_ctx *c, uint32_t parent, dl_path_kind k, uint64_t a, uint64_t b);
const ir_type *dl_canon_type(dl_ctx *c, const ir_type *t);
uint32_t dl_path_root(const dl_ctx *c, uint32_t path);
static inline uint32_t dl_val_addr(uint32_t path) { return path << 1 | 1u; }
static inline uint32_t dl_val_load(uint32_t path) { return path << 1; }
static inline uint32_t dl_val_path(uint32_t v) { return v >> 1; }
static inline bool dl_val_is_addr(uint32_t v) { return v & 1u; }
uint32_t dl_deref(dl_ctx *c, uint32_t value);           /* path or DL_NONE */
uint32_t dl_set(dl_ctx *c, const uint32_t *xs, uint32_t n); /* sorts a copy */
static inline const uint32_t *dl_set_data(const dl_ctx *c, uint32_t s) { return c->sets.data[s]; }
static inline uint32_t dl_set_len(const dl_ctx *c, uint32_t s) { return c->set_len.data[s]; }
bool dl_set_has(const dl_ctx *c, uint32_t s, uint32_t x);
uint32_t dl_set_union(dl_ctx *c, uint32_t s, uint32_t t);
uint32_t dl_set_inter(dl_ctx *c, uint32_t s, uint32_t t);
uint32_t dl_set_minus(dl_ctx *c, uint32_t s, uint32_t t);
uint32_t dl_set_add(dl_ctx *c, uint32_t s, uint32_t x);
uint32_t dl_trace_mk(dl_ctx *c, dl_trace_kind k, const ir_func *f, base_srcloc loc, uint32_t next);
uint32_t dl_inst_mk(dl_ctx *c, const dl_inst *i);
uint32_t dl_func_index(const dl_ctx *c, const ir_func *f);
/* An atom (GT/GE are turned into LT/LE with the operands swapped; EQ/NE
 * operands are ordered). */
uint32_t dl_atom_mk(dl_ctx *c, dl_cmp op, uint32_t x, uint32_t y);
uint32_t dl_atom_neg(dl_ctx *c, uint32_t atom);
/* Whether the conjunction of a set of atoms has a model over a total order
 * (values as unknowns): no cycle through a strict <, no x != x. */
bool dl_atoms_sat(const dl_ctx *c, uint32_t set);
void dl_print_path(const dl_ctx *c, base_strbuf *out, uint32_t path);
bool dl_path_has_any(const dl_ctx *c, uint32_t path);
/* The class of a lock for the widening: CLASS followed by its path from its
 * last field selector on (`x->coder->mutex` and `y->mutex` are both
 * `(any).mutex` when the field is one of the same struct type): the part
 * of a path that renaming into a caller or a thread keeps. The lock itself
 * when its path has no field (renaming may make it any path), when it is
 * a class, and with keep_globals when it is one global object (no
 * dereference on its path). A class is normalised the same way (a class
 * without a field is CLASS alone: any lock). */
uint32_t dl_path_class(dl_ctx *c, uint32_t path, bool keep_globals);
/* The widening of thread instances: the argument's path by its class, the
 * callee by its candidates unless it is one known function, no handle (no
 * join applies: they run longer). */
uint32_t dl_widen_value(dl_ctx *c, uint32_t v);
uint32_t dl_widen_inst(dl_ctx *c, uint32_t inst);
uint32_t dl_widen_instset(dl_ctx *c, uint32_t set);
static inline bool dl_path_is_class(const dl_ctx *c, uint32_t path)
{
    return c->paths.data[dl_path_root(c, path)].kind == DL_BASE_CLASS;
}
bool dl_path_is_local_object(const dl_ctx *c, uint32_t path, const ir_func **owner);
bool dl_lock_is_recursive(const dl_ctx *c, uint32_t lock);
/* Whether the program stores into the link field (a DL_SEL_FIELD path <<
 * 1 | against, as dl_path_chain gives) a value that may close a cycle of
 * links (dl_links.c): then no lock order along it is assumed. */
bool dl_link_may_cycle(dl_ctx *c, uint32_t link);
uint64_t dl_field_key(const dl_ctx *c, uint32_t path); /* 0: the path does not end in a field */
/* The link a dependency follows (the lock order along a recursive field):
 * when the wanted lock is the held one's field(s) in the object reached
 * from the held lock's object through one or more steps of one pointer
 * field g of that object's record type (held `n->lock`, wanted
 * `n->parent->lock` or `n->parent->parent->lock`), the class path `(any).g`
 * shifted left once; the same with the low bit set when the held lock is
 * so reached from the wanted one (held `n->parent->lock`, wanted
 * `n->lock`: against the link). Else DL_NONE. The object the link starts
 * from must be one definite object (no `[*]`, fold, class or call's result
 * on its path). */
uint32_t dl_path_chain(dl_ctx *c, uint32_t held, uint32_t wanted);
/* The anchor of a lock (dl_acq.anchor): its path with the steps through one
 * link field before its own fields taken off (`p->next->next->lock` gives
 * `p->lock` and *link = `(any).next` << 1), when that leaves a definite
 * object; with want != DL_NONE, zero or more steps through that link (the
 * anchor renamed into a caller, normalised). DL_NONE (and *link =
 * DL_NONE) otherwise. */
uint32_t dl_path_anchor(dl_ctx *c, uint32_t lock, uint32_t want, uint32_t *link);

/* Renaming from a callee's namespace into a caller's: formal i becomes the
 * value actuals[i] (DL_NONE: unknown, the formal stays as DL_BASE_FORMAL). */
typedef struct dl_rename {
    const ir_func *callee;
    const uint32_t *actuals; /* values, one per parameter */
    uint32_t nactuals;
    /* a thread's bindings: pairs (path, value) for pointers (a global, a
     * field of the object the thread's argument points to) whose value at
     * the thread's start is known; `*path` (renamed) becomes the value's
     * target (set by dl_threads, NULL elsewhere) */
    const uint32_t *gbind;
    uint32_t ngbind;
    base_hashmap memo_path;  /* path -> renamed path (DL_NONE: dropped) */
    base_hashmap bound;      /* renamed paths named through a binding -> 1 */
    base_hashmap memo_instset; /* set of instances -> renamed set */
} dl_rename;
void dl_rename_init(dl_rename *r, const ir_func *callee, const uint32_t *actuals, uint32_t n);
void dl_rename_free(dl_rename *r);
uint32_t dl_rename_path(dl_ctx *c, dl_rename *r, uint32_t path);   /* DL_NONE: dropped */
/* Whether a path renamed by r was named through one of its bindings. */
bool dl_rename_was_bound(const dl_rename *r, uint32_t renamed);
uint32_t dl_rename_value(dl_ctx *c, dl_rename *r, uint32_t value);
uint32_t dl_rename_lockset(dl_ctx *c, dl_rename *r, uint32_t set, bool modes);
uint32_t dl_rename_valset(dl_ctx *c, dl_rename *r, uint32_t set);
uint32_t dl_rename_inst(dl_ctx *c, dl_rename *r, uint32_t inst);
uint32_t dl_rename_instset(dl_ctx *c, dl_rename *r, uint32_t set);
uint32_t dl_rename_atomset(dl_ctx *c, dl_rename *r, uint32_t set);

/* deadlock.c: whether a budget ran out (sets c->stopped the first time;
 * cheap: the resident set is read at most twenty times a second). */
bool dl_out_of_budget(dl_ctx *c);

/* dl_summary.c */
void dl_summarise_all(dl_ctx *c);
/* Whether function gi has a GOTO or ASSUME on a parameter (so calls with
 * constant arguments use a specialised summary). */
bool dl_branches_on_param(dl_ctx *c, uint32_t gi);
void dl_summary_free(dl_summary *s);
void dl_prepass_recursive(dl_ctx *c);
uint32_t dl_call_targets(dl_ctx *c, const ir_stmt *s, uint32_t callee_values,
                         const ir_func **out, uint32_t max);

/* dl_threads.c */
void dl_find(dl_ctx *c, deadlock_result *res);

#endif
