/* po: the partial-order encoding of a concurrent IR program under SC;
 * see po.h for the semantics and the axioms.
 *
 * How it runs. Threads are run one after another through bmc's symbolic
 * execution (bmc_conc_run): main first (init, then entry), then every
 * thread instance in the order the ASYNCs created them. The hooks record
 * events (ev) with their bytes (pbyte); nothing is ordered yet. After the
 * last thread, encode() sizes the clocks, chains every thread's events,
 * and adds the reads-from choices and the order clauses; then bmc decides
 * (bug, unwinding assertions) and builds the trace with step_key, which
 * places each bmc trace event just after the latest po event of its
 * thread.
 *
 * Invariants: the events of one thread are consecutive in `evs` except
 * that events of later threads never come between them (threads run one at
 * a time), so a thread's program order is index order; ev.bev is the
 * number of bmc trace events when the event was made. */
#include "po/po.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "bmc/bmc_conc.h"
#include "bmc/smt.h"
#include "po/po_mm.h"

typedef enum ev_kind {
    EV_MEM,    /* reads and writes */
    EV_START,  /* a thread's first event */
    EV_END,    /* a thread's last event (guard: it ended) */
    EV_ASYNC,  /* a thread creation (child: the thread) */
    EV_JOIN,   /* a join (handle, joined) */
    EV_ABEGIN, /* an atomic section's ends */
    EV_AEND,
} ev_kind;

typedef struct pbyte {
    bmc_smt_term addr; /* pointer width */
    bmc_smt_term val;  /* 8 bits */
    uint32_t ev;
} pbyte;

typedef struct ev {
    ev_kind kind;
    uint32_t thread;
    bmc_smt_term guard;
    bmc_smt_term clock;
    uint32_t rd0, nrd, wr0, nwr; /* into reads / writes: one access of each at most */
    bmc_smt_term raddr, waddr;   /* the accesses' first bytes */
    bmc_smt_term rval, wval;     /* their values (8 x nrd, 8 x nwr bits) */
    size_t bev;
    uint32_t child;          /* ASYNC */
    bmc_smt_term handle;     /* JOIN: the handle's value */
    bmc_smt_term joined;     /* JOIN: the Boolean that it returned */
    bmc_smt_term result;     /* JOIN: the value stored through args[0] (0: none) */
    bmc_smt_term wguard;     /* a lock operation: the paths where it does not block */
    const ir_stmt *s;
    base_srcloc loc;         /* the statement that made it */
    bmc_conc_access acc;     /* MEM: a program's access, fresh contents, an external write */
} ev;

/* An atomic section: from begin to end on the paths cond. */
typedef struct section {
    uint32_t begin, end;
    bmc_smt_term cond;
} section;

/* An ATOMIC_BEGIN not yet closed on the paths open. */
typedef struct open_begin {
    uint32_t ev;
    bmc_smt_term open;
} open_begin;

typedef struct thr {
    const ir_func *f;
    bmc_smt_term started;
    bmc_smt_term arg;
    const ir_type *arg_type;
    uint32_t async_ev;       /* UINT32_MAX: main */
    uint32_t start_ev, end_ev;
    bmc_smt_term end_guard;  /* paths that ended (returned or exited) */
    bmc_smt_term ret;        /* the result (pointer width), 0: none */
    size_t bev0, bev1;       /* its bmc trace events */
    uint32_t ev0, ev1;       /* its po events */
} thr;

typedef struct po {
    const ir_program *p;
    po_opts o;
    bmc_conc *b;
    bmc_smt_solver *s;
    uint32_t pw;
    BASE_VEC(ev) evs;
    BASE_VEC(pbyte) reads;
    BASE_VEC(pbyte) writes;
    BASE_VEC(thr) thrs;
    BASE_VEC(open_begin) open_atomic; /* the current thread's open ABEGINs, innermost last */
    BASE_VEC(section) sections;
    uint32_t cur;            /* the running thread */
    double t0;               /* when the check started (the budget o.bo.timeout_s) */
    uint32_t cw;             /* clock width */
    po_stats *st;
    BASE_VEC(po_mm_rf) mmrf; /* o.mm: the reads-from choices */
    po_mm *mml;              /* o.mm_lazy: the encoding to refine */
} po;

/* --- events --- */

static uint32_t new_ev(po *c, ev_kind k, bmc_smt_term guard)
{
    ev e = { .kind = k, .thread = c->cur, .guard = guard, .bev = bmc_conc_nevents(c->b),
             .child = UINT32_MAX };
    e.acc = bmc_conc_access_now(c->b, &e.loc);
    e.rd0 = (uint32_t)c->reads.len;
    e.wr0 = (uint32_t)c->writes.len;
    base_vec_push(&c->evs, e);
    return (uint32_t)c->evs.len - 1;
}

static bmc_smt_term byte_addr(po *c, bmc_smt_term a, uint32_t i)
{
    if (!i)
        return a;
    return bmc_smt_bv_op(c->s, BMC_SMT_BV_ADD, a, bmc_smt_bv_const(c->s, c->pw, i));
}

static bmc_smt_term byte_of(po *c, bmc_smt_term v, uint32_t i)
{
    return bmc_smt_extract(c->s, 8 * i + 7, 8 * i, v);
}

/* Adds n read bytes at addr to event e; returns their value. */
static bmc_smt_term add_reads(po *c, uint32_t e, bmc_smt_term addr, uint32_t n)
{
    bmc_smt_term v = bmc_smt_bv_var(c->s, n * 8, "rd");
    c->evs.data[e].raddr = addr;
    c->evs.data[e].rval = v;
    for (uint32_t i = 0; i < n; i++) {
        pbyte b = { byte_addr(c, addr, i), byte_of(c, v, i), e };
        base_vec_push(&c->reads, b);
    }
    c->evs.data[e].nrd += n;
    return v;
}

static void add_writes(po *c, uint32_t e, bmc_smt_term addr, bmc_smt_term v, uint32_t n)
{
    c->evs.data[e].waddr = addr;
    c->evs.data[e].wval = v;
    for (uint32_t i = 0; i < n; i++) {
        pbyte b = { byte_addr(c, addr, i), byte_of(c, v, i), e };
        base_vec_push(&c->writes, b);
    }
    c->evs.data[e].nwr += n;
}

#define MAX_PLACES 16 /* an access through a pointer to one of this many places is split */

/* The distinct constant places of an address that is an ite over at most
 * MAX_PLACES constants (0: it is not; 1: a constant). */
static size_t places(po *c, bmc_smt_term addr, uint64_t *at)
{
    size_t n = bmc_smt_bv_leaves(c->s, addr, at, MAX_PLACES), k = 0;
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t j = 0; j < k; j++)
            seen |= at[j] == at[i];
        if (!seen)
            at[k++] = at[i];
    }
    return k;
}

/* A load through a pointer to one of a few places is one event per place
 * (only one runs), so that every address stays a constant. */
static bmc_smt_term h_load(void *ud, bmc_smt_term guard, bmc_smt_term addr, uint32_t n)
{
    po *c = ud;
    uint64_t at[MAX_PLACES];
    size_t k = places(c, addr, at);
    if (k <= 1)
        return add_reads(c, new_ev(c, EV_MEM, guard), addr, n);
    bmc_smt_term v = 0;
    for (size_t i = k; i-- > 0;) {
        bmc_smt_term a = bmc_smt_bv_const(c->s, c->pw, at[i]);
        bmc_smt_term here = bmc_smt_eq(c->s, addr, a);
        bmc_smt_term vi = add_reads(c, new_ev(c, EV_MEM, bmc_smt_and(c->s, guard, here)), a, n);
        v = v ? bmc_smt_ite(c->s, here, vi, v) : vi;
    }
    return v;
}

static void h_store(void *ud, bmc_smt_term guard, bmc_smt_term addr, bmc_smt_term v, uint32_t n)
{
    po *c = ud;
    uint64_t at[MAX_PLACES];
    size_t k = places(c, addr, at);
    if (k <= 1) {
        add_writes(c, new_ev(c, EV_MEM, guard), addr, v, n);
        return;
    }
    for (size_t i = 0; i < k; i++) {
        bmc_smt_term a = bmc_smt_bv_const(c->s, c->pw, at[i]);
        bmc_smt_term g = bmc_smt_and(c->s, guard, bmc_smt_eq(c->s, addr, a));
        add_writes(c, new_ev(c, EV_MEM, g), a, v, n);
    }
}

/* --- synchronisation --- */

#define LW_BYTES 4u /* the lock word */
#define EBUSY_V 16
#define EDEADLK_V 35
#define EPERM_V 1

static bmc_smt_term bv(po *c, uint32_t w, uint64_t v) { return bmc_smt_bv_const(c->s, w, v); }
static bmc_smt_term eq(po *c, bmc_smt_term a, bmc_smt_term b) { return bmc_smt_eq(c->s, a, b); }
static bmc_smt_term and2(po *c, bmc_smt_term a, bmc_smt_term b) { return bmc_smt_and(c->s, a, b); }
static bmc_smt_term or2(po *c, bmc_smt_term a, bmc_smt_term b) { return bmc_smt_or(c->s, a, b); }
static bmc_smt_term not1(po *c, bmc_smt_term a) { return bmc_smt_not(c->s, a); }
static bmc_smt_term ite(po *c, bmc_smt_term k, bmc_smt_term a, bmc_smt_term b)
{
    return bmc_smt_ite(c->s, k, a, b);
}
static bmc_smt_term lt(po *c, bmc_smt_term a, bmc_smt_term b)
{
    return bmc_smt_bv_cmp(c->s, BMC_SMT_ULT, a, b);
}

static bmc_smt_term word(po *c, bmc_smt_term owner, bmc_smt_term count, bmc_smt_term kind)
{
    return bmc_smt_concat(c->s, kind, bmc_smt_concat(c->s, count, owner));
}

/* A lock, unlock or init on the lock word at op->rhs: one read-modify-write
 * event. */
static void lock_op(po *c, bmc_conc_op *op)
{
    const ir_stmt *s = op->s;
    bmc_smt_term addr = op->rhs;
    if (!addr) {
        bmc_conc_stop(c->b, s->loc, "unsupported construct: a lock operation without an object");
        return;
    }
    if (s->rhs && s->rhs->type->kind == IR_T_PTR && s->rhs->type->to &&
        s->rhs->type->to->size && s->rhs->type->to->size < LW_BYTES) {
        bmc_conc_stop(c->b, s->loc, "unsupported construct: a lock object smaller than 4 bytes");
        return;
    }
    if (bmc_smt_width(c->s, addr) != c->pw) {
        bmc_conc_stop(c->b, s->loc, "unsupported construct: a lock operand that is not a pointer");
        return;
    }
    uint32_t e = new_ev(c, EV_MEM, op->guard);
    c->evs.data[e].s = s;
    if (s->kind == IR_S_LOCK_INIT) {
        uint64_t k = s->lock_kind == IR_LOCK_MUTEX_RECURSIVE ? 1
                     : s->lock_kind == IR_LOCK_MUTEX_ERRORCHECK ? 2 : 0;
        add_writes(c, e, addr, bv(c, 32, k << 24), LW_BYTES);
        op->lhs_value = bv(c, 32, 0);
        return;
    }
    bmc_smt_term old = add_reads(c, e, addr, LW_BYTES);
    bmc_smt_term owner = bmc_smt_extract(c->s, 15, 0, old);
    bmc_smt_term count = bmc_smt_extract(c->s, 23, 16, old);
    bmc_smt_term kind = bmc_smt_extract(c->s, 31, 24, old);
    bmc_smt_term me = bv(c, 16, c->cur + 1), none = bv(c, 16, 0);
    bmc_smt_term free_ = eq(c, owner, none), mine = eq(c, owner, me);
    bmc_smt_term c0 = bv(c, 8, 0), c1 = bv(c, 8, 1);
    bmc_smt_term inc = bmc_smt_bv_op(c->s, BMC_SMT_BV_ADD, count, c1);
    bmc_smt_term dec = bmc_smt_bv_op(c->s, BMC_SMT_BV_SUB, count, c1);
    bmc_smt_term ok, nw, ret = bv(c, 32, 0);
    if (s->kind == IR_S_LOCK && s->lock_kind == IR_LOCK_RW_READ) {
        ok = free_;
        nw = word(c, owner, inc, kind);
        if (s->is_try) {
            ret = ite(c, ok, ret, bv(c, 32, EBUSY_V));
            nw = ite(c, ok, nw, old);
            ok = bmc_smt_true(c->s);
        }
    } else if (s->kind == IR_S_LOCK && s->lock_kind == IR_LOCK_RW_WRITE) {
        ok = and2(c, free_, eq(c, count, c0));
        nw = word(c, me, c0, kind);
        if (s->is_try) {
            ret = ite(c, ok, ret, bv(c, 32, EBUSY_V));
            nw = ite(c, ok, nw, old);
            ok = bmc_smt_true(c->s);
        }
    } else if (s->kind == IR_S_LOCK) {
        bmc_smt_term rec = eq(c, kind, bv(c, 8, 1)), chk = eq(c, kind, bv(c, 8, 2));
        /* free: take it; mine and recursive: count up; mine and errorcheck:
         * EDEADLK; else it blocks (a trylock: EBUSY) */
        bmc_smt_term take = free_, again = and2(c, mine, rec), dead = and2(c, mine, chk);
        nw = ite(c, take, word(c, me, c1, kind), ite(c, again, word(c, owner, inc, kind), old));
        ok = or2(c, take, or2(c, again, dead));
        ret = ite(c, dead, bv(c, 32, EDEADLK_V), ret);
        if (s->is_try) {
            ret = ite(c, ok, ret, bv(c, 32, EBUSY_V));
            ok = bmc_smt_true(c->s);
        }
    } else { /* UNLOCK */
        if (s->lock_kind == IR_LOCK_RW) {
            /* the writer releases; else a reader leaves */
            nw = ite(c, mine, word(c, none, c0, kind),
                     ite(c, eq(c, count, c0), old, word(c, owner, dec, kind)));
        } else {
            bmc_smt_term rec = eq(c, kind, bv(c, 8, 1)), chk = eq(c, kind, bv(c, 8, 2));
            bmc_smt_term down = and2(c, and2(c, mine, rec),
                                     bmc_smt_bv_cmp(c->s, BMC_SMT_ULT, c1, count));
            bmc_smt_term perm = and2(c, chk, not1(c, mine));
            nw = ite(c, down, word(c, owner, dec, kind),
                     ite(c, perm, old, word(c, none, c0, kind)));
            ret = ite(c, perm, bv(c, 32, EPERM_V), ret);
        }
        ok = bmc_smt_true(c->s);
    }
    add_writes(c, e, addr, nw, LW_BYTES);
    op->guard_out = and2(c, op->guard, ok);
    c->evs.data[e].wguard = op->guard_out;
    op->lhs_value = ret;
}

static void async_op(po *c, bmc_conc_op *op)
{
    const ir_stmt *s = op->s;
    const ir_func *one[1];
    const ir_func *const *cands;
    uint32_t ncands;
    if (!op->callee) {
        one[0] = s->callee->func;
        cands = one;
        ncands = 1;
    } else {
        cands = s->cands;
        ncands = s->ncands;
        if (!ncands) {
            bmc_conc_stop(c->b, s->loc, "unsupported construct: a thread started through a "
                                        "function pointer with no known target");
            return;
        }
    }
    bmc_smt_term id = bv(c, 64, 0), cutg = bmc_smt_false(c->s), anyg = bmc_smt_false(c->s);
    for (uint32_t k = 0; k < ncands; k++) {
        const ir_func *g = cands[k];
        bmc_smt_term gk = op->guard;
        if (op->callee)
            gk = and2(c, gk, eq(c, op->callee, bmc_conc_func_addr(c->b, g)));
        if (bmc_smt_is_false(c->s, gk))
            continue;
        anyg = or2(c, anyg, gk);
        if (c->thrs.len - 1 >= c->o.max_threads) {
            bmc_conc_add_cut(c->b, gk, op->func, (uint32_t)(s - op->func->stmts), s->loc);
            cutg = or2(c, cutg, gk);
            continue;
        }
        uint32_t e = new_ev(c, EV_ASYNC, gk);
        c->evs.data[e].s = s;
        thr t = { .f = g, .started = gk, .arg = op->rhs, .arg_type = op->rhs_type,
                  .async_ev = e, .start_ev = UINT32_MAX, .end_ev = UINT32_MAX };
        base_vec_push(&c->thrs, t);
        uint32_t tid = (uint32_t)c->thrs.len - 1;
        c->evs.data[e].child = tid;
        id = ite(c, gk, bv(c, 64, tid), id);
    }
    /* a pointer equal to no candidate: the path ends (as for calls) */
    op->guard_out = and2(c, anyg, not1(c, cutg));
    op->lhs_value = id;
}

static void join_op(po *c, bmc_conc_op *op)
{
    uint32_t e = new_ev(c, EV_JOIN, op->guard);
    ev *j = &c->evs.data[e];
    j->s = op->s;
    j->handle = op->rhs;
    j->joined = bmc_smt_bool_var(c->s, "joined");
    bmc_smt_term g = and2(c, op->guard, j->joined);
    if (op->arg0 && bmc_smt_width(c->s, op->arg0) == c->pw) {
        j->result = bmc_smt_bv_var(c->s, c->pw, "joined_result");
        bmc_smt_term r = j->result;
        /* a NULL result pointer stores nothing */
        bmc_smt_term g2 = and2(c, g, not1(c, eq(c, op->arg0, bv(c, c->pw, 0))));
        uint32_t w = new_ev(c, EV_MEM, g2);
        add_writes(c, w, op->arg0, r, c->pw / 8);
    }
    op->guard_out = g;
    op->lhs_value = bv(c, 32, 0);
}

/* An end on the paths g closes, on each path, the innermost begin still
 * open there: the paths are split among the open begins, innermost first
 * (sections can end in several branches, and nest). */
static void close_sections(po *c, uint32_t end, bmc_smt_term g)
{
    bmc_smt_term rem = g;
    for (size_t k = c->open_atomic.len; k-- > 0 && !bmc_smt_is_false(c->s, rem);) {
        open_begin *ob = &c->open_atomic.data[k];
        bmc_smt_term take = and2(c, rem, ob->open);
        if (bmc_smt_is_false(c->s, take))
            continue;
        section sc = { ob->ev, end, take };
        base_vec_push(&c->sections, sc);
        ob->open = and2(c, ob->open, not1(c, take));
        rem = and2(c, rem, not1(c, take));
    }
    size_t n = 0; /* drop the begins closed on every path */
    for (size_t k = 0; k < c->open_atomic.len; k++)
        if (!bmc_smt_is_false(c->s, c->open_atomic.data[k].open))
            c->open_atomic.data[n++] = c->open_atomic.data[k];
    c->open_atomic.len = n;
}

static void h_sync(void *ud, bmc_conc_op *op)
{
    po *c = ud;
    switch (op->kind) {
    case IR_S_ASYNC: async_op(c, op); return;
    case IR_S_JOIN: join_op(c, op); return;
    case IR_S_LOCK:
    case IR_S_UNLOCK:
    case IR_S_LOCK_INIT: lock_op(c, op); return;
    case IR_S_LOCK_DESTROY:
    case IR_S_COND_WAIT:   /* may return at any time: a spurious wake-up */
    case IR_S_COND_SIGNAL:
        op->lhs_value = bv(c, 32, 0);
        return;
    case IR_S_ATOMIC_BEGIN: {
        open_begin ob = { new_ev(c, EV_ABEGIN, op->guard), op->guard };
        c->evs.data[ob.ev].s = op->s;
        base_vec_push(&c->open_atomic, ob);
        return;
    }
    case IR_S_ATOMIC_END:
        close_sections(c, new_ev(c, EV_AEND, op->guard), op->guard);
        return;
    case IR_S_THREAD_EXIT: {
        thr *t = &c->thrs.data[c->cur];
        bmc_smt_term v = op->rhs ? op->rhs : bv(c, c->pw, 0);
        uint32_t w = bmc_smt_width(c->s, v);
        if (w < c->pw)
            v = bmc_smt_zext(c->s, c->pw - w, v);
        else if (w > c->pw)
            v = bmc_smt_extract(c->s, c->pw - 1, 0, v);
        t->ret = t->ret ? ite(c, op->guard, v, t->ret) : v;
        t->end_guard = or2(c, t->end_guard, op->guard);
        return;
    }
    default:
        return;
    }
}

/* --- running the threads --- */

static void run_thread(po *c, uint32_t tid)
{
    c->cur = tid;
    c->open_atomic.len = 0;
    thr *t = &c->thrs.data[tid];
    t->bev0 = bmc_conc_nevents(c->b);
    t->ev0 = (uint32_t)c->evs.len;
    t->start_ev = new_ev(c, EV_START, t->started);
    t->end_guard = bmc_smt_false(c->s);
    bmc_smt_term g = t->started, ret = 0;
    if (tid == 0 && c->p->init && c->p->init->has_body)
        bmc_conc_run(c->b, c->p->init, g, NULL, NULL, 0, &g, &ret);
    const ir_func *f = t->f;
    bmc_smt_term args[1] = { t->arg };
    const ir_type *types[1] = { t->arg_type };
    uint32_t nargs = tid && t->arg && f->nparams ? 1 : 0;
    if (!bmc_conc_stopped(c->b))
        bmc_conc_run(c->b, f, g, args, types, nargs, &g, &ret);
    t = &c->thrs.data[tid]; /* thrs may have grown */
    if (ret) {
        uint32_t w = bmc_smt_width(c->s, ret);
        if (w < c->pw)
            ret = bmc_smt_zext(c->s, c->pw - w, ret);
        else if (w > c->pw)
            ret = bmc_smt_extract(c->s, c->pw - 1, 0, ret);
        t->ret = t->ret ? ite(c, g, ret, t->ret) : ret;
    }
    t->end_guard = or2(c, t->end_guard, g);
    t->end_ev = new_ev(c, EV_END, t->end_guard);
    /* sections still open run to the thread's end (on a path that stopped
     * inside one, the end's clock may be just after the thread's last event) */
    close_sections(c, t->end_ev, bmc_smt_true(c->s));
    t->bev1 = bmc_conc_nevents(c->b);
    t->ev1 = (uint32_t)c->evs.len;
}

/* --- the encoding --- */

static bmc_smt_term clk(po *c, uint32_t e) { return c->evs.data[e].clock; }

static void assert_(po *c, bmc_smt_term t) { bmc_smt_assert(c->s, t); }

/* Whether event a certainly runs before event b by program order (same
 * thread, earlier). */
static bool po_before(const po *c, uint32_t a, uint32_t b)
{
    return c->evs.data[a].thread == c->evs.data[b].thread && a < b;
}

typedef BASE_VEC(uint32_t) u32_vec;
typedef BASE_VEC(bmc_smt_term) term_vec;

/* The index of write bytes by constant address (chains through next),
 * and the write bytes at symbolic addresses. */
typedef struct windex {
    base_hashmap by_addr;
    BASE_VEC(uint32_t) next;
    BASE_VEC(uint32_t) sym;
} windex;

static void windex_build(po *c, windex *x)
{
    memset(x, 0, sizeof *x);
    base_hashmap_init(&x->by_addr);
    for (uint32_t i = 0; i < c->writes.len; i++) {
        uint64_t a, head;
        base_vec_push(&x->next, UINT32_MAX);
        if (bmc_smt_bv_value(c->s, c->writes.data[i].addr, &a)) {
            if (base_hashmap_get(&x->by_addr, a, &head))
                x->next.data[i] = (uint32_t)head;
            base_hashmap_put(&x->by_addr, a, i);
        } else {
            base_vec_push(&x->sym, i);
        }
    }
}

static void windex_free(windex *x)
{
    base_hashmap_free(&x->by_addr);
    base_vec_free(&x->next);
    base_vec_free(&x->sym);
}

static uint32_t windex_first(const windex *x, uint64_t a)
{
    uint64_t head;
    return base_hashmap_get(&x->by_addr, a, &head) ? (uint32_t)head : UINT32_MAX;
}

/* One reads-from choice `src` (a write event, or UINT32_MAX: the initial
 * memory) for the read of event re, with the other writes that may hit
 * the same place: others[j] (events), hit[j] (when they do). */
static void rf_choice(po *c, uint32_t re, uint32_t src, bmc_smt_term body,
                      const uint32_t *others, const bmc_smt_term *hit, size_t nothers,
                      bmc_smt_term *some)
{
    bool init = src == UINT32_MAX;
    bmc_smt_term sv = bmc_smt_bool_var(c->s, init ? "rf0" : "rf");
    c->st->rf_choices++;
    *some = or2(c, *some, sv);
    if (!init)
        body = and2(c, body, and2(c, c->evs.data[src].guard, lt(c, clk(c, src), clk(c, re))));
    assert_(c, bmc_smt_implies(c->s, sv, body));
    if (c->o.mm) { /* the model orders the writes */
        po_mm_rf rec = { re, src, sv };
        base_vec_push(&c->mmrf, rec);
        return;
    }
    /* no other write of the place between the source and the read */
    for (size_t j = 0; j < nothers; j++) {
        uint32_t w2 = others[j];
        if (w2 == src || w2 == re || po_before(c, re, w2))
            continue; /* the read's own event writes after it reads */
        if (!init && po_before(c, w2, src))
            continue; /* always before the source */
        bmc_smt_term after = lt(c, clk(c, re), clk(c, w2));
        bmc_smt_term ok = init ? after : or2(c, lt(c, clk(c, w2), clk(c, src)), after);
        assert_(c, bmc_smt_implies(c->s, and2(c, sv, and2(c, c->evs.data[w2].guard, hit[j])), ok));
        c->st->order_clauses++;
    }
}

/* Whether the read of event re (at a constant address) can choose whole
 * writes: every write that touches its bytes writes exactly them. */
static bool whole_read(po *c, const windex *x, uint32_t re, uint64_t a)
{
    const ev *r = &c->evs.data[re];
    if (x->sym.len)
        return false;
    for (uint32_t i = 0; i < r->nrd; i++)
        for (uint32_t w = windex_first(x, a + i); w != UINT32_MAX; w = x->next.data[w]) {
            const ev *we = &c->evs.data[c->writes.data[w].ev];
            uint64_t wa;
            if (we->nwr != r->nrd || !bmc_smt_bv_value(c->s, we->waddr, &wa) || wa != a)
                return false;
        }
    return true;
}

static void rf_whole(po *c, const windex *x, uint32_t re, uint64_t a, u32_vec *cand, term_vec *hits)
{
    const ev *r = &c->evs.data[re];
    cand->len = hits->len = 0;
    for (uint32_t w = windex_first(x, a); w != UINT32_MAX; w = x->next.data[w]) {
        uint32_t we = c->writes.data[w].ev;
        if (bmc_smt_is_false(c->s, c->evs.data[we].guard))
            continue;
        base_vec_push(cand, we);
        base_vec_push(hits, bmc_smt_true(c->s));
    }
    bmc_smt_term some = bmc_smt_false(c->s);
    bmc_smt_term mem0 = bmc_conc_init_mem(c->b), init = 0;
    for (uint32_t i = 0; i < r->nrd; i++) {
        bmc_smt_term b = bmc_smt_select(c->s, mem0, bv(c, c->pw, a + i));
        init = init ? bmc_smt_concat(c->s, b, init) : b;
    }
    rf_choice(c, re, UINT32_MAX, eq(c, r->rval, init), cand->data, hits->data, cand->len, &some);
    for (size_t k = 0; k < cand->len; k++) {
        uint32_t we = cand->data[k];
        if (we == re || po_before(c, re, we))
            continue;
        rf_choice(c, re, we, eq(c, r->rval, c->evs.data[we].wval), cand->data, hits->data,
                  cand->len, &some);
    }
    assert_(c, bmc_smt_implies(c->s, r->guard, some));
}

/* Byte by byte: each read byte chooses a write byte. */
static void rf_bytes(po *c, const windex *x, uint32_t re, u32_vec *cand, term_vec *hits)
{
    const ev *r = &c->evs.data[re];
    bmc_smt_term mem0 = bmc_conc_init_mem(c->b);
    BASE_VEC(uint32_t) wb = { 0 };
    for (uint32_t i = 0; i < r->nrd; i++) {
        const pbyte *rb = &c->reads.data[r->rd0 + i];
        wb.len = cand->len = hits->len = 0;
        uint64_t a;
        if (bmc_smt_bv_value(c->s, rb->addr, &a)) {
            for (uint32_t w = windex_first(x, a); w != UINT32_MAX; w = x->next.data[w])
                base_vec_push(&wb, w);
            for (size_t k = 0; k < x->sym.len; k++)
                base_vec_push(&wb, x->sym.data[k]);
        } else {
            for (uint32_t w = 0; w < c->writes.len; w++)
                base_vec_push(&wb, w);
        }
        for (size_t k = 0; k < wb.len; k++) {
            const pbyte *w = &c->writes.data[wb.data[k]];
            if (bmc_smt_is_false(c->s, c->evs.data[w->ev].guard))
                continue;
            bmc_smt_term e = eq(c, w->addr, rb->addr);
            if (bmc_smt_is_false(c->s, e))
                continue;
            wb.data[cand->len] = wb.data[k];
            base_vec_push(cand, w->ev);
            base_vec_push(hits, e);
        }
        wb.len = cand->len;
        bmc_smt_term some = bmc_smt_false(c->s);
        rf_choice(c, re, UINT32_MAX, eq(c, rb->val, bmc_smt_select(c->s, mem0, rb->addr)),
                  cand->data, hits->data, cand->len, &some);
        for (size_t k = 0; k < wb.len; k++) {
            uint32_t we = cand->data[k];
            if (we == re || po_before(c, re, we))
                continue;
            const pbyte *w = &c->writes.data[wb.data[k]];
            rf_choice(c, re, we, and2(c, eq(c, rb->val, w->val), hits->data[k]), cand->data,
                      hits->data, cand->len, &some);
        }
        assert_(c, bmc_smt_implies(c->s, r->guard, some));
    }
    base_vec_free(&wb);
}

/* Whether the budget ran out; then the check stops (unknown). The
 * encoding is cubic in the writes of a place, so deep bounds may spend
 * seconds here before the solver's own timeout applies. */
static bool out_of_time(po *c)
{
    if (bmc_smt_over_cap(c->s)) {
        bmc_conc_stop(c->b, (base_srcloc){ 0 }, BMC_SMT_TOO_LARGE);
        return true; /* the auto solver redoes this bound with Z3 */
    }
    if (c->o.bo.timeout_s <= 0 || base_now() - c->t0 <= c->o.bo.timeout_s)
        return false;
    char buf[100];
    snprintf(buf, sizeof buf, "timeout (%g s) while encoding", c->o.bo.timeout_s);
    bmc_conc_stop(c->b, (base_srcloc){ 0 }, buf);
    return true;
}

static void encode_rf(po *c)
{
    windex x;
    windex_build(c, &x);
    u32_vec cand = { 0 };
    term_vec hits = { 0 };
    for (uint32_t re = 0; re < c->evs.len; re++) {
        const ev *r = &c->evs.data[re];
        if (!r->nrd || bmc_smt_is_false(c->s, r->guard))
            continue;
        if (out_of_time(c))
            break;
        uint64_t a;
        if (bmc_smt_bv_value(c->s, r->raddr, &a) && whole_read(c, &x, re, a)) {
            c->st->whole_reads++;
            rf_whole(c, &x, re, a, &cand, &hits);
        } else if (c->o.mm) {
            bmc_conc_stop(c->b, r->s ? r->s->loc : (base_srcloc){ 0 },
                          "unsupported under a memory model: an access at an address that is not "
                          "constant, or of another size than a write of its place");
            break;
        } else {
            rf_bytes(c, &x, re, &cand, &hits);
        }
    }
    base_vec_free(&cand);
    base_vec_free(&hits);
    windex_free(&x);
}

static uint32_t bits_for(size_t n)
{
    uint32_t b = 1;
    while (b < 63 && ((size_t)1 << b) <= n)
        b++;
    return b;
}

static int refine_mm(void *ud)
{
    return po_mm_refine(ud);
}

/* The model's axioms over the events (po_mm.c). */
static void encode_mm(po *c)
{
    po_mm_ev *d = base_xcalloc(c->evs.len + 1, sizeof *d);
    static const po_mm_kind kinds[] = {
        [EV_MEM] = PO_MM_MEM, [EV_START] = PO_MM_START, [EV_END] = PO_MM_END,
        [EV_ASYNC] = PO_MM_ASYNC, [EV_JOIN] = PO_MM_JOIN, [EV_ABEGIN] = PO_MM_ABEGIN,
        [EV_AEND] = PO_MM_AEND,
    };
    for (uint32_t i = 0; i < c->evs.len; i++) {
        const ev *e = &c->evs.data[i];
        po_mm_ev *o = &d[i];
        o->kind = kinds[e->kind];
        o->thread = e->thread;
        o->guard = e->guard;
        o->nrd = e->nrd;
        o->nwr = e->nwr;
        o->child = e->child;
        o->handle = e->handle;
        o->joined = e->joined;
        if (e->kind == EV_ABEGIN && e->s && e->s->kind == IR_S_ATOMIC_BEGIN)
            o->mo = e->s->mo;
        o->lock = e->kind == EV_MEM && e->s && (e->s->kind == IR_S_LOCK || e->s->kind == IR_S_UNLOCK ||
                                                e->s->kind == IR_S_LOCK_INIT);
        o->wguard = e->wguard;
        if ((e->nrd && !bmc_smt_bv_value(c->s, e->raddr, &o->raddr)) ||
            (e->nwr && !bmc_smt_bv_value(c->s, e->waddr, &o->waddr))) {
            bmc_conc_stop(c->b, e->s ? e->s->loc : (base_srcloc){ 0 },
                          "unsupported under a memory model: an access at an address that is "
                          "not constant");
            free(d);
            return;
        }
    }
    po_mm_thread *t = base_xcalloc(c->thrs.len + 1, sizeof *t);
    for (uint32_t k = 0; k < c->thrs.len; k++) {
        t[k].end_ev = c->thrs.data[k].end_ev;
        t[k].end_guard = c->thrs.data[k].end_guard;
    }
    double deadline = c->o.bo.timeout_s > 0 ? base_now() + c->o.bo.timeout_s : 0;
    po_mm_stats ms = { 0 };
    const char *why = po_mm_encode(c->s, c->o.mm, c->pw, d, (uint32_t)c->evs.len, t,
                                   (uint32_t)c->thrs.len, c->mmrf.data, c->mmrf.len, deadline, &ms,
                                   c->o.mm_lazy ? &c->mml : NULL);
    if (c->mml)
        bmc_conc_set_refine(c->b, refine_mm, c->mml);
    c->st->mm_events = ms.events;
    c->st->mm_vars = ms.vars;
    c->st->mm_clauses = ms.clauses;
    if (why) {
        char buf[300];
        snprintf(buf, sizeof buf, "unsupported under a memory model: %s", why);
        bmc_conc_stop(c->b, (base_srcloc){ 0 }, buf);
    }
    free(d);
    free(t);
}

static void encode(po *c)
{
    c->cw = bits_for(c->evs.len + 2);
    c->st->clock_bits = c->cw;
    for (uint32_t e = 0; e < c->evs.len; e++)
        c->evs.data[e].clock = bmc_smt_bv_var(c->s, c->cw, "clock");
    /* program order, thread starts */
    for (uint32_t e = 1; e < c->evs.len; e++)
        if (c->evs.data[e].thread == c->evs.data[e - 1].thread)
            assert_(c, lt(c, clk(c, e - 1), clk(c, e)));
    for (uint32_t t = 1; t < c->thrs.len; t++) {
        const thr *th = &c->thrs.data[t];
        if (th->start_ev != UINT32_MAX)
            assert_(c, lt(c, clk(c, th->async_ev), clk(c, th->start_ev)));
    }
    /* joins: joined only after a thread with that handle ended */
    for (uint32_t e = 0; e < c->evs.len; e++) {
        const ev *j = &c->evs.data[e];
        if (j->kind != EV_JOIN)
            continue;
        bmc_smt_term any = bmc_smt_false(c->s);
        for (uint32_t t = 1; t < c->thrs.len; t++) {
            const thr *th = &c->thrs.data[t];
            if (th->end_ev == UINT32_MAX)
                continue;
            bmc_smt_term hw = j->handle;
            uint32_t w = bmc_smt_width(c->s, hw);
            bmc_smt_term is = w <= 64 ? eq(c, hw, bv(c, w, t)) : bmc_smt_false(c->s);
            if (bmc_smt_is_false(c->s, is))
                continue;
            bmc_smt_term ok = and2(c, is, and2(c, th->end_guard, lt(c, clk(c, th->end_ev), clk(c, e))));
            if (j->result)
                ok = and2(c, ok, eq(c, j->result, th->ret ? th->ret : bv(c, c->pw, 0)));
            any = or2(c, any, ok);
        }
        assert_(c, bmc_smt_implies(c->s, j->joined, any));
    }
    /* atomic sections: no other thread's memory event inside (under a
     * model, sections are C11 operations and the model says what they do) */
    for (size_t k = 0; k < c->sections.len && !c->o.mm && !out_of_time(c); k++) {
        const section *sc = &c->sections.data[k];
        uint32_t b = sc->begin, end = sc->end, th = c->evs.data[b].thread;
        for (uint32_t e = 0; e < c->evs.len; e++) {
            const ev *o = &c->evs.data[e];
            if (o->thread == th || o->kind != EV_MEM || bmc_smt_is_false(c->s, o->guard))
                continue;
            bmc_smt_term out = or2(c, lt(c, clk(c, e), clk(c, b)), lt(c, clk(c, end), clk(c, e)));
            assert_(c, bmc_smt_implies(c->s, and2(c, sc->cond, o->guard), out));
            c->st->order_clauses++;
        }
    }
    if (!bmc_conc_stopped(c->b))
        encode_rf(c);
    if (c->o.mm && !bmc_conc_stopped(c->b))
        encode_mm(c);
}

/* --- traces --- */

static uint64_t h_step_key(void *ud, size_t bev, uint32_t *thread)
{
    po *c = ud;
    uint32_t t = 0;
    for (uint32_t k = 0; k < c->thrs.len; k++)
        if (bev >= c->thrs.data[k].bev0 && bev < c->thrs.data[k].bev1) {
            t = k;
            break;
        }
    *thread = t;
    const thr *th = &c->thrs.data[t];
    /* the last po event of the thread made at or before bev that ran (one
     * of a path not taken, an earlier branch or iteration, has any clock) */
    uint32_t lo = th->ev0, hi = th->ev1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->evs.data[mid].bev <= bev)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t e = lo > th->ev0 ? lo - 1 : th->ev0;
    while (e > th->ev0 && !bmc_smt_model_bool(c->s, c->evs.data[e].guard))
        e--;
    return 2 * bmc_smt_model_bv(c->s, c->evs.data[e].clock) + 1;
}

/* --- exactness --- */

/* Why a SAFE answer about p from entry would be no proof, or NULL. Body-
 * less calls return a nondeterministic value and change what their
 * pointer arguments point to (bmc.h): an over-approximation of any C
 * library function but those that call back into the program, so a call
 * that passes a function pointer is not exact; nor is a function that
 * could not be lowered or a call through a pointer with no known target,
 * nor a test of a blocking lock's result (the lock always succeeds here).
 * Only functions that may run count (reached from entry or init by calls
 * and thread starts, or address-taken). */
static const char *inexact(const ir_program *p, const ir_func *entry, char *buf, size_t bufsz)
{
    base_hashmap seen;
    base_hashmap_init(&seen);
    BASE_VEC(const ir_func *) work = { 0 };
    uint64_t x;
    const char *why = NULL;
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->address_taken)
            base_vec_push(&work, p->funcs[i]);
    if (entry)
        base_vec_push(&work, entry);
    if (p->init)
        base_vec_push(&work, p->init);
    while (work.len && !why) {
        const ir_func *f = base_vec_pop(&work);
        if (base_hashmap_get(&seen, (uint64_t)(uintptr_t)f, &x))
            continue;
        base_hashmap_put(&seen, (uint64_t)(uintptr_t)f, 1);
        if (f->not_lowered) {
            snprintf(buf, bufsz, "'%s' could not be lowered", base_sym_str(p->syms, f->name));
            why = buf;
            break;
        }
        for (uint32_t k = 0; k < f->nstmts && !why; k++) {
            const ir_stmt *s = &f->stmts[k];
            /* a blocking lock succeeds (POSIX); SV-COMP's tasks let it fail */
            if (s->kind == IR_S_LOCK && !s->is_try && s->result_used) {
                snprintf(buf, bufsz, "the program tests the result of a lock (line %u), which "
                                     "ravel takes to succeed (POSIX), while SV-COMP's tasks may "
                                     "let it fail", s->loc.line);
                why = buf;
                break;
            }
            if (s->kind != IR_S_CALL && s->kind != IR_S_ASYNC)
                continue;
            if (s->callee->kind != IR_E_FUNC) {
                if (!s->ncands) {
                    snprintf(buf, bufsz, "a call through a function pointer with no known target "
                                         "(line %u)", s->loc.line);
                    why = buf;
                }
                for (uint32_t j = 0; j < s->ncands; j++)
                    base_vec_push(&work, s->cands[j]);
                continue;
            }
            const ir_func *g = s->callee->func;
            base_vec_push(&work, g);
            if (g->has_body || g->not_lowered || s->kind != IR_S_CALL)
                continue;
            /* bmc havocs its own memory at such a call, but po's memory is
             * its events: what the assembly writes is not modelled */
            if (g->writes_memory) {
                snprintf(buf, bufsz, "inline assembly that may write any memory (a \"memory\" "
                                     "clobber, line %u)", s->loc.line);
                why = buf;
                break;
            }
            for (uint32_t j = 0; j < s->nargs; j++) {
                const ir_type *t = s->args[j]->type;
                if (t->kind == IR_T_PTR && t->to && t->to->kind == IR_T_FUNC) {
                    snprintf(buf, bufsz, "a call to '%s', which has no body, with a function "
                                         "pointer (line %u)", base_sym_str(p->syms, g->name), s->loc.line);
                    why = buf;
                }
            }
        }
    }
    base_vec_free(&work);
    base_hashmap_free(&seen);
    return why;
}

/* --- the check --- */

void po_opts_init(po_opts *o)
{
    memset(o, 0, sizeof *o);
    bmc_opts_init(&o->bo);
    o->max_threads = 64;
    o->mm_lazy = true;
}

/* --- the view of an engine over the encoding (po.h) --- */

size_t po_nevents(const po *c) { return c->evs.len; }
size_t po_nthreads(const po *c) { return c->thrs.len; }
bmc_conc *po_bmc(po *c) { return c->b; }

void po_event_get(const po *c, uint32_t e, po_event_info *out)
{
    const ev *x = &c->evs.data[e];
    *out = (po_event_info){ .thread = x->thread, .guard = x->guard, .clock = x->clock,
                            .raddr = x->raddr, .waddr = x->waddr, .wval = x->wval,
                            .nrd = x->nrd, .nwr = x->nwr, .mem = x->kind == EV_MEM,
                            .s = x->s, .acc = x->acc, .loc = x->loc, .bev = x->bev };
}

bmc_smt_term po_event_in_atomic(po *c, uint32_t e)
{
    bmc_smt_term in = bmc_smt_false(c->s);
    for (size_t k = 0; k < c->sections.len; k++) {
        const section *sc = &c->sections.data[k];
        if (sc->begin < e && e < sc->end && c->evs.data[sc->begin].thread == c->evs.data[e].thread)
            in = or2(c, in, sc->cond);
    }
    return in;
}

const ir_func *po_thread_func(const po *c, uint32_t t) { return c->thrs.data[t].f; }

base_srcloc po_thread_started_at(const po *c, uint32_t t)
{
    uint32_t a = c->thrs.data[t].async_ev;
    return a == UINT32_MAX || !c->evs.data[a].s ? (base_srcloc){ 0 } : c->evs.data[a].s->loc;
}

trace_verdict po_check(const ir_program *p, const ir_func *entry, const po_opts *o,
                       trace_result *r, po_stats *st, bool *exact, const char **inexact_why)
{
    return po_check_ext(p, entry, o, r, st, exact, inexact_why, NULL);
}

bmc_smt_backend po_solver_choice(bmc_smt_backend b, bool redoable, uint64_t auto_cap,
                                 uint64_t *cap)
{
    if (b == BMC_SMT_DEFAULT)
        b = bmc_smt_current_backend();
    *cap = 0;
    if (b != BMC_SMT_AUTO)
        return b;
    if (!redoable || !auto_cap)
        return BMC_SMT_Z3;
    *cap = auto_cap;
    return BMC_SMT_CADICAL;
}

/* One run of the check on the solver o->bo.solver under o->bo.clause_cap;
 * *over: the cap was hit (the answer is then unknown). */
static trace_verdict po_run(const ir_program *p, const ir_func *entry, const po_opts *o,
                            trace_result *r, po_stats *st, bool *exact, const char **inexact_why,
                            const po_ext *x, bool *over)
{
    po c;
    memset(&c, 0, sizeof c);
    c.t0 = base_now();
    c.st = st;
    memset(c.st, 0, sizeof *c.st);
    c.p = p;
    c.o = *o;
    if (c.o.max_threads < 1)
        c.o.max_threads = 1;
    bmc_conc_hooks hk = { &c, h_load, h_store, h_sync, h_step_key };
    c.b = bmc_conc_new(p, &c.o.bo, &hk, r);
    c.s = bmc_conc_solver(c.b);
    c.pw = bmc_conc_ptr_bits(c.b);
    char why_buf[300];
    const char *why = inexact(p, entry, why_buf, sizeof why_buf);
    if (exact)
        *exact = !why;
    if (inexact_why)
        *inexact_why = why ? base_arena_strdup(&r->arena, why) : NULL;
    if (!entry || !entry->has_body) {
        bmc_conc_stop(c.b, entry ? entry->loc : (base_srcloc){ 0 }, "the entry function has no body");
    } else {
        thr mainth = { .f = entry, .started = bmc_smt_true(c.s), .async_ev = UINT32_MAX,
                       .start_ev = UINT32_MAX, .end_ev = UINT32_MAX };
        base_vec_push(&c.thrs, mainth);
        for (uint32_t t = 0; t < c.thrs.len && !bmc_conc_stopped(c.b); t++)
            run_thread(&c, t);
        if (!bmc_conc_stopped(c.b))
            encode(&c);
    }
    c.st->threads = c.thrs.len;
    c.st->events = c.evs.len;
    c.st->read_bytes = c.reads.len;
    c.st->write_bytes = c.writes.len;
    trace_verdict v = x && !bmc_conc_stopped(c.b) ? x->decide(x->ud, &c) : bmc_conc_decide(c.b);
    c.st->clauses = bmc_smt_num_clauses(c.s);
    *over = bmc_smt_over_cap(c.s);
    if (c.mml) {
        po_mm_lazy_stats(c.mml, &c.st->mm_rounds, &c.st->mm_refined);
        po_mm_free(c.mml);
    }
    bmc_conc_free(c.b);
    base_vec_free(&c.evs);
    base_vec_free(&c.reads);
    base_vec_free(&c.writes);
    base_vec_free(&c.thrs);
    base_vec_free(&c.open_atomic);
    base_vec_free(&c.sections);
    base_vec_free(&c.mmrf);
    return v;
}

trace_verdict po_check_ext(const ir_program *p, const ir_func *entry, const po_opts *o,
                           trace_result *r, po_stats *st, bool *exact, const char **inexact_why,
                           const po_ext *x)
{
    double t0 = base_now();
    po_opts oo;
    if (o)
        oo = *o;
    else
        po_opts_init(&oo);
    po_stats dummy;
    if (!st)
        st = &dummy;
    uint64_t cap;
    /* an engine over the encoding (po_race) keeps state across its checks,
     * which a second run cannot take over: auto means Z3 there */
    bmc_smt_backend b = po_solver_choice(oo.bo.solver, !x,
                                         oo.auto_clause_cap ? oo.auto_clause_cap
                                                            : PO_AUTO_CLAUSE_CAP, &cap);
    oo.bo.solver = b;
    oo.bo.clause_cap = cap;
    bool over = false;
    trace_verdict v = po_run(p, entry, &oo, r, st, exact, inexact_why, x, &over);
    if (!over)
        return v;
    /* too large for the bit-blaster: Z3 decides this bound, in the time left */
    uint64_t clauses = st->clauses;
    trace_result_free(r);
    oo.bo.solver = BMC_SMT_Z3;
    oo.bo.clause_cap = 0;
    if (oo.bo.timeout_s > 0) {
        if (oo.bo.budget_s <= 0)
            oo.bo.budget_s = oo.bo.timeout_s;
        double left = oo.bo.timeout_s - (base_now() - t0);
        oo.bo.timeout_s = left > 0.001 ? left : 0.001;
    }
    v = po_run(p, entry, &oo, r, st, exact, inexact_why, x, &over);
    st->clauses = clauses;
    st->redone = true;
    return v;
}
