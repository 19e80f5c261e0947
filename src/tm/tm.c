/* tm: thread-modular abstract interpretation with protection-based
 * privatization; see tm.h for the global invariants and docs/manual.md
 * for why a proof is sound. */
#include "tm/tm.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/xalloc.h"
#include "tm/tm_rel.h"
#include "tm/tm_val.h"

#define TM_MAX_ROUNDS 60
#define TM_WIDEN_ROUND 4  /* global invariants are widened from this round on */
#define TM_WIDEN_VISITS 3 /* a loop head is widened after this many joins */
#define TM_MAX_DEPTH 24   /* inlined calls */
#define TM_MAX_MUTEXES 63 /* and one bit for the atomic sections */
#define TM_MAX_STEPS 500000 /* statements analysed in all (well under a second) */
#define TM_REL_GLOBALS 8  /* globals related to locals (difference constraints) */
#define TM_REL_LOCALS 32  /* related slots of a frame */
#define TM_MAX_PATHS 8    /* exit states of an atomic function analysed path by path */

/* A frame: the slots of a function's states (params, locals, then the
 * caller's locals that a parameter points to, see do_call), their types,
 * and their places in the relation matrix, whose first a->nrg rows are
 * the related globals. */
typedef struct tm_frame {
    const ir_func *f;
    uint32_t nl;
    const ir_type **ty; /* per slot */
    int32_t *ri;        /* per slot: matrix index, -1 */
    int32_t *ref;       /* per param: the slot that *param is, -1 */
    uint32_t nr;        /* matrix size */
} tm_frame;

/* The abstract state of a thread at a statement: its locals, its view of
 * the globals it may keep (all of them before the program is
 * multithreaded, else the ones a held mutex protects), the mutexes it
 * surely holds, and the globals it surely wrote while multithreaded. */
typedef struct tm_state {
    bool bot;
    bool mt;        /* other threads may run */
    uint64_t locks; /* mutex indices surely held */
    tm_val *g;      /* per global */
    uint8_t *mw;    /* per global: surely written by this thread while mt */
    tm_val *l;      /* params, then locals */
    uint32_t nl;
    int64_t *d;     /* nr x nr difference constraints (tm_rel.h) */
    uint32_t nr;
} tm_state;

/* A related variable plus a constant: what an expression equals. */
typedef struct tm_rf {
    uint32_t idx;
    int64_t c;
} tm_rf;

/* A flag lock: an atomic function whose body is `assume(X == 0); X = 1`
 * (acquire) or `assume(X == 1); X = 0` (release), X a global int or what
 * its one parameter points to. */
typedef struct tm_flag_fn {
    const ir_func *f;
    bool acquire;
    int32_t global; /* X's global, or -1: *param */
} tm_flag_fn;

typedef struct tm_an {
    const ir_program *p;
    uint32_t ng, nm, atomic_m;
    int32_t *midx;   /* global -> mutex index, -1 */
    bool *scalar;    /* global: an int or pointer value the engine tracks */
    tm_val *init;    /* per global */
    tm_val *w;       /* per global */
    uint64_t *prot;  /* per global: P(g) */
    tm_val *u;       /* per global and mutex: U(g, m) */
    tm_flag_fn *flag_fn; /* the __VERIFIER_atomic_* functions that are flag locks */
    uint32_t nflag_fn;
    const ir_func **thr;
    tm_val *thr_arg;
    uint32_t nthr, thr_cap;
    bool changed;
    unsigned round;
    uint64_t steps;
    bool failed;     /* no proof, whatever the rounds find */
    bool afailed;    /* an assertion may fail (this round) */
    tm_result *r;
    const ir_func *stack[TM_MAX_DEPTH];
    uint32_t depth;
    int32_t *rg;     /* per global: its row in the relation matrices, -1 */
    uint32_t rgl[TM_REL_GLOBALS]; /* per such row: the global */
    uint32_t nrg;
    bool *mono;      /* per global: every write to it while multithreaded is non-decreasing */
    const tm_frame *fr; /* the frame being analysed */
} tm_an;

/* --- failures --- */

static void fail_at(tm_an *a, const ir_stmt *s, const char *fmt, ...)
{
    if (a->failed)
        return;
    a->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->r->reason, sizeof a->r->reason, fmt, ap);
    va_end(ap);
    if (s)
        a->r->loc = s->loc;
}

/* --- states --- */

static tm_state *state_new(const tm_an *a, const tm_frame *fr)
{
    uint32_t nl = fr->nl;
    tm_state *s = base_xcalloc(1, sizeof *s);
    s->nr = fr->nr;
    s->d = base_xcalloc(s->nr ? (size_t)s->nr * s->nr : 1, sizeof *s->d);
    tm_rel_top(s->d, s->nr);
    s->g = base_xcalloc(a->ng ? a->ng : 1, sizeof *s->g);
    s->mw = base_xcalloc(a->ng ? a->ng : 1, 1);
    s->l = base_xcalloc(nl ? nl : 1, sizeof *s->l);
    s->nl = nl;
    for (uint32_t i = 0; i < a->ng; i++)
        s->g[i] = tm_val_bot();
    for (uint32_t i = 0; i < nl; i++)
        s->l[i] = tm_val_bot();
    return s;
}

static void state_free(tm_state *s)
{
    if (!s)
        return;
    free(s->g);
    free(s->mw);
    free(s->l);
    free(s->d);
    free(s);
}

/* Copies the thread part (everything but the locals). */
static void state_copy_thread(const tm_an *a, tm_state *d, const tm_state *s)
{
    d->bot = s->bot;
    d->mt = s->mt;
    d->locks = s->locks;
    memcpy(d->g, s->g, a->ng * sizeof *d->g);
    memcpy(d->mw, s->mw, a->ng);
}

static tm_state *state_dup(const tm_an *a, const tm_state *s)
{
    tm_state *d = base_xcalloc(1, sizeof *d);
    d->g = base_xcalloc(a->ng ? a->ng : 1, sizeof *d->g);
    d->mw = base_xcalloc(a->ng ? a->ng : 1, 1);
    d->l = base_xcalloc(s->nl ? s->nl : 1, sizeof *d->l);
    d->nl = s->nl;
    d->nr = s->nr;
    d->d = base_xcalloc(s->nr ? (size_t)s->nr * s->nr : 1, sizeof *d->d);
    state_copy_thread(a, d, s);
    memcpy(d->l, s->l, s->nl * sizeof *d->l);
    memcpy(d->d, s->d, (size_t)s->nr * s->nr * sizeof *d->d);
    return d;
}

static const ir_var *frame_var(const ir_func *f, uint32_t i)
{
    return i < f->nparams ? f->params[i] : f->locals[i - f->nparams];
}

/* The frame of f whose slots end with nref caller locals of types
 * ref_ty; ref per param as in tm_frame. */
static void frame_init(const tm_an *a, tm_frame *fr, const ir_func *f, uint32_t nref,
                       const ir_type *const *ref_ty, const int32_t *ref)
{
    fr->f = f;
    fr->nl = f->nparams + f->nlocals + nref;
    uint32_t n = fr->nl ? fr->nl : 1;
    fr->ty = base_xcalloc(n, sizeof *fr->ty);
    fr->ri = base_xcalloc(n, sizeof *fr->ri);
    fr->ref = base_xcalloc(f->nparams ? f->nparams : 1, sizeof *fr->ref);
    fr->nr = a->nrg;
    for (uint32_t i = 0; i < fr->nl; i++) {
        const ir_type *t = i < f->nparams + f->nlocals ? frame_var(f, i)->type
                                                       : ref_ty[i - f->nparams - f->nlocals];
        fr->ty[i] = t;
        fr->ri[i] = -1;
        if (a->nrg && t->kind == IR_T_INT && t->bits >= 1 && t->bits <= 32 &&
            fr->nr < a->nrg + TM_REL_LOCALS)
            fr->ri[i] = (int32_t)fr->nr++;
    }
    for (uint32_t i = 0; i < f->nparams; i++)
        fr->ref[i] = ref ? ref[i] : -1;
}

static void frame_free(tm_frame *fr)
{
    free(fr->ty);
    free(fr->ri);
    free(fr->ref);
}

static tm_val join_or_widen(const ir_type *ty, tm_val old, tm_val v, bool widen)
{
    return widen ? tm_val_widen(ty, old, v) : tm_val_join(old, v);
}

static void go_multithreaded(tm_an *a, tm_state *s);

/* d := d ⊔ s (widened when widen); returns whether d changed. A state of
 * the single-threaded prefix that meets a multithreaded one is made
 * multithreaded first (what it holds joins init), which is sound at any
 * point (docs/manual.md). */
static bool state_join(tm_an *a, const ir_func *f, tm_state *d, const tm_state *s, bool widen)
{
    if (s->bot)
        return false;
    if (d->bot) {
        state_copy_thread(a, d, s);
        memcpy(d->l, s->l, s->nl * sizeof *d->l);
        memcpy(d->d, s->d, (size_t)s->nr * s->nr * sizeof *d->d);
        return true;
    }
    if (d->mt != s->mt) {
        bool ch = !d->mt;
        go_multithreaded(a, d);
        if (!s->mt) {
            tm_state *c = state_dup(a, s);
            go_multithreaded(a, c);
            ch = state_join(a, f, d, c, widen) || ch;
            state_free(c);
            return ch;
        }
        return state_join(a, f, d, s, widen) || ch;
    }
    bool ch = false;
    bool mt = d->mt || s->mt;
    uint64_t locks = d->locks & s->locks;
    ch = ch || mt != d->mt || locks != d->locks;
    d->mt = mt;
    d->locks = locks;
    for (uint32_t i = 0; i < a->ng; i++) {
        tm_val n = join_or_widen(a->p->globals[i]->type, d->g[i], s->g[i], widen);
        ch = ch || !tm_val_eq(n, d->g[i]);
        d->g[i] = n;
        uint8_t m = d->mw[i] & s->mw[i];
        ch = ch || m != d->mw[i];
        d->mw[i] = m;
    }
    for (uint32_t i = 0; i < d->nl; i++) {
        tm_val n = join_or_widen(a->fr->ty[i], d->l[i], s->l[i], widen);
        ch = ch || !tm_val_eq(n, d->l[i]);
        d->l[i] = n;
    }
    return tm_rel_join(d->d, s->d, d->nr, widen) || ch;
}

/* --- global invariants --- */

static void contrib(tm_an *a, tm_val *slot, const ir_type *ty, tm_val v)
{
    tm_val n = a->round >= TM_WIDEN_ROUND ? tm_val_widen(ty, *slot, v) : tm_val_join(*slot, v);
    if (!tm_val_eq(n, *slot)) {
        *slot = n;
        a->changed = true;
    }
}

static bool stable(const tm_an *a, const tm_state *s, uint32_t g)
{
    return !s->mt || (a->prot[g] & s->locks) != 0;
}

static tm_val read_global(tm_an *a, const tm_state *s, uint32_t g, const ir_type *as)
{
    const ir_var *v = a->p->globals[g];
    if (!a->scalar[g] || !ir_type_eq(v->type, as))
        return tm_val_top(as);
    if (stable(a, s, g))
        return s->g[g];
    return tm_val_join(s->mw[g] ? tm_val_bot() : a->init[g], a->w[g]);
}

/* --- relations --- */

static int64_t *rel_at(tm_state *s, uint32_t i, uint32_t j)
{
    return &s->d[(size_t)i * s->nr + j];
}

static int64_t rel_get(const tm_state *s, uint32_t i, uint32_t j)
{
    return s->d[(size_t)i * s->nr + j];
}

/* What other threads may do to the related globals: a global that is not
 * stable for s may change at any time, so its upper bounds against the
 * others are dropped; when some write to it (in any thread) may decrease
 * it, its lower bounds too (docs/manual.md). */
static void rel_settle(const tm_an *a, tm_state *s)
{
    if (!s->mt || s->bot)
        return;
    for (uint32_t g = 0; g < a->ng; g++) {
        int32_t x = a->rg[g];
        if (x < 0 || stable(a, s, g))
            continue;
        if (a->mono[g])
            tm_rel_forget_upper(s->d, s->nr, (uint32_t)x);
        else
            tm_rel_forget(s->d, s->nr, (uint32_t)x);
    }
}

/* x := rf (NULL: any value). */
static void rel_write(tm_state *s, int32_t x, const tm_rf *rf)
{
    if (x < 0)
        return;
    if (rf)
        tm_rel_assign(s->d, s->nr, (uint32_t)x, rf->idx, rf->c);
    else
        tm_rel_forget(s->d, s->nr, (uint32_t)x);
}

/* A write of v (rf: v equals that) to the related global g while
 * multithreaded: g stays monotone when v is at least g's value before the
 * write, by the intervals or by a difference constraint while g is
 * stable (no other write can come between the read of rf's variable and
 * this write). */
static void check_mono(tm_an *a, const tm_state *s, uint32_t g, tm_val v, const tm_rf *rf)
{
    if (!s->mt || a->rg[g] < 0 || !a->mono[g] || v.bot)
        return;
    tm_val old = read_global(a, s, g, a->p->globals[g]->type);
    if (!v.top && !v.ptr && !old.bot && !old.top && !old.ptr && v.lo >= old.hi)
        return;
    if (rf && stable(a, s, g)) {
        int64_t b = rel_get(s, (uint32_t)a->rg[g], rf->idx); /* g - y <= b */
        if (b != TM_REL_INF && rf->c - b >= 0)
            return;
    }
    a->mono[g] = false;
    a->changed = true;
}

static void write_global(tm_an *a, tm_state *s, uint32_t g, tm_val v, bool strong,
                         const tm_rf *rf)
{
    if (!a->scalar[g])
        return;
    check_mono(a, s, g, v, strong ? rf : NULL);
    rel_write(s, a->rg[g], strong ? rf : NULL);
    if (!s->mt) {
        s->g[g] = strong ? v : tm_val_join(s->g[g], v);
        return;
    }
    contrib(a, &a->w[g], a->p->globals[g]->type, v);
    uint64_t pr = a->prot[g] & s->locks;
    if (pr != a->prot[g]) {
        a->prot[g] = pr;
        a->changed = true;
    }
    if (strong)
        s->mw[g] = 1;
    if (stable(a, s, g))
        s->g[g] = strong ? v : tm_val_join(s->g[g], v);
}

static void acquire(tm_an *a, tm_state *s, uint32_t m)
{
    uint64_t bit = (uint64_t)1 << m, nl = s->locks | bit;
    if (s->mt && !(s->locks & bit))
        for (uint32_t g = 0; g < a->ng; g++)
            if (a->scalar[g] && !(a->prot[g] & s->locks) && (a->prot[g] & nl))
                s->g[g] = tm_val_join(s->mw[g] ? tm_val_bot() : a->init[g],
                                      a->u[(size_t)g * a->nm + m]);
    s->locks = nl;
}

static void release(tm_an *a, tm_state *s, uint32_t m)
{
    uint64_t bit = (uint64_t)1 << m;
    if (s->mt)
        for (uint32_t g = 0; g < a->ng; g++)
            if (a->scalar[g] && (a->prot[g] & bit)) {
                const ir_type *ty = a->p->globals[g]->type;
                contrib(a, &a->u[(size_t)g * a->nm + m], ty, read_global(a, s, g, ty));
            }
    s->locks &= ~bit;
    if (s->mt)
        for (uint32_t g = 0; g < a->ng; g++)
            if (!stable(a, s, g))
                s->g[g] = tm_val_bot();
}

/* The program becomes multithreaded: what main has is init. */
static void go_multithreaded(tm_an *a, tm_state *s)
{
    if (s->mt)
        return;
    for (uint32_t g = 0; g < a->ng; g++)
        if (a->scalar[g])
            contrib(a, &a->init[g], a->p->globals[g]->type, s->g[g]);
    s->mt = true;
    for (uint32_t g = 0; g < a->ng; g++)
        if (!stable(a, s, g))
            s->g[g] = tm_val_bot();
}

static void register_thread(tm_an *a, const ir_func *f, tm_val arg)
{
    uint32_t i = 0;
    while (i < a->nthr && a->thr[i] != f)
        i++;
    if (i == a->nthr) {
        if (a->nthr == a->thr_cap) {
            a->thr_cap = a->thr_cap ? 2 * a->thr_cap : 8;
            a->thr = base_xrealloc(a->thr, a->thr_cap * sizeof *a->thr);
            a->thr_arg = base_xrealloc(a->thr_arg, a->thr_cap * sizeof *a->thr_arg);
        }
        a->thr[a->nthr] = f;
        a->thr_arg[a->nthr++] = tm_val_bot();
        a->changed = true;
    }
    const ir_type *ty = f->nparams ? f->params[0]->type : NULL;
    contrib(a, &a->thr_arg[i], ty, ty ? tm_val_cast(ty, arg) : tm_val_bot());
}

/* --- expressions --- */

static uint32_t slot_of(const ir_func *f, const ir_var *v)
{
    return v->kind == IR_V_PARAM ? v->id : f->nparams + v->id;
}

static bool type_scalar(const ir_type *t)
{
    return t && ((t->kind == IR_T_INT && t->bits >= 1 && t->bits <= 64) || t->kind == IR_T_PTR);
}

static tm_val eval(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                   const ir_expr *e);
static int rel_decide(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                      const ir_expr *e);

/* The pointer value of e, which is dereferenced: NULL and unknown targets
 * make it unboundable (the engine gives up). */
static bool deref_targets(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                          const ir_expr *e, tm_val *out)
{
    tm_val v = eval(a, st, f, s, e);
    *out = v;
    if (v.bot)
        return true;
    if (!v.ptr || v.unknown || v.null || v.nt == 0) {
        fail_at(a, st, "a dereferenced pointer the engine cannot bound");
        return false;
    }
    return true;
}

/* The slot that *e->a is when e->a is a parameter pointing to a caller's
 * local (do_call), else -1. */
static int32_t ref_slot(const tm_an *a, const ir_expr *e)
{
    if (e->kind != IR_E_DEREF || e->a->kind != IR_E_VAR || e->a->var->kind != IR_V_PARAM)
        return -1;
    return a->fr->ref[e->a->var->id];
}

static tm_val read_lvalue(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                          const ir_expr *e)
{
    if (e->kind == IR_E_VAR) {
        const ir_var *v = e->var;
        if (v->kind != IR_V_GLOBAL)
            return type_scalar(v->type) ? s->l[slot_of(f, v)] : tm_val_top(e->type);
        if (v->is_thread_local)
            return tm_val_top(e->type);
        return read_global(a, s, v->id, e->type);
    }
    if (e->kind == IR_E_DEREF) {
        int32_t rs = ref_slot(a, e);
        if (rs >= 0)
            return s->l[rs];
        tm_val pv;
        if (!deref_targets(a, st, f, s, e->a, &pv))
            return tm_val_top(e->type);
        tm_val r = tm_val_bot();
        for (uint32_t i = 0; i < pv.nt; i++)
            r = tm_val_join(r, read_global(a, s, pv.t[i], e->type));
        return r;
    }
    return tm_val_top(e->type); /* a field or element of an aggregate: not tracked */
}

static tm_val eval(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                   const ir_expr *e)
{
    switch (e->kind) {
    case IR_E_CONST:
        if (e->type->kind == IR_T_PTR)
            return e->value == 0 ? tm_val_null() : tm_val_top(e->type);
        if (e->type->kind != IR_T_INT)
            return tm_val_top(e->type);
        if (!e->type->is_signed && e->type->bits == 64 && e->value < 0)
            return tm_val_top(e->type);
        return tm_val_const(e->value);
    case IR_E_VAR:
    case IR_E_DEREF:
    case IR_E_FIELD:
    case IR_E_INDEX:
        return read_lvalue(a, st, f, s, e);
    case IR_E_ADDR: {
        const ir_expr *lv = e->a;
        if (lv->kind == IR_E_DEREF)
            return eval(a, st, f, s, lv->a);
        const ir_expr *root = lv;
        while (root->kind == IR_E_FIELD || root->kind == IR_E_INDEX)
            root = root->a;
        if (root->kind == IR_E_VAR && root->var->kind != IR_V_GLOBAL) {
            fail_at(a, st, "the address of local variable '%s' is taken",
                    base_sym_str(a->p->syms, root->var->name));
            return tm_val_top(e->type);
        }
        if (root->kind == IR_E_VAR && root->var->is_thread_local) {
            fail_at(a, st, "the address of a thread-local variable is taken");
            return tm_val_top(e->type);
        }
        if (lv->kind == IR_E_VAR)
            return tm_val_addr(lv->var->id);
        tm_val v = tm_val_top(e->type); /* inside an object: not tracked */
        v.null = false;
        return v;
    }
    case IR_E_FUNC:
    case IR_E_STRING: {
        tm_val v = tm_val_top(e->type);
        v.null = false;
        return v;
    }
    case IR_E_UNARY:
        return tm_val_unary(e->op, e->type, eval(a, st, f, s, e->a));
    case IR_E_BINARY: {
        tm_val r = tm_val_binary(e->op, e->type, eval(a, st, f, s, e->a), eval(a, st, f, s, e->b));
        if (e->op >= IR_OP_EQ && e->op <= IR_OP_GE && !r.bot && (r.top || r.lo != r.hi)) {
            int dec = rel_decide(a, st, f, s, e);
            if (dec >= 0)
                return tm_val_const(dec);
        }
        return r;
    }
    case IR_E_CAST:
        return tm_val_cast(e->type, eval(a, st, f, s, e->a));
    case IR_E_ITE: {
        tm_val c = eval(a, st, f, s, e->a);
        tm_val r = tm_val_bot();
        if (tm_val_may_nonzero(c))
            r = tm_val_join(r, eval(a, st, f, s, e->b));
        if (tm_val_may_zero(c))
            r = tm_val_join(r, eval(a, st, f, s, e->c));
        return r;
    }
    case IR_E_NONDET:
        return tm_val_top(e->type);
    }
    return tm_val_top(e->type);
}

/* --- relational forms --- */

/* Strips casts that keep every value of their operand. */
static const ir_expr *strip_casts(const ir_expr *e)
{
    while (e->kind == IR_E_CAST && e->type->kind == IR_T_INT && e->a->type->kind == IR_T_INT) {
        int64_t fl, fh, tl, th;
        if (!tm_type_range(e->a->type, &fl, &fh) || !tm_type_range(e->type, &tl, &th) ||
            fl < tl || fh > th)
            break;
        e = e->a;
    }
    return e;
}

/* The matrix index of the variable e reads (casts that keep values
 * stripped), -1 when it is not a related one. *g: the global, -1 for a
 * local slot. */
static int32_t rel_var(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                       const ir_expr *e, int32_t *g)
{
    e = strip_casts(e);
    *g = -1;
    if (!s->nr || e->type->kind != IR_T_INT)
        return -1;
    if (e->kind == IR_E_VAR) {
        const ir_var *v = e->var;
        if (v->kind != IR_V_GLOBAL)
            return a->fr->ri[slot_of(f, v)];
        if (v->is_thread_local || a->rg[v->id] < 0 || !ir_type_eq(v->type, e->type))
            return -1;
        *g = (int32_t)v->id;
        return a->rg[v->id];
    }
    if (e->kind != IR_E_DEREF)
        return -1;
    int32_t rs = ref_slot(a, e);
    if (rs >= 0)
        return a->fr->ri[rs];
    tm_val pv = eval(a, st, f, s, e->a);
    if (!pv.ptr || pv.bot || pv.null || pv.unknown || pv.nt != 1 || a->rg[pv.t[0]] < 0 ||
        !ir_type_eq(a->p->globals[pv.t[0]]->type, e->type))
        return -1;
    *g = (int32_t)pv.t[0];
    return a->rg[pv.t[0]];
}

static bool fits(const ir_type *ty, tm_val v)
{
    int64_t lo, hi;
    return ty->kind == IR_T_INT && !v.bot && !v.top && !v.ptr && tm_type_range(ty, &lo, &hi) &&
           v.lo >= lo && v.hi <= hi;
}

/* Whether e's value is a related variable plus a constant, with no
 * wraparound (by the intervals), and that value fits type to (the type
 * it is converted to, NULL: e's own). */
static bool rel_form(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                     const ir_expr *e, const ir_type *to, tm_rf *rf)
{
    int32_t g;
    if (!s->nr || !fits(to ? to : e->type, eval(a, st, f, s, e)))
        return false;
    const ir_expr *x = strip_casts(e);
    int32_t i = rel_var(a, st, f, s, x, &g);
    if (i >= 0) {
        rf->idx = (uint32_t)i;
        rf->c = 0;
        return true;
    }
    if (x->kind != IR_E_BINARY || (x->op != IR_OP_ADD && x->op != IR_OP_SUB))
        return false;
    const ir_expr *v = x->a, *k = strip_casts(x->b);
    if (k->kind != IR_E_CONST && x->op == IR_OP_ADD) {
        v = x->b;
        k = strip_casts(x->a);
    }
    if (k->kind != IR_E_CONST || k->type->kind != IR_T_INT || k->value > ((int64_t)1 << 32) ||
        k->value < -((int64_t)1 << 32) || (!k->type->is_signed && k->type->bits == 64 && k->value < 0))
        return false;
    i = rel_var(a, st, f, s, v, &g);
    if (i < 0)
        return false;
    int64_t c = x->op == IR_OP_ADD ? k->value : -k->value;
    tm_val vv = eval(a, st, f, s, v);
    int64_t tl, th;
    if (!fits(x->type, vv) || !tm_type_range(x->type, &tl, &th) || vv.lo + c < tl ||
        vv.hi + c > th)
        return false;
    rf->idx = (uint32_t)i;
    rf->c = c;
    return true;
}

/* The bounds of x - y (both related forms) by the constraints; false
 * when they say nothing usable. A global that other threads may write
 * read on both sides is two reads at two moments: not related. */
static bool rel_diff(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                     const ir_expr *x, const ir_expr *y, int64_t *lo, int64_t *hi,
                     tm_rf *rx, tm_rf *ry)
{
    if (!s->nr || !rel_form(a, st, f, s, x, NULL, rx) || !rel_form(a, st, f, s, y, NULL, ry))
        return false;
    if (rx->idx == ry->idx && rx->idx < a->nrg && s->mt) {
        for (uint32_t g = 0; g < a->ng; g++)
            if (a->rg[g] == (int32_t)rx->idx && !stable(a, s, g))
                return false;
    }
    int64_t up = rel_get(s, rx->idx, ry->idx), dn = rel_get(s, ry->idx, rx->idx);
    *hi = up == TM_REL_INF ? TM_REL_INF : up + rx->c - ry->c;
    *lo = dn == TM_REL_INF ? -TM_REL_INF : -dn + rx->c - ry->c;
    return true;
}

/* 1 / 0 when the constraints decide the comparison e, else -1. */
static int rel_decide(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                      const ir_expr *e)
{
    int64_t lo, hi;
    tm_rf rx, ry;
    if (e->a->type->kind != IR_T_INT ||
        !rel_diff(a, st, f, s, e->a, e->b, &lo, &hi, &rx, &ry))
        return -1;
    switch (e->op) {
    case IR_OP_EQ: return lo == 0 && hi == 0 ? 1 : (lo > 0 || hi < 0) ? 0 : -1;
    case IR_OP_NE: return lo == 0 && hi == 0 ? 0 : (lo > 0 || hi < 0) ? 1 : -1;
    case IR_OP_LT: return hi < 0 ? 1 : lo >= 0 ? 0 : -1;
    case IR_OP_LE: return hi <= 0 ? 1 : lo > 0 ? 0 : -1;
    case IR_OP_GT: return lo > 0 ? 1 : hi <= 0 ? 0 : -1;
    case IR_OP_GE: return lo >= 0 ? 1 : hi < 0 ? 0 : -1;
    default: return -1;
    }
}

/* --- writes --- */

static void write_lvalue(tm_an *a, const ir_stmt *st, const ir_func *f, tm_state *s,
                         const ir_expr *lv, tm_val v, const tm_rf *rf)
{
    if (lv->kind == IR_E_VAR) {
        const ir_var *var = lv->var;
        if (var->kind != IR_V_GLOBAL) {
            if (type_scalar(var->type)) {
                s->l[slot_of(f, var)] = v;
                rel_write(s, a->fr->ri[slot_of(f, var)], rf);
            }
            return;
        }
        if (!var->is_thread_local)
            write_global(a, s, var->id, v, true, rf);
        return;
    }
    int32_t rs = ref_slot(a, lv);
    if (rs >= 0) {
        s->l[rs] = v;
        rel_write(s, a->fr->ri[rs], rf);
        return;
    }
    if (lv->kind == IR_E_DEREF) {
        tm_val pv;
        if (!deref_targets(a, st, f, s, lv->a, &pv) || pv.bot)
            return;
        for (uint32_t i = 0; i < pv.nt; i++) {
            uint32_t g = pv.t[i];
            const ir_type *gt = a->p->globals[g]->type;
            if (gt->kind == IR_T_MUTEX) {
                fail_at(a, st, "a write to a mutex object");
                return;
            }
            bool same = ir_type_eq(gt, lv->type);
            write_global(a, s, g, same ? v : tm_val_top(gt), same && pv.nt == 1, rf);
        }
        return;
    }
    /* a field or an element: its object is an aggregate the engine reads
     * as unknown, unless the path goes through a pointer to a scalar */
    const ir_expr *root = lv;
    while (root->kind == IR_E_FIELD || root->kind == IR_E_INDEX)
        root = root->a;
    if (root->kind == IR_E_DEREF) {
        tm_val pv;
        if (!deref_targets(a, st, f, s, root->a, &pv) || pv.bot)
            return;
        for (uint32_t i = 0; i < pv.nt; i++)
            if (a->scalar[pv.t[i]] || a->p->globals[pv.t[i]]->type->kind == IR_T_MUTEX) {
                fail_at(a, st, "a write into an object the engine tracks as a whole");
                return;
            }
    } else if (root->kind != IR_E_VAR) {
        fail_at(a, st, "a write the engine cannot place");
    }
}

/* --- guards --- */

static bool var_refinable(const tm_an *a, const tm_state *s, const ir_expr *e)
{
    if (e->kind != IR_E_VAR || e->type->kind != IR_T_INT || !type_scalar(e->type))
        return false;
    const ir_var *v = e->var;
    if (v->kind != IR_V_GLOBAL)
        return true;
    return !v->is_thread_local && a->scalar[v->id] && stable(a, s, v->id) &&
           ir_type_eq(v->type, e->type);
}

static tm_val *var_slot(const ir_func *f, tm_state *s, const ir_expr *e)
{
    const ir_var *v = e->var;
    return v->kind == IR_V_GLOBAL ? &s->g[v->id] : &s->l[slot_of(f, v)];
}

static ir_op negate(ir_op op)
{
    switch (op) {
    case IR_OP_EQ: return IR_OP_NE;
    case IR_OP_NE: return IR_OP_EQ;
    case IR_OP_LT: return IR_OP_GE;
    case IR_OP_LE: return IR_OP_GT;
    case IR_OP_GT: return IR_OP_LE;
    case IR_OP_GE: return IR_OP_LT;
    default: return op;
    }
}

static ir_op swap(ir_op op)
{
    switch (op) {
    case IR_OP_LT: return IR_OP_GT;
    case IR_OP_LE: return IR_OP_GE;
    case IR_OP_GT: return IR_OP_LT;
    case IR_OP_GE: return IR_OP_LE;
    default: return op;
    }
}

static void refine_var(const tm_an *a, const ir_func *f, tm_state *s, const ir_expr *x,
                       ir_op op, tm_val b)
{
    x = strip_casts(x);
    if (!var_refinable(a, s, x))
        return;
    tm_val *slot = var_slot(f, s, x);
    *slot = tm_val_refine(op, *slot, b);
    if (slot->bot)
        s->bot = true;
}

/* The constraint x->a OP x->b between two related forms, added at the
 * moment of the comparison; then what other threads may do is applied. */
static void rel_refine(tm_an *a, const ir_stmt *st, const ir_func *f, tm_state *s,
                       const ir_expr *x, ir_op op)
{
    int64_t lo, hi;
    tm_rf rx, ry;
    if (!rel_diff(a, st, f, s, x->a, x->b, &lo, &hi, &rx, &ry))
        return;
    int64_t k = rx.c - ry.c; /* x->a - x->b = X - Y + k */
    uint32_t X = rx.idx, Y = ry.idx;
    bool ok = true;
    if (op == IR_OP_LT)
        ok = tm_rel_constrain(s->d, s->nr, X, Y, -1 - k);
    else if (op == IR_OP_LE || op == IR_OP_EQ)
        ok = tm_rel_constrain(s->d, s->nr, X, Y, -k);
    if (ok && op == IR_OP_GT)
        ok = tm_rel_constrain(s->d, s->nr, Y, X, k - 1);
    else if (ok && (op == IR_OP_GE || op == IR_OP_EQ))
        ok = tm_rel_constrain(s->d, s->nr, Y, X, k);
    if (!ok)
        s->bot = true;
    rel_settle(a, s);
}

/* s restricted to the executions where e is (truth ? nonzero : zero). */
static void refine(tm_an *a, const ir_stmt *st, const ir_func *f, tm_state *s,
                   const ir_expr *e, bool truth)
{
    if (s->bot)
        return;
    tm_val v = eval(a, st, f, s, e);
    if (truth ? !tm_val_may_nonzero(v) : !tm_val_may_zero(v)) {
        s->bot = true;
        return;
    }
    const ir_expr *x = strip_casts(e);
    if (x->kind == IR_E_UNARY && x->op == IR_OP_LNOT) {
        refine(a, st, f, s, x->a, !truth);
    } else if (x->kind == IR_E_BINARY && x->op == IR_OP_LAND && truth) {
        refine(a, st, f, s, x->a, true);
        refine(a, st, f, s, x->b, true);
    } else if (x->kind == IR_E_BINARY && x->op == IR_OP_LOR && !truth) {
        refine(a, st, f, s, x->a, false);
        refine(a, st, f, s, x->b, false);
    } else if (x->kind == IR_E_VAR) {
        refine_var(a, f, s, x, truth ? IR_OP_NE : IR_OP_EQ, tm_val_const(0));
    } else if (x->kind == IR_E_BINARY && x->op >= IR_OP_EQ && x->op <= IR_OP_GE &&
               x->a->type->kind == IR_T_INT && x->b->type->kind == IR_T_INT) {
        ir_op op = truth ? x->op : negate(x->op);
        refine_var(a, f, s, x->a, op, eval(a, st, f, s, x->b));
        if (!s->bot)
            refine_var(a, f, s, x->b, swap(op), eval(a, st, f, s, x->a));
        if (!s->bot)
            rel_refine(a, st, f, s, x, op);
    }
}

/* --- statements --- */

static int32_t mutex_of(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                        const ir_expr *e)
{
    if (e && e->kind == IR_E_ADDR && e->a->kind == IR_E_VAR && e->a->var->kind == IR_V_GLOBAL &&
        a->midx[e->a->var->id] >= 0 && e->a->var->type->kind == IR_T_MUTEX)
        return a->midx[e->a->var->id];
    if (e) {
        tm_val v = eval(a, st, f, s, e);
        if (v.ptr && !v.null && !v.unknown && v.nt == 1 && a->midx[v.t[0]] >= 0 &&
            a->p->globals[v.t[0]]->type->kind == IR_T_MUTEX)
            return a->midx[v.t[0]];
    }
    fail_at(a, st, "a lock operation on a mutex the engine cannot identify");
    return -1;
}

static bool plain_mutex(ir_lock_kind k)
{
    return k == IR_LOCK_MUTEX || k == IR_LOCK_SPIN;
}

/* The flag lock a call operates on (-1: none). */
static int32_t flag_target(const tm_an *a, const ir_stmt *st, bool *acq)
{
    if (st->kind != IR_S_CALL || !st->callee || st->callee->kind != IR_E_FUNC)
        return -1;
    for (uint32_t k = 0; k < a->nflag_fn; k++) {
        const tm_flag_fn *fl = &a->flag_fn[k];
        if (fl->f != st->callee->func)
            continue;
        *acq = fl->acquire;
        if (fl->global >= 0)
            return fl->global;
        const ir_expr *x = st->nargs == 1 ? st->args[0] : NULL;
        if (x && x->kind == IR_E_ADDR && x->a->kind == IR_E_VAR &&
            x->a->var->kind == IR_V_GLOBAL)
            return (int32_t)x->a->var->id;
        return -1;
    }
    return -1;
}

/* A call of a flag lock's acquire or release on a global that is used as
 * nothing else: a lock or unlock of it (docs/manual.md). */
static bool flag_call(tm_an *a, const ir_stmt *st, tm_state *s)
{
    bool acq = false;
    int32_t g = flag_target(a, st, &acq);
    if (g < 0 || a->midx[g] < 0 || a->p->globals[g]->type->kind == IR_T_MUTEX)
        return false;
    uint32_t m = (uint32_t)a->midx[g];
    if (acq) {
        acquire(a, s, m);
    } else if (!(s->locks & ((uint64_t)1 << m))) {
        fail_at(a, st, "a release of a flag lock the thread may not hold");
    } else {
        release(a, s, m);
    }
    return true;
}

/* Whether every occurrence of p in e is the pointer of a dereference. */
static bool deref_only_expr(const ir_expr *e, const ir_var *p, bool under)
{
    if (!e)
        return true;
    if (e->kind == IR_E_VAR)
        return e->var != p || under;
    return deref_only_expr(e->a, p, e->kind == IR_E_DEREF) && deref_only_expr(e->b, p, false) &&
           deref_only_expr(e->c, p, false);
}

/* Whether g only ever dereferences its parameter p (never assigns it,
 * copies it, compares it, passes it on or takes its address): then p
 * points, for the whole call, to what the caller gave it. */
static bool deref_only(const ir_func *g, const ir_var *p)
{
    for (uint32_t j = 0; j < g->nstmts; j++) {
        const ir_stmt *st = &g->stmts[j];
        if (!deref_only_expr(st->lhs, p, false) || !deref_only_expr(st->rhs, p, false) ||
            !deref_only_expr(st->callee, p, false))
            return false;
        for (uint32_t k = 0; k < st->nargs; k++)
            if (!deref_only_expr(st->args[k], p, false))
                return false;
    }
    return true;
}

static bool addr_taken(const ir_expr *e, const ir_var *p)
{
    return e && ((e->kind == IR_E_ADDR && e->a->kind == IR_E_VAR && e->a->var == p) ||
                 addr_taken(e->a, p) || addr_taken(e->b, p) || addr_taken(e->c, p));
}

/* Whether g never changes its parameter p. */
static bool param_kept(const ir_func *g, const ir_var *p)
{
    for (uint32_t j = 0; j < g->nstmts; j++) {
        const ir_stmt *st = &g->stmts[j];
        if ((st->lhs && st->lhs->kind == IR_E_VAR && st->lhs->var == p) ||
            addr_taken(st->lhs, p) || addr_taken(st->rhs, p))
            return false;
        for (uint32_t k = 0; k < st->nargs; k++)
            if (addr_taken(st->args[k], p))
                return false;
    }
    return true;
}

/* dt[i][j] := min(dt[i][j], df[src i][src j] + off i - off j): variable i
 * of dt equals variable src[i] (-1: none) of df plus off[i]. */
static void rel_map(int64_t *dt, uint32_t nt, const int64_t *df, uint32_t nf, const int32_t *src,
                    const int64_t *off)
{
    for (uint32_t i = 0; i < nt; i++)
        for (uint32_t j = 0; j < nt; j++) {
            if (i == j || src[i] < 0 || src[j] < 0)
                continue;
            int64_t v = tm_rel_add(df[(size_t)src[i] * nf + (uint32_t)src[j]], off[i] - off[j]);
            if (v < dt[(size_t)i * nt + j])
                dt[(size_t)i * nt + j] = v;
        }
}

static void state_set(const tm_an *a, tm_state *d, const tm_state *s)
{
    state_copy_thread(a, d, s);
    memcpy(d->l, s->l, s->nl * sizeof *d->l);
    memcpy(d->d, s->d, (size_t)s->nr * s->nr * sizeof *d->d);
}

static void analyse_func(tm_an *a, const tm_frame *fr, tm_state *entry, tm_state *exit_out,
                         tm_val *ret);
static bool analyse_paths(tm_an *a, const tm_frame *fr, tm_state *entry, tm_state **outs,
                          uint32_t *nout, tm_val *ret);

/* The caller's state after the call, from s (before it) and x (the
 * callee's exit). The caller's locals keep their values, but for those a
 * parameter pointed to (ref_src); their constraints between themselves
 * hold still, and a local's lower bound on a global too when every write
 * to the global while multithreaded is non-decreasing. The rest comes
 * from x: the globals, the locals behind the pointers, and the locals
 * that a parameter the callee never changes was made from. */
static tm_state *call_return(tm_an *a, const ir_stmt *st, const ir_func *f, const tm_state *s,
                             const tm_state *x, const tm_frame *gf, const uint32_t *ref_src,
                             uint32_t nref, const tm_rf *prf, const bool *pok)
{
    const ir_func *g = gf->f;
    tm_state *r = state_dup(a, s);
    state_copy_thread(a, r, x);
    uint32_t nn = r->nr;
    int32_t *bsrc = base_xcalloc(nn ? nn : 1, sizeof *bsrc);
    int64_t *boff = base_xcalloc(nn ? nn : 1, sizeof *boff);
    bool *changed = base_xcalloc(nn ? nn : 1, sizeof *changed);
    for (uint32_t i = 0; i < nn; i++)
        bsrc[i] = i < a->nrg ? (int32_t)i : -1;
    for (uint32_t k = 0; k < nref; k++) {
        uint32_t slot = g->nparams + g->nlocals + k;
        r->l[ref_src[k]] = x->l[slot];
        int32_t ci = a->fr->ri[ref_src[k]];
        if (ci >= 0) {
            changed[ci] = true;
            bsrc[ci] = gf->ri[slot];
        }
    }
    for (uint32_t p = 0; p < g->nparams && p < st->nargs; p++) {
        if (!pok[p] || gf->ri[p] < 0 || prf[p].idx < a->nrg || changed[prf[p].idx] ||
            bsrc[prf[p].idx] >= 0 || !param_kept(g, g->params[p]))
            continue;
        bsrc[prf[p].idx] = gf->ri[p];
        boff[prf[p].idx] = -prf[p].c;
    }
    for (uint32_t i = 0; i < nn; i++)
        for (uint32_t j = 0; j < nn; j++) {
            if (i == j)
                continue;
            bool keep = i >= a->nrg && !changed[i] &&
                        (j >= a->nrg ? !changed[j] : s->mt && a->mono[a->rgl[j]]);
            if (!keep)
                *rel_at(r, i, j) = TM_REL_INF;
        }
    rel_map(r->d, nn, x->d, x->nr, bsrc, boff);
    if (!tm_rel_close(r->d, nn))
        r->bot = true;
    free(bsrc);
    free(boff);
    free(changed);
    (void)f;
    return r;
}

/* Analyses the call st from s. Its outcomes in the caller's frame go to
 * outs (one per path through an atomic function without loops, at most
 * TM_MAX_PATHS, else one); returns how many (0: none, or a failure). */
static uint32_t do_call(tm_an *a, const ir_stmt *st, const ir_func *f, tm_state *s,
                        tm_state **outs)
{
    if (st->callee->kind != IR_E_FUNC) {
        fail_at(a, st, "a call through a function pointer");
        return 0;
    }
    const ir_func *g = st->callee->func;
    if (flag_call(a, st, s)) {
        outs[0] = state_dup(a, s);
        return 1;
    }
    if (!g->has_body) {
        fail_at(a, st, "a call to '%s', whose body is unknown",
                base_sym_str(a->p->syms, g->name));
        return 0;
    }
    for (uint32_t d = 0; d < a->depth; d++)
        if (a->stack[d] == g) {
            fail_at(a, st, "recursion");
            return 0;
        }
    if (a->depth == TM_MAX_DEPTH) {
        fail_at(a, st, "calls nested deeper than %d", TM_MAX_DEPTH);
        return 0;
    }
    /* an argument &x, x a local of the caller, for a parameter the callee
     * only dereferences: *param is x itself, a slot of the callee's frame
     * copied back on return */
    uint32_t np = g->nparams ? g->nparams : 1, nref = 0;
    int32_t *ref = base_xcalloc(np, sizeof *ref);
    uint32_t *ref_src = base_xcalloc(np, sizeof *ref_src);
    const ir_type **ref_ty = base_xcalloc(np, sizeof *ref_ty);
    tm_rf *prf = base_xcalloc(np, sizeof *prf);
    bool *pok = base_xcalloc(np, sizeof *pok);
    for (uint32_t i = 0; i < g->nparams; i++) {
        ref[i] = -1;
        const ir_expr *x = i < st->nargs ? st->args[i] : NULL;
        if (!x || x->kind != IR_E_ADDR || x->a->kind != IR_E_VAR ||
            x->a->var->kind == IR_V_GLOBAL || !type_scalar(x->a->var->type) ||
            !deref_only(g, g->params[i]))
            continue;
        uint32_t cs = slot_of(f, x->a->var), k = 0;
        while (k < nref && ref_src[k] != cs)
            k++;
        if (k == nref) {
            ref_src[nref] = cs;
            ref_ty[nref++] = x->a->var->type;
        }
        ref[i] = (int32_t)(g->nparams + g->nlocals + k);
    }
    tm_frame gf;
    frame_init(a, &gf, g, nref, ref_ty, ref);
    tm_state *in = state_new(a, &gf);
    state_copy_thread(a, in, s);
    for (uint32_t i = 0; i < g->nparams + g->nlocals; i++)
        in->l[i] = tm_val_top(gf.ty[i]);
    int32_t *src = base_xcalloc(gf.nr ? gf.nr : 1, sizeof *src);
    int64_t *off = base_xcalloc(gf.nr ? gf.nr : 1, sizeof *off);
    for (uint32_t i = 0; i < gf.nr; i++)
        src[i] = i < a->nrg ? (int32_t)i : -1;
    for (uint32_t i = 0; i < g->nparams && i < st->nargs; i++) {
        if (ref[i] >= 0) {
            in->l[i].null = false; /* the top pointer: any use but *param fails */
            continue;
        }
        in->l[i] = tm_val_cast(g->params[i]->type, eval(a, st, f, s, st->args[i]));
        pok[i] = rel_form(a, st, f, s, st->args[i], g->params[i]->type, &prf[i]);
        if (pok[i] && gf.ri[i] >= 0) {
            src[gf.ri[i]] = (int32_t)prf[i].idx;
            off[gf.ri[i]] = prf[i].c;
        }
    }
    for (uint32_t k = 0; k < nref; k++) {
        uint32_t slot = g->nparams + g->nlocals + k;
        in->l[slot] = s->l[ref_src[k]];
        if (gf.ri[slot] >= 0)
            src[gf.ri[slot]] = a->fr->ri[ref_src[k]];
    }
    rel_map(in->d, gf.nr, s->d, s->nr, src, off);
    bool own_atomic = g->is_atomic && !(in->locks & ((uint64_t)1 << a->atomic_m));
    if (own_atomic)
        acquire(a, in, a->atomic_m);
    tm_state *xs[TM_MAX_PATHS];
    uint32_t nx = 0;
    tm_val ret = tm_val_bot();
    if (!g->is_atomic || g->nstmts > 64 || !analyse_paths(a, &gf, in, xs, &nx, &ret)) {
        xs[0] = state_new(a, &gf);
        xs[0]->bot = true;
        nx = 1;
        ret = tm_val_bot();
        analyse_func(a, &gf, in, xs[0], &ret);
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < nx; k++) {
        tm_state *x = xs[k];
        if (!x->bot && !a->failed) {
            if (own_atomic)
                release(a, x, a->atomic_m);
            tm_state *r = call_return(a, st, f, s, x, &gf, ref_src, nref, prf, pok);
            if (!r->bot && st->lhs)
                write_lvalue(a, st, f, r, st->lhs,
                             type_scalar(st->lhs->type) ? tm_val_cast(st->lhs->type, ret)
                                                        : tm_val_top(st->lhs->type),
                             NULL);
            if (r->bot)
                state_free(r);
            else
                outs[n++] = r;
        }
        state_free(x);
    }
    state_free(in);
    frame_free(&gf);
    free(ref);
    free(ref_src);
    free(ref_ty);
    free(prf);
    free(pok);
    free(src);
    free(off);
    return n;
}

static void do_async(tm_an *a, const ir_stmt *st, const ir_func *f, tm_state *s)
{
    tm_val arg = st->rhs ? eval(a, st, f, s, st->rhs) : tm_val_bot();
    if (st->callee->kind == IR_E_FUNC) {
        if (!st->callee->func->has_body) {
            fail_at(a, st, "a thread function whose body is unknown");
            return;
        }
        register_thread(a, st->callee->func, arg);
    } else {
        fail_at(a, st, "a thread started through a function pointer");
        return;
    }
    go_multithreaded(a, s);
    if (st->lhs)
        write_lvalue(a, st, f, s, st->lhs, tm_val_top(st->lhs->type), NULL);
}

/* Successor handling of analyse_func. */
typedef struct tm_flow {
    tm_an *a;
    const ir_func *f;
    tm_state **at;
    uint32_t *visits;
    uint32_t *queue;
    bool *inq;
    uint32_t qhead, qlen, n;
    tm_state *exit_st;
    tm_val *ret;
    bool paths;       /* path by path (analyse_paths): no joins */
    bool pover;       /* more paths than TM_MAX_PATHS, or a loop */
    tm_state **pouts; /* the exit state of each path */
    uint32_t npouts;
} tm_flow;

static void step(tm_flow *fl, uint32_t i, tm_state *s);

static void flow_to(tm_flow *fl, uint32_t from, uint32_t to, tm_state *s)
{
    if (s->bot)
        return;
    rel_settle(fl->a, s);
    if (fl->paths) {
        if (fl->pover || fl->a->failed)
            return;
        if (to >= fl->n) {
            if (fl->npouts == TM_MAX_PATHS)
                fl->pover = true;
            else
                fl->pouts[fl->npouts++] = state_dup(fl->a, s);
        } else if (to <= from) {
            fl->pover = true;
        } else {
            tm_state *c = state_dup(fl->a, s);
            step(fl, to, c);
            state_free(c);
        }
        return;
    }
    if (to >= fl->n) {
        state_join(fl->a, fl->f, fl->exit_st, s, false);
        return;
    }
    if (!fl->at[to]) {
        fl->at[to] = state_new(fl->a, fl->a->fr);
        fl->at[to]->bot = true;
    }
    bool widen = to <= from && fl->visits[to] >= TM_WIDEN_VISITS;
    if (!state_join(fl->a, fl->f, fl->at[to], s, widen))
        return;
    fl->visits[to]++;
    if (!fl->inq[to]) {
        fl->inq[to] = true;
        fl->queue[(fl->qhead + fl->qlen++) % fl->n] = to;
    }
}

static void step(tm_flow *fl, uint32_t i, tm_state *s)
{
    tm_an *a = fl->a;
    const ir_func *f = fl->f;
    const ir_stmt *st = &f->stmts[i];
    if (++a->steps > TM_MAX_STEPS) {
        fail_at(a, NULL, "more than %d statements analysed", TM_MAX_STEPS);
        return;
    }
    rel_settle(a, s);
    switch (st->kind) {
    case IR_S_SKIP:
    case IR_S_LOCK_DESTROY:
    case IR_S_COND_SIGNAL:
    case IR_S_COND_WAIT: /* may return at any time; the mutex is a LOCK/UNLOCK of its own */
        break;
    case IR_S_ASSIGN: {
        tm_rf rf;
        bool rel = type_scalar(st->lhs->type) &&
                   rel_form(a, st, f, s, st->rhs, st->lhs->type, &rf);
        write_lvalue(a, st, f, s, st->lhs,
                     type_scalar(st->lhs->type) ? eval(a, st, f, s, st->rhs)
                                                : tm_val_top(st->lhs->type),
                     rel ? &rf : NULL);
        break;
    }
    case IR_S_CALL: {
        tm_state *outs[TM_MAX_PATHS];
        uint32_t n = do_call(a, st, f, s, outs);
        if (n == 1) {
            state_set(a, s, outs[0]);
            state_free(outs[0]);
            break;
        }
        /* several outcomes: a branch right after takes each apart */
        bool branch_next = i + 1 < fl->n && f->stmts[i + 1].kind == IR_S_GOTO;
        for (uint32_t k = 0; k < n; k++) {
            if (!a->failed) {
                if (branch_next)
                    step(fl, i + 1, outs[k]);
                else
                    flow_to(fl, i, i + 1, outs[k]);
            }
            state_free(outs[k]);
        }
        return;
    }
    case IR_S_RETURN:
        if (st->rhs)
            *fl->ret = tm_val_join(*fl->ret, eval(a, st, f, s, st->rhs));
        flow_to(fl, i, fl->n, s);
        return;
    case IR_S_GOTO:
        if (!st->rhs) {
            for (uint32_t k = 0; k < st->ntargets; k++)
                flow_to(fl, i, st->targets[k], s);
            return;
        } else {
            tm_state *t = state_dup(a, s);
            refine(a, st, f, t, st->rhs, true);
            for (uint32_t k = 0; k < st->ntargets; k++)
                flow_to(fl, i, st->targets[k], t);
            state_free(t);
            refine(a, st, f, s, st->rhs, false);
        }
        break;
    case IR_S_ASSUME:
        refine(a, st, f, s, st->rhs, true);
        break;
    case IR_S_ASSERT: {
        tm_val c = eval(a, st, f, s, st->rhs);
        if (tm_val_may_zero(c) && !a->afailed) {
            a->afailed = true;
            snprintf(a->r->reason, sizeof a->r->reason, "an assertion may fail (%s)",
                     st->message ? st->message : "assert");
            a->r->loc = st->loc;
        }
        refine(a, st, f, s, st->rhs, true);
        break;
    }
    case IR_S_ASYNC:
        do_async(a, st, f, s);
        break;
    case IR_S_JOIN:
        if (st->nargs && st->args[0] &&
            !(st->args[0]->kind == IR_E_CONST && st->args[0]->value == 0)) {
            fail_at(a, st, "a join that stores the thread's result");
            return;
        }
        break;
    case IR_S_ATOMIC_BEGIN:
        if (s->locks & ((uint64_t)1 << a->atomic_m)) {
            fail_at(a, st, "a nested atomic section");
            return;
        }
        acquire(a, s, a->atomic_m);
        break;
    case IR_S_ATOMIC_END:
        release(a, s, a->atomic_m);
        break;
    case IR_S_LOCK: {
        if (!plain_mutex(st->lock_kind)) {
            fail_at(a, st, "a lock that is not a plain mutex");
            return;
        }
        int32_t m = mutex_of(a, st, f, s, st->rhs);
        if (m < 0)
            return;
        if (st->is_try) {
            tm_state *busy = state_dup(a, s);
            if (st->lhs) {
                int64_t lo, hi;
                tm_val v = tm_type_range(st->lhs->type, &lo, &hi)
                               ? tm_val_range(st->lhs->type, 1, hi)
                               : tm_val_top(st->lhs->type);
                write_lvalue(a, st, f, busy, st->lhs, v, NULL);
            }
            /* a branch on the result right after: each outcome takes it
             * apart, so that the lock stays held on the taken branch */
            bool branch_next = i + 1 < fl->n && f->stmts[i + 1].kind == IR_S_GOTO;
            if (branch_next)
                step(fl, i + 1, busy);
            else
                flow_to(fl, i, i + 1, busy);
            state_free(busy);
            acquire(a, s, (uint32_t)m);
            if (st->lhs)
                write_lvalue(a, st, f, s, st->lhs, tm_val_zero(st->lhs->type), NULL);
            if (branch_next) {
                if (!a->failed)
                    step(fl, i + 1, s);
                return;
            }
            break;
        }
        acquire(a, s, (uint32_t)m);
        if (st->lhs)
            write_lvalue(a, st, f, s, st->lhs, tm_val_zero(st->lhs->type), NULL);
        break;
    }
    case IR_S_UNLOCK: {
        if (!plain_mutex(st->lock_kind)) {
            fail_at(a, st, "an unlock of a lock that is not a plain mutex");
            return;
        }
        int32_t m = mutex_of(a, st, f, s, st->rhs);
        if (m < 0)
            return;
        release(a, s, (uint32_t)m);
        if (st->lhs)
            write_lvalue(a, st, f, s, st->lhs, tm_val_zero(st->lhs->type), NULL);
        break;
    }
    case IR_S_LOCK_INIT:
        if (!plain_mutex(st->lock_kind) ||
            (st->nargs && st->args[0] &&
             !(st->args[0]->kind == IR_E_CONST && st->args[0]->value == 0))) {
            fail_at(a, st, "a mutex of a kind other than a plain one (or with attributes)");
            return;
        }
        break;
    case IR_S_THREAD_EXIT:
        return; /* the thread ends */
    case IR_S_ALLOC:
    case IR_S_FREE:
        fail_at(a, st, "heap memory");
        return;
    }
    if (!a->failed)
        flow_to(fl, i, i + 1, s);
}

/* Analyses fr's function from entry; joins its exit into exit_out and
 * its return values into *ret. */
static void analyse_func(tm_an *a, const tm_frame *fr, tm_state *entry, tm_state *exit_out,
                         tm_val *ret)
{
    if (entry->bot || a->failed)
        return;
    const ir_func *f = fr->f;
    const tm_frame *saved = a->fr;
    a->fr = fr;
    a->stack[a->depth++] = f;
    tm_flow fl = { .a = a, .f = f, .n = f->nstmts, .exit_st = exit_out, .ret = ret };
    uint32_t n = f->nstmts ? f->nstmts : 1;
    fl.at = base_xcalloc(n, sizeof *fl.at);
    fl.visits = base_xcalloc(n, sizeof *fl.visits);
    fl.queue = base_xcalloc(n, sizeof *fl.queue);
    fl.inq = base_xcalloc(n, sizeof *fl.inq);
    if (f->nstmts == 0) {
        state_join(a, f, exit_out, entry, false);
    } else {
        flow_to(&fl, 0, 0, entry);
        while (fl.qlen && !a->failed) {
            uint32_t i = fl.queue[fl.qhead];
            fl.qhead = (fl.qhead + 1) % fl.n;
            fl.qlen--;
            fl.inq[i] = false;
            tm_state *s = state_dup(a, fl.at[i]);
            step(&fl, i, s);
            state_free(s);
        }
    }
    for (uint32_t i = 0; i < f->nstmts; i++)
        state_free(fl.at[i]);
    free(fl.at);
    free(fl.visits);
    free(fl.queue);
    free(fl.inq);
    a->depth--;
    a->fr = saved;
}

/* Analyses fr's function (without loops) from entry path by path, each
 * path's exit state to outs; false when it has a loop or more than
 * TM_MAX_PATHS paths (outs then empty). */
static bool analyse_paths(tm_an *a, const tm_frame *fr, tm_state *entry, tm_state **outs,
                          uint32_t *nout, tm_val *ret)
{
    *nout = 0;
    if (entry->bot || a->failed)
        return true;
    const ir_func *f = fr->f;
    const tm_frame *saved = a->fr;
    a->fr = fr;
    a->stack[a->depth++] = f;
    tm_flow fl = { .a = a, .f = f, .n = f->nstmts, .ret = ret, .paths = true, .pouts = outs };
    tm_state *c = state_dup(a, entry);
    if (f->nstmts == 0)
        outs[fl.npouts++] = c;
    else {
        step(&fl, 0, c);
        state_free(c);
    }
    a->depth--;
    a->fr = saved;
    if (fl.pover) {
        for (uint32_t k = 0; k < fl.npouts; k++)
            state_free(outs[k]);
        return false;
    }
    *nout = fl.npouts;
    return true;
}

/* --- rounds --- */

static tm_state *entry_state(tm_an *a, const tm_frame *fr)
{
    tm_state *s = state_new(a, fr);
    for (uint32_t i = 0; i < s->nl; i++)
        s->l[i] = tm_val_top(fr->ty[i]);
    return s;
}

static void run_round(tm_an *a, const ir_func *entry)
{
    tm_frame ifr, efr;
    frame_init(a, &ifr, a->p->init, 0, NULL, NULL);
    frame_init(a, &efr, entry, 0, NULL, NULL);
    tm_state *s = entry_state(a, &ifr);
    for (uint32_t g = 0; g < a->ng; g++)
        s->g[g] = tm_val_zero(a->p->globals[g]->type);
    tm_state *after = entry_state(a, &ifr);
    after->bot = true;
    tm_val ret = tm_val_bot();
    analyse_func(a, &ifr, s, after, &ret);
    tm_state *m = entry_state(a, &efr);
    state_copy_thread(a, m, after);
    for (uint32_t i = 0; i < a->nrg; i++)
        for (uint32_t j = 0; j < a->nrg; j++)
            *rel_at(m, i, j) = rel_get(after, i, j);
    tm_state *mexit = entry_state(a, &efr);
    mexit->bot = true;
    analyse_func(a, &efr, m, mexit, &ret);
    state_free(s);
    state_free(after);
    state_free(m);
    state_free(mexit);
    frame_free(&ifr);
    frame_free(&efr);
    for (uint32_t t = 0; t < a->nthr && !a->failed; t++) {
        const ir_func *f = a->thr[t];
        tm_frame tfr;
        frame_init(a, &tfr, f, 0, NULL, NULL);
        tm_state *ts = entry_state(a, &tfr);
        ts->mt = true;
        if (f->nparams)
            ts->l[0] = a->thr_arg[t];
        tm_state *tx = entry_state(a, &tfr);
        tx->bot = true;
        ret = tm_val_bot();
        analyse_func(a, &tfr, ts, tx, &ret);
        state_free(ts);
        state_free(tx);
        frame_free(&tfr);
    }
}

/* The statements of f other than SKIP, at most n of them; returns how
 * many there are. */
static uint32_t real_stmts(const ir_func *f, const ir_stmt **out, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < f->nstmts; i++)
        if (f->stmts[i].kind != IR_S_SKIP) {
            if (k < n)
                out[k] = &f->stmts[i];
            k++;
        }
    return k;
}

static bool same_place(const ir_expr *x, const ir_expr *y)
{
    if (x->kind != y->kind)
        return false;
    if (x->kind == IR_E_VAR)
        return x->var == y->var;
    return x->kind == IR_E_DEREF && x->a->kind == IR_E_VAR && y->a->kind == IR_E_VAR &&
           x->a->var == y->a->var;
}

static bool is_const_expr(const ir_expr *e, int64_t v)
{
    return e && e->kind == IR_E_CONST && e->type->kind == IR_T_INT && e->value == v;
}

/* Whether f is `if (X == c) goto L; assume(0); L: X = 1 - c; return`. */
static bool classify_flag_fn(const ir_func *f, tm_flag_fn *out)
{
    const ir_stmt *st[5];
    if (!f->is_atomic || !f->has_body || real_stmts(f, st, 5) != 4)
        return false;
    const ir_expr *c = st[0]->rhs;
    if (st[0]->kind != IR_S_GOTO || st[0]->ntargets != 1 || !c || c->kind != IR_E_BINARY ||
        c->op != IR_OP_EQ || st[1]->kind != IR_S_ASSUME || !is_const_expr(st[1]->rhs, 0) ||
        st[2]->kind != IR_S_ASSIGN || st[3]->kind != IR_S_RETURN || st[3]->rhs ||
        &f->stmts[st[0]->targets[0]] != st[2])
        return false;
    const ir_expr *x = c->a;
    if (!same_place(x, st[2]->lhs) || x->type->kind != IR_T_INT)
        return false;
    if (x->kind == IR_E_VAR && x->var->kind == IR_V_GLOBAL && f->nparams == 0) {
        out->global = (int32_t)x->var->id;
    } else if (x->kind == IR_E_DEREF && f->nparams == 1 && x->a->var == f->params[0]) {
        out->global = -1;
    } else {
        return false;
    }
    if (is_const_expr(c->b, 0) && is_const_expr(st[2]->rhs, 1))
        out->acquire = true;
    else if (is_const_expr(c->b, 1) && is_const_expr(st[2]->rhs, 0))
        out->acquire = false;
    else
        return false;
    out->f = f;
    return true;
}

static void count_addrs(const ir_expr *e, uint32_t *addrs)
{
    if (!e)
        return;
    if (e->kind == IR_E_ADDR && e->a->kind == IR_E_VAR && e->a->var->kind == IR_V_GLOBAL)
        addrs[e->a->var->id]++;
    count_addrs(e->a, addrs);
    count_addrs(e->b, addrs);
    count_addrs(e->c, addrs);
}

/* Finds the flag locks and the globals that are used only as such: their
 * address only ever given to a flag function, written only by the flag
 * functions (and to 0 by the initialiser), acquired somewhere. Each gets a
 * mutex index; the engine reads it as any value elsewhere. */
static void find_flag_locks(tm_an *a)
{
    const ir_program *p = a->p;
    a->flag_fn = base_xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof *a->flag_fn);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (classify_flag_fn(p->funcs[i], &a->flag_fn[a->nflag_fn]))
            a->nflag_fn++;
    if (!a->nflag_fn)
        return;
    uint32_t ng = a->ng ? a->ng : 1;
    uint32_t *addrs = base_xcalloc(ng, sizeof *addrs), *ok_addrs = base_xcalloc(ng, sizeof *ok_addrs);
    bool *bad = base_xcalloc(ng, sizeof *bad), *acquired = base_xcalloc(ng, sizeof *acquired);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const ir_func *f = p->funcs[i];
        bool in_flag_fn = false;
        int32_t own = -1;
        for (uint32_t k = 0; k < a->nflag_fn; k++)
            if (a->flag_fn[k].f == f) {
                in_flag_fn = true;
                own = a->flag_fn[k].global;
            }
        for (uint32_t j = 0; j < f->nstmts; j++) {
            const ir_stmt *st = &f->stmts[j];
            count_addrs(st->lhs, addrs);
            count_addrs(st->rhs, addrs);
            count_addrs(st->callee, addrs);
            for (uint32_t k = 0; k < st->nargs; k++)
                count_addrs(st->args[k], addrs);
            bool acq = false;
            int32_t g = flag_target(a, st, &acq);
            if (g >= 0) {
                const ir_expr *x = st->nargs == 1 ? st->args[0] : NULL;
                if (x && x->kind == IR_E_ADDR)
                    ok_addrs[g]++;
                if (acq)
                    acquired[g] = true;
            }
            const ir_expr *l = st->lhs;
            if (l && l->kind == IR_E_VAR && l->var->kind == IR_V_GLOBAL) {
                uint32_t w = l->var->id;
                bool init0 = f == p->init && st->kind == IR_S_ASSIGN && is_const_expr(st->rhs, 0);
                if (!init0 && !(in_flag_fn && own == (int32_t)w))
                    bad[w] = true;
            }
        }
    }
    for (uint32_t g = 0; g < a->ng; g++) {
        const ir_var *v = p->globals[g];
        if (v->type->kind != IR_T_INT || v->is_thread_local || bad[g] || !acquired[g] ||
            addrs[g] != ok_addrs[g] || a->nm >= TM_MAX_MUTEXES)
            continue;
        a->midx[g] = (int32_t)a->nm++;
        a->scalar[g] = false;
    }
    free(addrs);
    free(ok_addrs);
    free(bad);
    free(acquired);
}

/* Chooses the globals related to locals by difference constraints: int
 * globals of at most 32 bits the engine tracks whose value some statement
 * copies into a local (`l = g`), at most TM_REL_GLOBALS of them. */
static void find_related(tm_an *a)
{
    const ir_program *p = a->p;
    a->rg = base_xcalloc(a->ng ? a->ng : 1, sizeof *a->rg);
    a->mono = base_xcalloc(a->ng ? a->ng : 1, sizeof *a->mono);
    for (uint32_t g = 0; g < a->ng; g++) {
        a->rg[g] = -1;
        a->mono[g] = true;
    }
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const ir_func *f = p->funcs[i];
        for (uint32_t j = 0; j < f->nstmts; j++) {
            const ir_stmt *st = &f->stmts[j];
            if (st->kind != IR_S_ASSIGN || st->lhs->kind != IR_E_VAR ||
                st->lhs->var->kind == IR_V_GLOBAL)
                continue;
            const ir_expr *x = strip_casts(st->rhs);
            if (x->kind != IR_E_VAR || x->var->kind != IR_V_GLOBAL)
                continue;
            const ir_var *v = x->var;
            uint32_t g = v->id;
            if (a->rg[g] >= 0 || !a->scalar[g] || v->type->kind != IR_T_INT ||
                v->type->bits > 32 || a->nrg == TM_REL_GLOBALS)
                continue;
            a->rgl[a->nrg] = g;
            a->rg[g] = (int32_t)a->nrg++;
        }
    }
}

bool tm_check(const ir_program *p, const ir_func *entry, tm_result *r)
{
    memset(r, 0, sizeof *r);
    tm_an a = { .p = p, .ng = p->nglobals, .r = r };
    if (!entry || !entry->has_body || !p->init) {
        snprintf(r->reason, sizeof r->reason, "no entry function with a body");
        return false;
    }
    uint32_t ng = a.ng ? a.ng : 1;
    a.midx = base_xcalloc(ng, sizeof *a.midx);
    a.scalar = base_xcalloc(ng, sizeof *a.scalar);
    for (uint32_t g = 0; g < a.ng; g++) {
        const ir_var *v = p->globals[g];
        a.midx[g] = -1;
        if (v->type->kind == IR_T_MUTEX) {
            if (a.nm == TM_MAX_MUTEXES) {
                fail_at(&a, NULL, "more than %d mutexes", TM_MAX_MUTEXES);
                break;
            }
            a.midx[g] = (int32_t)a.nm++;
        }
        a.scalar[g] = type_scalar(v->type) && !v->is_thread_local;
    }
    find_flag_locks(&a);
    find_related(&a);
    a.atomic_m = a.nm++;
    a.init = base_xcalloc(ng, sizeof *a.init);
    a.w = base_xcalloc(ng, sizeof *a.w);
    a.prot = base_xcalloc(ng, sizeof *a.prot);
    a.u = base_xcalloc(base_mul_size(ng, a.nm), sizeof *a.u);
    for (uint32_t g = 0; g < a.ng; g++) {
        a.init[g] = a.w[g] = tm_val_bot();
        a.prot[g] = ~(uint64_t)0;
        for (uint32_t m = 0; m < a.nm; m++)
            a.u[(size_t)g * a.nm + m] = tm_val_bot();
    }
    bool stable_reached = false;
    for (a.round = 0; a.round < TM_MAX_ROUNDS && !a.failed; a.round++) {
        a.changed = false;
        a.afailed = false;
        run_round(&a, entry);
        if (!a.changed) {
            stable_reached = true;
            a.round++;
            break;
        }
    }
    r->rounds = a.round;
    r->threads = a.nthr;
    if (!a.failed && !stable_reached)
        snprintf(r->reason, sizeof r->reason, "the invariants did not stabilise in %d rounds",
                 TM_MAX_ROUNDS);
    r->proved = !a.failed && stable_reached && !a.afailed;
    free(a.midx);
    free(a.scalar);
    free(a.init);
    free(a.w);
    free(a.prot);
    free(a.u);
    free(a.thr);
    free(a.thr_arg);
    free(a.flag_fn);
    free(a.rg);
    free(a.mono);
    return r->proved;
}
