/* po_mm: po's events as a logic_structure, a model's formula grounded
 * over it, the clauses asserted into po's solver; see po_mm.h. */
#include "po/po_mm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "ir/ir.h"
#include "logic/combinators.h"
#include "logic/exec.h"
#include "logic/ground.h"
#include "logic/vocab.h"
#include "sat/circuit.h"

#define NONE UINT32_MAX

enum { K_R, K_W, K_F };
enum { ANN_RLX, ANN_ACQ, ANN_REL, ANN_ACQREL, ANN_SC, ANN_MB, NANN };
static const char *const ann_names[NANN] = { "rlx", "acq", "rel", "acq_rel", "sc", "mb" };

typedef struct elem {
    uint8_t kind;    /* K_R, K_W, K_F */
    bool rmwev;      /* an event of a read-modify-write (x86: a locked instruction) */
    uint32_t thread; /* NONE: an initial write */
    uint32_t loc;
    int x;           /* literal: the event is in X */
    uint32_t annots; /* bit set of ANN_* */
    uint32_t rmw_w;  /* R of an rmw: its W */
    uint32_t child;  /* a thread creation: the thread */
} elem;

typedef BASE_VEC(uint32_t) u32_vec;

struct po_mm {
    bmc_smt_solver *s;
    sat_circuit circ;
    base_hashmap lit_of;             /* term -> SAT variable */
    BASE_VEC(bmc_smt_term) var_term; /* SAT variable -> term (0: none) */
    BASE_VEC(elem) els;
    base_hashmap locs;               /* address -> location */
    uint32_t nlocs;
    BASE_VEC(uint8_t) is_exit;       /* location -> a thread's exit location */
    uint32_t *r_ok, *r_fail, *w;     /* po event -> its read (of a CAS: success, failure), write */
    /* kept for refinement (lazy): */
    sat_solver *rec;
    BASE_VEC(bmc_smt_term) tv;       /* SAT variable -> its term in po's solver */
    size_t flushed;                  /* recorded literals already asserted */
    size_t nclauses;
    logic_structure lst;
    bool have_st;
    logic_builder b;
    logic_grounder g;
    bool have_g;
    base_hashmap tuple_lit;          /* (deferred constraint, a, c) -> the literal of r(a, c) */
    size_t rounds, added;
};
typedef struct po_mm mm;

static int lit(mm *m, bmc_smt_term t)
{
    if (bmc_smt_is_true(m->s, t))
        return SAT_TRUE;
    if (bmc_smt_is_false(m->s, t))
        return SAT_FALSE;
    uint64_t v;
    if (base_hashmap_get(&m->lit_of, t, &v))
        return (int)v;
    int var = sat_circuit_var(&m->circ);
    base_hashmap_put(&m->lit_of, t, (uint64_t)var);
    while (m->var_term.len <= (size_t)var)
        base_vec_push(&m->var_term, 0);
    m->var_term.data[var] = t;
    return var;
}

static uint32_t loc_of(mm *m, uint64_t addr)
{
    uint64_t l;
    if (base_hashmap_get(&m->locs, addr, &l))
        return (uint32_t)l;
    base_hashmap_put(&m->locs, addr, m->nlocs);
    base_vec_push(&m->is_exit, 0);
    return m->nlocs++;
}

static uint32_t add(mm *m, uint8_t kind, uint32_t thread, uint32_t loc, int x, uint32_t annots)
{
    elem e = { kind, false, thread, loc, x, annots, NONE, NONE };
    base_vec_push(&m->els, e);
    return (uint32_t)m->els.len - 1;
}

enum { ROLE_R, ROLE_W, ROLE_RMW, ROLE_F };

/* The annotation of an access or fence of C11 order mo (RC11's modes, as
 * the litmus C front end maps them), as a bit set. */
static uint32_t ann(uint8_t mo, int role)
{
    int a = -1;
    switch (mo) {
    case IR_MO_RELAXED: a = role == ROLE_F ? -1 : ANN_RLX; break;
    case IR_MO_ACQUIRE: a = role == ROLE_W ? ANN_RLX : ANN_ACQ; break;
    case IR_MO_RELEASE: a = role == ROLE_R ? ANN_RLX : ANN_REL; break;
    case IR_MO_ACQ_REL:
        a = role == ROLE_R ? ANN_ACQ : role == ROLE_W ? ANN_REL : ANN_ACQREL;
        break;
    case IR_MO_SEQ_CST: a = ANN_SC; break;
    default: break;
    }
    uint32_t set = a < 0 ? 0 : 1u << a;
    if (mo == IR_MO_SEQ_CST && role == ROLE_F)
        set |= 1u << ANN_MB;
    return set;
}

/* The accesses of po events to elements. Returns NULL or why not. */
static const char *build(mm *m, uint32_t ptr_bits, const po_mm_ev *evs, uint32_t nevs,
                         const po_mm_thread *thrs, uint32_t nthrs, uint32_t *exit_w,
                         u32_vec *join_r, u32_vec *join_w)
{
    (void)ptr_bits;
    /* every thread's exit location first: joins come before ends */
    uint32_t *exit_loc = base_xmalloc(base_mul_size(nthrs ? nthrs : 1, sizeof(uint32_t)));
    for (uint32_t t = 0; t < nthrs; t++) {
        exit_loc[t] = NONE;
        if (t && thrs[t].end_ev != NONE) {
            exit_loc[t] = loc_of(m, UINT64_MAX - t); /* no object is there */
            m->is_exit.data[exit_loc[t]] = 1;
        }
    }
    const char *why = NULL;
    uint32_t sec = NONE;   /* the open section's ABEGIN */
    uint64_t sec_addr = 0;
    bool sec_has_addr = false, sec_mem = false;
    for (uint32_t i = 0; i < nevs && !why; i++) {
        const po_mm_ev *e = &evs[i];
        m->r_ok[i] = m->r_fail[i] = m->w[i] = NONE;
        switch (e->kind) {
        case PO_MM_START:
            break;
        case PO_MM_ASYNC:
        {
            uint32_t f = add(m, K_F, e->thread, 0, lit(m, e->guard), 1u << ANN_MB);
            m->els.data[f].child = e->child; /* not in one expression: add may move els */
            break;
        }
        case PO_MM_ABEGIN:
            if (sec != NONE) {
                why = "nested atomic sections";
                break;
            }
            if (e->mo == IR_MO_NONE || (e->mo & 15) == IR_MO_DYNAMIC || e->mo >> 4 == IR_MO_DYNAMIC) {
                why = e->mo == IR_MO_NONE ? "an atomic section that is no C11 atomic operation "
                                            "(__VERIFIER_atomic_*, atomic blocks)"
                                          : "a C11 atomic operation whose memory order is not a constant";
                break;
            }
            sec = i;
            sec_has_addr = sec_mem = false;
            break;
        case PO_MM_AEND:
            if (sec != NONE && !sec_mem) {
                uint32_t a = ann(evs[sec].mo & 15, ROLE_F);
                if (a)
                    add(m, K_F, e->thread, 0, lit(m, evs[sec].guard), a);
            }
            sec = NONE;
            break;
        case PO_MM_END:
            if (e->thread && e->thread < nthrs && exit_loc[e->thread] != NONE)
                exit_w[e->thread] = m->w[i] = add(m, K_W, e->thread, exit_loc[e->thread],
                                                  lit(m, thrs[e->thread].end_guard), 1u << ANN_REL);
            break;
        case PO_MM_JOIN:
            for (uint32_t t = 1; t < nthrs; t++) {
                if (exit_loc[t] == NONE)
                    continue;
                uint32_t wd = bmc_smt_width(m->s, e->handle);
                bmc_smt_term is = wd && wd <= 64 ? bmc_smt_eq(m->s, e->handle, bmc_smt_bv_const(m->s, wd, t))
                                                 : bmc_smt_false(m->s);
                bmc_smt_term g = bmc_smt_and(m->s, e->guard, bmc_smt_and(m->s, e->joined, is));
                if (bmc_smt_is_false(m->s, g))
                    continue;
                uint32_t r = add(m, K_R, e->thread, exit_loc[t], lit(m, g), 1u << ANN_ACQ);
                base_vec_push(join_r, r);
                base_vec_push(join_w, t); /* the thread, until its end is made */
            }
            break;
        case PO_MM_MEM: {
            int g = lit(m, e->guard);
            if (e->nrd && e->nwr && !e->lock) {
                why = "an access that reads and writes";
                break;
            }
            if (e->lock) {
                uint32_t a = 1u << (e->nrd ? ANN_ACQREL : ANN_RLX);
                if (e->nrd)
                    m->r_ok[i] = add(m, K_R, e->thread, loc_of(m, e->raddr), g, a);
                m->w[i] = add(m, K_W, e->thread, loc_of(m, e->waddr), e->wguard ? lit(m, e->wguard) : g, a);
                if (e->nrd) {
                    m->els.data[m->r_ok[i]].rmwev = m->els.data[m->w[i]].rmwev = true;
                    m->els.data[m->r_ok[i]].rmw_w = m->w[i];
                }
                break;
            }
            uint64_t addr = e->nrd ? e->raddr : e->waddr;
            bool atomic = false;
            if (sec != NONE) {
                if (!sec_has_addr) {
                    sec_has_addr = true;
                    sec_addr = addr;
                }
                sec_mem = true;
                atomic = addr == sec_addr;
            }
            uint32_t l = loc_of(m, addr);
            uint8_t mo = sec != NONE ? evs[sec].mo & 15 : 0, fmo = sec != NONE ? evs[sec].mo >> 4 : 0;
            if (e->nwr) {
                if (m->w[i] != NONE) /* the write of an rmw, made with its read */
                    break;
                m->w[i] = add(m, K_W, e->thread, l, g, atomic ? ann(mo, ROLE_W) : 0);
                if (atomic && mo == IR_MO_SEQ_CST)
                    add(m, K_F, e->thread, 0, g, 1u << ANN_MB);
                break;
            }
            /* a read: an rmw when the section writes the location later */
            uint32_t j = NONE;
            for (uint32_t k = i + 1; atomic && k < nevs && evs[k].thread == e->thread; k++) {
                if (evs[k].kind == PO_MM_AEND)
                    break;
                if (evs[k].kind == PO_MM_MEM && evs[k].nwr && !evs[k].lock && evs[k].waddr == addr) {
                    j = k;
                    break;
                }
            }
            if (j == NONE) {
                m->r_ok[i] = add(m, K_R, e->thread, l, g, atomic ? ann(mo, ROLE_R) : 0);
                break;
            }
            /* success: the write runs; failure (a compare-exchange): it does not */
            int wg = lit(m, evs[j].guard);
            m->r_ok[i] = add(m, K_R, e->thread, l, wg, ann(mo, ROLE_RMW));
            int fg = sat_and2(&m->circ, g, -wg);
            if (fg != SAT_FALSE)
                m->r_fail[i] = add(m, K_R, e->thread, l, fg, ann(fmo ? fmo : mo, ROLE_R));
            m->w[j] = add(m, K_W, e->thread, l, wg, ann(mo, ROLE_RMW));
            m->els.data[m->r_ok[i]].rmwev = m->els.data[m->w[j]].rmwev = true;
            m->els.data[m->r_ok[i]].rmw_w = m->w[j];
            if (m->r_fail[i] != NONE)
                m->els.data[m->r_fail[i]].rmwev = true;
            break;
        }
        }
    }
    for (size_t k = 0; k < join_w->len && !why; k++) {
        join_w->data[k] = exit_w[join_w->data[k]];
        if (join_w->data[k] == NONE)
            why = "a join of a thread without its end (internal)";
    }
    free(exit_loc);
    return why;
}

static void set_ann(logic_structure *st, const elem *e, uint32_t i, int *rel)
{
    for (uint32_t a = 0; a < NANN; a++) {
        if (!(e->annots >> a & 1))
            continue;
        if (rel[a] < 0) {
            char name[32];
            snprintf(name, sizeof name, "%s%s", LOGIC_V_ANNOT_PREFIX, ann_names[a]);
            rel[a] = (int)logic_structure_add(st, name, 1);
        }
        logic_rel_set1(st, (uint32_t)rel[a], i);
    }
}

/* The structure: sets, po (each thread's order, and a creation before
 * every event of the new thread and its descendants), loc, int/ext, rmw,
 * rf-cand and co-cand (the tuples the literal tables may hold). */
static void structure(mm *m, const int *rf, logic_structure *st)
{
    uint32_t n = (uint32_t)m->els.len;
    logic_structure_init(st, n);
    logic_vocab v;
    logic_vocab_add(st, &v);
    uint32_t R = v.R, W = v.W, F = v.F, M = v.M, IW = v.IW, RMWEV = v.RMWEV, po = v.po;
    uint32_t loc = v.loc, in = v.in, ext = v.ext, rfc = v.rf_cand, coc = v.co_cand, rmw = v.rmw;
    int annrel[NANN];
    for (uint32_t a = 0; a < NANN; a++)
        annrel[a] = -1;
    for (uint32_t i = 0; i < n; i++) {
        const elem *e = &m->els.data[i];
        logic_rel_set1(st, e->kind == K_R ? R : e->kind == K_W ? W : F, i);
        if (e->kind != K_F)
            logic_rel_set1(st, M, i);
        if (e->thread == NONE)
            logic_rel_set1(st, IW, i);
        if (e->rmwev)
            logic_rel_set1(st, RMWEV, i);
        if (e->rmw_w != NONE)
            logic_rel_set2(st, rmw, i, e->rmw_w);
        set_ann(st, e, i, annrel);
    }
    /* po: before[t] holds what precedes thread t's next element */
    uint32_t nthr = 1;
    for (uint32_t i = 0; i < n; i++)
        if (m->els.data[i].thread != NONE && m->els.data[i].thread + 1 > nthr)
            nthr = m->els.data[i].thread + 1;
    size_t words = n / 64 + 1;
    uint64_t *before = base_xcalloc(base_mul_size(nthr, words), sizeof(uint64_t));
    for (uint32_t b = 0; b < n; b++) {
        uint32_t t = m->els.data[b].thread;
        if (t == NONE)
            continue;
        uint64_t *row = before + (size_t)t * words;
        for (uint32_t a = 0; a < n; a++)
            if (row[a >> 6] >> (a & 63) & 1)
                logic_rel_set2(st, po, a, b);
        row[b >> 6] |= (uint64_t)1 << (b & 63);
        uint32_t c = m->els.data[b].child;
        if (c != NONE && c < nthr)
            memcpy(before + (size_t)c * words, row, words * sizeof(uint64_t));
    }
    free(before);
    for (uint32_t i = 0; i < n; i++) {
        const elem *a = &m->els.data[i];
        for (uint32_t j = 0; j < n; j++) {
            const elem *b = &m->els.data[j];
            bool same = a->thread != NONE && a->thread == b->thread;
            if (same)
                logic_rel_set2(st, in, i, j);
            else if (i != j)
                logic_rel_set2(st, ext, i, j);
            if (a->kind == K_F || b->kind == K_F || a->loc != b->loc)
                continue;
            logic_rel_set2(st, loc, i, j);
            if (rf[(size_t)i * n + j] != SAT_FALSE)
                logic_rel_set2(st, rfc, i, j);
            if (i != j && a->kind == K_W && b->kind == K_W && b->thread != NONE)
                logic_rel_set2(st, coc, i, j);
        }
    }
}

/* The clauses recorded since the last flush into po's solver, every SAT
 * variable a Z3 Boolean or the po term it stands for. */
static void flush(mm *m)
{
    int nv = sat_num_vars(m->rec);
    while (m->tv.len <= (size_t)nv) {
        int v = (int)m->tv.len;
        bmc_smt_term t = bmc_smt_true(m->s);
        if (v != SAT_TRUE)
            t = (size_t)v < m->var_term.len && m->var_term.data[v] ? m->var_term.data[v]
                                                                   : bmc_smt_bool_var(m->s, "mm");
        base_vec_push(&m->tv, v ? t : 0);
    }
    size_t nl;
    const int *lits = sat_recorded(m->rec, &nl);
    bmc_smt_term cl = bmc_smt_false(m->s);
    for (size_t i = m->flushed; i < nl; i++) {
        if (!lits[i]) {
            bmc_smt_assert(m->s, cl);
            cl = bmc_smt_false(m->s);
            m->nclauses++;
            continue;
        }
        int v = abs(lits[i]);
        bmc_smt_term t = lits[i] > 0 ? m->tv.data[v] : bmc_smt_not(m->s, m->tv.data[v]);
        cl = bmc_smt_or(m->s, cl, t);
    }
    m->flushed = nl;
}

static void mm_free(mm *m)
{
    if (m->have_g)
        logic_grounder_free(&m->g);
    logic_builder_free(&m->b);
    if (m->have_st)
        logic_structure_free(&m->lst);
    free(m->r_ok);
    free(m->r_fail);
    free(m->w);
    base_vec_free(&m->els);
    base_vec_free(&m->var_term);
    base_vec_free(&m->is_exit);
    base_vec_free(&m->tv);
    base_hashmap_free(&m->lit_of);
    base_hashmap_free(&m->locs);
    base_hashmap_free(&m->tuple_lit);
    sat_circuit_free(&m->circ);
    sat_solver_free(m->rec);
    free(m);
}

const char *po_mm_encode(bmc_smt_solver *s, const logic_mm *model, uint32_t ptr_bits,
                         const po_mm_ev *evs, uint32_t nevs, const po_mm_thread *thrs,
                         uint32_t nthrs, const po_mm_rf *rfs, size_t nrfs, double deadline,
                         po_mm_stats *st, po_mm **lazy)
{
    mm *m = base_xcalloc(1, sizeof *m);
    m->s = s;
    m->rec = sat_solver_new_recorder();
    sat_circuit_init(&m->circ, m->rec);
    base_hashmap_init(&m->lit_of);
    base_hashmap_init(&m->locs);
    base_hashmap_init(&m->tuple_lit);
    size_t ne = nevs ? nevs : 1;
    m->r_ok = base_xmalloc(base_mul_size(ne, sizeof(uint32_t)));
    m->r_fail = base_xmalloc(base_mul_size(ne, sizeof(uint32_t)));
    m->w = base_xmalloc(base_mul_size(ne, sizeof(uint32_t)));
    uint32_t *exit_w = base_xmalloc(base_mul_size(nthrs ? nthrs : 1, sizeof(uint32_t)));
    for (uint32_t t = 0; t < nthrs; t++)
        exit_w[t] = NONE;
    u32_vec join_r = { 0 }, join_w = { 0 };
    const char *why = build(m, ptr_bits, evs, nevs, thrs, nthrs, exit_w, &join_r, &join_w);
    int *rf = NULL, *co = NULL, *xs = NULL;
    /* the initial writes, one per location an event reads or writes */
    uint32_t *iw = base_xmalloc(base_mul_size(m->nlocs ? m->nlocs : 1, sizeof(uint32_t)));
    for (uint32_t l = 0; l < m->nlocs; l++)
        iw[l] = m->is_exit.data[l] ? NONE : add(m, K_W, NONE, l, SAT_TRUE, 0);
    uint32_t n = (uint32_t)m->els.len;
    if (why)
        goto out;
    rf = base_xmalloc(base_mul_size(base_mul_size(n, n) + 1, sizeof(int)));
    co = base_xmalloc(base_mul_size(base_mul_size(n, n) + 1, sizeof(int)));
    xs = base_xmalloc(base_mul_size(n + 1, sizeof(int)));
    for (size_t i = 0; i < (size_t)n * n; i++)
        rf[i] = co[i] = SAT_FALSE;
    for (uint32_t i = 0; i < n; i++)
        xs[i] = m->els.data[i].x;
    for (size_t k = 0; k < nrfs; k++) {
        const po_mm_rf *r = &rfs[k];
        uint32_t rs[2] = { m->r_ok[r->read], m->r_fail[r->read] };
        if (rs[0] == NONE) {
            why = "a read without its event (internal)";
            goto out;
        }
        uint32_t w = r->write == NONE ? iw[m->els.data[rs[0]].loc] : m->w[r->write];
        if (w == NONE) {
            why = "a reads-from choice of a write without its event (internal)";
            goto out;
        }
        int sv = lit(m, r->sv);
        for (int q = 0; q < 2; q++) {
            if (rs[q] == NONE)
                continue;
            int both[3] = { sv, xs[w], xs[rs[q]] };
            int l = sat_and(&m->circ, both, 3);
            int *cell = &rf[(size_t)w * n + rs[q]];
            *cell = *cell == SAT_FALSE ? l : sat_or2(&m->circ, *cell, l);
        }
    }
    for (size_t k = 0; k < join_r.len; k++) {
        uint32_t r = join_r.data[k], w = join_w.data[k];
        rf[(size_t)w * n + r] = sat_and2(&m->circ, xs[w], xs[r]);
    }
    structure(m, rf, &m->lst);
    m->have_st = true;
    uint32_t coc = (uint32_t)logic_structure_find(&m->lst, LOGIC_V_CO_CAND);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            if (logic_rel_get2(&m->lst, coc, i, j))
                co[(size_t)i * n + j] = sat_circuit_var(&m->circ);

    logic_builder *b = &m->b;
    logic_builder_init(b, &m->lst);
    b->lazy = lazy != NULL;
    logic_exec e;
    logic_exec_build(b, &e);
    const logic_rexpr *R = logic_named(b, LOGIC_V_READ, 1);
    const logic_rexpr *W = logic_named(b, LOGIC_V_WRITE, 1);
    const logic_rexpr *loc = logic_named(b, LOGIC_V_LOC, 2);
    const logic_formula *parts[4] = {
        logic_sub(b, e.cor, logic_prod(b, e.x, e.x)),
        logic_total_on(b, e.cor, logic_inter(b, W, e.x), loc),
        logic_covers(b, e.rfr, logic_inter(b, R, e.x)),
        model->consistent(b, &e),
    };
    logic_grounder *g = &m->g;
    logic_grounder_init(g, b, &m->circ);
    m->have_g = true;
    g->deadline = deadline;
    logic_ground_set_table(g, e.X, xs);
    logic_ground_set_table(g, e.rf, rf);
    logic_ground_set_table(g, e.co, co);
    logic_ground_assert(g, logic_and(b, parts, 4));
    if (b->error)
        why = b->error;
    else if (g->status == LOGIC_GROUND_TIMEOUT)
        why = "timeout while grounding the memory model";
    else if (g->status != LOGIC_GROUND_OK)
        why = "the memory model could not be grounded";
    if (!why) {
        flush(m);
        if (st) {
            st->events = n;
            st->vars = (size_t)sat_num_vars(m->rec);
            st->clauses = m->nclauses;
        }
    }
out:
    free(rf);
    free(co);
    free(xs);
    free(iw);
    free(exit_w);
    base_vec_free(&join_r);
    base_vec_free(&join_w);
    if (lazy && !why && m->b.deferred)
        *lazy = m;
    else {
        if (lazy)
            *lazy = NULL;
        mm_free(m);
    }
    return why;
}

/* --- refinement --- */

static bool model_value(void *ud, int l)
{
    mm *m = ud;
    int v = abs(l);
    bool val = (size_t)v < m->tv.len && m->tv.data[v] ? bmc_smt_model_bool(m->s, m->tv.data[v])
                                                       : false;
    return l > 0 ? val : !val;
}

/* The literal of r(a, c) for the deferred constraint d, the k-th (made
 * once). */
static int tuple_lit(mm *m, const logic_lazy *d, uint32_t k, uint32_t a, uint32_t c)
{
    uint64_t key = ((uint64_t)k * m->lst.n + a) * m->lst.n + c, v;
    if (base_hashmap_get(&m->tuple_lit, key, &v))
        return (int)(int64_t)v;
    int l;
    if (d->r->kind == LOGIC_R_SOV) {
        const int *t = logic_ground_table(&m->g, d->r->sov);
        l = t ? t[(size_t)a * m->lst.n + c] : SAT_FALSE;
    } else {
        l = logic_ground_lit(&m->g, logic_apply(&m->b, d->r, logic_const(a), logic_const(c)));
    }
    base_hashmap_put(&m->tuple_lit, key, (uint64_t)(int64_t)l);
    return l;
}

static inline bool bit(const uint64_t *rows, size_t rw, uint32_t a, uint32_t c)
{
    return rows[(size_t)a * rw + (c >> 6)] >> (c & 63) & 1;
}

enum { MAX_CYCLES = 64, MAX_TRIANGLES = 4096 };

/* Cycles of rows: for each vertex, the shortest cycle through it (BFS),
 * each cycle once; a clause that not all of its edges hold. */
static size_t refine_acyclic(mm *m, const logic_lazy *d, uint32_t k, const uint64_t *rows)
{
    uint32_t n = m->lst.n;
    size_t rw = n / 64 + 1, added = 0;
    uint32_t *par = base_xmalloc(base_mul_size(n + 1, sizeof(uint32_t)));
    uint32_t *queue = base_xmalloc(base_mul_size(n + 1, sizeof(uint32_t)));
    uint8_t *done = base_xcalloc(n + 1, 1); /* on a cycle already added */
    BASE_VEC(int) cl = { 0 };
    for (uint32_t v = 0; v < n && added < MAX_CYCLES; v++) {
        if (done[v])
            continue;
        for (uint32_t i = 0; i < n; i++)
            par[i] = NONE;
        size_t qh = 0, qt = 0;
        queue[qt++] = v;
        uint32_t last = NONE;
        while (qh < qt && last == NONE) {
            uint32_t u = queue[qh++];
            for (uint32_t w = 0; w < n; w++) {
                if (!bit(rows, rw, u, w))
                    continue;
                if (w == v) {
                    last = u;
                    break;
                }
                if (par[w] == NONE) {
                    par[w] = u;
                    queue[qt++] = w;
                }
            }
        }
        if (last == NONE)
            continue;
        cl.len = 0;
        bool fresh = false;
        for (uint32_t u = last, next = v;; next = u, u = par[u]) {
            int l = tuple_lit(m, d, k, u, next);
            if (l != SAT_TRUE)
                base_vec_push(&cl, -l);
            fresh |= !done[u];
            done[u] = 1;
            if (u == v)
                break;
        }
        if (!fresh)
            continue;
        sat_add_clause(m->rec, cl.data, cl.len);
        added++;
    }
    base_vec_free(&cl);
    free(par);
    free(queue);
    free(done);
    return added;
}

/* Broken transitivity of an SO variable: r(a,b), r(b,c), not r(a,c). */
static size_t refine_trans(mm *m, const logic_lazy *d, uint32_t k, const uint64_t *rows)
{
    uint32_t n = m->lst.n;
    size_t rw = n / 64 + 1, added = 0;
    for (uint32_t a = 0; a < n && added < MAX_TRIANGLES; a++)
        for (uint32_t b = 0; b < n && added < MAX_TRIANGLES; b++) {
            if (!bit(rows, rw, a, b))
                continue;
            for (uint32_t c = 0; c < n && added < MAX_TRIANGLES; c++) {
                if (!bit(rows, rw, b, c) || bit(rows, rw, a, c))
                    continue;
                int cl[3] = { -tuple_lit(m, d, k, a, b), -tuple_lit(m, d, k, b, c),
                              tuple_lit(m, d, k, a, c) };
                sat_add_clause(m->rec, cl, 3);
                added++;
            }
        }
    return added;
}

int po_mm_refine(po_mm *m)
{
    size_t added = 0;
    uint32_t k = 0;
    /* no deadline here: a relation evaluated in part, or a tuple grounded
     * in part, would make a wrong clause (the solver's check has one) */
    double deadline = m->g.deadline;
    m->g.deadline = 0;
    for (const logic_lazy *d = m->b.deferred; d && m->g.status == LOGIC_GROUND_OK;
         d = d->next, k++) {
        uint64_t *rows = logic_ground_eval(&m->g, d->r, model_value, m);
        if (m->g.status == LOGIC_GROUND_OK)
            added += d->kind == LOGIC_LAZY_ACYCLIC ? refine_acyclic(m, d, k, rows)
                                                   : refine_trans(m, d, k, rows);
        free(rows);
    }
    m->g.deadline = deadline;
    if (m->g.status != LOGIC_GROUND_OK)
        return -1;
    if (!added)
        return 0;
    flush(m);
    m->rounds++;
    m->added += added;
    return 1;
}

void po_mm_lazy_stats(const po_mm *m, size_t *rounds, size_t *clauses)
{
    *rounds = m->rounds;
    *clauses = m->added;
}

void po_mm_free(po_mm *m)
{
    if (m)
        mm_free(m);
}
