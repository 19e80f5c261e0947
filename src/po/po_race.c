/* po_race: data races in the partial-order encoding; see po_race.h for
 * the definition, the encoding and why it is sound and complete.
 *
 * How it runs. po_check_ext runs the threads and asserts SC's axioms; then
 * decide() lists the accesses (program loads and stores), pairs those of
 * different threads that may touch a common byte with at least one write,
 * gives each pair a selector (sel -> its race condition), and asks for a
 * model of the disjunction of the selectors of the pairs not yet reported.
 * A model's pair is reported (found() reads it off the model, on_race
 * prints it), its two source places are excluded, and the question is
 * asked again. */
#include "po/po_race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "bmc/bmc_conc.h"
#include "bmc/smt.h"
#include "ir/ir_print.h"

typedef struct access {
    uint32_t e;         /* the po event */
    size_t bev;
    uint32_t thread;
    bool write;
    bmc_smt_term addr, guard, clock, prev_clock;
    uint32_t n;
    bool cst;           /* addr is the constant at */
    uint64_t at;
    base_srcloc loc;
} access;

typedef struct pair {
    uint32_t a, b;      /* into accs */
    bmc_smt_term sel;   /* -> the race condition, both accesses inside objects */
    bmc_smt_term wild;  /* -> the race condition alone (0: the same) */
    bool excluded;
} pair;

typedef struct rctx {
    po_session *c;
    bmc_conc *b;
    bmc_smt_solver *s;
    trace_result *r;
    const ir_program *p;
    const po_race_opts *ro;
    uint32_t pw;
    BASE_VEC(access) accs;
    BASE_VEC(pair) pairs;
    size_t hit;         /* the pair of the last model */
    po_race_found f;
    base_strbuf names;  /* the strings of f, NUL-separated */
    BASE_VEC(size_t) name_at;
    bool external;      /* an external write was seen */
    const char *wild;   /* a race through a pointer to no object may exist */
} rctx;

static bool same_loc(base_srcloc a, base_srcloc b)
{
    return a.line == b.line && a.col == b.col &&
           (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0));
}

/* The accesses, in event order. */
static void collect(rctx *x)
{
    size_t n = po_nevents(x->c);
    for (uint32_t e = 0; e < n; e++) {
        po_event_info ev;
        po_event_get(x->c, e, &ev);
        if (!ev.mem || ev.s || bmc_smt_is_false(x->s, ev.guard))
            continue; /* lock words are synchronisation */
        if (ev.acc == BMC_CONC_EXTERNAL)
            x->external = true;
        if (ev.acc != BMC_CONC_PROGRAM || e == 0)
            continue;
        po_event_info prev;
        po_event_get(x->c, e - 1, &prev);
        if (prev.thread != ev.thread)
            continue; /* never: a thread's first event is its start */
        for (int w = 0; w < 2; w++) {
            uint32_t nb = w ? ev.nwr : ev.nrd;
            if (!nb)
                continue;
            access a = { e, ev.bev, ev.thread, w == 1, w ? ev.waddr : ev.raddr, ev.guard,
                         ev.clock, prev.clock, nb, false, 0, ev.loc };
            a.cst = bmc_smt_bv_value(x->s, a.addr, &a.at);
            base_vec_push(&x->accs, a);
        }
    }
}

static bmc_smt_term ult(rctx *x, bmc_smt_term a, bmc_smt_term b)
{
    return bmc_smt_bv_cmp(x->s, BMC_SMT_ULT, a, b);
}

/* Whether [a, a+n) and [b, b+m) overlap (addresses one bit wider: no
 * overflow). */
static bmc_smt_term overlap(rctx *x, const access *a, const access *b)
{
    bmc_smt_term pa = bmc_smt_zext(x->s, 1, a->addr), pb = bmc_smt_zext(x->s, 1, b->addr);
    bmc_smt_term ea = bmc_smt_bv_op(x->s, BMC_SMT_BV_ADD, pa, bmc_smt_bv_const(x->s, x->pw + 1, a->n));
    bmc_smt_term eb = bmc_smt_bv_op(x->s, BMC_SMT_BV_ADD, pb, bmc_smt_bv_const(x->s, x->pw + 1, b->n));
    return bmc_smt_and(x->s, ult(x, pa, eb), ult(x, pb, ea));
}

/* The candidate pairs and their race conditions. */
static void make_pairs(rctx *x)
{
    size_t n = x->accs.len;
    bmc_smt_term *atomic = calloc(n ? n : 1, sizeof *atomic);
    bmc_smt_term *inobj = calloc(n ? n : 1, sizeof *inobj);
    for (size_t i = 0; i < n; i++) {
        const access *a = &x->accs.data[i];
        if (i && x->accs.data[i - 1].e == a->e)
            atomic[i] = atomic[i - 1];
        else
            atomic[i] = po_event_in_atomic(x->c, a->e);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const access *a = &x->accs.data[i], *b = &x->accs.data[j];
            if (a->thread == b->thread || (!a->write && !b->write))
                continue;
            if (a->cst && b->cst && !(a->at < b->at + b->n && b->at < a->at + a->n))
                continue;
            bmc_smt_term both_atomic = bmc_smt_and(x->s, atomic[i], atomic[j]);
            if (bmc_smt_is_true(x->s, both_atomic))
                continue;
            bmc_smt_term cond = bmc_smt_and(x->s, a->guard, b->guard);
            cond = bmc_smt_and(x->s, cond, bmc_smt_not(x->s, both_atomic));
            if (!(a->cst && b->cst))
                cond = bmc_smt_and(x->s, cond, overlap(x, a, b));
            cond = bmc_smt_and(x->s, cond, ult(x, a->prev_clock, b->clock));
            cond = bmc_smt_and(x->s, cond, ult(x, b->prev_clock, a->clock));
            if (bmc_smt_is_false(x->s, cond))
                continue;
            /* a race is claimed only on bytes of an object: a pointer to
             * no object (uninitialised, out of bounds) reaches no claim,
             * only a `not a proof` */
            for (size_t k = 0; k < 2; k++) {
                size_t m = k ? j : i;
                if (!inobj[m])
                    inobj[m] = bmc_conc_in_object(x->b, x->accs.data[m].addr, x->accs.data[m].n);
            }
            bmc_smt_term in = bmc_smt_and(x->s, inobj[i], inobj[j]);
            pair pr = { (uint32_t)i, (uint32_t)j, bmc_smt_bool_var(x->s, "race"), 0, false };
            bmc_smt_assert(x->s, bmc_smt_implies(x->s, pr.sel, bmc_smt_and(x->s, cond, in)));
            if (!bmc_smt_is_true(x->s, in)) {
                pr.wild = bmc_smt_bool_var(x->s, "wild_race");
                bmc_smt_assert(x->s, bmc_smt_implies(x->s, pr.wild, cond));
            }
            base_vec_push(&x->pairs, pr);
        }
    free(atomic);
    free(inobj);
}

/* --- reading a race off the model --- */

static const char *keep(rctx *x, const char *s)
{
    base_vec_push(&x->name_at, x->names.len);
    base_strbuf_puts(&x->names, s);
    base_strbuf_putc(&x->names, 0);
    return NULL; /* fixed up in fix_names once the buffer stops moving */
}

/* The locks thread t holds just before event e: the lock operations of t
 * before e that ran, replayed on their lock words' owner fields. */
static void locks_held(rctx *x, uint32_t t, uint32_t e, po_race_access *out)
{
    uint64_t addr[PO_RACE_MAX_LOCKS * 4];
    const ir_stmt *who[PO_RACE_MAX_LOCKS * 4];
    bool held[PO_RACE_MAX_LOCKS * 4];
    size_t n = 0;
    for (uint32_t f = e; f-- > 0;) {
        po_event_info ev;
        po_event_get(x->c, f, &ev);
        if (ev.thread != t)
            break;
        if (!ev.s || (ev.s->kind != IR_S_LOCK && ev.s->kind != IR_S_UNLOCK) || !ev.nwr ||
            !bmc_smt_model_bool(x->s, bmc_conc_name(x->b, ev.guard)))
            continue;
        uint64_t a = bmc_smt_model_bv(x->s, ev.waddr);
        size_t k = 0;
        while (k < n && addr[k] != a)
            k++;
        if (k < n || n == sizeof addr / sizeof *addr)
            continue; /* a later operation on it decided already */
        uint64_t w = bmc_smt_model_bv(x->s, ev.wval);
        addr[n] = a;
        who[n] = ev.s;
        /* the owner field (bits 0-15) names the thread + 1; a read lock
         * counts readers (bits 16-23) with no owner */
        held[n] = ev.s->kind == IR_S_LOCK &&
                  ((w & 0xffff) == t + 1 ||
                   (ev.s->lock_kind == IR_LOCK_RW_READ && (w & 0xffff) == 0 && (w >> 16 & 0xff)));
        n++;
    }
    for (size_t k = n; k-- > 0 && out->nlocks < PO_RACE_MAX_LOCKS;) {
        if (!held[k])
            continue;
        base_strbuf b = { 0 };
        const ir_expr *l = who[k]->rhs;
        if (l && l->kind == IR_E_ADDR)
            ir_print_expr(&b, x->p, l->a);
        else if (l) {
            base_strbuf_putc(&b, '*');
            ir_print_expr(&b, x->p, l);
        }
        out->locks[out->nlocks++] = keep(x, base_strbuf_cstr(&b));
        base_strbuf_free(&b);
    }
}

static void fill(rctx *x, const access *a, po_race_access *out)
{
    memset(out, 0, sizeof *out);
    out->loc = a->loc;
    out->write = a->write;
    out->thread = a->thread;
    out->func = po_thread_func(x->c, a->thread);
    out->started_at = po_thread_started_at(x->c, a->thread);
    locks_held(x, a->thread, a->e, out);
}

/* Points the kept strings into the final buffer, in the order keep() was
 * called: the object, then the first access's locks, then the second's. */
static void fix_names(rctx *x)
{
    size_t k = 0;
    const char *base = x->names.data;
    x->f.object = base + x->name_at.data[k++];
    for (uint32_t i = 0; i < x->f.first.nlocks; i++)
        x->f.first.locks[i] = base + x->name_at.data[k++];
    for (uint32_t i = 0; i < x->f.second.nlocks; i++)
        x->f.second.locks[i] = base + x->name_at.data[k++];
}

/* The clock of the last event of a's thread made at a's statement. */
static uint64_t stmt_key(rctx *x, const access *a)
{
    uint32_t last = a->e;
    size_t n = po_nevents(x->c);
    for (uint32_t e = a->e + 1; e < n; e++) {
        po_event_info ev;
        po_event_get(x->c, e, &ev);
        if (ev.thread != a->thread || ev.bev != a->bev)
            break;
        last = e;
    }
    po_event_info ev;
    po_event_get(x->c, last, &ev);
    return bmc_smt_model_bv(x->s, ev.clock);
}

static uint64_t wild_found(void *ud, uint32_t *thread, const char **message, base_srcloc *loc)
{
    (void)ud;
    *thread = 0;
    *message = "data race through a pointer to no object";
    *loc = (base_srcloc){ 0 };
    return 0;
}

static uint64_t found(void *ud, uint32_t *thread, const char **message, base_srcloc *loc)
{
    rctx *x = ud;
    x->hit = SIZE_MAX;
    for (size_t i = 0; i < x->pairs.len && x->hit == SIZE_MAX; i++)
        if (!x->pairs.data[i].excluded && bmc_smt_model_bool(x->s, x->pairs.data[i].sel))
            x->hit = i;
    if (x->hit == SIZE_MAX) { /* cannot be: the goal holds */
        *thread = 0;
        *message = "data race";
        *loc = (base_srcloc){ 0 };
        return 0;
    }
    const pair *pr = &x->pairs.data[x->hit];
    const access *a = &x->accs.data[pr->a], *b = &x->accs.data[pr->b];
    uint64_t ka = bmc_smt_model_bv(x->s, a->clock), kb = bmc_smt_model_bv(x->s, b->clock);
    if (kb < ka || (kb == ka && b->thread < a->thread)) {
        const access *t = a;
        a = b;
        b = t;
        uint64_t tk = ka;
        ka = kb;
        kb = tk;
    }
    base_strbuf_clear(&x->names);
    x->name_at.len = 0;
    base_strbuf obj = { 0 };
    uint64_t at = bmc_smt_model_bv(x->s, b->addr), at2 = bmc_smt_model_bv(x->s, a->addr);
    bmc_conc_describe(x->b, at > at2 ? at : at2, &obj);
    keep(x, base_strbuf_cstr(&obj));
    base_strbuf_free(&obj);
    fill(x, a, &x->f.first);
    fill(x, b, &x->f.second);
    fix_names(x);
    /* the trace: up to the later of the two statements' steps (po's
     * step_key: a step's key is that of its thread's last event made
     * before it) */
    uint64_t ks = stmt_key(x, a), kt = stmt_key(x, b);
    *thread = kt > ks ? b->thread : ks > kt ? a->thread
              : a->thread > b->thread ? a->thread : b->thread;
    *message = "data race";
    *loc = b->loc;
    return 2 * (kt >= ks ? kt : ks) + 1;
}

/* Excludes every pair at the source places of pair h, in either order. */
static void exclude(rctx *x, size_t h)
{
    const pair *pr = &x->pairs.data[h];
    base_srcloc l1 = x->accs.data[pr->a].loc, l2 = x->accs.data[pr->b].loc;
    for (size_t i = 0; i < x->pairs.len; i++) {
        pair *q = &x->pairs.data[i];
        base_srcloc m1 = x->accs.data[q->a].loc, m2 = x->accs.data[q->b].loc;
        if ((same_loc(m1, l1) && same_loc(m2, l2)) || (same_loc(m1, l2) && same_loc(m2, l1)))
            q->excluded = true;
    }
}

/* After no race: whether one through a pointer to no object is possible
 * (then no proof: x->wild). Leaves the SAFE answer in x->r. */
static trace_verdict wild_check(rctx *x)
{
    bmc_smt_term any = bmc_smt_false(x->s);
    for (size_t i = 0; i < x->pairs.len; i++)
        if (!x->pairs.data[i].excluded && x->pairs.data[i].wild)
            any = bmc_smt_or(x->s, any, x->pairs.data[i].wild);
    if (bmc_smt_is_false(x->s, any))
        return TRACE_SAFE_WITHIN_BOUNDS;
    trace_result keep = *x->r;
    bmc_conc_goal g = { any, "a data race through a pointer to no object may exist", false, x,
                        wild_found };
    trace_verdict v = bmc_conc_decide_goal(x->b, &g);
    if (v != TRACE_SAFE_WITHIN_BOUNDS)
        x->wild = v == TRACE_BUG ? "a race through a pointer to no known object (uninitialised or "
                                 "out of bounds) may exist"
                               : "the check for races through pointers to no known object "
                                 "did not end";
    /* the answer stays the one without such races */
    base_arena arena = x->r->arena;
    *x->r = keep;
    x->r->arena = arena;
    return TRACE_SAFE_WITHIN_BOUNDS;
}

typedef struct run {
    rctx *x;
    po_race_result *out;
} run;

static trace_verdict decide(void *ud, po_session *c)
{
    run *rn = ud;
    rctx *x = rn->x;
    x->c = c;
    x->b = po_bmc(c);
    x->s = bmc_conc_solver(x->b);
    x->pw = bmc_conc_ptr_bits(x->b);
    collect(x);
    make_pairs(x);
    bmc_conc_goal g = { 0, "a data race may exist", true, x, found };
    for (;;) {
        g.goal = bmc_smt_false(x->s);
        for (size_t i = 0; i < x->pairs.len; i++)
            if (!x->pairs.data[i].excluded)
                g.goal = bmc_smt_or(x->s, g.goal, x->pairs.data[i].sel);
        trace_verdict v = bmc_conc_decide_goal(x->b, &g);
        rn->out->verdict = v;
        if (v == TRACE_SAFE_WITHIN_BOUNDS && x->r->unwinding_ok && !rn->out->found)
            return wild_check(x); /* a proof, unless such a race exists */
        if (v != TRACE_BUG)
            return v;
        if (x->hit == SIZE_MAX)
            return v; /* cannot be */
        rn->out->found++;
        if (x->ro->on_race)
            x->ro->on_race(x->ro->ud, &x->f, x->r);
        exclude(x, x->hit);
        if (rn->out->found >= x->ro->max_races)
            return v;
    }
}

/* What the program's statements keep po_race from answering:
 *  - *wild: a pointer that no object of the program gives (the result of
 *    a call to a function without a body, a nondeterministic pointer): the
 *    model may make it point anywhere, so no race through it is claimed;
 *    such a program gets no answer from po (the other engines may find
 *    races);
 *  - the result: why no race found would be no proof beyond po's reasons:
 *    a call to a function without a body with a pointer argument, through
 *    which it may read or write (not modelled as accesses; free ends a
 *    lifetime and is no access) (a lock whose result the program tests is
 *    one of po's own reasons, po.c's inexact).
 * Every function with a body counts, reached or not. */
static const char *limits(const ir_program *p, char *buf, size_t bufsz, const char **wild,
                          char *wbuf, size_t wbufsz)
{
    const char *why = NULL;
    *wild = NULL;
    for (uint32_t i = 0; i < p->nfuncs && !*wild; i++) {
        const ir_func *f = p->funcs[i];
        for (uint32_t k = 0; f->has_body && k < f->nstmts && !*wild; k++) {
            const ir_stmt *s = &f->stmts[k];
            bool ext = s->kind == IR_S_CALL && s->callee->kind == IR_E_FUNC &&
                       !s->callee->func->has_body;
            const char *name = ext ? base_sym_str(p->syms, s->callee->func->name) : "";
            if (s->lhs && s->lhs->type->kind == IR_T_PTR &&
                ((s->kind == IR_S_ASSIGN && s->rhs && s->rhs->kind == IR_E_NONDET) || ext)) {
                if (ext)
                    snprintf(wbuf, wbufsz, "the pointer '%s' returns (line %u) may point "
                                           "anywhere: it has no body", name, s->loc.line);
                else
                    snprintf(wbuf, wbufsz, "a nondeterministic pointer (line %u) may point "
                                           "anywhere", s->loc.line);
                *wild = wbuf;
            }
            if (why)
                continue;
            for (uint32_t j = 0; ext && !why && strcmp(name, "free") != 0 && j < s->nargs; j++) {
                const ir_expr *a = s->args[j];
                if (a->type->kind != IR_T_PTR || a->kind == IR_E_STRING ||
                    (a->kind == IR_E_CONST && a->value == 0))
                    continue;
                snprintf(buf, bufsz, "a call to '%s', which has no body, with a pointer "
                                     "argument (line %u): what it reads or writes there is "
                                     "not modelled", name, s->loc.line);
                why = buf;
            }
        }
    }
    return why;
}

void po_race(const ir_program *p, const ir_func *entry, const po_opts *o, const po_race_opts *ro,
             trace_result *r, po_stats *st, po_race_result *out)
{
    memset(out, 0, sizeof *out);
    rctx x;
    memset(&x, 0, sizeof x);
    x.p = p;
    x.r = r;
    x.ro = ro;
    x.hit = SIZE_MAX;
    run rn = { &x, out };
    po_ext ext = { &rn, decide };
    bool exact = true;
    const char *why = NULL;
    char wbuf[300], buf[300];
    const char *wild;
    const char *more = limits(p, buf, sizeof buf, &wild, wbuf, sizeof wbuf);
    if (wild) { /* nothing to run: the answer is unknown */
        memset(r, 0, sizeof *r);
        base_arena_init(&r->arena);
        r->verdict = TRACE_UNKNOWN;
        r->reason = base_arena_strdup(&r->arena, wild);
        if (st)
            memset(st, 0, sizeof *st);
        out->verdict = TRACE_UNKNOWN;
        return;
    }
    out->verdict = po_check_ext(p, entry, o, r, st, &exact, &why, &ext);
    if (!exact)
        more = NULL;
    out->exact = exact && !more && !x.external && !x.wild;
    out->why = why;
    if (more)
        out->why = base_arena_strdup(&r->arena, more);
    else if (exact && x.wild)
        out->why = x.wild;
    else if (exact && x.external)
        out->why = "a call to a function without a body may write memory (not a modelled access)";
    base_vec_free(&x.accs);
    base_vec_free(&x.pairs);
    base_vec_free(&x.name_at);
    base_strbuf_free(&x.names);
}
