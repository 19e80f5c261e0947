/* bmc: symbolic execution of a sequential IR program by unwinding, with
 * path merging (CBMC-style), encoded through smt.h; see bmc.h for the
 * semantics and the verdicts.
 *
 * How it runs. A function body is executed statement by statement in
 * index order with one current state: a guard (the path condition,
 * assumptions included), the memory (an array address -> byte) and one
 * value per register (scalars whose address is never taken: globals at
 * slots [0, nglobals), each active frame's parameters and locals after
 * them). A forward GOTO puts a copy of the state, guarded by the jump
 * condition, into pend[target], where it is merged (guards or'ed, values
 * ite'd) when execution reaches the target: so every join point of the
 * goto program is a phi. A backward GOTO is a loop's back edge: the state
 * jumps back at once while the loop's count allows it (fall-through waits
 * in pend[pc+1]); several back edges to one head are first gathered at
 * the last of them (pend_bk), so a loop iteration is counted once
 * whichever `continue` took it. Calls are inlined; the callee's exit
 * state (merged over its RETURNs) continues the caller.
 *
 * Invariants: the guards of the states pending in one body are pairwise
 * disjoint (they are different paths), so merging by ite on the incoming
 * guard is exact; every state of one body has the same number of
 * registers; events are recorded in execution order along every path, so
 * the events whose guard holds in a model are that model's execution in
 * order. */
#include "bmc/bmc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "bmc/bmc_conc.h"
#include "bmc/smt.h"
#include "ir/ir_print.h"

#define HAVOC_MAX 4096u       /* fresh objects up to this size get nondet bytes */
#define AGG_MAX (1u << 18)    /* aggregate copies and zeroings up to this size */
#define BIG_GAP (1u << 20)    /* room reserved for a block of unknown size */
#define CONC_MAX 4096u        /* the concurrent mode: the largest memory access */

typedef struct state {
    bmc_smt_term guard; /* 0: no state */
    bmc_smt_term mem;
    bmc_smt_term *regs;
    uint32_t nregs;
    bmc_smt_term dirty; /* the concurrent mode: the path did more than test since its loop's
                         * head (finfo.reduce); 0: no */
} state;

typedef struct frame {
    const ir_func *f;
    uint32_t base;   /* first register slot */
    bmc_smt_term *addr;  /* per parameter, then local: its object's address, 0 in a register */
    uint32_t depth;
} frame;

typedef struct obj {
    uint64_t base, size;
    const char *name;
    const ir_type *type; /* NULL: unknown (malloc'd) */
    bool is_func;
} obj;

enum { EV_APPROX = 100 };

typedef struct event {
    int kind;          /* trace_step_kind or EV_APPROX */
    bmc_smt_term guard;
    bmc_smt_term value;    /* 0: none */
    bmc_smt_term fail;     /* ASSERT: guard and not cond */
    const ir_type *type;
    const ir_func *func;
    uint32_t stmt, depth, target;
    const ir_expr *lhs;
    const ir_func *callee;
    bmc_smt_term *args;
    const ir_type **arg_types;
    uint32_t nargs;
    bool external;
    bmc_smt_term size;
    const char *message;
    const char *text;  /* a fixed value text ({0}) or the approximation's reason */
    base_srcloc loc;
} event;

typedef struct cut {
    bmc_smt_term guard;
    const ir_func *f;
    uint32_t stmt;
    base_srcloc loc;
    bool rec;
} cut;

typedef struct finfo {
    uint32_t *last_back; /* per statement t: the last statement jumping back to t, or UINT32_MAX */
    bool *in_mem;        /* per parameter, then local */
    bool *reduce;        /* per statement t: t heads a loop whose test-only iterations are not
                          * taken again (is_reducible) */
} finfo;

typedef struct ctx {
    const ir_program *p;
    bmc_smt_solver *s;
    bmc_opts o;
    trace_result *r;
    uint32_t pw;
    base_hashmap taken;   /* ir_var* -> 1: its address is taken */
    base_hashmap finfos;  /* ir_func* -> index into fis */
    BASE_VEC(finfo) fis;
    base_hashmap faddr;   /* ir_func* -> address */
    base_hashmap saddr;   /* string literal (const char*) -> address */
    base_hashmap gvar;    /* a guard -> the Boolean variable asserted equal to it */
    base_hashmap gval;    /* a term -> its value in the current model (0/1) */
    bmc_smt_term *gaddr;      /* per global: address, 0 in a register */
    uint64_t next_addr;
    BASE_VEC(obj) objs;
    BASE_VEC(event) evs;
    BASE_VEC(cut) cuts;
    BASE_VEC(frame *) stack;
    uint32_t nmallocs;
    bool stop;
    const char *stop_reason;
    base_srcloc stop_loc;
    base_srcloc loc;      /* the statement being executed */
    const ir_func *cur_f;
    uint32_t cur_stmt;
    double t0;
    const bmc_conc_hooks *hk; /* the concurrent mode (bmc_conc.h): memory and
                                 synchronisation go to these hooks; NULL: bmc_check */
    bmc_smt_term mem0;        /* the concurrent mode: the memory before any thread */
    bmc_conc_access access;   /* the concurrent mode: what the store in progress is */
    int (*refine)(void *ud);  /* the concurrent mode: a lazy theory (bmc_conc_set_refine) */
    void *refine_ud;
    bool refine_failed;
} ctx;

/* --- small helpers --- */

static const char *sym(const ctx *c, base_sym s)
{
    return base_sym_str(c->p->syms, s);
}

static char *adup(ctx *c, const char *s)
{
    return base_arena_strdup(&c->r->arena, s);
}

static void stop(ctx *c, base_srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void stop(ctx *c, base_srcloc loc, const char *fmt, ...)
{
    if (c->stop)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->stop = true;
    c->stop_reason = adup(c, buf);
    c->stop_loc = loc;
}

static uint32_t vwidth(const ctx *c, const ir_type *t)
{
    switch (t->kind) {
    case IR_T_INT:
    case IR_T_FLOAT: return t->bits;
    case IR_T_PTR:
    case IR_T_FUNC: return c->pw;
    case IR_T_VOID: return 8;
    default: return t->size ? (uint32_t)(t->size * 8) : 8;
    }
}

static uint64_t tsize(const ctx *c, const ir_type *t)
{
    return ir_type_bytes(t, c->pw / 8);
}

/* The budget a timeout message names. */
static double named_budget(const ctx *c)
{
    return c->o.budget_s > 0 ? c->o.budget_s : c->o.timeout_s;
}

static bool is_signed(const ir_type *t)
{
    return t->kind == IR_T_INT && t->is_signed;
}

static bool is_bool(const ir_type *t)
{
    return t->kind == IR_T_INT && t->bits == 1;
}

static bmc_smt_term bvc(ctx *c, uint32_t w, uint64_t v)
{
    return bmc_smt_bv_const(c->s, w, v);
}

static bmc_smt_term ptr_add(ctx *c, bmc_smt_term a, uint64_t off)
{
    return off ? bmc_smt_bv_op(c->s, BMC_SMT_BV_ADD, a, bvc(c, c->pw, off)) : a;
}

/* Resizes v (w bits) to w2 bits, extending by the signedness given. */
static bmc_smt_term resize(ctx *c, bmc_smt_term v, uint32_t w2, bool sgn)
{
    uint32_t w = bmc_smt_width(c->s, v);
    if (w2 == w)
        return v;
    if (w2 < w)
        return bmc_smt_extract(c->s, w2 - 1, 0, v);
    return sgn ? bmc_smt_sext(c->s, w2 - w, v) : bmc_smt_zext(c->s, w2 - w, v);
}

static bmc_smt_term nonzero(ctx *c, bmc_smt_term v)
{
    return bmc_smt_not(c->s, bmc_smt_eq(c->s, v, bvc(c, bmc_smt_width(c->s, v), 0)));
}

static bmc_smt_term from_bool(ctx *c, bmc_smt_term b, const ir_type *t)
{
    uint32_t w = vwidth(c, t);
    return bmc_smt_ite(c->s, b, bvc(c, w, 1), bvc(c, w, 0));
}

static event *add_event(ctx *c, int kind, bmc_smt_term guard)
{
    event e = { .kind = kind, .guard = guard, .func = c->cur_f, .stmt = c->cur_stmt,
                .loc = c->loc, .depth = c->stack.len ? (uint32_t)c->stack.len - 1 : 0 };
    base_vec_push(&c->evs, e);
    return &base_vec_last(&c->evs);
}

/* A nondeterministic stand-in for what is not modelled; a counterexample
 * through it is not claimed (bmc.h). */
static bmc_smt_term approx(ctx *c, const state *st, uint32_t w, const char *why)
{
    event *e = add_event(c, EV_APPROX, st->guard);
    e->text = why;
    return bmc_smt_bv_var(c->s, w ? w : 1, "approx");
}

/* --- states --- */

static state st_copy(const state *a, bmc_smt_term guard)
{
    state b = { guard, a->mem, NULL, a->nregs, a->dirty };
    b.regs = base_xmalloc((a->nregs ? a->nregs : 1) * sizeof *b.regs);
    if (a->nregs)
        memcpy(b.regs, a->regs, a->nregs * sizeof *b.regs);
    return b;
}

static void st_free(state *a)
{
    free(a->regs);
    a->regs = NULL;
    a->guard = 0;
}

/* Merges src into dst (src is consumed). */
static void st_merge(ctx *c, state *dst, state *src)
{
    if (!src->guard)
        return;
    if (bmc_smt_is_false(c->s, src->guard) && dst->guard) {
        st_free(src);
        return;
    }
    if (!dst->guard || bmc_smt_is_false(c->s, dst->guard)) {
        if (dst->guard)
            st_free(dst);
        *dst = *src;
        src->regs = NULL;
        src->guard = 0;
        return;
    }
    bmc_smt_term g = src->guard;
    uint32_t n = dst->nregs < src->nregs ? dst->nregs : src->nregs;
    for (uint32_t i = 0; i < n; i++)
        if (dst->regs[i] != src->regs[i]) {
            if (!dst->regs[i] || !src->regs[i])
                dst->regs[i] = dst->regs[i] ? dst->regs[i] : src->regs[i];
            else
                dst->regs[i] = bmc_smt_ite(c->s, g, src->regs[i], dst->regs[i]);
        }
    if (dst->mem != src->mem)
        dst->mem = bmc_smt_ite(c->s, g, src->mem, dst->mem);
    if (dst->dirty != src->dirty)
        dst->dirty = bmc_smt_ite(c->s, g, src->dirty ? src->dirty : bmc_smt_false(c->s),
                                 dst->dirty ? dst->dirty : bmc_smt_false(c->s));
    dst->guard = bmc_smt_or(c->s, dst->guard, g);
    st_free(src);
}

/* --- objects and addresses --- */

static uint64_t new_obj(ctx *c, uint64_t size, const char *name, const ir_type *t, bool is_func)
{
    uint64_t base = (c->next_addr + 15) & ~(uint64_t)15;
    uint64_t room = size ? size : 1;
    if (t && !is_func && t->kind == IR_T_ARRAY && t->count == 0)
        room = size = BIG_GAP; /* a variable-length array: its size is not in the type */
    c->next_addr = base + room + 16;
    obj o = { base, size, name, t, is_func };
    base_vec_push(&c->objs, o);
    return base;
}

static bmc_smt_term func_addr(ctx *c, const ir_func *f)
{
    uint64_t v;
    if (!base_hashmap_get(&c->faddr, (uint64_t)(uintptr_t)f, &v)) {
        v = new_obj(c, 1, sym(c, f->name), f->type, true);
        base_hashmap_put(&c->faddr, (uint64_t)(uintptr_t)f, v);
    }
    return bvc(c, c->pw, v);
}

/* Whether statements from..to of f (a loop, to jumping back to from) only
 * test: GOTOs and SKIPs, so an iteration changes nothing but time. */
static bool pure_spin(const ir_func *f, uint32_t from, uint32_t to)
{
    for (uint32_t k = from; k <= to; k++)
        if (f->stmts[k].kind != IR_S_GOTO && f->stmts[k].kind != IR_S_SKIP)
            return false;
    return true;
}

/* Whether the loop from..to of f (to is the last statement jumping back to
 * from) may leave out its test-only iterations (the concurrent mode,
 * exec_body): it is not a pure spin (those take no back edge at all), the
 * loops inside it are pure spins ending inside it (so no other such head
 * resets a path's dirty flag), and no jump from outside enters it other
 * than at from (so every path at its back edge passed from since it
 * entered the loop). */
static bool is_reducible(const ir_func *f, const uint32_t *last_back, uint32_t from, uint32_t to)
{
    if (pure_spin(f, from, to))
        return false;
    for (uint32_t k = from + 1; k <= to; k++)
        if (last_back[k] != UINT32_MAX && (last_back[k] > to || !pure_spin(f, k, last_back[k])))
            return false;
    for (uint32_t pc = 0; pc < f->nstmts; pc++) {
        const ir_stmt *s = &f->stmts[pc];
        if (s->kind != IR_S_GOTO || (pc >= from && pc <= to))
            continue;
        for (uint32_t k = 0; k < s->ntargets; k++)
            if (s->targets[k] > from && s->targets[k] <= to)
                return false;
    }
    return true;
}

static finfo *func_info(ctx *c, const ir_func *f)
{
    uint64_t i;
    if (base_hashmap_get(&c->finfos, (uint64_t)(uintptr_t)f, &i))
        return &c->fis.data[i];
    finfo fi = { 0 };
    fi.last_back = base_xmalloc((f->nstmts + 1) * sizeof *fi.last_back);
    for (uint32_t k = 0; k <= f->nstmts; k++)
        fi.last_back[k] = UINT32_MAX;
    for (uint32_t pc = 0; pc < f->nstmts; pc++) {
        const ir_stmt *s = &f->stmts[pc];
        if (s->kind != IR_S_GOTO)
            continue;
        for (uint32_t k = 0; k < s->ntargets; k++) {
            uint32_t t = s->targets[k];
            if (t <= pc && (fi.last_back[t] == UINT32_MAX || fi.last_back[t] < pc))
                fi.last_back[t] = pc;
        }
    }
    fi.reduce = base_xcalloc(f->nstmts + 1, sizeof *fi.reduce);
    for (uint32_t t = 0; t < f->nstmts; t++)
        fi.reduce[t] =
            fi.last_back[t] != UINT32_MAX && is_reducible(f, fi.last_back, t, fi.last_back[t]);
    uint32_t nv = f->nparams + f->nlocals;
    fi.in_mem = base_xcalloc(nv ? nv : 1, sizeof *fi.in_mem);
    for (uint32_t k = 0; k < nv; k++) {
        const ir_var *v = k < f->nparams ? f->params[k] : f->locals[k - f->nparams];
        uint64_t x;
        fi.in_mem[k] = !ir_type_is_scalar(v->type) || v->address_taken ||
                       base_hashmap_get(&c->taken, (uint64_t)(uintptr_t)v, &x);
    }
    base_vec_push(&c->fis, fi);
    base_hashmap_put(&c->finfos, (uint64_t)(uintptr_t)f, c->fis.len - 1);
    return &base_vec_last(&c->fis);
}

/* --- memory --- */

static bmc_smt_term load_bytes(ctx *c, const state *st, bmc_smt_term addr, uint64_t n)
{
    if (c->hk) {
        if (n > CONC_MAX) {
            stop(c, c->loc, "unsupported construct: an access of %" PRIu64 " bytes to shared "
                            "memory (at most %u)", n, CONC_MAX);
            return bmc_smt_bv_const(c->s, (uint32_t)(n * 8), 0);
        }
        if (bmc_smt_is_false(c->s, st->guard))
            return bmc_smt_bv_const(c->s, (uint32_t)(n * 8), 0);
        return c->hk->load(c->hk->ud, st->guard, addr, (uint32_t)n);
    }
    bmc_smt_term mem = st->mem;
    bmc_smt_term v = bmc_smt_select(c->s, mem, addr);
    for (uint64_t i = 1; i < n; i++)
        v = bmc_smt_concat(c->s, bmc_smt_select(c->s, mem, ptr_add(c, addr, i)), v);
    return v;
}

#define MAX_TARGETS 16 /* a pointer to one of at most this many places is split */

static bmc_smt_term store_bytes(ctx *c, const state *st, bmc_smt_term addr, bmc_smt_term v, uint64_t n)
{
    if (c->hk) {
        if (n > CONC_MAX)
            stop(c, c->loc, "unsupported construct: an access of %" PRIu64 " bytes to shared "
                            "memory (at most %u)", n, CONC_MAX);
        else if (!bmc_smt_is_false(c->s, st->guard))
            c->hk->store(c->hk->ud, st->guard, addr, v, (uint32_t)n);
        return st->mem;
    }
    bmc_smt_term mem = st->mem;
    uint64_t at[MAX_TARGETS];
    size_t na = bmc_smt_bv_leaves(c->s, addr, at, MAX_TARGETS);
    if (na > 1) {
        /* A store through a pointer to one of a few places: a conditional
         * store at each place, so every store index stays a constant. */
        for (size_t k = 0; k < na; k++) {
            bool seen = false;
            for (size_t j = 0; j < k; j++)
                seen |= at[j] == at[k];
            if (seen)
                continue;
            bmc_smt_term here = bmc_smt_eq(c->s, addr, bvc(c, c->pw, at[k]));
            for (uint64_t i = 0; i < n; i++) {
                bmc_smt_term a = bvc(c, c->pw, at[k] + i);
                bmc_smt_term byte = bmc_smt_extract(c->s, (uint32_t)(8 * i + 7), (uint32_t)(8 * i), v);
                mem = bmc_smt_store(c->s, mem, a, bmc_smt_ite(c->s, here, byte, bmc_smt_select(c->s, mem, a)));
            }
        }
        return mem;
    }
    for (uint64_t i = 0; i < n; i++)
        mem = bmc_smt_store(c->s, mem, ptr_add(c, addr, i),
                        bmc_smt_extract(c->s, (uint32_t)(8 * i + 7), (uint32_t)(8 * i), v));
    return mem;
}

static bmc_smt_term load(ctx *c, const state *st, bmc_smt_term addr, const ir_type *t)
{
    uint64_t n = tsize(c, t);
    if (n > AGG_MAX) {
        stop(c, c->loc, "unsupported construct: an aggregate of %" PRIu64 " bytes copied", n);
        return bvc(c, vwidth(c, t), 0);
    }
    bmc_smt_term v = load_bytes(c, st, addr, n);
    uint32_t w = vwidth(c, t);
    if (is_bool(t))
        return bmc_smt_ite(c->s, nonzero(c, v), bvc(c, 1, 1), bvc(c, 1, 0));
    return resize(c, v, w, false);
}

static void store(ctx *c, state *st, bmc_smt_term addr, const ir_type *t, bmc_smt_term v)
{
    uint64_t n = tsize(c, t);
    if (n > AGG_MAX) {
        stop(c, c->loc, "unsupported construct: an aggregate of %" PRIu64 " bytes copied", n);
        return;
    }
    st->mem = store_bytes(c, st, addr, resize(c, v, (uint32_t)(n * 8), false), n);
}

static void zero_fill(ctx *c, state *st, bmc_smt_term addr, uint64_t n)
{
    if (n > AGG_MAX) {
        stop(c, c->loc, "unsupported construct: an aggregate of %" PRIu64 " bytes zeroed", n);
        return;
    }
    if (c->hk) {
        st->mem = store_bytes(c, st, addr, bmc_smt_bv_const(c->s, (uint32_t)(n * 8), 0), n);
        return;
    }
    bmc_smt_term z = bvc(c, 8, 0);
    for (uint64_t i = 0; i < n; i++)
        st->mem = bmc_smt_store(c->s, st->mem, ptr_add(c, addr, i), z);
}

static void havoc(ctx *c, state *st, bmc_smt_term addr, uint64_t n, const char *name)
{
    if (n == 0 || n > HAVOC_MAX)
        return;
    bmc_smt_term v = bmc_smt_bv_var(c->s, (uint32_t)(n * 8), name);
    c->access = BMC_CONC_FRESH;
    st->mem = store_bytes(c, st, addr, v, n);
    c->access = BMC_CONC_PROGRAM;
}

/* --- expressions --- */

typedef struct lval {
    bool in_reg;
    uint32_t slot;
    bmc_smt_term addr;
    const ir_type *type;
    uint32_t bw, boff; /* a bit-field: width and first bit */
    bmc_smt_term oob;  /* 0, or when an index into an array is out of its bounds */
} lval;

static bmc_smt_term eval(ctx *c, state *st, frame *fr, const ir_expr *e);

static void var_lval(ctx *c, frame *fr, const ir_var *v, lval *lv)
{
    memset(lv, 0, sizeof *lv);
    lv->type = v->type;
    if (v->kind == IR_V_GLOBAL) {
        if (c->gaddr[v->id])
            lv->addr = c->gaddr[v->id];
        else {
            lv->in_reg = true;
            lv->slot = v->id;
        }
        return;
    }
    uint32_t k = v->kind == IR_V_PARAM ? v->id : fr->f->nparams + v->id;
    if (fr->addr[k])
        lv->addr = fr->addr[k];
    else {
        lv->in_reg = true;
        lv->slot = fr->base + k;
    }
}

static void eval_lval(ctx *c, state *st, frame *fr, const ir_expr *e, lval *lv)
{
    switch (e->kind) {
    case IR_E_VAR: var_lval(c, fr, e->var, lv); return;
    case IR_E_DEREF:
        memset(lv, 0, sizeof *lv);
        lv->type = e->type;
        lv->addr = eval(c, st, fr, e->a);
        return;
    case IR_E_FIELD: {
        eval_lval(c, st, fr, e->a, lv);
        const ir_field *f = &e->a->type->fields[e->field];
        if (lv->in_reg) {
            stop(c, c->loc, "internal: a field of a register");
            return;
        }
        lv->addr = ptr_add(c, lv->addr, f->offset);
        lv->type = e->type;
        lv->bw = f->bit_width;
        lv->boff = f->bit_offset;
        return;
    }
    case IR_E_INDEX: {
        bmc_smt_term base;
        if (e->a->type->kind == IR_T_PTR) {
            base = eval(c, st, fr, e->a);
        } else {
            eval_lval(c, st, fr, e->a, lv);
            if (lv->in_reg) {
                stop(c, c->loc, "internal: an index into a register");
                return;
            }
            base = lv->addr;
        }
        bmc_smt_term i = resize(c, eval(c, st, fr, e->b), c->pw, is_signed(e->b->type));
        uint64_t dummy;
        const ir_type *at = e->a->type;
        /* reading or writing outside an array is undefined: the access ends
         * the path (read_lval, write_lval), as other undefined behaviour
         * does. Arrays of 0 or 1 elements are left alone: the last member
         * of a struct declared so is often used as a variable-length one. */
        bmc_smt_term oob = at->kind == IR_T_ARRAY ? lv->oob : 0;
        if (at->kind == IR_T_ARRAY && at->count >= 2) {
            /* unsigned: a negative index is a huge one */
            bmc_smt_term out = bmc_smt_not(c->s, bmc_smt_bv_cmp(c->s, BMC_SMT_ULT, i, bvc(c, c->pw, at->count)));
            oob = oob ? bmc_smt_or(c->s, oob, out) : out;
        }
        if (at->kind == IR_T_ARRAY && at->count >= 2 && at->count <= MAX_TARGETS &&
            !bmc_smt_bv_leaves(c->s, i, &dummy, 1)) {
            /* A symbolic index into a small array becomes a choice among its
             * elements (an index out of bounds, undefined in C, picks the last). */
            bmc_smt_term k = bvc(c, c->pw, at->count - 1);
            for (uint64_t j = at->count - 1; j-- > 0;)
                k = bmc_smt_ite(c->s, bmc_smt_eq(c->s, i, bvc(c, c->pw, j)), bvc(c, c->pw, j), k);
            i = k;
        }
        memset(lv, 0, sizeof *lv);
        lv->type = e->type;
        lv->oob = oob;
        lv->addr = bmc_smt_bv_op(c->s, BMC_SMT_BV_ADD, base,
                             bmc_smt_bv_op(c->s, BMC_SMT_BV_MUL, i, bvc(c, c->pw, tsize(c, e->type))));
        return;
    }
    default:
        stop(c, c->loc, "internal: not an lvalue");
        memset(lv, 0, sizeof *lv);
        lv->type = e->type;
        lv->addr = bvc(c, c->pw, 0);
        return;
    }
}

static bmc_smt_term read_lval(ctx *c, state *st, const lval *lv)
{
    if (lv->in_reg)
        return st->regs[lv->slot];
    if (lv->oob)
        st->guard = bmc_smt_and(c->s, st->guard, bmc_smt_not(c->s, lv->oob));
    if (lv->bw) {
        uint64_t nb = (lv->boff + lv->bw + 7) / 8;
        bmc_smt_term v = load_bytes(c, st, lv->addr, nb);
        v = bmc_smt_extract(c->s, lv->boff + lv->bw - 1, lv->boff, v);
        if (is_bool(lv->type))
            return bmc_smt_ite(c->s, nonzero(c, v), bvc(c, 1, 1), bvc(c, 1, 0));
        return resize(c, v, vwidth(c, lv->type), is_signed(lv->type));
    }
    return load(c, st, lv->addr, lv->type);
}

static void write_lval(ctx *c, state *st, const lval *lv, bmc_smt_term v)
{
    if (lv->in_reg) {
        st->regs[lv->slot] = v;
        return;
    }
    if (lv->oob)
        st->guard = bmc_smt_and(c->s, st->guard, bmc_smt_not(c->s, lv->oob));
    if (lv->bw) {
        uint64_t nb = (lv->boff + lv->bw + 7) / 8;
        uint32_t w = (uint32_t)(nb * 8);
        bmc_smt_term old = load_bytes(c, st, lv->addr, nb);
        bmc_smt_term bits = resize(c, v, lv->bw, false);
        bmc_smt_term nv = bits;
        if (lv->boff)
            nv = bmc_smt_concat(c->s, nv, bmc_smt_extract(c->s, lv->boff - 1, 0, old));
        if (lv->boff + lv->bw < w)
            nv = bmc_smt_concat(c->s, bmc_smt_extract(c->s, w - 1, lv->boff + lv->bw, old), nv);
        st->mem = store_bytes(c, st, lv->addr, nv, nb);
        return;
    }
    store(c, st, lv->addr, lv->type, v);
}

/* C's conversion of v (of type from) to type to. */
static bmc_smt_term convert(ctx *c, state *st, bmc_smt_term v, const ir_type *from, const ir_type *to)
{
    if (to->kind == IR_T_VOID)
        return v;
    bool fi = from->kind == IR_T_INT || from->kind == IR_T_PTR || from->kind == IR_T_FUNC;
    bool ti = to->kind == IR_T_INT || to->kind == IR_T_PTR;
    if (fi && ti) {
        if (is_bool(to))
            return bmc_smt_ite(c->s, nonzero(c, v), bvc(c, 1, 1), bvc(c, 1, 0));
        return resize(c, v, vwidth(c, to), is_signed(from));
    }
    if (from->kind == IR_T_FLOAT && to->kind == IR_T_FLOAT && from->bits == to->bits)
        return v;
    if (from->kind == IR_T_FLOAT || to->kind == IR_T_FLOAT)
        return approx(c, st, vwidth(c, to), "floating-point conversion");
    if (bmc_smt_width(c->s, v) == vwidth(c, to))
        return v;
    return resize(c, v, vwidth(c, to), false);
}

/* The truth of v (of type t): v != 0. */
static bmc_smt_term truth(ctx *c, state *st, bmc_smt_term v, const ir_type *t)
{
    if (t->kind == IR_T_FLOAT)
        return nonzero(c, approx(c, st, 1, "floating-point comparison"));
    return nonzero(c, v);
}

static bmc_smt_term eval_cond(ctx *c, state *st, frame *fr, const ir_expr *e)
{
    return truth(c, st, eval(c, st, fr, e), e->type);
}

static bmc_smt_term const_value(ctx *c, state *st, const ir_expr *e)
{
    const ir_type *t = e->type;
    if (t->kind == IR_T_FLOAT) {
        if (t->bits == 64) {
            uint64_t u;
            memcpy(&u, &e->fvalue, sizeof u);
            return bvc(c, 64, u);
        }
        if (t->bits == 32) {
            float f = (float)e->fvalue;
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            return bvc(c, 32, u);
        }
        return approx(c, st, t->bits, "long double constant");
    }
    if (!ir_type_is_scalar(t))
        return bvc(c, vwidth(c, t), 0);
    uint32_t w = vwidth(c, t);
    if (w > 64)
        return resize(c, bvc(c, 64, (uint64_t)e->value), w, is_signed(t));
    return bvc(c, w, (uint64_t)e->value);
}

static bmc_smt_term string_addr(ctx *c, const char *s)
{
    uint64_t v = 0;
    base_hashmap_get(&c->saddr, (uint64_t)(uintptr_t)s, &v);
    return bvc(c, c->pw, v);
}

/* Undefined behaviour ends the path, as a failed ASSUME does: signed
 * overflow of + - * (and of / % on INT_MIN and -1), division by zero. No
 * verdict then rests on what an undefined operation would give. */
static void defined_only(ctx *c, state *st, ir_op op, bool sgn, bmc_smt_term a, bmc_smt_term b)
{
    bmc_smt_solver *s = c->s;
    uint32_t w = bmc_smt_width(s, a);
    bmc_smt_term bad = 0;
    if (op == IR_OP_DIV || op == IR_OP_MOD) {
        bad = bmc_smt_eq(s, b, bvc(c, w, 0));
        if (sgn) {
            bmc_smt_term min = bvc(c, w, (uint64_t)1 << (w - 1)), m1 = bvc(c, w, ~(uint64_t)0);
            bad = bmc_smt_or(s, bad, bmc_smt_and(s, bmc_smt_eq(s, a, min), bmc_smt_eq(s, b, m1)));
        }
    } else if (sgn && (op == IR_OP_ADD || op == IR_OP_SUB || op == IR_OP_MUL)) {
        /* exact in one more bit (two times the width for *), then compare */
        uint32_t extra = op == IR_OP_MUL ? w : 1;
        bmc_smt_term xa = bmc_smt_sext(s, extra, a), xb = bmc_smt_sext(s, extra, b);
        bmc_smt_term wide = bmc_smt_bv_op(s, op == IR_OP_ADD ? BMC_SMT_BV_ADD
                                             : op == IR_OP_SUB ? BMC_SMT_BV_SUB : BMC_SMT_BV_MUL,
                                          xa, xb);
        bmc_smt_term narrow = bmc_smt_extract(s, w - 1, 0, wide);
        bad = bmc_smt_not(s, bmc_smt_eq(s, wide, bmc_smt_sext(s, extra, narrow)));
    }
    if (bad)
        st->guard = bmc_smt_and(s, st->guard, bmc_smt_not(s, bad));
}

static bmc_smt_term eval_binary(ctx *c, state *st, frame *fr, const ir_expr *e)
{
    bmc_smt_solver *s = c->s;
    const ir_type *at = e->a->type, *bt = e->b->type;
    if (e->op == IR_OP_LAND || e->op == IR_OP_LOR) {
        bmc_smt_term a = eval_cond(c, st, fr, e->a), b = eval_cond(c, st, fr, e->b);
        return from_bool(c, e->op == IR_OP_LAND ? bmc_smt_and(s, a, b) : bmc_smt_or(s, a, b), e->type);
    }
    bmc_smt_term a = eval(c, st, fr, e->a), b = eval(c, st, fr, e->b);
    if (at->kind == IR_T_FLOAT || bt->kind == IR_T_FLOAT || e->type->kind == IR_T_FLOAT) {
        if (e->op >= IR_OP_EQ && e->op <= IR_OP_GE)
            return from_bool(c, nonzero(c, approx(c, st, 1, "floating-point comparison")), e->type);
        return approx(c, st, vwidth(c, e->type), "floating-point arithmetic");
    }
    switch (e->op) {
    case IR_OP_EQ:
    case IR_OP_NE:
    case IR_OP_LT:
    case IR_OP_LE:
    case IR_OP_GT:
    case IR_OP_GE: {
        /* Operands of one type after C's conversions; if they still differ,
         * compare at the wider width, each extended by its signedness. */
        uint32_t wa = bmc_smt_width(s, a), wb = bmc_smt_width(s, b), w = wa > wb ? wa : wb;
        bool sgn = is_signed(at) && is_signed(bt);
        a = resize(c, a, w, is_signed(at));
        b = resize(c, b, w, is_signed(bt));
        bmc_smt_term r;
        switch (e->op) {
        case IR_OP_EQ: r = bmc_smt_eq(s, a, b); break;
        case IR_OP_NE: r = bmc_smt_not(s, bmc_smt_eq(s, a, b)); break;
        case IR_OP_LT: r = bmc_smt_bv_cmp(s, sgn ? BMC_SMT_SLT : BMC_SMT_ULT, a, b); break;
        case IR_OP_LE: r = bmc_smt_bv_cmp(s, sgn ? BMC_SMT_SLE : BMC_SMT_ULE, a, b); break;
        case IR_OP_GT: r = bmc_smt_bv_cmp(s, sgn ? BMC_SMT_SLT : BMC_SMT_ULT, b, a); break;
        default: r = bmc_smt_bv_cmp(s, sgn ? BMC_SMT_SLE : BMC_SMT_ULE, b, a); break;
        }
        return from_bool(c, r, e->type);
    }
    case IR_OP_PTR_ADD: {
        const ir_type *to = at->kind == IR_T_PTR ? at->to : NULL;
        uint64_t sz = to && to->kind != IR_T_VOID && to->kind != IR_T_FUNC ? tsize(c, to) : 1;
        bmc_smt_term i = resize(c, b, c->pw, is_signed(bt));
        return bmc_smt_bv_op(s, BMC_SMT_BV_ADD, resize(c, a, c->pw, false),
                         bmc_smt_bv_op(s, BMC_SMT_BV_MUL, i, bvc(c, c->pw, sz)));
    }
    case IR_OP_PTR_DIFF: {
        const ir_type *to = at->kind == IR_T_PTR ? at->to : NULL;
        uint64_t sz = to && to->kind != IR_T_VOID && to->kind != IR_T_FUNC ? tsize(c, to) : 1;
        bmc_smt_term d = bmc_smt_bv_op(s, BMC_SMT_BV_SUB, a, b);
        if (sz > 1)
            d = bmc_smt_bv_op(s, BMC_SMT_BV_SDIV, d, bvc(c, c->pw, sz));
        return resize(c, d, vwidth(c, e->type), true);
    }
    default: break;
    }
    uint32_t w = vwidth(c, e->type);
    bool sgn = is_signed(e->type);
    a = resize(c, a, w, is_signed(at));
    if (e->op == IR_OP_SHL || e->op == IR_OP_SHR) {
        /* A shift count is an unsigned amount at the shifted width; counts
         * too large for it become the width (so the result is 0 or -1). */
        uint32_t wb = bmc_smt_width(s, b);
        if (wb > w) {
            bmc_smt_term big = bmc_smt_bv_cmp(s, BMC_SMT_ULE, bvc(c, wb, w), b);
            b = bmc_smt_ite(s, big, bvc(c, w, w), bmc_smt_extract(s, w - 1, 0, b));
        } else {
            b = resize(c, b, w, false);
        }
        if (e->op == IR_OP_SHL)
            return bmc_smt_bv_op(s, BMC_SMT_BV_SHL, a, b);
        return bmc_smt_bv_op(s, sgn ? BMC_SMT_BV_ASHR : BMC_SMT_BV_LSHR, a, b);
    }
    b = resize(c, b, w, is_signed(bt));
    defined_only(c, st, e->op, sgn, a, b);
    bmc_smt_bvop op;
    switch (e->op) {
    case IR_OP_ADD: op = BMC_SMT_BV_ADD; break;
    case IR_OP_SUB: op = BMC_SMT_BV_SUB; break;
    case IR_OP_MUL: op = BMC_SMT_BV_MUL; break;
    case IR_OP_DIV: op = sgn ? BMC_SMT_BV_SDIV : BMC_SMT_BV_UDIV; break;
    case IR_OP_MOD: op = sgn ? BMC_SMT_BV_SREM : BMC_SMT_BV_UREM; break;
    case IR_OP_AND: op = BMC_SMT_BV_AND; break;
    case IR_OP_OR: op = BMC_SMT_BV_OR; break;
    case IR_OP_XOR: op = BMC_SMT_BV_XOR; break;
    default:
        stop(c, c->loc, "internal: binary operator %s", ir_op_name(e->op));
        return bvc(c, w, 0);
    }
    return bmc_smt_bv_op(s, op, a, b);
}

static bmc_smt_term eval(ctx *c, state *st, frame *fr, const ir_expr *e)
{
    bmc_smt_solver *s = c->s;
    switch (e->kind) {
    case IR_E_CONST: return const_value(c, st, e);
    case IR_E_VAR:
    case IR_E_DEREF:
    case IR_E_FIELD:
    case IR_E_INDEX: {
        lval lv;
        eval_lval(c, st, fr, e, &lv);
        return read_lval(c, st, &lv);
    }
    case IR_E_ADDR: {
        lval lv;
        eval_lval(c, st, fr, e->a, &lv);
        if (lv.in_reg) {
            stop(c, c->loc, "internal: the address of a register variable");
            return bvc(c, c->pw, 0);
        }
        return lv.addr;
    }
    case IR_E_FUNC: return func_addr(c, e->func);
    case IR_E_STRING: return string_addr(c, e->string);
    case IR_E_UNARY: {
        if (e->op == IR_OP_LNOT)
            return from_bool(c, bmc_smt_not(s, eval_cond(c, st, fr, e->a)), e->type);
        bmc_smt_term a = eval(c, st, fr, e->a);
        if (e->type->kind == IR_T_FLOAT || e->a->type->kind == IR_T_FLOAT) {
            uint32_t w = e->type->bits;
            if (e->op == IR_OP_NEG && e->type->kind == IR_T_FLOAT &&
                ir_type_eq(e->a->type, e->type) && (w == 32 || w == 64))
                return bmc_smt_bv_op(s, BMC_SMT_BV_XOR, a, bvc(c, w, (uint64_t)1 << (w - 1)));
            return approx(c, st, vwidth(c, e->type), "floating-point arithmetic");
        }
        a = resize(c, a, vwidth(c, e->type), is_signed(e->a->type));
        if (e->op == IR_OP_NEG && is_signed(e->type)) /* -INT_MIN is undefined */
            defined_only(c, st, IR_OP_SUB, true, bvc(c, bmc_smt_width(s, a), 0), a);
        return e->op == IR_OP_NEG ? bmc_smt_bv_neg(s, a) : bmc_smt_bv_not(s, a);
    }
    case IR_E_BINARY: return eval_binary(c, st, fr, e);
    case IR_E_CAST: return convert(c, st, eval(c, st, fr, e->a), e->a->type, e->type);
    case IR_E_ITE: {
        bmc_smt_term cond = eval_cond(c, st, fr, e->a);
        bmc_smt_term a = resize(c, eval(c, st, fr, e->b), vwidth(c, e->type), is_signed(e->b->type));
        bmc_smt_term b = resize(c, eval(c, st, fr, e->c), vwidth(c, e->type), is_signed(e->c->type));
        return bmc_smt_ite(s, cond, a, b);
    }
    case IR_E_NONDET: return bmc_smt_bv_var(s, vwidth(c, e->type), "nondet");
    }
    return bvc(c, vwidth(c, e->type), 0);
}

/* --- statements --- */

static void exec_body(ctx *c, frame *fr, state *st, bmc_smt_term *ret);

static void assign(ctx *c, state *st, frame *fr, const ir_expr *lhs, bmc_smt_term v, int kind,
                   const char *text)
{
    lval lv;
    eval_lval(c, st, fr, lhs, &lv);
    bmc_smt_term g = st->guard;
    /* the write first: a concurrent engine's store event then precedes
     * the step, as a read's event does (bmc_conc.h's step_key) */
    if (v)
        write_lval(c, st, &lv, v);
    event *e = add_event(c, kind, g);
    e->lhs = lhs;
    e->type = lhs->type;
    e->value = text ? 0 : v;
    e->text = text;
}

static bmc_smt_term alloc_local(ctx *c, state *st, const ir_func *f, const ir_var *v)
{
    char name[256];
    snprintf(name, sizeof name, "%s::%s", sym(c, f->name), sym(c, v->name));
    uint64_t a = new_obj(c, tsize(c, v->type), adup(c, name), v->type, false);
    bmc_smt_term at = bvc(c, c->pw, a);
    havoc(c, st, at, tsize(c, v->type), name);
    return at;
}

static uint32_t activations(const ctx *c, const ir_func *f)
{
    uint32_t n = 0;
    for (size_t i = 0; i < c->stack.len; i++)
        n += c->stack.data[i]->f == f;
    return n;
}

/* Runs f's body on st (consumed and replaced by the exit state) with the
 * argument values args. *ret gets the result (0 for void). */
static void run_function(ctx *c, const ir_func *f, state *st, const bmc_smt_term *args,
                         const ir_type *const *arg_types, uint32_t nargs, bmc_smt_term *ret)
{
    finfo *fi = func_info(c, f);
    uint32_t nv = f->nparams + f->nlocals;
    frame fr = { f, st->nregs, base_xcalloc(nv ? nv : 1, sizeof(bmc_smt_term)),
                 (uint32_t)c->stack.len };
    bool *in_mem = fi->in_mem; /* fis may move when callees are added */
    st->regs = base_xrealloc(st->regs, (st->nregs + nv + 1) * sizeof *st->regs);
    for (uint32_t k = 0; k < nv; k++)
        st->regs[st->nregs + k] = 0;
    st->nregs += nv;
    for (uint32_t k = 0; k < f->nparams; k++) {
        const ir_var *v = f->params[k];
        bmc_smt_term val = k < nargs ? convert(c, st, args[k], arg_types[k], v->type)
                                 : bmc_smt_bv_var(c->s, vwidth(c, v->type), sym(c, v->name));
        if (in_mem[k]) {
            char name[256];
            snprintf(name, sizeof name, "%s::%s", sym(c, f->name), sym(c, v->name));
            fr.addr[k] = bvc(c, c->pw, new_obj(c, tsize(c, v->type), adup(c, name), v->type, false));
            store(c, st, fr.addr[k], v->type, val);
        } else {
            st->regs[fr.base + k] = val;
        }
    }
    for (uint32_t k = 0; k < f->nlocals; k++) {
        const ir_var *v = f->locals[k];
        uint32_t slot = f->nparams + k;
        if (in_mem[slot])
            fr.addr[slot] = alloc_local(c, st, f, v);
        else
            st->regs[fr.base + slot] = bmc_smt_bv_var(c->s, vwidth(c, v->type), sym(c, v->name));
    }
    frame *frp = &fr;
    base_vec_push(&c->stack, frp);
    exec_body(c, &fr, st, ret);
    c->stack.len--;
    free(fr.addr);
    st->nregs = fr.base;
}

/* Functions without a body known not to write through their pointer
 * arguments (C library functions that only read them). */
static const char *const read_only_externals[] = {
    "printf", "fprintf", "puts", "fputs", "putchar", "strlen", "strnlen", "strcmp", "strncmp",
    "memcmp", "strchr", "strrchr", "strstr", "atoi", "atol", "abs", "labs", "exit", "abort",
    "__assert_fail", "assert", "perror", "free", "pthread_self",
};

/* Whether a call to g (no body) passes a pointer it might write through;
 * such a call is not modelled (bmc.h: it is an approximation). */
static bool may_write_through_args(ctx *c, const ir_func *g, const ir_stmt *s)
{
    const char *name = sym(c, g->name);
    for (size_t i = 0; i < sizeof read_only_externals / sizeof *read_only_externals; i++)
        if (strcmp(name, read_only_externals[i]) == 0)
            return false;
    for (uint32_t k = 0; k < s->nargs; k++)
        if (s->args[k]->type->kind == IR_T_PTR && s->args[k]->kind != IR_E_STRING &&
            !(s->args[k]->kind == IR_E_CONST && s->args[k]->value == 0))
            return true;
    return false;
}

static const obj *find_obj(const ctx *c, uint64_t a);

/* Gives every object a pointer argument of s may point to arbitrary
 * contents (what a function without a body may write there); a pointer
 * that resolves to no known object makes the answer unknown. */
static void havoc_pointees(ctx *c, state *st, const ir_stmt *s, const bmc_smt_term *args)
{
    for (uint32_t k = 0; k < s->nargs; k++) {
        if (s->args[k]->type->kind != IR_T_PTR || s->args[k]->kind == IR_E_STRING)
            continue;
        uint64_t at[MAX_TARGETS];
        size_t na = bmc_smt_bv_leaves(c->s, args[k], at, MAX_TARGETS);
        if (!na) {
            stop(c, s->loc, "unsupported construct: a pointer argument of a call to a "
                            "function without a body that points to no known object");
            return;
        }
        for (size_t j = 0; j < na; j++) {
            if (at[j] == 0)
                continue;
            const obj *o = find_obj(c, at[j]);
            if (!o || o->is_func)
                continue;
            if (o->size > AGG_MAX) {
                stop(c, s->loc, "unsupported construct: a call to a function without a body "
                                "may write an object of %" PRIu64 " bytes", o->size);
                return;
            }
            uint64_t base = o->base, size = o->size;
            bmc_smt_term v = bmc_smt_bv_var(c->s, (uint32_t)(size * 8), "written");
            c->access = BMC_CONC_EXTERNAL;
            st->mem = store_bytes(c, st, bvc(c, c->pw, base), v, size);
            c->access = BMC_CONC_PROGRAM;
        }
    }
}

/* The concurrent mode: a synchronisation statement goes to the sync hook. */
static void conc_sync(ctx *c, state *st, frame *fr, const ir_stmt *s)
{
    bmc_conc_op op = { .s = s, .func = fr->f, .kind = s->kind, .guard = st->guard };
    if (s->rhs) {
        op.rhs = eval(c, st, fr, s->rhs);
        op.rhs_type = s->rhs->type;
    }
    if (s->nargs)
        op.arg0 = eval(c, st, fr, s->args[0]);
    if (s->kind == IR_S_ASYNC && s->callee && s->callee->kind != IR_E_FUNC)
        op.callee = eval(c, st, fr, s->callee);
    if (c->stop)
        return;
    op.guard = st->guard;
    c->hk->sync(c->hk->ud, &op);
    if (c->stop)
        return;
    if (op.guard_out)
        st->guard = op.guard_out;
    add_event(c, TRACE_STEP_SYNC, st->guard);
    if (s->lhs && op.lhs_value && s->kind != IR_S_ATOMIC_BEGIN && s->kind != IR_S_ATOMIC_END)
        assign(c, st, fr, s->lhs, resize(c, op.lhs_value, vwidth(c, s->lhs->type), false),
               TRACE_STEP_ASSIGN, NULL);
}

static void conc_atomic(ctx *c, state *st, const ir_func *f, const ir_stmt *s, ir_stmt_kind k)
{
    bmc_conc_op op = { .s = s, .func = f, .kind = k, .guard = st->guard };
    c->hk->sync(c->hk->ud, &op);
    if (op.guard_out)
        st->guard = op.guard_out;
}

static void exec_call(ctx *c, state *st, frame *fr, uint32_t pc)
{
    const ir_stmt *s = &fr->f->stmts[pc];
    uint32_t n = s->nargs;
    bmc_smt_term *args = BASE_ARENA_ARRAY(&c->r->arena, bmc_smt_term, n ? n : 1);
    const ir_type **types = BASE_ARENA_ARRAY(&c->r->arena, const ir_type *, n ? n : 1);
    for (uint32_t k = 0; k < n; k++) {
        args[k] = eval(c, st, fr, s->args[k]);
        types[k] = s->args[k]->type;
    }
    const ir_func *one[1];
    const ir_func *const *cands;
    uint32_t ncands;
    bmc_smt_term fp = 0;
    if (s->callee->kind == IR_E_FUNC) {
        one[0] = s->callee->func;
        cands = one;
        ncands = 1;
    } else {
        fp = eval(c, st, fr, s->callee);
        cands = s->cands;
        ncands = s->ncands;
    }
    state out = { 0 };
    const ir_type *ret_type = NULL;
    if (s->callee->type->kind == IR_T_PTR && s->callee->type->to->kind == IR_T_FUNC)
        ret_type = s->callee->type->to->to;
    else if (s->callee->type->kind == IR_T_FUNC)
        ret_type = s->callee->type->to;
    for (uint32_t k = 0; k <= ncands; k++) {
        const ir_func *g = k < ncands ? cands[k] : NULL;
        if (!g && ncands)
            break; /* a pointer equal to no candidate: the path ends (bmc.h) */
        bmc_smt_term guard = st->guard;
        if (fp && g)
            guard = bmc_smt_and(c->s, guard, bmc_smt_eq(c->s, fp, func_addr(c, g)));
        if (bmc_smt_is_false(c->s, guard))
            continue;
        if (g && g->has_body && activations(c, g) >= c->o.unwind) {
            cut ct = { guard, fr->f, pc, s->loc, true };
            base_vec_push(&c->cuts, ct);
            c->r->stats.cuts++;
            continue;
        }
        state sub = st_copy(st, guard);
        c->cur_f = fr->f;
        c->cur_stmt = pc;
        c->loc = s->loc;
        event *e = add_event(c, TRACE_STEP_CALL, guard);
        e->callee = g;
        e->args = args;
        e->arg_types = types;
        e->nargs = n;
        bmc_smt_term rv = 0;
        const ir_type *rt = g ? g->type->to : ret_type;
        if (!g || !g->has_body) {
            e->external = true;
            if (!g)
                approx(c, &sub, 1, "a call through a function pointer with no known target");
            else if (g->not_lowered)
                approx(c, &sub, 1, "a call to a function that could not be lowered");
            else if (g->writes_memory) { /* every object in memory gets any contents */
                approx(c, &sub, 1, "inline assembly that may write any memory (a \"memory\" clobber)");
                sub.mem = bmc_smt_array_var(c->s, c->pw, 8, "asm_memory");
                for (uint32_t gi = 0; gi < c->p->nglobals; gi++) /* globals kept in registers */
                    if (!c->gaddr[gi])
                        sub.regs[gi] = bmc_smt_bv_var(c->s, vwidth(c, c->p->globals[gi]->type),
                                                      "asm_global");
            }
            else if (may_write_through_args(c, g, s)) {
                approx(c, &sub, 1, "a call to a function without a body that may write "
                                   "through a pointer argument");
                havoc_pointees(c, &sub, s, args);
            }
            if (s->lhs)
                assign(c, &sub, fr, s->lhs, bmc_smt_bv_var(c->s, vwidth(c, s->lhs->type), "result"),
                       TRACE_STEP_NONDET, NULL);
            st_merge(c, &out, &sub);
            continue;
        }
        bool atomic = c->hk && g->is_atomic;
        if (atomic)
            conc_atomic(c, &sub, fr->f, s, IR_S_ATOMIC_BEGIN);
        run_function(c, g, &sub, args, types, n, &rv);
        c->cur_f = fr->f;
        c->cur_stmt = pc;
        c->loc = s->loc;
        if (atomic && !c->stop)
            conc_atomic(c, &sub, fr->f, s, IR_S_ATOMIC_END);
        c->cur_f = fr->f;
        c->cur_stmt = pc;
        c->loc = s->loc;
        if (c->stop) {
            st_free(&sub);
            break;
        }
        if (s->lhs && rt && rt->kind != IR_T_VOID) {
            bmc_smt_term v = rv ? convert(c, &sub, rv, rt, s->lhs->type)
                            : bmc_smt_bv_var(c->s, vwidth(c, s->lhs->type), "result");
            assign(c, &sub, fr, s->lhs, v, TRACE_STEP_ASSIGN, NULL);
        }
        st_merge(c, &out, &sub);
    }
    if (!out.guard) {
        st->guard = bmc_smt_false(c->s);
        return;
    }
    st_free(st);
    *st = out;
}

static void exec_alloc(ctx *c, state *st, frame *fr, const ir_stmt *s)
{
    bmc_smt_term size = eval(c, st, fr, s->rhs);
    uint64_t n = 0;
    bool known = bmc_smt_bv_value(c->s, size, &n);
    char name[128];
    snprintf(name, sizeof name, "%s@%u#%u", s->zeroed ? "calloc" : "malloc", s->loc.line,
             ++c->nmallocs);
    const ir_type *t = s->lhs->type->kind == IR_T_PTR ? s->lhs->type->to : NULL;
    if (t && (t->kind == IR_T_VOID || !known || tsize(c, t) != n))
        t = NULL; /* the block is not one object of the pointee type */
    uint64_t a = new_obj(c, known ? n : BIG_GAP, adup(c, name), t, false);
    bmc_smt_term at = bvc(c, c->pw, a);
    if (!s->zeroed && known)
        havoc(c, st, at, n, name); /* never-used addresses read 0: calloc needs nothing */
    lval lv;
    eval_lval(c, st, fr, s->lhs, &lv);
    event *e = add_event(c, TRACE_STEP_ALLOC, st->guard);
    e->lhs = s->lhs;
    e->type = s->lhs->type;
    e->value = resize(c, at, vwidth(c, s->lhs->type), false);
    e->size = size;
    write_lval(c, st, &lv, e->value);
}

static bool has_work(const state *pend, const state *pend_bk, const finfo *fi, const ir_func *f,
                     uint32_t pc)
{
    if (pend[pc].guard)
        return true;
    if (pc >= f->nstmts || f->stmts[pc].kind != IR_S_GOTO)
        return false;
    const ir_stmt *s = &f->stmts[pc];
    for (uint32_t k = 0; k < s->ntargets; k++)
        if (fi->last_back[s->targets[k]] == pc && pend_bk[s->targets[k]].guard)
            return true;
    return false;
}

static void exec_body(ctx *c, frame *fr, state *st, bmc_smt_term *ret)
{
    const ir_func *f = fr->f;
    uint32_t n = f->nstmts;
    state *pend = base_xcalloc(n + 1, sizeof *pend);
    state *pend_bk = base_xcalloc(n + 1, sizeof *pend_bk);
    uint32_t *cnt = base_xcalloc(n + 1, sizeof *cnt);
    state cur = *st, exit = { 0 };
    st->regs = NULL;
    bmc_smt_term retv = 0;
    const ir_type *rt = f->type->to;
    uint32_t pc = 0;
    bool arrived_back = false;
    while (pc < n && !c->stop) {
        if (pend[pc].guard)
            st_merge(c, &cur, &pend[pc]);
        if (!arrived_back)
            cnt[pc] = 0;
        arrived_back = false;
        const finfo *fi = func_info(c, f);
        if (c->hk && fi->reduce[pc])
            cur.dirty = 0; /* an iteration starts: nothing done yet */
        if (bmc_smt_is_false(c->s, cur.guard) && !has_work(pend, pend_bk, fi, f, pc)) {
            uint32_t q = pc + 1;
            while (q < n && !has_work(pend, pend_bk, fi, f, q))
                q++;
            pc = q;
            continue;
        }
        const ir_stmt *s = &f->stmts[pc];
        c->cur_f = f;
        c->cur_stmt = pc;
        c->loc = s->loc;
        c->r->stats.steps++;
        if ((c->r->stats.steps & 1023) == 0) {
            if (c->o.timeout_s > 0 && base_now() - c->t0 > c->o.timeout_s) {
                stop(c, (base_srcloc){ 0 }, "timeout (%.0f s) while encoding", named_budget(c));
                break;
            }
            if (bmc_smt_num_terms(c->s) > c->o.max_terms) {
                stop(c, (base_srcloc){ 0 },
                     "memory: the formula exceeds %zu terms (unwind %u); try a smaller bound",
                     c->o.max_terms, c->o.unwind);
                break;
            }
        }
        uint32_t next = pc + 1;
        if (c->hk && (s->kind == IR_S_ASYNC || s->kind == IR_S_JOIN || s->kind == IR_S_LOCK ||
                      s->kind == IR_S_UNLOCK || s->kind == IR_S_LOCK_INIT ||
                      s->kind == IR_S_LOCK_DESTROY || s->kind == IR_S_COND_WAIT ||
                      s->kind == IR_S_COND_SIGNAL || s->kind == IR_S_ATOMIC_BEGIN ||
                      s->kind == IR_S_ATOMIC_END || s->kind == IR_S_THREAD_EXIT)) {
            if (!bmc_smt_is_false(c->s, cur.guard))
                conc_sync(c, &cur, fr, s);
            cur.dirty = bmc_smt_true(c->s);
            if (s->kind == IR_S_THREAD_EXIT)
                cur.guard = bmc_smt_false(c->s);
            pc = next;
            continue;
        }
        switch (s->kind) {
        case IR_S_SKIP:
        case IR_S_ATOMIC_BEGIN:
        case IR_S_ATOMIC_END:
        case IR_S_FREE:
            break;
        case IR_S_ASSIGN:
            if (s->rhs->kind == IR_E_NONDET) {
                assign(c, &cur, fr, s->lhs, bmc_smt_bv_var(c->s, vwidth(c, s->lhs->type), "nondet"),
                       TRACE_STEP_NONDET, NULL);
            } else if (s->rhs->kind == IR_E_CONST && !ir_type_is_scalar(s->rhs->type)) {
                lval lv;
                eval_lval(c, &cur, fr, s->lhs, &lv);
                event *e = add_event(c, TRACE_STEP_ASSIGN, cur.guard);
                e->lhs = s->lhs;
                e->type = s->lhs->type;
                e->text = "{0}";
                if (!lv.in_reg)
                    zero_fill(c, &cur, lv.addr, tsize(c, s->lhs->type));
            } else {
                bmc_smt_term v = eval(c, &cur, fr, s->rhs);
                assign(c, &cur, fr, s->lhs, v, TRACE_STEP_ASSIGN, NULL);
            }
            break;
        case IR_S_CALL:
            exec_call(c, &cur, fr, pc);
            break;
        case IR_S_RETURN: {
            bmc_smt_term v = 0;
            if (s->rhs && rt->kind != IR_T_VOID)
                v = convert(c, &cur, eval(c, &cur, fr, s->rhs), s->rhs->type, rt);
            event *e = add_event(c, TRACE_STEP_RETURN, cur.guard);
            e->callee = f;
            e->value = v;
            e->type = rt;
            if (v)
                retv = !exit.guard || !retv ? v : bmc_smt_ite(c->s, cur.guard, v, retv);
            st_merge(c, &exit, &cur);
            cur = st_copy(&exit, bmc_smt_false(c->s));
            break;
        }
        case IR_S_GOTO: {
            bmc_smt_term cond = s->rhs ? eval_cond(c, &cur, fr, s->rhs) : bmc_smt_true(c->s);
            bmc_smt_term jump = bmc_smt_and(c->s, cur.guard, cond);
            bmc_smt_term choice = 0;
            if (s->ntargets > 1)
                choice = bmc_smt_bv_var(c->s, 32, "choice");
            state back = { 0 };
            uint32_t back_to = UINT32_MAX;
            for (uint32_t k = 0; k < s->ntargets; k++) {
                uint32_t t = s->targets[k];
                bmc_smt_term g = jump;
                if (choice)
                    g = bmc_smt_and(c->s, g,
                                k + 1 < s->ntargets
                                    ? bmc_smt_eq(c->s, choice, bvc(c, 32, k))
                                    : bmc_smt_bv_cmp(c->s, BMC_SMT_ULE, bvc(c, 32, k), choice));
                if (!bmc_smt_is_false(c->s, g)) {
                    event *e = add_event(c, TRACE_STEP_GOTO, g);
                    e->target = t;
                }
                bool last = t <= pc && fi->last_back[t] == pc;
                if (bmc_smt_is_false(c->s, g) && !last)
                    continue;
                state sub = st_copy(&cur, g);
                if (t > pc) {
                    st_merge(c, &pend[t], &sub);
                } else if (!last) {
                    st_merge(c, &pend_bk[t], &sub);
                } else {
                    st_merge(c, &sub, &pend_bk[t]);
                    if (back.guard && back_to != t) {
                        stop(c, s->loc, "unsupported construct: a jump back to two loop heads");
                        st_free(&sub);
                        break;
                    }
                    st_merge(c, &back, &sub);
                    back_to = t;
                }
            }
            cur.guard = bmc_smt_and(c->s, cur.guard, bmc_smt_not(c->s, cond));
            if (back.guard && c->hk && fi->reduce[back_to])
                /* the concurrent mode: an iteration that only tested is not
                 * taken again (bmc_conc.h), and that is no cut */
                back.guard = back.dirty ? bmc_smt_and(c->s, back.guard, back.dirty)
                                        : bmc_smt_false(c->s);
            if (back.guard) {
                if (bmc_smt_is_false(c->s, back.guard)) {
                    st_free(&back);
                } else if (c->hk && pure_spin(f, back_to, pc)) {
                    /* the concurrent mode: a loop that only tests is not
                     * iterated (bmc_conc.h), and that is no cut */
                    st_free(&back);
                } else if (cnt[back_to] + 1 < c->o.unwind) {
                    cnt[back_to]++;
                    st_merge(c, &pend[pc + 1], &cur);
                    cur = back;
                    next = back_to;
                    arrived_back = true;
                } else {
                    cut ct = { back.guard, f, pc, s->loc, false };
                    base_vec_push(&c->cuts, ct);
                    c->r->stats.cuts++;
                    st_free(&back);
                }
            }
            break;
        }
        case IR_S_ASSUME: {
            bmc_smt_term cond = eval_cond(c, &cur, fr, s->rhs);
            cur.guard = bmc_smt_and(c->s, cur.guard, cond);
            event *e = add_event(c, TRACE_STEP_ASSUME, cur.guard);
            e->message = s->message;
            break;
        }
        case IR_S_ASSERT: {
            bmc_smt_term cond = eval_cond(c, &cur, fr, s->rhs);
            event *e = add_event(c, TRACE_STEP_ASSERT, cur.guard);
            e->message = s->message;
            e->fail = bmc_smt_and(c->s, cur.guard, bmc_smt_not(c->s, cond));
            c->r->stats.assertions++;
            cur.guard = bmc_smt_and(c->s, cur.guard, cond);
            break;
        }
        case IR_S_ALLOC:
            exec_alloc(c, &cur, fr, s);
            break;
        case IR_S_THREAD_EXIT:
            cur.guard = bmc_smt_false(c->s);
            break;
        case IR_S_ASYNC:
        case IR_S_JOIN:
        case IR_S_LOCK:
        case IR_S_UNLOCK:
        case IR_S_LOCK_INIT:
        case IR_S_LOCK_DESTROY:
        case IR_S_COND_WAIT:
        case IR_S_COND_SIGNAL:
            stop(c, s->loc,
                 "unsupported construct: %s in a sequential check (the KISS translation "
                 "removes it)",
                 ir_stmt_kind_name(s->kind));
            break;
        }
        if (s->kind != IR_S_GOTO && s->kind != IR_S_SKIP)
            cur.dirty = bmc_smt_true(c->s);
        pc = next;
    }
    /* Falling off the end, and jumps to the exit. */
    if (pend[n].guard)
        st_merge(c, &cur, &pend[n]);
    if (!bmc_smt_is_false(c->s, cur.guard) && !c->stop && (n || f != c->p->init)) {
        c->cur_f = f;
        c->cur_stmt = n;
        c->loc = n ? f->stmts[n - 1].loc : f->loc;
        event *e = add_event(c, TRACE_STEP_RETURN, cur.guard);
        e->callee = f;
        e->type = rt;
        if (rt->kind != IR_T_VOID) {
            bmc_smt_term v = bmc_smt_bv_var(c->s, vwidth(c, rt), "noreturn");
            e->value = v;
            retv = !exit.guard || !retv ? v : bmc_smt_ite(c->s, cur.guard, v, retv);
        }
    }
    st_merge(c, &exit, &cur); /* cur always holds a state, so exit does now */
    for (uint32_t k = 0; k <= n; k++) {
        st_free(&pend[k]);
        st_free(&pend_bk[k]);
    }
    free(pend);
    free(pend_bk);
    free(cnt);
    *st = exit;
    *ret = retv;
}

/* --- the program --- */

static const ir_var *root_var(const ir_expr *e)
{
    while (e->kind == IR_E_FIELD || e->kind == IR_E_INDEX) {
        if (e->kind == IR_E_INDEX && e->a->type->kind == IR_T_PTR)
            return NULL;
        e = e->a;
    }
    return e->kind == IR_E_VAR ? e->var : NULL;
}

static void scan_expr(ctx *c, state *st, const ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_E_ADDR) {
        const ir_var *v = root_var(e->a);
        if (v)
            base_hashmap_put(&c->taken, (uint64_t)(uintptr_t)v, 1);
    }
    if (e->kind == IR_E_STRING) {
        uint64_t x;
        if (!base_hashmap_get(&c->saddr, (uint64_t)(uintptr_t)e->string, &x)) {
            size_t len = strlen(e->string) + 1;
            char name[48];
            snprintf(name, sizeof name, "\"%.*s%s\"", 24, e->string, len > 25 ? "..." : "");
            x = new_obj(c, len, adup(c, name), NULL, false);
            base_hashmap_put(&c->saddr, (uint64_t)(uintptr_t)e->string, x);
            for (size_t i = 0; i < len; i++)
                st->mem = bmc_smt_store(c->s, st->mem, bvc(c, c->pw, x + i),
                                    bvc(c, 8, (uint8_t)e->string[i]));
        }
    }
    scan_expr(c, st, e->a);
    scan_expr(c, st, e->b);
    scan_expr(c, st, e->c);
}

static void scan_program(ctx *c, state *st)
{
    for (uint32_t i = 0; i < c->p->nfuncs; i++) {
        const ir_func *f = c->p->funcs[i];
        for (uint32_t k = 0; k < f->nstmts; k++) {
            const ir_stmt *s = &f->stmts[k];
            scan_expr(c, st, s->lhs);
            scan_expr(c, st, s->rhs);
            scan_expr(c, st, s->callee);
            for (uint32_t j = 0; j < s->nargs; j++)
                scan_expr(c, st, s->args[j]);
        }
    }
}

/* --- the result --- */

static const obj *find_obj(const ctx *c, uint64_t a)
{
    size_t lo = 0, hi = c->objs.len;
    while (lo < hi) { /* objects are in increasing address order */
        size_t mid = (lo + hi) / 2;
        if (c->objs.data[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const obj *o = &c->objs.data[lo - 1];
    return a < o->base + (o->size ? o->size : 1) ? o : NULL;
}

static void describe_addr(ctx *c, base_strbuf *b, uint64_t a)
{
    if (a == 0) {
        base_strbuf_puts(b, "NULL");
        return;
    }
    const obj *o = find_obj(c, a);
    if (!o) {
        base_strbuf_printf(b, "0x%" PRIx64, a);
        return;
    }
    if (o->is_func) {
        base_strbuf_puts(b, o->name);
        return;
    }
    uint64_t off = a - o->base;
    base_strbuf_printf(b, "&%s", o->name);
    ir_print_offset_path(b, c->p, o->type, off);
}

static uint64_t model_low(ctx *c, bmc_smt_term v)
{
    uint32_t w = bmc_smt_width(c->s, v);
    if (w > 64)
        v = bmc_smt_extract(c->s, 63, 0, v);
    return bmc_smt_model_bv(c->s, v);
}

/* Writes the model's value of v (of type t) as C would: numbers, pointers
 * as the objects they point into, records as {.f = v, ...}, arrays as
 * {v, ...} (at most 16 elements shown), anything else as bytes. */
static void format_value(ctx *c, base_strbuf *b, bmc_smt_term v, const ir_type *t, int depth)
{
    uint32_t w = bmc_smt_width(c->s, v);
    uint64_t bits = model_low(c, v);
    if (t->kind == IR_T_PTR || t->kind == IR_T_FUNC) {
        describe_addr(c, b, bits);
    } else if (t->kind == IR_T_INT && w <= 64) {
        if (t->is_signed) {
            uint64_t m = w == 64 ? 0 : (uint64_t)1 << (w - 1);
            int64_t sv = w == 64 ? (int64_t)bits : (int64_t)((bits ^ m) - m);
            base_strbuf_printf(b, "%" PRId64, sv);
        } else {
            base_strbuf_printf(b, "%" PRIu64, bits);
        }
    } else if (t->kind == IR_T_FLOAT && w == 64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        base_strbuf_printf(b, "%.17g", d);
    } else if (t->kind == IR_T_FLOAT && w == 32) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, sizeof f);
        base_strbuf_printf(b, "%.9g", (double)f);
    } else if (t->kind == IR_T_STRUCT && depth < 4 && (uint64_t)w == t->size * 8) {
        base_strbuf_puts(b, "{");
        bool first = true;
        for (uint32_t i = 0; i < t->nfields; i++) {
            const ir_field *fd = &t->fields[i];
            uint64_t fs = tsize(c, fd->type);
            if (fd->offset + fs > t->size)
                continue;
            bmc_smt_term fv = bmc_smt_extract(c->s, (uint32_t)((fd->offset + fs) * 8 - 1),
                                      (uint32_t)(fd->offset * 8), v);
            if (fd->bit_width)
                fv = resize(c, bmc_smt_extract(c->s, fd->bit_offset + fd->bit_width - 1,
                                           fd->bit_offset, fv),
                            vwidth(c, fd->type), is_signed(fd->type));
            else
                fv = resize(c, fv, vwidth(c, fd->type), false);
            base_strbuf_printf(b, "%s.%s = ", first ? "" : ", ",
                               fd->name ? sym(c, fd->name) : "<anon>");
            format_value(c, b, fv, fd->type, depth + 1);
            first = false;
        }
        base_strbuf_puts(b, "}");
    } else if (t->kind == IR_T_ARRAY && t->to && t->to->size && depth < 4 &&
               (uint64_t)w == t->size * 8) {
        uint64_t es = t->to->size, n = t->size / es;
        base_strbuf_puts(b, "{");
        for (uint64_t i = 0; i < n && i < 16; i++) {
            bmc_smt_term ev = bmc_smt_extract(c->s, (uint32_t)((i + 1) * es * 8 - 1),
                                      (uint32_t)(i * es * 8), v);
            base_strbuf_puts(b, i ? ", " : "");
            format_value(c, b, resize(c, ev, vwidth(c, t->to), false), t->to, depth + 1);
        }
        base_strbuf_puts(b, n > 16 ? ", ...}" : "}");
    } else {
        base_strbuf_puts(b, "{");
        uint32_t nb = w / 8;
        for (uint32_t i = 0; i < nb && i < 64; i++) {
            bmc_smt_term byte = bmc_smt_extract(c->s, 8 * i + 7, 8 * i, v);
            base_strbuf_printf(b, "%s0x%02x", i ? ", " : "", (unsigned)bmc_smt_model_bv(c->s, byte));
        }
        base_strbuf_puts(b, nb > 64 ? ", ...}" : "}");
    }
}

static trace_value model_value(ctx *c, bmc_smt_term v, const ir_type *t)
{
    trace_value r = { .type = t };
    base_strbuf b = { 0 };
    r.bits = model_low(c, v);
    format_value(c, &b, v, t, 0);
    r.text = adup(c, base_strbuf_cstr(&b));
    base_strbuf_free(&b);
    return r;
}

/* Gives t a Boolean variable equal to it: reading a variable in a model is
 * a lookup, evaluating a deep guard is not, and traces read thousands. */
static void name_guard(ctx *c, bmc_smt_term t)
{
    uint64_t x;
    if (bmc_smt_is_true(c->s, t) || bmc_smt_is_false(c->s, t) ||
        base_hashmap_get(&c->gvar, t, &x))
        return;
    bmc_smt_term v = bmc_smt_bool_var(c->s, "g");
    bmc_smt_assert(c->s, bmc_smt_eq(c->s, v, t));
    base_hashmap_put(&c->gvar, t, v);
}

/* Whether t holds in the last model (memoised until the next solve). */
static bool holds(ctx *c, bmc_smt_term t)
{
    uint64_t x;
    if (base_hashmap_get(&c->gval, t, &x))
        return x != 0;
    bmc_smt_term v = base_hashmap_get(&c->gvar, t, &x) ? (bmc_smt_term)x : t;
    bool r = bmc_smt_model_bool(c->s, v);
    base_hashmap_put(&c->gval, t, r);
    return r;
}

/* The concurrent mode: an event's place in the model's interleaving. */
typedef struct tkey {
    uint64_t key;
    uint32_t thread;
    size_t ev;
} tkey;

static tkey trace_key(ctx *c, size_t ev)
{
    tkey k = { 0, 0, ev };
    k.key = c->hk->step_key(c->hk->ud, ev, &k.thread);
    return k;
}

static int tkey_cmp(const void *a, const void *b)
{
    const tkey *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The trace up to event fail_ev; the concurrent mode: every event that ran
 * with a key up to fail_ev's (or up to *bound when not NULL). */
static void build_trace(ctx *c, size_t fail_ev, const tkey *bound)
{
    BASE_VEC(trace_step) steps = { 0 };
    size_t nsel = fail_ev + 1;
    tkey *sel = NULL;
    if (c->hk) { /* every event that ran before the failure, in the interleaving's order */
        tkey fk = bound ? *bound : trace_key(c, fail_ev);
        sel = base_xmalloc((c->evs.len + 1) * sizeof *sel);
        nsel = 0;
        for (size_t i = 0; i < c->evs.len; i++) {
            const event *e = &c->evs.data[i];
            if (e->kind == EV_APPROX || !holds(c, e->guard))
                continue;
            tkey k = trace_key(c, i);
            if (tkey_cmp(&k, &fk) <= 0)
                sel[nsel++] = k;
        }
        qsort(sel, nsel, sizeof *sel, tkey_cmp);
    }
    for (size_t j = 0; j < nsel; j++) {
        size_t i = sel ? sel[j].ev : j;
        const event *e = &c->evs.data[i];
        if (e->kind == EV_APPROX || !holds(c, e->guard))
            continue;
        trace_step st = { .kind = (trace_step_kind)e->kind, .func = e->func, .stmt = e->stmt,
                        .loc = e->loc, .depth = e->depth, .callee = e->callee,
                        .external = e->external, .target = e->target, .message = e->message };
        if (e->lhs) {
            base_strbuf b = { 0 };
            ir_print_expr(&b, c->p, e->lhs);
            st.lhs = adup(c, base_strbuf_cstr(&b));
            base_strbuf_free(&b);
            if (e->lhs->kind == IR_E_VAR)
                st.var = e->lhs->var;
        }
        if (e->value)
            st.value = model_value(c, e->value, e->type);
        else if (e->text) {
            st.value.type = e->type;
            st.value.text = e->text;
        }
        if (e->kind == TRACE_STEP_ALLOC)
            st.alloc_size = model_low(c, e->size);
        if (e->kind == TRACE_STEP_CALL && e->nargs) {
            trace_value *av = BASE_ARENA_ARRAY(&c->r->arena, trace_value, e->nargs);
            for (uint32_t k = 0; k < e->nargs; k++)
                av[k] = model_value(c, e->args[k], e->arg_types[k]);
            st.args = av;
            st.nargs = e->nargs;
        }
        if (sel)
            st.thread = sel[j].thread;
        base_vec_push(&steps, st);
    }
    free(sel);
    c->r->nsteps = steps.len;
    c->r->steps = BASE_ARENA_ARRAY(&c->r->arena, trace_step, steps.len ? steps.len : 1);
    if (steps.len)
        memcpy(c->r->steps, steps.data, steps.len * sizeof *steps.data);
    base_vec_free(&steps);
}

static unsigned remaining_ms(const ctx *c)
{
    if (c->o.timeout_s <= 0)
        return 0;
    double left = c->o.timeout_s - (base_now() - c->t0);
    return left < 0.001 ? 1 : (unsigned)(left * 1000);
}

static bmc_smt_result solve(ctx *c, bmc_smt_term *assumptions, size_t n)
{
    double t = base_now();
    bmc_smt_result res = bmc_smt_check(c->s, assumptions, n, remaining_ms(c));
    /* a lazy theory's model is believed once it adds nothing */
    int more;
    while (res == BMC_SMT_SAT && c->refine && (more = c->refine(c->refine_ud)) != 0) {
        if (more < 0) {
            c->refine_failed = true;
            res = BMC_SMT_UNKNOWN;
            break;
        }
        c->r->stats.refinements++;
        c->r->stats.solver_calls++;
        res = bmc_smt_check(c->s, assumptions, n, remaining_ms(c));
    }
    base_hashmap_clear(&c->gval);
    c->r->stats.solve_s += base_now() - t;
    c->r->stats.solver_calls++;
    return res;
}

static void set_unknown(ctx *c, const char *reason, base_srcloc loc)
{
    c->r->verdict = TRACE_UNKNOWN;
    c->r->reason = adup(c, reason);
    c->r->reason_loc = loc;
}

static void solver_unknown(ctx *c)
{
    char buf[300];
    const char *why = c->refine_failed ? "the lazy theory could not be evaluated"
                                       : bmc_smt_reason(c->s);
    if (!c->refine_failed && (strstr(why, "timeout") || strstr(why, "canceled")))
        snprintf(buf, sizeof buf, "timeout (%.0f s) while solving", named_budget(c));
    else
        snprintf(buf, sizeof buf, "the solver gave up: %s", why);
    set_unknown(c, buf, (base_srcloc){ 0 });
}

/* The first ASSERT event that fails in the model; the approximation
 * events before it that ran. */
static size_t failing_event(ctx *c, const event **approx_hit)
{
    *approx_hit = NULL;
    if (c->hk) { /* threads: the earliest failure; any approximation that ran */
        size_t best = SIZE_MAX;
        tkey bk = { 0 };
        for (size_t i = 0; i < c->evs.len; i++) {
            const event *e = &c->evs.data[i];
            if (e->kind == EV_APPROX && !*approx_hit && holds(c, e->guard))
                *approx_hit = e;
            if (e->kind == TRACE_STEP_ASSERT && holds(c, e->fail)) {
                tkey k = trace_key(c, i);
                if (best == SIZE_MAX || tkey_cmp(&k, &bk) < 0) {
                    best = i;
                    bk = k;
                }
            }
        }
        return best;
    }
    for (size_t i = 0; i < c->evs.len; i++) {
        const event *e = &c->evs.data[i];
        if (e->kind == EV_APPROX && !*approx_hit && holds(c, e->guard))
            *approx_hit = e;
        if (e->kind == TRACE_STEP_ASSERT && holds(c, e->fail))
            return i;
    }
    return SIZE_MAX;
}

/* Decides: a failing assertion, or (g not NULL) the caller's goal; then,
 * when none is found, the unwinding assertions (for a goal: g->cuts). */
static void decide(ctx *c, const bmc_conc_goal *g)
{
    bmc_smt_solver *s = c->s;
    trace_result *r = c->r;
    bmc_smt_term bug = bmc_smt_false(s), exact = bmc_smt_true(s), cuts = bmc_smt_false(s);
    for (size_t i = 0; i < c->evs.len; i++) {
        const event *e = &c->evs.data[i];
        if (e->kind == TRACE_STEP_ASSERT && !g)
            bug = bmc_smt_or(s, bug, e->fail);
        else if (e->kind == EV_APPROX)
            exact = bmc_smt_and(s, exact, bmc_smt_not(s, e->guard));
    }
    if (g)
        bug = g->goal;
    for (size_t i = 0; i < c->cuts.len; i++) {
        cuts = bmc_smt_or(s, cuts, c->cuts.data[i].guard);
        name_guard(c, c->cuts.data[i].guard);
    }
    for (size_t i = 0; i < c->evs.len; i++) {
        name_guard(c, c->evs.data[i].guard);
        if (c->evs.data[i].kind == TRACE_STEP_ASSERT)
            name_guard(c, c->evs.data[i].fail);
    }
    bmc_smt_term a_bug = bmc_smt_bool_var(s, "bug"), a_exact = bmc_smt_bool_var(s, "exact");
    bmc_smt_term a_cut = bmc_smt_bool_var(s, "cut");
    bmc_smt_assert(s, bmc_smt_implies(s, a_bug, bug));
    bmc_smt_assert(s, bmc_smt_implies(s, a_exact, exact));
    bmc_smt_assert(s, bmc_smt_implies(s, a_cut, cuts));
    r->stats.encode_s = base_now() - c->t0;

    bmc_smt_term as[2] = { a_bug, 0 };
    bmc_smt_result res = bmc_smt_is_false(s, bug) ? BMC_SMT_UNSAT : solve(c, as, 1);
    const event *hit = NULL;
    size_t fe = SIZE_MAX;
    if (res == BMC_SMT_SAT) {
        fe = failing_event(c, &hit);
        if (hit) { /* look for a counterexample that needs no approximation */
            const event *first = hit;
            as[1] = a_exact;
            res = solve(c, as, 2);
            if (res == BMC_SMT_SAT)
                fe = failing_event(c, &hit);
            else if (res == BMC_SMT_UNSAT) {
                char buf[300];
                snprintf(buf, sizeof buf,
                         "%s, but only through %s, which is not modelled",
                         g ? g->what : "an assertion may fail", first->text);
                set_unknown(c, buf, first->loc);
                return;
            }
        }
    }
    if (res == BMC_SMT_UNKNOWN) {
        solver_unknown(c);
        return;
    }
    if (res == BMC_SMT_SAT && g) {
        r->verdict = TRACE_BUG;
        tkey bound = { 0, 0, SIZE_MAX };
        bound.key = g->found(g->ud, &bound.thread, &r->message, &r->loc);
        build_trace(c, 0, &bound);
        return;
    }
    if (res == BMC_SMT_SAT) {
        if (fe == SIZE_MAX) {
            set_unknown(c, "internal: no failing assertion in the model", (base_srcloc){ 0 });
            return;
        }
        const event *e = &c->evs.data[fe];
        r->verdict = TRACE_BUG;
        r->message = e->message;
        r->func = e->func;
        r->stmt = e->stmt;
        r->loc = e->loc;
        build_trace(c, fe, NULL);
        return;
    }
    r->verdict = TRACE_SAFE_WITHIN_BOUNDS;
    r->unwinding_checked = c->o.unwinding_assertions && (!g || g->cuts);
    r->unwinding_ok = true;
    if (!r->unwinding_checked || bmc_smt_is_false(s, cuts))
        return;
    res = solve(c, &a_cut, 1);
    if (res == BMC_SMT_UNKNOWN) {
        solver_unknown(c);
        return;
    }
    if (res == BMC_SMT_SAT) {
        r->unwinding_ok = false;
        for (size_t i = 0; i < c->cuts.len; i++)
            if (holds(c, c->cuts.data[i].guard)) {
                const cut *ct = &c->cuts.data[i];
                r->cut_is_recursion = ct->rec;
                r->cut_func = ct->f;
                r->cut_stmt = ct->stmt;
                r->cut_loc = ct->loc;
                break;
            }
    }
}

void bmc_opts_init(bmc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->unwind = 3;
    o->unwinding_assertions = true;
    o->max_terms = 5000000;
}

/* Sets c up for p (the result r, the initial state *st: globals zero,
 * string literals stored). hk: the concurrent mode. */
static void ctx_setup(ctx *c, const ir_program *p, const bmc_opts *o, trace_result *r,
                      const bmc_conc_hooks *hk, state *st)
{
    memset(r, 0, sizeof *r);
    base_arena_init(&r->arena);
    memset(c, 0, sizeof *c);
    c->p = p;
    c->r = r;
    c->hk = hk;
    if (o)
        c->o = *o;
    else
        bmc_opts_init(&c->o);
    if (c->o.unwind < 1)
        c->o.unwind = 1;
    if (c->o.max_terms == 0)
        c->o.max_terms = 5000000;
    r->unwind = c->o.unwind;
    c->t0 = base_now();
    c->pw = p->ptr_bytes ? p->ptr_bytes * 8 : 64;
    c->next_addr = 0x1000;
    c->s = c->o.solver != BMC_SMT_DEFAULT ? bmc_smt_new_of(c->o.solver) : bmc_smt_new();
    bmc_smt_set_clause_cap(c->s, c->o.clause_cap);
    base_hashmap_init(&c->taken);
    base_hashmap_init(&c->finfos);
    base_hashmap_init(&c->faddr);
    base_hashmap_init(&c->saddr);
    base_hashmap_init(&c->gvar);
    base_hashmap_init(&c->gval);

    *st = (state){ bmc_smt_true(c->s), bmc_smt_array_const(c->s, c->pw, bvc(c, 8, 0)), NULL,
                   p->nglobals, 0 };
    st->regs = base_xcalloc(p->nglobals + 1, sizeof *st->regs);
    scan_program(c, st);
    c->gaddr = base_xcalloc(p->nglobals + 1, sizeof *c->gaddr);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const ir_var *v = p->globals[i];
        uint64_t x;
        if (hk && v->is_thread_local)
            stop(c, v->loc, "unsupported construct: a thread-local variable ('%s')",
                 sym(c, v->name));
        if (hk || !ir_type_is_scalar(v->type) || v->address_taken ||
            base_hashmap_get(&c->taken, (uint64_t)(uintptr_t)v, &x))
            c->gaddr[i] = bvc(c, c->pw, new_obj(c, tsize(c, v->type), sym(c, v->name), v->type, false));
        else
            st->regs[i] = bvc(c, vwidth(c, v->type), 0);
    }
    c->mem0 = st->mem;
}

static void ctx_teardown(ctx *c)
{
    trace_result *r = c->r;
    r->stats.terms = bmc_smt_num_terms(c->s);
    r->stats.smt_asserts = bmc_smt_num_asserts(c->s);
    r->stats.array_selects = bmc_smt_num_array_selects(c->s);
    if (r->stats.encode_s == 0)
        r->stats.encode_s = base_now() - c->t0;
    bmc_smt_free(c->s);
    for (size_t i = 0; i < c->fis.len; i++) {
        free(c->fis.data[i].last_back);
        free(c->fis.data[i].in_mem);
        free(c->fis.data[i].reduce);
    }
    base_vec_free(&c->fis);
    base_vec_free(&c->objs);
    base_vec_free(&c->evs);
    base_vec_free(&c->cuts);
    base_vec_free(&c->stack);
    free(c->gaddr);
    base_hashmap_free(&c->taken);
    base_hashmap_free(&c->finfos);
    base_hashmap_free(&c->faddr);
    base_hashmap_free(&c->saddr);
    base_hashmap_free(&c->gvar);
    base_hashmap_free(&c->gval);
}

trace_verdict bmc_check(const ir_program *p, const ir_func *entry, const bmc_opts *o,
                        trace_result *r)
{
    ctx c;
    state st;
    ctx_setup(&c, p, o, r, NULL, &st);
    if (!entry || !entry->has_body) {
        set_unknown(&c, "the entry function has no body", entry ? entry->loc : (base_srcloc){ 0 });
    } else {
        bmc_smt_term rv;
        if (p->init && p->init->has_body)
            run_function(&c, p->init, &st, NULL, NULL, 0, &rv);
        if (!c.stop)
            run_function(&c, entry, &st, NULL, NULL, 0, &rv);
        if (c.stop)
            set_unknown(&c, c.stop_reason, c.stop_loc);
        else
            decide(&c, NULL);
    }
    st_free(&st);
    ctx_teardown(&c);
    return r->verdict;
}

/* --- the concurrent mode (bmc_conc.h) --- */

struct bmc_conc {
    ctx c;
};

bmc_conc *bmc_conc_new(const ir_program *p, const bmc_opts *o, const bmc_conc_hooks *h,
                       trace_result *r)
{
    bmc_conc *b = base_xcalloc(1, sizeof *b);
    state st;
    ctx_setup(&b->c, p, o, r, h, &st);
    st_free(&st);
    return b;
}

void bmc_conc_free(bmc_conc *b)
{
    if (!b)
        return;
    ctx_teardown(&b->c);
    free(b);
}

bmc_smt_solver *bmc_conc_solver(bmc_conc *b) { return b->c.s; }

void bmc_conc_set_refine(bmc_conc *b, int (*refine)(void *ud), void *ud)
{
    b->c.refine = refine;
    b->c.refine_ud = ud;
}
uint32_t bmc_conc_ptr_bits(const bmc_conc *b) { return b->c.pw; }
bmc_smt_term bmc_conc_init_mem(const bmc_conc *b) { return b->c.mem0; }
bmc_smt_term bmc_conc_func_addr(bmc_conc *b, const ir_func *f) { return func_addr(&b->c, f); }
size_t bmc_conc_nevents(const bmc_conc *b) { return b->c.evs.len; }
bool bmc_conc_stopped(const bmc_conc *b) { return b->c.stop; }

void bmc_conc_stop(bmc_conc *b, base_srcloc loc, const char *reason)
{
    stop(&b->c, loc, "%s", reason);
}

void bmc_conc_run(bmc_conc *b, const ir_func *f, bmc_smt_term guard, const bmc_smt_term *args,
                  const ir_type *const *types, uint32_t nargs, bmc_smt_term *exit_guard,
                  bmc_smt_term *ret)
{
    ctx *c = &b->c;
    state st = { guard, c->mem0, NULL, c->p->nglobals, 0 };
    st.regs = base_xcalloc(c->p->nglobals + 1, sizeof *st.regs);
    bmc_smt_term rv = 0;
    if (!c->stop && f->has_body)
        run_function(c, f, &st, args, types, nargs, &rv);
    else if (!f->has_body)
        stop(c, f->loc, "the function '%s' has no body", sym(c, f->name));
    *exit_guard = st.guard ? st.guard : bmc_smt_false(c->s);
    *ret = rv;
    st_free(&st);
}

void bmc_conc_add_cut(bmc_conc *b, bmc_smt_term guard, const ir_func *f, uint32_t stmt,
                      base_srcloc loc)
{
    cut ct = { guard, f, stmt, loc, false };
    base_vec_push(&b->c.cuts, ct);
    b->c.r->stats.cuts++;
}

bmc_smt_term bmc_conc_name(bmc_conc *b, bmc_smt_term t)
{
    ctx *c = &b->c;
    name_guard(c, t);
    uint64_t x;
    return base_hashmap_get(&c->gvar, t, &x) ? (bmc_smt_term)x : t;
}

trace_verdict bmc_conc_decide(bmc_conc *b)
{
    return bmc_conc_decide_goal(b, NULL);
}

trace_verdict bmc_conc_decide_goal(bmc_conc *b, const bmc_conc_goal *g)
{
    ctx *c = &b->c;
    if (c->stop) {
        set_unknown(c, c->stop_reason, c->stop_loc);
    } else {
        /* a session may decide several goals: each answer replaces the last */
        c->r->verdict = TRACE_SAFE_WITHIN_BOUNDS;
        c->r->nsteps = 0;
        c->r->steps = NULL;
        c->r->message = NULL;
        c->r->reason = NULL;
        decide(c, g);
    }
    return c->r->verdict;
}

void bmc_conc_describe(bmc_conc *b, uint64_t addr, base_strbuf *out)
{
    base_strbuf t = { 0 };
    describe_addr(&b->c, &t, addr);
    const char *d = base_strbuf_cstr(&t);
    base_strbuf_puts(out, d[0] == '&' ? d + 1 : d);
    base_strbuf_free(&t);
}

bmc_smt_term bmc_conc_in_object(bmc_conc *b, bmc_smt_term addr, uint32_t n)
{
    ctx *c = &b->c;
    uint64_t a;
    if (bmc_smt_bv_value(c->s, addr, &a)) {
        const obj *o = find_obj(c, a);
        return o && !o->is_func && a + n <= o->base + o->size ? bmc_smt_true(c->s)
                                                              : bmc_smt_false(c->s);
    }
    bmc_smt_term in = bmc_smt_false(c->s);
    bmc_smt_term wa = bmc_smt_zext(c->s, 1, addr);
    bmc_smt_term end = bmc_smt_bv_op(c->s, BMC_SMT_BV_ADD, wa, bvc(c, c->pw + 1, n));
    for (size_t i = 0; i < c->objs.len; i++) {
        const obj *o = &c->objs.data[i];
        if (o->is_func || !o->size)
            continue;
        bmc_smt_term lo = bmc_smt_bv_cmp(c->s, BMC_SMT_ULE, bvc(c, c->pw + 1, o->base), wa);
        bmc_smt_term hi = bmc_smt_bv_cmp(c->s, BMC_SMT_ULE, end, bvc(c, c->pw + 1, o->base + o->size));
        in = bmc_smt_or(c->s, in, bmc_smt_and(c->s, lo, hi));
    }
    return in;
}

bmc_conc_access bmc_conc_access_now(const bmc_conc *b, base_srcloc *loc)
{
    if (loc)
        *loc = b->c.loc;
    return b->c.access;
}
