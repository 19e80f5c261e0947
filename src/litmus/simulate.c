#include "litmus/simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "litmus/encode.h"
#include "logic/check.h"
#include "logic/exec.h"
#include "logic/ground.h"
#include "logic/vocab.h"
#include "sat/circuit.h"
#include "sat/qbf.h"

typedef BASE_VEC(uint64_t) sig_vec;

/* Values out of thin air (herd's symbolic values): the state of the
 * per-execution analysis, on only for a structure with a copy cycle
 * (litmus_evstruct.copy_cycle). */
typedef struct oota {
    bool on;
    uint32_t *base;   /* per thread: the global number of its first instruction */
    uint8_t *mark;    /* per event: 0 not seen, 1 on the current walk, 2 done */
    int64_t *sym;     /* per event: -1 grounded, else its symbol's number */
    uint32_t *walk;   /* the current walk */
    uint32_t *pos;    /* per event of X: its position in X (signatures) */
    sig_vec sig;      /* the current execution's signature */
    BASE_VEC(sig_vec) seen; /* signatures of executions with symbols so far */
} oota;

/* Everything one simulation holds; freed together. */
typedef struct sim {
    const litmus_test *t;
    litmus_result *res;
    litmus_evstruct *es;
    logic_structure st;
    logic_builder b;
    logic_exec ex;
    sat_solver *solver;
    sat_circuit circ;
    logic_grounder g;
    const int *X, *rf, *co; /* SO tables after grounding */
    sat_qbf *qbf;           /* QBF mode: the query being solved (models come from it) */
    uint64_t qbf_clauses, qbf_solves; /* QBF mode: size of the largest query, solves */
    const litmus_options *opt;
    oota oo;
} sim;

/* The index in t->obs of the REG or LOC atom p's variable; t->nobs when
 * absent (the parser makes every mentioned variable observable). */
static uint32_t obs_index(const litmus_test *t, const litmus_prop *p)
{
    for (uint32_t i = 0; i < t->nobs; i++) {
        const litmus_observable *o = &t->obs[i];
        bool match = p->kind == LITMUS_P_REG ? o->is_reg && o->thread == p->thread && o->reg == p->reg
                                             : !o->is_reg && o->location == p->location;
        if (match)
            return i;
    }
    return t->nobs;
}

bool litmus_prop_eval(const litmus_test *t, const litmus_prop *p, const litmus_value *state)
{
    switch (p->kind) {
    case LITMUS_P_TRUE: return true;
    case LITMUS_P_FALSE: return false;
    case LITMUS_P_REG:
    case LITMUS_P_LOC: {
        uint32_t i = obs_index(t, p);
        return i < t->nobs && litmus_value_eq(state[i], p->value);
    }
    case LITMUS_P_SAME: {
        uint32_t i = obs_index(t, p->lhs), j = obs_index(t, p->rhs);
        return i < t->nobs && j < t->nobs && litmus_value_eq(state[i], state[j]);
    }
    case LITMUS_P_NOT: return !litmus_prop_eval(t, p->lhs, state);
    case LITMUS_P_AND: return litmus_prop_eval(t, p->lhs, state) && litmus_prop_eval(t, p->rhs, state);
    case LITMUS_P_OR: return litmus_prop_eval(t, p->lhs, state) || litmus_prop_eval(t, p->rhs, state);
    case LITMUS_P_IMPLIES:
        return !litmus_prop_eval(t, p->lhs, state) || litmus_prop_eval(t, p->rhs, state);
    }
    return false;
}

/* The formula "this path of its thread was taken". */
static const logic_formula *path_taken(sim *s, const litmus_path *p)
{
    if (p->last == LITMUS_NONE)
        return logic_true(&s->b);
    return logic_sov1(&s->b, s->ex.X, logic_const(p->last));
}

/* The formula "write w is in X and last in coherence order". */
static const logic_formula *co_last(sim *s, uint32_t w)
{
    int coc = logic_structure_find(&s->st, LOGIC_V_CO_CAND);
    const logic_formula *f = logic_sov1(&s->b, s->ex.X, logic_const(w));
    for (uint32_t j = 0; j < s->es->nevents; j++)
        if (logic_rel_get2(&s->st, (uint32_t)coc, w, j))
            f = logic_and2(&s->b, f, logic_not(&s->b, logic_sov2(&s->b, s->ex.co, logic_const(w),
                                                                 logic_const(j))));
    return f;
}

/* The formula "symbolic read e reads value v": it reads from a write of v. */
static const logic_formula *reads_value(sim *s, uint32_t e, litmus_value v)
{
    const litmus_event *r = &s->es->events[e];
    const logic_formula *f = logic_false(&s->b);
    if (!litmus_event_may_read(s->es, r, v))
        return f;
    for (uint32_t w = 0; w < s->es->nevents; w++) {
        const litmus_event *we = &s->es->events[w];
        if ((we->kind == LITMUS_EV_WRITE || we->kind == LITMUS_EV_INIT) && we->loc == r->loc &&
            litmus_value_eq(we->value, v))
            f = logic_or2(&s->b, f, logic_sov2(&s->b, s->ex.rf, logic_const(w), logic_const(e)));
    }
    return f;
}

/* The value symbolic read e reads in the current model (from its rf). */
static litmus_value read_value(sim *s, uint32_t e);

static const logic_formula *prop_formula(sim *s, const litmus_prop *p);

typedef BASE_VEC(litmus_value) value_vec;

static void add_value(value_vec *vs, litmus_value v)
{
    for (size_t i = 0; i < vs->len; i++)
        if (litmus_value_eq(vs->data[i], v))
            return;
    base_vec_push(vs, v);
}

/* Every final value the REG or LOC atom a's variable may hold: a write's
 * value at the location it holds or reads, or a path's constant. */
static void atom_values(sim *s, const litmus_prop *a, value_vec *vs)
{
    const litmus_evstruct *es = s->es;
    uint32_t loc = a->location;
    for (uint32_t i = 0; a->kind == LITMUS_P_REG && i < es->npaths; i++) {
        const litmus_path *path = &es->paths[i];
        if (path->thread != a->thread)
            continue;
        uint32_t sym = litmus_path_sym(path, a->reg);
        if (sym == LITMUS_NONE) {
            add_value(vs, path->regs[a->reg]);
            continue;
        }
        for (uint32_t w = 0; w < es->nevents; w++) {
            const litmus_event *we = &es->events[w];
            if ((we->kind == LITMUS_EV_WRITE || we->kind == LITMUS_EV_INIT) &&
                we->loc == es->events[sym].loc && litmus_event_may_read(es, &es->events[sym], we->value))
                add_value(vs, we->value);
        }
    }
    for (uint32_t w = 0; a->kind == LITMUS_P_LOC && w < es->nevents; w++) {
        const litmus_event *we = &es->events[w];
        if ((we->kind == LITMUS_EV_WRITE || we->kind == LITMUS_EV_INIT) && we->loc == loc)
            add_value(vs, we->value);
    }
}

/* a = b on two variables: some value both hold, over the values a may. */
static const logic_formula *same_formula(sim *s, const litmus_prop *p)
{
    value_vec vs = { 0 };
    atom_values(s, p->lhs, &vs);
    const logic_formula *f = logic_false(&s->b);
    for (size_t i = 0; i < vs.len; i++) {
        litmus_prop a = *p->lhs, b = *p->rhs;
        a.value = b.value = vs.data[i];
        f = logic_or2(&s->b, f, logic_and2(&s->b, prop_formula(s, &a), prop_formula(s, &b)));
    }
    base_vec_free(&vs);
    return f;
}

static const logic_formula *prop_formula(sim *s, const litmus_prop *p)
{
    logic_builder *b = &s->b;
    switch (p->kind) {
    case LITMUS_P_TRUE: return logic_true(b);
    case LITMUS_P_FALSE: return logic_false(b);
    case LITMUS_P_REG: {
        const logic_formula *f = logic_false(b);
        for (uint32_t i = 0; i < s->es->npaths; i++) {
            const litmus_path *path = &s->es->paths[i];
            if (path->thread != p->thread)
                continue;
            uint32_t sym = litmus_path_sym(path, p->reg);
            if (sym != LITMUS_NONE)
                f = logic_or2(b, f, logic_and2(b, path_taken(s, path), reads_value(s, sym, p->value)));
            else if (litmus_value_eq(path->regs[p->reg], p->value))
                f = logic_or2(b, f, path_taken(s, path));
        }
        return f;
    }
    case LITMUS_P_LOC: {
        const logic_formula *f = logic_false(b);
        for (uint32_t i = 0; i < s->es->nevents; i++) {
            const litmus_event *e = &s->es->events[i];
            if ((e->kind == LITMUS_EV_WRITE || e->kind == LITMUS_EV_INIT) &&
                e->loc == p->location && litmus_value_eq(e->value, p->value))
                f = logic_or2(b, f, co_last(s, i));
        }
        return f;
    }
    case LITMUS_P_SAME: return same_formula(s, p);
    case LITMUS_P_NOT: return logic_not(b, prop_formula(s, p->lhs));
    case LITMUS_P_AND: return logic_and2(b, prop_formula(s, p->lhs), prop_formula(s, p->rhs));
    case LITMUS_P_OR: return logic_or2(b, prop_formula(s, p->lhs), prop_formula(s, p->rhs));
    case LITMUS_P_IMPLIES:
        return logic_implies(b, prop_formula(s, p->lhs), prop_formula(s, p->rhs));
    }
    return logic_false(b);
}

static bool lit_true(sim *s, int lit)
{
    if (lit == SAT_TRUE)
        return true;
    if (lit == SAT_FALSE)
        return false;
    if (s->g.qbf)
        return s->qbf && sat_qbf_value(s->qbf, lit);
    return sat_value(s->solver, lit);
}

static sat_result sim_solve(sim *s)
{
    if (!s->g.qbf)
        return sat_solve(s->solver);
    s->qbf_solves++;
    return sat_qbf_solve(s->qbf);
}

static bool in_x(sim *s, uint32_t e)
{
    return lit_true(s, s->X[e]);
}

static litmus_value read_value(sim *s, uint32_t e)
{
    uint32_t n = s->es->nevents;
    for (uint32_t w = 0; w < n; w++)
        if (lit_true(s, s->rf[(size_t)w * n + e]))
            return s->es->events[w].value;
    return litmus_int(0); /* not reached: a read of X reads from one write */
}

/* Reads the final state of the current model into row; from, when not
 * NULL, receives per observable the event its value comes from: a
 * register's read (litmus_path.src) or a location's last write, else
 * LITMUS_NONE. */
static void read_state_from(sim *s, litmus_value *row, uint32_t *from)
{
    const litmus_test *t = s->t;
    uint32_t n = s->es->nevents;
    for (uint32_t i = 0; i < t->nobs; i++) {
        const litmus_observable *o = &t->obs[i];
        row[i] = litmus_int(0);
        if (from)
            from[i] = LITMUS_NONE;
        if (o->is_reg) {
            for (uint32_t k = 0; k < s->es->npaths; k++) {
                const litmus_path *p = &s->es->paths[k];
                if (p->thread == o->thread && (p->last == LITMUS_NONE || in_x(s, p->last))) {
                    uint32_t sym = litmus_path_sym(p, o->reg);
                    row[i] = sym != LITMUS_NONE ? read_value(s, sym) : p->regs[o->reg];
                    if (from)
                        from[i] = p->src[o->reg];
                    break;
                }
            }
            continue;
        }
        for (uint32_t w = 0; w < n; w++) {
            const litmus_event *e = &s->es->events[w];
            if ((e->kind != LITMUS_EV_WRITE && e->kind != LITMUS_EV_INIT) || e->loc != o->location ||
                !in_x(s, w))
                continue;
            bool last = true;
            for (uint32_t j = 0; j < n && last; j++)
                if (j != w && lit_true(s, s->co[(size_t)w * n + j]))
                    last = false;
            if (last) {
                row[i] = e->value;
                if (from)
                    from[i] = w;
                break;
            }
        }
    }
}

static void read_state(sim *s, litmus_value *row)
{
    read_state_from(s, row, NULL);
}

/* --- values out of thin air ---
 *
 * herd7 solves the equations an execution's rf gives (a read's value is
 * the value of the write it reads from; a write's value is an expression
 * over its thread's registers). A value no constant determines -- a cycle
 * of rf and plain copies -- stays a symbol S<n>, equal to nothing but
 * itself; an equation left unsolved (an operation, a comparison or a
 * branch on such a value) makes herd drop the candidate. ravel's reads
 * carry concrete values, so an execution whose copy cycle holds value v
 * stands for herd's symbolic one: it is found here and its values are
 * replaced by symbols; the copies of it with other values are counted
 * once (signatures). A use of a symbol answers unknown. */

static void unknown(litmus_result *res, const char *why);

static void oota_init(sim *s)
{
    oota *o = &s->oo;
    const litmus_test *t = s->t;
    uint32_t n = s->es->nevents ? s->es->nevents : 1;
    o->base = base_xcalloc(t->nthreads ? t->nthreads : 1, sizeof *o->base);
    for (uint32_t th = 1; th < t->nthreads; th++)
        o->base[th] = o->base[th - 1] + t->threads[th - 1].ninstrs;
    o->mark = base_xmalloc(n);
    o->sym = base_xmalloc(base_mul_size(n, sizeof *o->sym));
    o->walk = base_xmalloc(base_mul_size(n, sizeof *o->walk));
    o->pos = base_xmalloc(base_mul_size(n, sizeof *o->pos));
}

static void oota_free(oota *o)
{
    free(o->base);
    free(o->mark);
    free(o->sym);
    free(o->walk);
    free(o->pos);
    base_vec_free(&o->sig);
    for (size_t i = 0; i < o->seen.len; i++)
        base_vec_free(&o->seen.data[i]);
    base_vec_free(&o->seen);
}

/* The event whose value e's value is, in the current model: a read's
 * write, a write's copied read; LITMUS_NONE for a value of its own. */
static uint32_t oota_next(sim *s, uint32_t e)
{
    const litmus_event *ev = &s->es->events[e];
    uint32_t n = s->es->nevents;
    if (ev->kind == LITMUS_EV_WRITE)
        return ev->copy_of;
    if (ev->kind != LITMUS_EV_READ)
        return LITMUS_NONE;
    for (uint32_t w = 0; w < n; w++)
        if (lit_true(s, s->rf[(size_t)w * n + e]))
            return w;
    return LITMUS_NONE;
}

/* Whether a computed write of the current model is not grounded: the
 * least fixpoint of grounded values (an event outside the model, a
 * constant, a read of a grounded write, a write whose copied read or every
 * read its computed value depends on is grounded) leaves it out. Its value
 * is then an operation on herd7's symbols, an equation herd leaves
 * unsolved (after its own simplifications, which ravel does not repeat). */
static bool oota_computed(sim *s)
{
    oota *o = &s->oo;
    const litmus_evstruct *es = s->es;
    uint32_t n = es->nevents;
    if (es->nwdep == 0)
        return false;
    memset(o->mark, 0, n);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t e = 0; e < n; e++) {
            if (o->mark[e] || !in_x(s, e))
                continue;
            const litmus_event *ev = &es->events[e];
            uint32_t from = oota_next(s, e);
            bool g = from == LITMUS_NONE || o->mark[from] || !in_x(s, from);
            if (ev->kind == LITMUS_EV_WRITE && from == LITMUS_NONE)
                for (uint32_t i = 0; i < es->nwdep && g; i++)
                    if (es->wdep[i].to == e && in_x(s, es->wdep[i].from) && !o->mark[es->wdep[i].from])
                        g = false;
            if (g)
                o->mark[e] = 1, changed = true;
        }
    }
    for (uint32_t e = 0; e < n; e++)
        if (!o->mark[e] && in_x(s, e) && es->events[e].kind == LITMUS_EV_WRITE &&
            es->events[e].copy_of == LITMUS_NONE)
            return true;
    return false;
}

/* Fills oo.sym for the events of the current model (a least fixpoint: a
 * value is grounded when the chain of oota_next from it ends). Returns the
 * number of events with symbols, or -1 after marking the result unknown. */
static int oota_ground(sim *s)
{
    oota *o = &s->oo;
    const litmus_evstruct *es = s->es;
    uint32_t n = es->nevents;
    int nsym = 0;
    BASE_VEC(int64_t) names = { 0 };
    if (oota_computed(s)) {
        unknown(s->res, "unsupported: a value out of thin air (herd7's symbolic value) computed "
                        "by an operation: a cycle of reads-from and dependencies through a "
                        "write that is no plain copy");
        return -1;
    }
    memset(o->mark, 0, n);
    for (uint32_t e0 = 0; e0 < n; e0++) {
        if (o->mark[e0] || !in_x(s, e0))
            continue;
        uint32_t len = 0, e = e0;
        int64_t sym = -1;
        while (e != LITMUS_NONE && o->mark[e] == 0) {
            o->mark[e] = 1;
            o->walk[len++] = e;
            e = oota_next(s, e);
        }
        if (e != LITMUS_NONE && o->mark[e] == 2) {
            sym = o->sym[e];
        } else if (e != LITMUS_NONE) { /* a new cycle, from e to the walk's end */
            for (uint32_t k = len; k-- > 0;) {
                const litmus_event *ev = &es->events[o->walk[k]];
                int64_t name = (int64_t)o->base[ev->thread] + ev->instr;
                if (ev->kind == LITMUS_EV_READ && (sym < 0 || name < sym))
                    sym = name;
                if (o->walk[k] == e)
                    break;
            }
            for (size_t k = 0; k < names.len; k++)
                if (names.data[k] == sym) {
                    base_vec_free(&names);
                    unknown(s->res, "unsupported: two values out of thin air (herd7's symbols) "
                                    "from one read instruction (a loop)");
                    return -1;
                }
            base_vec_push(&names, sym);
        }
        for (uint32_t k = 0; k < len; k++) {
            o->mark[o->walk[k]] = 2;
            o->sym[o->walk[k]] = sym;
            nsym += sym >= 0;
        }
    }
    base_vec_free(&names);
    if (nsym == 0)
        return 0;
    for (uint32_t i = 0; i < es->nvuse; i++)
        if (o->sym[es->vuse[i].from] >= 0 && in_x(s, es->vuse[i].to)) {
            unknown(s->res, "unsupported: a value out of thin air (herd7's symbolic value) takes "
                            "part in an operation, a comparison, a branch or an address");
            return -1;
        }
    if (s->t->filter) {
        unknown(s->res, "unsupported: a filter on an execution with a value out of thin air "
                        "(herd7's symbolic value)");
        return -1;
    }
    return nsym;
}

/* The current model's execution up to the concrete values of its
 * symbols: its events in order with their values or symbols, rf and co
 * by position. Returns true when an equal one was seen before. */
static bool oota_seen(sim *s)
{
    oota *o = &s->oo;
    const litmus_evstruct *es = s->es;
    uint32_t n = es->nevents, npos = 0;
    o->sig.len = 0;
    for (uint32_t e = 0; e < n; e++) {
        if (!in_x(s, e))
            continue;
        const litmus_event *ev = &es->events[e];
        o->pos[e] = npos++;
        base_vec_push(&o->sig, (uint64_t)ev->kind | (uint64_t)ev->thread << 8 | (uint64_t)ev->instr << 40);
        base_vec_push(&o->sig, ev->loc);
        bool sym = (ev->kind == LITMUS_EV_READ || ev->kind == LITMUS_EV_WRITE) && o->sym[e] >= 0;
        litmus_value v = ev->kind == LITMUS_EV_READ && ev->symbolic ? read_value(s, e) : ev->value;
        base_vec_push(&o->sig, sym ? LITMUS_VAL_SYM : (uint64_t)v.kind | (uint64_t)v.loc << 8);
        base_vec_push(&o->sig, sym ? (uint64_t)o->sym[e] : (uint64_t)v.num);
    }
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t c = 0; c < n; c++) {
            if (lit_true(s, s->rf[(size_t)a * n + c]))
                base_vec_push(&o->sig, (uint64_t)o->pos[a] << 32 | o->pos[c]);
            if (lit_true(s, s->co[(size_t)a * n + c]))
                base_vec_push(&o->sig, (uint64_t)1 << 63 | (uint64_t)o->pos[a] << 32 | o->pos[c]);
        }
    for (size_t i = 0; i < o->seen.len; i++)
        if (o->seen.data[i].len == o->sig.len &&
            memcmp(o->seen.data[i].data, o->sig.data, o->sig.len * sizeof *o->sig.data) == 0)
            return true;
    sig_vec copy = { 0 };
    for (size_t i = 0; i < o->sig.len; i++)
        base_vec_push(&copy, o->sig.data[i]);
    base_vec_push(&o->seen, copy);
    return false;
}

/* Reads the final state of the current model with its symbols. Returns 1,
 * 0 when the execution repeats one seen before up to its symbols' values
 * (not counted again), -1 after marking the result unknown. */
static int read_state_oota(sim *s, litmus_value *row, uint32_t *from)
{
    if (!s->oo.on) {
        read_state(s, row);
        return 1;
    }
    read_state_from(s, row, from);
    int nsym = oota_ground(s);
    if (nsym <= 0)
        return nsym < 0 ? -1 : 1;
    for (uint32_t i = 0; i < s->t->nobs; i++)
        if (from[i] != LITMUS_NONE && s->oo.sym[from[i]] >= 0) {
            row[i].kind = LITMUS_VAL_SYM;
            row[i].loc = 0;
            row[i].num = s->oo.sym[from[i]];
        }
    return oota_seen(s) ? 0 : 1;
}

static void keep_witness_in(sim *s, bool positive, litmus_witness *w)
{
    uint32_t n = s->es->nevents;
    w->present = true;
    w->positive = positive;
    w->in_x = base_xcalloc(n ? n : 1, sizeof *w->in_x);
    for (uint32_t e = 0; e < n; e++)
        w->in_x[e] = in_x(s, e);
    w->nrf = w->nco = 0;
    w->rf = base_xmalloc(base_mul_size((size_t)n * 2 + 2, sizeof *w->rf));
    w->co = base_xmalloc(base_mul_size((size_t)n * 2 + 2, sizeof *w->co));
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t c = 0; c < n; c++) {
            if (lit_true(s, s->rf[(size_t)a * n + c])) {
                w->rf[2 * w->nrf] = a;
                w->rf[2 * w->nrf + 1] = c;
                w->nrf++;
            }
            if (lit_true(s, s->co[(size_t)a * n + c])) {
                bool immediate = true;
                for (uint32_t m = 0; m < n && immediate; m++)
                    if (lit_true(s, s->co[(size_t)a * n + m]) && lit_true(s, s->co[(size_t)m * n + c]))
                        immediate = false;
                if (immediate && w->nco < n) {
                    w->co[2 * w->nco] = a;
                    w->co[2 * w->nco + 1] = c;
                    w->nco++;
                }
            }
        }
}

static void keep_witness(sim *s, bool positive)
{
    keep_witness_in(s, positive, &s->res->witness);
}

static const litmus_test *sort_test;

static int row_cmp(const void *pa, const void *pb)
{
    const litmus_value *a = pa, *b = pb;
    for (uint32_t i = 0; i < sort_test->nobs; i++) {
        int c = litmus_value_cmp(a[i], b[i]);
        if (c)
            return c;
    }
    return 0;
}

static uint64_t row_hash(const litmus_value *row, uint32_t n)
{
    uint64_t h = 7;
    for (uint32_t i = 0; i < n; i++)
        h = base_hash64(h ^ base_hash64((uint64_t)row[i].num * 31 + row[i].loc * 2 + row[i].kind));
    return h & ~(uint64_t)0 >> 1;
}

static void unknown(litmus_result *res, const char *why)
{
    res->status = LITMUS_UNKNOWN;
    snprintf(res->reason, sizeof res->reason, "%s", why);
}

static bool deadline_passed(const litmus_options *opt)
{
    return opt->deadline > 0 && base_now() > opt->deadline;
}

static void enumerate(sim *s, const litmus_options *opt)
{
    const litmus_test *t = s->t;
    litmus_result *res = s->res;
    uint32_t n = s->es->nevents, nobs = t->nobs;
    size_t cap = 16;
    res->states = base_xmalloc(base_mul_size(cap, base_mul_size(nobs ? nobs : 1, sizeof(litmus_value))));
    litmus_value *row = base_xmalloc(base_mul_size(nobs ? nobs : 1, sizeof *row));
    uint32_t *from = base_xmalloc(base_mul_size(nobs ? nobs : 1, sizeof *from));
    base_hashmap seen;
    base_hashmap_init(&seen);
    int *block = base_xmalloc(base_mul_size((size_t)n * n * 2 + n + 1, sizeof *block));
    for (;;) {
        if (deadline_passed(opt)) {
            unknown(res, "timeout while enumerating executions");
            break;
        }
        sat_result r = sim_solve(s);
        if (r == SAT_UNKNOWN) {
            unknown(res, s->g.qbf ? "timeout in the QBF solver" : "timeout in the SAT solver");
            break;
        }
        if (r == SAT_UNSAT)
            break;
        int fresh = read_state_oota(s, row, from);
        if (fresh < 0)
            break;
        if (fresh) { /* the filter is asserted: every execution here passes it */
            bool pos = litmus_prop_eval(t, t->cond, row);
            if (pos)
                res->positive++;
            else
                res->negative++;
            if (opt->want_witness && (!res->witness.present || (pos && !res->witness.positive))) {
                if (res->witness.present) {
                    free(res->witness.in_x);
                    free(res->witness.rf);
                    free(res->witness.co);
                }
                keep_witness(s, pos);
            }
            uint64_t h = row_hash(row, nobs);
            uint64_t idx;
            bool dup = false;
            if (base_hashmap_get(&seen, h, &idx)) {
                dup = memcmp(res->states + idx * nobs, row, nobs * sizeof *row) == 0;
                if (!dup) /* a hash collision: look through all rows */
                    for (uint32_t k = 0; k < res->nstates && !dup; k++)
                        dup = memcmp(res->states + (size_t)k * nobs, row, nobs * sizeof *row) == 0;
            }
            if (!dup) {
                if (res->nstates == cap) {
                    cap *= 2;
                    res->states = base_xrealloc(res->states,
                        base_mul_size(cap, base_mul_size(nobs ? nobs : 1, sizeof(litmus_value))));
                }
                memcpy(res->states + (size_t)res->nstates * nobs, row, nobs * sizeof *row);
                base_hashmap_put(&seen, h, res->nstates);
                res->nstates++;
            }
        }
        /* Block this execution: it is fixed by its X, rf and co (by rf and
         * co alone but for config_only models, whose rf and co are empty;
         * X is maximal, so a clause over its events blocks it alone). */
        size_t m = 0;
        for (uint32_t e = 0; e < n; e++)
            if (s->X[e] != SAT_FALSE && s->X[e] != SAT_TRUE && lit_true(s, s->X[e]))
                block[m++] = -s->X[e];
        for (size_t i = 0; i < (size_t)n * n; i++) {
            if (s->rf[i] != SAT_FALSE && s->rf[i] != SAT_TRUE && lit_true(s, s->rf[i]))
                block[m++] = -s->rf[i];
            if (s->co[i] != SAT_FALSE && s->co[i] != SAT_TRUE && lit_true(s, s->co[i]))
                block[m++] = -s->co[i];
        }
        if (s->g.qbf)
            sat_qbf_add_clause(s->qbf, block, m); /* outer variables: incremental */
        else
            sat_add_clause(s->solver, block, m);
    }
    free(block);
    free(row);
    free(from);
    base_hashmap_free(&seen);
    sort_test = t;
    if (res->nstates > 1 && nobs)
        qsort(res->states, res->nstates, nobs * sizeof(litmus_value), row_cmp);
    sort_test = NULL;
}

static void verdict(sim *s, const litmus_options *opt)
{
    litmus_result *res = s->res;
    int c = logic_ground_lit(&s->g, prop_formula(s, s->t->cond));
    if (s->g.status != LOGIC_GROUND_OK) {
        unknown(res, "grounding the condition failed");
        return;
    }
    bool any[2];
    for (int k = 0; k < 2; k++) {
        int lit = k == 0 ? c : -c;
        sat_result r;
        if (lit == SAT_FALSE) {
            any[k] = false;
            continue;
        }
        if (s->g.qbf) {
            /* The condition's literal is a gate (innermost): a unit clause
             * in a fresh query, not an assumption. */
            s->qbf = logic_ground_qbf(&s->g, &lit, lit != SAT_TRUE);
            if (sat_qbf_num_clauses(s->qbf) > s->qbf_clauses)
                s->qbf_clauses = sat_qbf_num_clauses(s->qbf);
            s->qbf_solves++;
            sat_qbf_set_deadline(s->qbf, opt->deadline);
            r = opt->qbf_solve ? (sat_result)opt->qbf_solve(opt->qbf_ctx, s->qbf)
                               : sat_qbf_solve(s->qbf);
        } else {
            if (lit != SAT_TRUE)
                sat_assume(s->solver, lit);
            r = sat_solve(s->solver);
        }
        if (r == SAT_UNKNOWN) {
            unknown(res, opt->qbf_solve ? "the external QBF solver gave no answer"
                         : s->g.qbf   ? "timeout in the QBF solver"
                                      : "timeout in the SAT solver");
            sat_qbf_free(s->qbf);
            s->qbf = NULL;
            return;
        }
        any[k] = r == SAT_SAT;
        if (any[k] && opt->want_witness && !res->witness.present && !opt->qbf_solve)
            keep_witness(s, k == 0);
        sat_qbf_free(s->qbf);
        s->qbf = NULL;
    }
    res->positive = any[0];
    res->negative = any[1];
}

/* Does some consistent execution (that passes the filter) satisfy f? 1 or
 * 0; -1 after marking the result unknown. Asked before enumeration, whose
 * blocking clauses would hide executions. */
static int ask_some(sim *s, const litmus_options *opt, const logic_formula *f, const char *what)
{
    litmus_result *res = s->res;
    int lit = logic_ground_lit(&s->g, f);
    if (s->g.status != LOGIC_GROUND_OK) {
        unknown(res, s->g.status == LOGIC_GROUND_TIMEOUT ? "timeout while grounding" : what);
        return -1;
    }
    if (lit == SAT_FALSE)
        return 0;
    if (lit != SAT_TRUE)
        sat_assume(s->solver, lit);
    sat_result r = sat_solve(s->solver);
    if (r == SAT_UNKNOWN) {
        unknown(res, "timeout in the SAT solver");
        return -1;
    }
    return r == SAT_SAT;
}

/* Is some consistent execution undefined? */
static void ask_undefined(sim *s, const litmus_options *opt, const logic_formula *undef)
{
    int r = ask_some(s, opt, undef, "grounding the race condition failed");
    if (r < 0)
        return;
    s->res->undef_checked = true;
    s->res->undefined = r == 1;
}

/* Does some consistent execution branch to a register that holds no code
 * address (litmus_path.fault)? Then there is no answer. */
static void ask_fault(sim *s, const litmus_options *opt, bool qbf)
{
    const char *why = "unsupported: an execution branches to a register that holds no code address";
    if (qbf) {
        unknown(s->res, why);
        return;
    }
    const logic_formula *f = logic_false(&s->b);
    for (uint32_t i = 0; i < s->es->npaths; i++)
        if (s->es->paths[i].fault)
            f = logic_or2(&s->b, f, path_taken(s, &s->es->paths[i]));
    if (ask_some(s, opt, f, "grounding the branch question failed") == 1)
        unknown(s->res, why);
}

/* Does some consistent execution raise the flag? */
static void ask_flag(sim *s, const litmus_options *opt, const logic_mm_flag *flag)
{
    litmus_result *res = s->res;
    int raised = ask_some(s, opt, flag->f, "grounding a flag failed");
    if (raised >= 0 && strcmp(flag->name, LOGIC_MM_FLAG_UNDEF) == 0) {
        res->undef_checked = true;
        res->undefined |= raised == 1;
        return;
    }
    if (raised != 1)
        return;
    for (uint32_t i = 0; i < res->nflags; i++)
        if (strcmp(res->flags[i], flag->name) == 0)
            return;
    res->flags = base_xrealloc(res->flags, (res->nflags + 1) * sizeof *res->flags);
    res->flags[res->nflags++] = base_xstrdup(flag->name);
}

/* --- why an outcome is forbidden --- */

/* What the explanation is about: the condition's outcome for exists and
 * ~exists, its failure for forall; and whether the model allowed it. */
static const logic_formula *explain_target(sim *s, bool *allowed)
{
    const litmus_result *res = s->res;
    const logic_formula *f = prop_formula(s, s->t->cond);
    if (s->t->quant == LITMUS_Q_FORALL) {
        *allowed = res->negative > 0;
        return logic_not(&s->b, f);
    }
    *allowed = res->positive > 0;
    return f;
}

/* Solves under the target and the selectors of every check outside drop. */
static sat_result explain_solve(sim *s, int target, const int *sel, uint32_t n, uint64_t drop)
{
    if (target != SAT_TRUE)
        sat_assume(s->solver, target);
    for (uint32_t i = 0; i < n; i++)
        if (!(drop >> i & 1) && sel[i] != SAT_TRUE && sel[i] != SAT_FALSE)
            sat_assume(s->solver, sel[i]);
    return sat_solve(s->solver);
}

/* The next k-subset of n bits after *m in colex order (Gosper's hack);
 * false after the last. */
static bool next_subset(uint64_t *m, uint32_t n)
{
    uint64_t v = *m, c = v & -v, r = v + c;
    uint64_t next = (((r ^ v) >> 2) / c) | r;
    if (next >> n)
        return false;
    *m = next;
    return true;
}

/* Fills res->explain: the smallest sets of the model's named checks
 * (logic/check.h) whose dropping lets some candidate execution satisfy the
 * target, and one such execution. Every check of a smallest set is violated
 * by that execution (else a smaller set would do), and every other check
 * holds in it. Grounds the model again with the checks made optional, in a
 * solver of its own; s's tables are replaced by the new ones. */
static void explain(sim *s, const litmus_options *opt, const logic_formula *model, bool no_execution)
{
    litmus_explanation *x = &s->res->explain;
    x->asked = true;
    bool allowed;
    const logic_formula *target = explain_target(s, &allowed);
    if (allowed) {
        x->kind = LITMUS_EXPLAIN_ALLOWED;
        return;
    }
    logic_relaxed rx;
    logic_checks_relax(&s->b, model, &rx);
    if (rx.n > 63) {
        x->kind = LITMUS_EXPLAIN_UNKNOWN;
        snprintf(x->reason, sizeof x->reason, "the model has %u checks (at most 63 are explained)",
                 rx.n);
        return;
    }
    x->nchecks = rx.n;
    x->checks = base_xcalloc(rx.n ? rx.n : 1, sizeof *x->checks);
    for (uint32_t i = 0; i < rx.n; i++)
        x->checks[i] = base_xstrdup(rx.names[i]);

    /* Every formula is built in s's builder before e copies s (e grounds
     * only, into a solver of its own). */
    const logic_formula *phi = logic_exec_close(&s->b, &s->ex, rx.f);
    const logic_formula *filter = s->t->filter ? prop_formula(s, s->t->filter) : NULL;
    sim e = *s;
    e.solver = sat_solver_new();
    sat_circuit_init(&e.circ, e.solver);
    logic_grounder_init(&e.g, &s->b, &e.circ);
    e.g.deadline = opt->deadline;
    e.g.max_clauses = opt->max_clauses;
    sat_set_deadline(e.solver, opt->deadline);
    logic_ground_assert(&e.g, phi);
    if (filter && e.g.status == LOGIC_GROUND_OK)
        logic_ground_assert(&e.g, filter);
    if (no_execution)
        sat_add_clause(e.solver, NULL, 0);
    int target_lit = e.g.status == LOGIC_GROUND_OK ? logic_ground_lit(&e.g, target) : SAT_FALSE;
    int *sel = base_xcalloc(rx.n ? rx.n : 1, sizeof *sel);
    if (e.g.status == LOGIC_GROUND_OK) {
        e.X = logic_ground_table(&e.g, e.ex.X);
        e.rf = logic_ground_table(&e.g, e.ex.rf);
        e.co = logic_ground_table(&e.g, e.ex.co);
        for (uint32_t i = 0; i < rx.n; i++) {
            const int *tab = logic_ground_table(&e.g, rx.sel[i]);
            sel[i] = tab ? tab[0] : SAT_TRUE;
        }
    }
    x->kind = LITMUS_EXPLAIN_CHECKS;
    if (e.g.status != LOGIC_GROUND_OK || s->b.error) {
        x->kind = LITMUS_EXPLAIN_UNKNOWN;
        snprintf(x->reason, sizeof x->reason, "%s",
                 e.g.status == LOGIC_GROUND_TIMEOUT ? "timeout while grounding"
                 : e.g.status == LOGIC_GROUND_TOO_LARGE ? "ran out of the memory budget (--max-memory)"
                 : e.g.status == LOGIC_GROUND_NEEDS_QBF
                     ? "the model has a universal second-order quantifier (no explanation on QBF)"
                     : "internal error: the model's formula is ill formed");
    } else if (target_lit == SAT_FALSE) {
        x->kind = LITMUS_EXPLAIN_NO_CANDIDATE;
    } else {
        /* First: is there a candidate at all, with every check dropped? */
        uint64_t all = rx.n == 64 ? ~0ull : (1ull << rx.n) - 1;
        sat_result r = explain_solve(&e, target_lit, sel, rx.n, all);
        if (r == SAT_UNSAT)
            x->kind = LITMUS_EXPLAIN_NO_CANDIDATE;
        for (uint32_t k = 1; r == SAT_SAT && k <= rx.n && x->nsets == 0; k++) {
            uint64_t m = (1ull << k) - 1;
            do {
                sat_result q = explain_solve(&e, target_lit, sel, rx.n, m);
                if (q == SAT_UNKNOWN) {
                    r = SAT_UNKNOWN;
                    break;
                }
                if (q == SAT_SAT) {
                    if (!x->witness.present) {
                        keep_witness_in(&e, true, &x->witness);
                        x->state = base_xcalloc(s->t->nobs ? s->t->nobs : 1, sizeof *x->state);
                        read_state(&e, x->state);
                    }
                    x->sets = base_xrealloc(x->sets, (x->nsets + 1) * sizeof *x->sets);
                    x->sets[x->nsets++] = m;
                }
            } while (next_subset(&m, rx.n));
        }
        if (r == SAT_UNKNOWN) {
            x->kind = LITMUS_EXPLAIN_UNKNOWN;
            snprintf(x->reason, sizeof x->reason, "timeout in the SAT solver");
        }
    }
    free(sel);
    logic_grounder_free(&e.g);
    sat_circuit_free(&e.circ);
    sat_solver_free(e.solver);
}

bool litmus_simulate(const litmus_test *t, const litmus_options *opt, litmus_result *res,
                     base_diag *diag)
{
    double t0 = base_now();
    memset(res, 0, sizeof *res);
    bool verdict_only = opt->verdict_only || opt->qbf_solve;
    res->verdict_only = verdict_only;
    litmus_es_limits limits = opt->limits;
    limits.every_write_value |= opt->model->config_only;
    limits.fork_all_reads |= opt->model->needs_values; /* a symbolic read has no value */
    /* herd's AArch64 model computes its dependencies from register events */
    limits.ports |= t->arch && strcmp(t->arch, "AArch64") == 0;
    if (!litmus_evstruct_build(t, &limits, &res->es, diag))
        return false;
    sim s = { .t = t, .res = res, .es = &res->es };
    double t_es = base_now();
    res->time_es = t_es - t0;

    /* A thread whose every path was dropped (unroll bound) has no execution. */
    bool some_thread_empty = false;
    for (uint32_t th = 0; th < t->nthreads; th++) {
        bool has = false;
        for (uint32_t k = 0; k < res->es.npaths; k++)
            has |= res->es.paths[k].thread == th;
        some_thread_empty |= !has;
    }

    litmus_encode_structure(t, &res->es, &s.st);
    logic_builder_init(&s.b, &s.st);
    logic_exec_build(&s.b, &s.ex);
    if (opt->model->config_only)
        logic_exec_config_only(&s.b, &s.ex);
    const logic_formula *undef = NULL;
    const logic_mm_flag *flags = NULL;
    uint32_t nflags = 0;
    const char *build_error = NULL;
    logic_mm_undef_fn with_undef = logic_mm_undef(opt->model);
    const logic_formula *model =
        opt->model->build ? opt->model->build(opt->model, &s.b, &s.ex, &flags, &nflags, &build_error)
        : with_undef      ? with_undef(&s.b, &s.ex, &undef)
                          : opt->model->consistent(&s.b, &s.ex);
    if (!model) {
        snprintf(res->reason, sizeof res->reason, "the model cannot be built: %s",
                 build_error ? build_error : "unknown error");
        res->status = LITMUS_UNKNOWN;
        res->time_total = base_now() - t0;
        logic_builder_free(&s.b);
        logic_structure_free(&s.st);
        return true;
    }
    const logic_formula *phi = logic_exec_close(&s.b, &s.ex, model);
    double t_build = base_now();
    res->time_build = t_build - t_es;
    s.opt = opt;
    bool qbf = opt->qbf || opt->qbf_dump || opt->qbf_solve || opt->model->needs_qbf;
    for (;;) {
        s.solver = qbf ? sat_solver_new_recorder() : sat_solver_new();
        sat_circuit_init(&s.circ, s.solver);
        s.circ.defer = qbf;
        logic_grounder_init(&s.g, &s.b, &s.circ);
        s.g.qbf = qbf;
        s.g.deadline = opt->deadline;
        s.g.max_clauses = opt->max_clauses;
        sat_set_deadline(s.solver, opt->deadline);
        logic_ground_assert(&s.g, phi);
        if (t->filter && s.g.status == LOGIC_GROUND_OK)
            logic_ground_assert(&s.g, prop_formula(&s, t->filter));
        if (some_thread_empty)
            sat_add_clause(s.solver, NULL, 0);
        if (qbf || s.g.status != LOGIC_GROUND_NEEDS_QBF)
            break;
        /* A universal quantifier the model did not declare: again, as QBF. */
        logic_grounder_free(&s.g);
        sat_circuit_free(&s.circ);
        sat_solver_free(s.solver);
        qbf = true;
    }
    if (qbf && opt->qbf_dump && s.g.status == LOGIC_GROUND_OK) {
        sat_qbf *q = logic_ground_qbf(&s.g, NULL, 0);
        opt->qbf_dump(opt->qbf_ctx, q);
        sat_qbf_free(q);
    }
    double t1 = base_now();
    res->time_ground = t1 - t_build;

    bool location_observed = false;
    for (uint32_t i = 0; i < t->nobs; i++)
        location_observed |= !t->obs[i].is_reg;
    if (opt->model->config_only && location_observed) {
        snprintf(res->reason, sizeof res->reason,
                 "model %s has no coherence order: final values of memory locations are "
                 "not defined (observe registers only)", opt->model->name);
        res->status = LITMUS_UNKNOWN;
    } else if (s.g.status == LOGIC_GROUND_NEEDS_QBF) {
        unknown(res, "the model has a second-order quantifier under <-> (no prenex form)");
    } else if (s.g.status == LOGIC_GROUND_TIMEOUT) {
        unknown(res, "timeout while grounding");
    } else if (s.g.status == LOGIC_GROUND_TOO_LARGE) {
        if (opt->max_memory_mb)
            snprintf(res->reason, sizeof res->reason,
                     "ran out of the memory budget of %u MB: the SAT problem grew past %llu "
                     "clauses (raise --max-memory)",
                     opt->max_memory_mb, (unsigned long long)opt->max_clauses);
        else
            snprintf(res->reason, sizeof res->reason,
                     "ran out of the clause budget: the SAT problem grew past %llu clauses "
                     "(raise --max-clauses)",
                     (unsigned long long)opt->max_clauses);
        res->status = LITMUS_UNKNOWN;
    } else if (s.g.status != LOGIC_GROUND_OK || s.b.error) {
        unknown(res, "internal error: the model's formula is ill formed");
    } else {
        s.X = logic_ground_table(&s.g, s.ex.X);
        s.rf = logic_ground_table(&s.g, s.ex.rf);
        s.co = logic_ground_table(&s.g, s.ex.co);
        /* values out of thin air: where the structure has a copy cycle and
         * the model reads values (jr judges the structure itself) */
        s.oo.on = res->es.copy_cycle && !limits.every_write_value;
        if (s.oo.on)
            oota_init(&s);
        if (undef && qbf)
            unknown(res, "the data-race question of this model has no QBF path yet (drop --qbf)");
        else if (undef)
            ask_undefined(&s, opt, undef);
        if (res->es.nfault_paths)
            ask_fault(&s, opt, qbf);
        if (nflags && qbf)
            unknown(res, "the flags of this model have no QBF path yet (drop --qbf)");
        for (uint32_t k = 0; k < nflags && res->status == LITMUS_DECIDED; k++)
            ask_flag(&s, opt, &flags[k]);
        if (res->status == LITMUS_DECIDED && verdict_only && !s.oo.on) {
            verdict(&s, opt);
        } else if (res->status == LITMUS_DECIDED) {
            if (qbf) {
                s.qbf = logic_ground_qbf(&s.g, NULL, 0);
                s.qbf_clauses = sat_qbf_num_clauses(s.qbf);
                sat_qbf_set_deadline(s.qbf, opt->deadline);
            }
            enumerate(&s, opt);
            sat_qbf_free(s.qbf);
            s.qbf = NULL;
            if (verdict_only) { /* enumerated for the symbols: the verdict alone */
                res->positive = res->positive > 0;
                res->negative = res->negative > 0;
                free(res->states);
                res->states = NULL;
                res->nstates = 0;
            }
        }
    }
    if (opt->explain && res->status == LITMUS_DECIDED) {
        if (qbf || opt->model->config_only) {
            res->explain.asked = true;
            res->explain.kind = LITMUS_EXPLAIN_UNKNOWN;
            snprintf(res->explain.reason, sizeof res->explain.reason,
                     "model %s is decided on QBF: explanations need a SAT model", opt->model->name);
        } else if (s.oo.on) {
            /* its candidates carry concrete values where herd's have symbols */
            res->explain.asked = true;
            res->explain.kind = LITMUS_EXPLAIN_UNKNOWN;
            snprintf(res->explain.reason, sizeof res->explain.reason,
                     "the test may have values out of thin air (herd7's symbols), which "
                     "explanations do not follow");
        } else {
            explain(&s, opt, model, some_thread_empty);
        }
    }
    if (res->status == LITMUS_DECIDED) {
        res->obs = res->positive == 0 ? LITMUS_OBS_NEVER
                   : res->negative == 0 ? LITMUS_OBS_ALWAYS : LITMUS_OBS_SOMETIMES;
        switch (t->quant) {
        case LITMUS_Q_EXISTS: res->ok = res->positive > 0; break;
        case LITMUS_Q_NOT_EXISTS: res->ok = res->positive == 0; break;
        case LITMUS_Q_FORALL: res->ok = res->negative == 0; break;
        }
    }
    res->sat_vars = sat_num_vars(s.solver);
    res->sat_clauses = qbf ? s.qbf_clauses : sat_num_clauses(s.solver);
    res->sat_solves = qbf ? s.qbf_solves : sat_num_solves(s.solver);
    res->time_solve = base_now() - t1;
    res->time_total = base_now() - t0;

    oota_free(&s.oo);
    logic_grounder_free(&s.g);
    sat_circuit_free(&s.circ);
    sat_solver_free(s.solver);
    logic_builder_free(&s.b);
    logic_structure_free(&s.st);
    return true;
}

void litmus_result_free(litmus_result *res)
{
    for (uint32_t i = 0; i < res->nflags; i++)
        free(res->flags[i]);
    free(res->flags);
    free(res->states);
    free(res->witness.in_x);
    free(res->witness.rf);
    free(res->witness.co);
    for (uint32_t i = 0; i < res->explain.nchecks; i++)
        free(res->explain.checks[i]);
    free(res->explain.checks);
    free(res->explain.sets);
    free(res->explain.state);
    free(res->explain.witness.in_x);
    free(res->explain.witness.rf);
    free(res->explain.witness.co);
    litmus_evstruct_free(&res->es);
    memset(res, 0, sizeof *res);
}
