/* kiss: the translation itself (see kiss.h for the scheme).
 *
 * Each function's statements are rebuilt into a fresh array; newidx[i] is
 * where original statement i's code (its scheduling point first) starts,
 * so original jumps are retargeted after the rebuild and every jump the
 * translation adds points forward inside the code of one statement. */
#include "kiss/kiss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/intern.h"
#include "base/vec.h"

/* Lock kinds stored in ravel_sync.kind (as glibc numbers them). */
enum { SYNC_NORMAL = 0, SYNC_RECURSIVE = 1, SYNC_ERRORCHECK = 2 };
enum { E_BUSY = 16, E_DEADLK = 35 };

typedef struct kctx {
    ir_program *p;
    const kiss_opts *o;
    base_diag *d;
    const ir_type *i32, *vptr, *b;
    ir_var *raise, *exited, *in_atomic, *cur, *next_tid, *ts_used, *ts_fn, *ts_arg, *ts_tid, *done;
    ir_func *schedule, *run;
    BASE_VEC(const ir_func *) threads;
    /* the function being rebuilt */
    ir_func *f;
    base_srcloc loc;
    uint32_t origin;
    ir_var *choice; /* the function's nondet choice for raising */
    uint32_t nlocals; /* numbers the locals the translation adds */
    /* race instrumentation */
    ir_var *race_access, *race_addr, *race_tid, *race_site, *race_atomic;
    BASE_VEC(kiss_race_site) sites;
    ir_func *orig_f;   /* the function as the user wrote it (same object) */
    uint32_t orig_stmt;
} kctx;

/* A local the translation adds to the function being rebuilt: base.N. */
static ir_var *klocal(kctx *k, const char *base, const ir_type *t)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%u", base, ++k->nlocals);
    return ir_add_local(k->p, k->f, name, t, k->loc);
}

/* --- emitting --- */

static uint32_t emit(kctx *k, ir_stmt_kind kind)
{
    uint32_t s = ir_emit(k->p, k->f, kind, k->loc);
    k->f->stmts[s].origin = k->origin;
    return s;
}

static const ir_expr *V(kctx *k, const ir_var *v)
{
    return ir_var_ref(k->p, v);
}

static const ir_expr *C(kctx *k, int64_t v)
{
    return ir_const(k->p, k->i32, v);
}

static const ir_expr *bin(kctx *k, ir_op op, const ir_expr *a, const ir_expr *b)
{
    return ir_binary(k->p, op, k->i32, a, b);
}

static const ir_expr *at(kctx *k, ir_var *arr, const ir_expr *i)
{
    return ir_index(k->p, V(k, arr), i);
}

static void assign(kctx *k, const ir_expr *l, const ir_expr *r)
{
    uint32_t s = emit(k, IR_S_ASSIGN);
    k->f->stmts[s].lhs = l;
    k->f->stmts[s].rhs = ir_cast(k->p, l->type, r);
}

static uint32_t jump(kctx *k, const ir_expr *guard, uint32_t target)
{
    uint32_t s = emit(k, IR_S_GOTO);
    uint32_t *t = BASE_ARENA_NEW(&k->p->arena, uint32_t);
    *t = target;
    k->f->stmts[s].targets = t;
    k->f->stmts[s].ntargets = 1;
    k->f->stmts[s].rhs = guard;
    return s;
}

static void land(kctx *k, uint32_t jump_stmt)
{
    k->f->stmts[jump_stmt].targets[0] = k->f->nstmts;
}

static void assume(kctx *k, const ir_expr *c)
{
    uint32_t s = emit(k, IR_S_ASSUME);
    k->f->stmts[s].rhs = c;
}

static void call(kctx *k, const ir_func *g, const ir_expr **args, uint32_t nargs)
{
    uint32_t s = emit(k, IR_S_CALL);
    k->f->stmts[s].callee = ir_func_ref(k->p, g);
    k->f->stmts[s].args = args;
    k->f->stmts[s].nargs = nargs;
}

static void ret(kctx *k)
{
    uint32_t s = emit(k, IR_S_RETURN);
    const ir_type *rt = k->f->type->to;
    if (rt && rt->kind != IR_T_VOID)
        k->f->stmts[s].rhs = ir_const(k->p, rt, 0); /* never used: the caller sees raise */
}

/* if (raise) return; */
static void return_if_raised(kctx *k)
{
    uint32_t j = jump(k, bin(k, IR_OP_EQ, V(k, k->raise), C(k, 0)), 0);
    ret(k);
    land(k, j);
}

/* kiss.schedule(); choice { skip [] raise = 1; return } */
static void scheduling_point(kctx *k, bool may_raise)
{
    call(k, k->schedule, NULL, 0);
    if (!may_raise)
        return;
    assign(k, V(k, k->choice), ir_nondet(k->p, k->b));
    const ir_expr *go = ir_binary(k->p, IR_OP_LAND, k->i32, V(k, k->choice),
                                  bin(k, IR_OP_EQ, V(k, k->in_atomic), C(k, 0)));
    uint32_t j = jump(k, ir_unary(k->p, IR_OP_LNOT, k->i32, go), 0);
    assign(k, V(k, k->raise), C(k, 1));
    ret(k);
    land(k, j);
}

/* --- visibility --- */

static bool shared(const ir_expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case IR_E_VAR: return e->var->kind == IR_V_GLOBAL || e->var->address_taken;
    case IR_E_DEREF: return true;
    case IR_E_ADDR:
        if (e->a->kind == IR_E_VAR)
            return false; /* &x reads nothing */
        break;
    case IR_E_CONST:
    case IR_E_FUNC:
    case IR_E_STRING:
    case IR_E_NONDET: return false;
    default: break;
    }
    return shared(e->a) || shared(e->b) || shared(e->c);
}

static bool visible(const ir_stmt *s)
{
    switch (s->kind) {
    case IR_S_SKIP:
    case IR_S_ATOMIC_BEGIN:
    case IR_S_ATOMIC_END: return false;
    case IR_S_ASSIGN:
    case IR_S_ASSUME:
    case IR_S_ASSERT:
    case IR_S_GOTO: return shared(s->lhs) || shared(s->rhs);
    default: return true;
    }
}

/* --- synchronisation objects --- */

static void retype_sync(kctx *k, const ir_type *t, base_hashmap *seen);

static void retype_expr(kctx *k, const ir_expr *e, base_hashmap *seen)
{
    if (!e)
        return;
    retype_sync(k, e->type, seen);
    retype_expr(k, e->a, seen);
    retype_expr(k, e->b, seen);
    retype_expr(k, e->c, seen);
}

/* Turns every IR_T_MUTEX into struct ravel_sync { i32 owner; i32 count;
 * i32 kind; } of the same size (only owner when the object is smaller, as
 * pthread_spinlock_t is). */
static void retype_sync(kctx *k, const ir_type *ct, base_hashmap *seen)
{
    uint64_t dummy;
    if (!ct || base_hashmap_get(seen, (uint64_t)(uintptr_t)ct, &dummy))
        return;
    base_hashmap_put(seen, (uint64_t)(uintptr_t)ct, 1);
    ir_type *t = (ir_type *)ct; /* types live in the program's arena; the translation owns it */
    switch (t->kind) {
    case IR_T_MUTEX: {
        uint32_t n = t->size >= 12 ? 3 : 1;
        static const char *const names[] = { "owner", "count", "kind" };
        ir_field *fs = BASE_ARENA_ARRAY(&k->p->arena, ir_field, n);
        for (uint32_t i = 0; i < n; i++) {
            fs[i].name = base_intern_cstr(k->p->syms, names[i]);
            fs[i].type = k->i32;
            fs[i].offset = 4 * i;
        }
        t->kind = IR_T_STRUCT;
        t->tag = base_intern_cstr(k->p->syms, n == 3 ? "ravel_sync" : "ravel_spin");
        t->fields = fs;
        t->nfields = n;
        if (t->size < 4 * n)
            t->size = 4 * n;
        t->align = 4;
        return;
    }
    case IR_T_PTR:
    case IR_T_ARRAY: retype_sync(k, t->to, seen); return;
    case IR_T_STRUCT:
    case IR_T_UNION:
        for (uint32_t i = 0; i < t->nfields; i++)
            retype_sync(k, t->fields[i].type, seen);
        return;
    case IR_T_FUNC:
        retype_sync(k, t->to, seen);
        for (uint32_t i = 0; i < t->nparams; i++)
            retype_sync(k, t->params[i], seen);
        return;
    default: return;
    }
}

static void retype_program(kctx *k)
{
    base_hashmap seen;
    base_hashmap_init(&seen);
    for (uint32_t i = 0; i < k->p->nglobals; i++)
        retype_sync(k, k->p->globals[i]->type, &seen);
    for (uint32_t fi = 0; fi < k->p->nfuncs; fi++) {
        ir_func *f = k->p->funcs[fi];
        retype_sync(k, f->type, &seen);
        for (uint32_t i = 0; i < f->nparams; i++)
            retype_sync(k, f->params[i]->type, &seen);
        for (uint32_t i = 0; i < f->nlocals; i++)
            retype_sync(k, f->locals[i]->type, &seen);
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            retype_expr(k, s->lhs, &seen);
            retype_expr(k, s->rhs, &seen);
            retype_expr(k, s->callee, &seen);
            for (uint32_t a = 0; a < s->nargs; a++)
                retype_expr(k, s->args[a], &seen);
        }
    }
    base_hashmap_free(&seen);
}

static const ir_expr *object(kctx *k, const ir_expr *ptr)
{
    if (ptr->kind == IR_E_ADDR)
        return ptr->a;
    return ir_deref(k->p, ptr);
}

static const ir_expr *sync_field(kctx *k, const ir_expr *obj, uint32_t i)
{
    if (obj->type->kind != IR_T_STRUCT || i >= obj->type->nfields)
        return NULL;
    return ir_member(k->p, obj, i);
}

static const ir_expr *me(kctx *k)
{
    return bin(k, IR_OP_ADD, V(k, k->cur), C(k, 1));
}

static void set_result(kctx *k, const ir_stmt *s, int64_t v)
{
    if (s->lhs)
        assign(k, s->lhs, ir_const(k->p, s->lhs->type, v));
}

static void lower_lock(kctx *k, const ir_stmt *s)
{
    const ir_expr *obj = object(k, s->rhs);
    const ir_expr *owner = sync_field(k, obj, 0), *count = sync_field(k, obj, 1),
                  *kind = sync_field(k, obj, 2);
    if (!owner) {
        base_diag_error(k->d, s->loc, "internal: a lock operation on an object that is not a lock");
        return;
    }
    bool rw = s->lock_kind == IR_LOCK_RW_READ || s->lock_kind == IR_LOCK_RW_WRITE;
    if (rw) {
        bool rd = s->lock_kind == IR_LOCK_RW_READ;
        const ir_expr *free_now = rd ? bin(k, IR_OP_GE, owner, C(k, 0)) : bin(k, IR_OP_EQ, owner, C(k, 0));
        if (s->is_try) {
            uint32_t j = jump(k, free_now, 0);
            set_result(k, s, E_BUSY);
            uint32_t out = jump(k, NULL, 0);
            land(k, j);
            assign(k, owner, rd ? bin(k, IR_OP_ADD, owner, C(k, 1)) : C(k, -1));
            set_result(k, s, 0);
            land(k, out);
        } else {
            assume(k, free_now);
            assign(k, owner, rd ? bin(k, IR_OP_ADD, owner, C(k, 1)) : C(k, -1));
            set_result(k, s, 0);
        }
        return;
    }
    uint32_t rec_out = UINT32_MAX, err_out = UINT32_MAX;
    if (kind) {
        /* a recursive mutex its owner locks again: count it */
        uint32_t j1 = jump(k, bin(k, IR_OP_NE, kind, C(k, SYNC_RECURSIVE)), 0);
        uint32_t j2 = jump(k, bin(k, IR_OP_NE, owner, me(k)), 0);
        assign(k, count, bin(k, IR_OP_ADD, count, C(k, 1)));
        set_result(k, s, 0);
        rec_out = jump(k, NULL, 0);
        land(k, j1);
        land(k, j2);
        /* an errorcheck mutex its owner locks again: EDEADLK */
        uint32_t j3 = jump(k, bin(k, IR_OP_NE, kind, C(k, SYNC_ERRORCHECK)), 0);
        uint32_t j4 = jump(k, bin(k, IR_OP_NE, owner, me(k)), 0);
        set_result(k, s, E_DEADLK);
        err_out = jump(k, NULL, 0);
        land(k, j3);
        land(k, j4);
    }
    if (s->is_try) {
        uint32_t j = jump(k, bin(k, IR_OP_EQ, owner, C(k, 0)), 0);
        set_result(k, s, E_BUSY);
        uint32_t out = jump(k, NULL, 0);
        land(k, j);
        assign(k, owner, me(k));
        set_result(k, s, 0);
        land(k, out);
    } else {
        assume(k, bin(k, IR_OP_EQ, owner, C(k, 0))); /* blocks until free */
        assign(k, owner, me(k));
        set_result(k, s, 0);
    }
    if (rec_out != UINT32_MAX)
        land(k, rec_out);
    if (err_out != UINT32_MAX)
        land(k, err_out);
}

static void lower_unlock(kctx *k, const ir_stmt *s)
{
    const ir_expr *obj = object(k, s->rhs);
    const ir_expr *owner = sync_field(k, obj, 0), *count = sync_field(k, obj, 1);
    if (!owner) {
        base_diag_error(k->d, s->loc, "internal: an unlock of an object that is not a lock");
        return;
    }
    if (s->lock_kind == IR_LOCK_RW) {
        uint32_t j = jump(k, bin(k, IR_OP_NE, owner, C(k, -1)), 0);
        assign(k, owner, C(k, 0));
        uint32_t out = jump(k, NULL, 0);
        land(k, j);
        assign(k, owner, bin(k, IR_OP_SUB, owner, C(k, 1)));
        land(k, out);
    } else if (count) {
        uint32_t j = jump(k, bin(k, IR_OP_LE, count, C(k, 0)), 0);
        assign(k, count, bin(k, IR_OP_SUB, count, C(k, 1)));
        uint32_t out = jump(k, NULL, 0);
        land(k, j);
        assign(k, owner, C(k, 0));
        land(k, out);
    } else {
        assign(k, owner, C(k, 0));
    }
    set_result(k, s, 0);
}

static void lower_init(kctx *k, const ir_stmt *s)
{
    const ir_expr *obj = object(k, s->rhs);
    for (uint32_t i = 0; i < 3; i++) {
        const ir_expr *fld = sync_field(k, obj, i);
        if (!fld)
            break;
        int64_t v = 0;
        if (i == 2)
            v = s->lock_kind == IR_LOCK_MUTEX_RECURSIVE ? SYNC_RECURSIVE
                : s->lock_kind == IR_LOCK_MUTEX_ERRORCHECK ? SYNC_ERRORCHECK : SYNC_NORMAL;
        assign(k, fld, C(k, v));
    }
}

/* --- threads --- */

static int32_t thread_index(kctx *k, const ir_func *g)
{
    for (size_t i = 0; i < k->threads.len; i++)
        if (k->threads.data[i] == g)
            return (int32_t)i;
    base_vec_push(&k->threads, g);
    return (int32_t)(k->threads.len - 1);
}

/* The thread function's index in kiss.run (-1: unknown). */
static const ir_expr *thread_of(kctx *k, const ir_stmt *s)
{
    if (s->callee->kind == IR_E_FUNC)
        return C(k, thread_index(k, s->callee->func));
    const ir_expr *e = C(k, -1);
    for (uint32_t i = s->ncands; i-- > 0;) {
        const ir_expr *is = ir_binary(k->p, IR_OP_EQ, k->i32, s->callee, ir_func_ref(k->p, s->cands[i]));
        e = ir_ite(k->p, k->i32, is, C(k, thread_index(k, s->cands[i])), e);
    }
    return e;
}

/* Runs thread `tid` (function index fn, argument arg) to its end or its
 * raise, on the current stack: saved = cur; cur = tid; run(fn, arg); a
 * thread that did not raise (or exited) is done; raise = 0; cur = saved. */
static void run_thread(kctx *k, ir_var *saved, const ir_expr *tid, const ir_expr *fn,
                       const ir_expr *arg)
{
    assign(k, V(k, saved), V(k, k->cur));
    assign(k, V(k, k->cur), tid);
    const ir_expr **args = BASE_ARENA_ARRAY(&k->p->arena, const ir_expr *, 2);
    args[0] = fn;
    args[1] = arg;
    call(k, k->run, args, 2);
    uint32_t j = jump(k, ir_binary(k->p, IR_OP_LAND, k->i32, V(k, k->raise),
                                   bin(k, IR_OP_EQ, V(k, k->exited), C(k, 0))), 0);
    assign(k, at(k, k->done, V(k, k->cur)), C(k, 1));
    land(k, j);
    assign(k, V(k, k->raise), C(k, 0));
    assign(k, V(k, k->exited), C(k, 0));
    assign(k, V(k, k->cur), V(k, saved));
}

static void lower_async(kctx *k, const ir_stmt *s)
{
    ir_var *tid = klocal(k, "kiss.tid", k->i32);
    assign(k, V(k, tid), V(k, k->next_tid));
    assign(k, V(k, k->next_tid), bin(k, IR_OP_ADD, V(k, k->next_tid), C(k, 1)));
    if (s->lhs)
        assign(k, s->lhs, V(k, tid));
    /* Beyond max_threads a thread is created but never runs (a schedule
     * that never picks it: a real prefix of an execution); joining it
     * blocks. */
    uint32_t dropped = jump(k, bin(k, IR_OP_GE, V(k, tid), C(k, k->o->max_threads)), 0);
    const ir_expr *fn = thread_of(k, s);
    const ir_expr *arg = s->rhs ? ir_cast(k->p, k->vptr, s->rhs) : ir_const(k->p, k->vptr, 0);
    if (s->callee->kind != IR_E_FUNC && s->ncands == 0) {
        base_diag_warning(k->d, s->loc, "the function this thread runs is unknown; "
                                        "executions that start it are not explored");
        assume(k, C(k, 0));
        land(k, dropped);
        return;
    }
    uint32_t K = k->o->pending;
    uint32_t *to_put = calloc(K ? K : 1, sizeof *to_put);
    for (uint32_t j = 0; j < K; j++)
        to_put[j] = jump(k, bin(k, IR_OP_EQ, at(k, k->ts_used, C(k, j)), C(k, 0)), 0);
    /* ts is full: run the thread now (scheduling code: no origin, so a
     * trace shows it as the new thread's, not as the creator's) */
    uint32_t origin = k->origin;
    k->origin = 0;
    run_thread(k, klocal(k, "kiss.saved", k->i32), V(k, tid), fn, arg);
    k->origin = origin;
    uint32_t *out = calloc(K + 1, sizeof *out);
    out[0] = jump(k, NULL, 0);
    for (uint32_t j = 0; j < K; j++) {
        land(k, to_put[j]);
        assign(k, at(k, k->ts_used, C(k, j)), C(k, 1));
        assign(k, at(k, k->ts_fn, C(k, j)), fn);
        assign(k, at(k, k->ts_arg, C(k, j)), arg);
        assign(k, at(k, k->ts_tid, C(k, j)), V(k, tid));
        out[j + 1] = jump(k, NULL, 0);
    }
    for (uint32_t j = 0; j <= K; j++)
        land(k, out[j]);
    land(k, dropped);
    free(to_put);
    free(out);
}

static void lower_join(kctx *k, const ir_stmt *s)
{
    const ir_expr *h = ir_cast(k->p, k->i32, s->rhs);
    assume(k, ir_binary(k->p, IR_OP_LAND, k->i32, bin(k, IR_OP_GE, h, C(k, 0)),
                        bin(k, IR_OP_LT, h, C(k, k->o->max_threads))));
    assume(k, bin(k, IR_OP_NE, at(k, k->done, h), C(k, 0)));
    if (s->nargs && s->args[0]->type->kind == IR_T_PTR && s->args[0]->type->to &&
        s->args[0]->type->to->kind == IR_T_PTR)
        assign(k, ir_deref(k->p, s->args[0]), ir_nondet(k->p, s->args[0]->type->to));
}

/* --- race instrumentation --- */

typedef struct access {
    const ir_expr *lv;
    bool write;
} access;

typedef BASE_VEC(access) access_vec;

static bool shared_lvalue(const ir_expr *e)
{
    while (e->kind == IR_E_FIELD || e->kind == IR_E_INDEX)
        e = e->a;
    if (e->kind == IR_E_DEREF)
        return true;
    return e->kind == IR_E_VAR && (e->var->kind == IR_V_GLOBAL || e->var->address_taken);
}

static void reads(const ir_expr *e, access_vec *out);

/* The reads an lvalue's path makes to find its object (p in p->f, i in a[i]). */
static void path_reads(const ir_expr *lv, access_vec *out)
{
    switch (lv->kind) {
    case IR_E_FIELD: path_reads(lv->a, out); return;
    case IR_E_INDEX: path_reads(lv->a, out); reads(lv->b, out); return;
    case IR_E_DEREF: reads(lv->a, out); return;
    default: return;
    }
}

static void reads(const ir_expr *e, access_vec *out)
{
    if (!e)
        return;
    if (ir_is_lvalue(e)) {
        if (shared_lvalue(e) && e->type && ir_type_is_scalar(e->type)) {
            access a = { e, false };
            base_vec_push(out, a);
        }
        path_reads(e, out);
        return;
    }
    if (e->kind == IR_E_ADDR) {
        path_reads(e->a, out);
        return;
    }
    reads(e->a, out);
    reads(e->b, out);
    reads(e->c, out);
}

static void write_access(const ir_expr *lv, access_vec *out)
{
    if (!lv)
        return;
    path_reads(lv, out);
    if (shared_lvalue(lv)) {
        access a = { lv, true };
        base_vec_push(out, a);
    }
}

static const char *base_name(kctx *k, const ir_expr *lv)
{
    while (lv->kind == IR_E_FIELD || lv->kind == IR_E_INDEX || lv->kind == IR_E_DEREF)
        lv = lv->a;
    return lv->kind == IR_E_VAR ? base_sym_str(k->p->syms, lv->var->name) : "";
}

/* Check against the pending access, then maybe record this one and stop. */
static void race_access(kctx *k, const access *a)
{
    const ir_expr *addr = ir_cast(k->p, k->vptr, ir_addr(k->p, a->lv));
    kiss_race_site site = { k->orig_f, k->orig_stmt, k->loc, a->write, a->lv };
    uint32_t id = (uint32_t)k->sites.len;
    base_vec_push(&k->sites, site);
    const ir_expr *conflict = ir_binary(k->p, IR_OP_LAND, k->i32,
        bin(k, IR_OP_NE, V(k, k->race_access), C(k, 0)),
        ir_binary(k->p, IR_OP_EQ, k->i32, V(k, k->race_addr), addr));
    if (!a->write)
        conflict = ir_binary(k->p, IR_OP_LAND, k->i32, conflict,
                             bin(k, IR_OP_EQ, V(k, k->race_access), C(k, 2)));
    /* not the recording thread itself; not both inside atomic sections */
    conflict = ir_binary(k->p, IR_OP_LAND, k->i32, conflict,
                         bin(k, IR_OP_NE, V(k, k->race_tid), V(k, k->cur)));
    conflict = ir_binary(k->p, IR_OP_LAND, k->i32, conflict,
        ir_binary(k->p, IR_OP_LOR, k->i32, bin(k, IR_OP_EQ, V(k, k->race_atomic), C(k, 0)),
                  bin(k, IR_OP_EQ, V(k, k->in_atomic), C(k, 0))));
    for (uint32_t e = 0; e < k->o->nexclude; e++)
        if (k->o->exclude[e].second == id)
            conflict = ir_binary(k->p, IR_OP_LAND, k->i32, conflict,
                                 bin(k, IR_OP_NE, V(k, k->race_site), C(k, k->o->exclude[e].first)));
    uint32_t j = jump(k, ir_unary(k->p, IR_OP_LNOT, k->i32, conflict), 0);
    uint32_t s = emit(k, IR_S_ASSERT);
    k->f->stmts[s].rhs = C(k, 0);
    char *msg = base_arena_alloc(&k->p->arena, 64);
    snprintf(msg, 64, "data race at site %u", id);
    k->f->stmts[s].message = msg;
    land(k, j);
    if (k->o->location && strcmp(base_name(k, a->lv), k->o->location) != 0)
        return;
    assign(k, V(k, k->choice), ir_nondet(k->p, k->b));
    const ir_expr *go = ir_binary(k->p, IR_OP_LAND, k->i32, V(k, k->choice),
                                  bin(k, IR_OP_EQ, V(k, k->race_access), C(k, 0)));
    uint32_t j2 = jump(k, ir_unary(k->p, IR_OP_LNOT, k->i32, go), 0);
    assign(k, V(k, k->race_access), C(k, a->write ? 2 : 1));
    assign(k, V(k, k->race_addr), addr);
    assign(k, V(k, k->race_tid), V(k, k->cur));
    assign(k, V(k, k->race_site), C(k, id));
    /* Inside an atomic section the thread cannot stop here: it stops when
     * the section ends (stop_if_recorded), its own accesses until then
     * excluded by race_tid. */
    uint32_t in_at = jump(k, bin(k, IR_OP_NE, V(k, k->in_atomic), C(k, 0)), 0);
    assign(k, V(k, k->raise), C(k, 1));
    ret(k);
    land(k, in_at);
    assign(k, V(k, k->race_atomic), C(k, 1));
    land(k, j2);
}

/* After an atomic section ends: a thread that recorded an access inside it
 * stops now. */
static void stop_if_recorded(kctx *k)
{
    if (!k->o->races)
        return;
    const ir_expr *stop = ir_binary(k->p, IR_OP_LAND, k->i32,
                                    bin(k, IR_OP_NE, V(k, k->race_atomic), C(k, 0)),
                                    bin(k, IR_OP_EQ, V(k, k->in_atomic), C(k, 0)));
    /* only the recording thread: race_atomic stays set once it stopped */
    stop = ir_binary(k->p, IR_OP_LAND, k->i32, stop,
                     bin(k, IR_OP_EQ, V(k, k->race_tid), V(k, k->cur)));
    uint32_t j = jump(k, ir_unary(k->p, IR_OP_LNOT, k->i32, stop), 0);
    assign(k, V(k, k->raise), C(k, 1));
    ret(k);
    land(k, j);
}

/* The accesses statement s makes (reads first, then its write). */
static void race_stmt(kctx *k, const ir_stmt *s)
{
    access_vec acc = { 0 };
    switch (s->kind) {
    case IR_S_ASSIGN:
    case IR_S_ALLOC:
        reads(s->rhs, &acc);
        write_access(s->lhs, &acc);
        break;
    case IR_S_CALL:
        reads(s->callee, &acc);
        for (uint32_t i = 0; i < s->nargs; i++)
            reads(s->args[i], &acc);
        write_access(s->lhs, &acc);
        break;
    case IR_S_ASYNC:
        reads(s->rhs, &acc);
        write_access(s->lhs, &acc);
        break;
    case IR_S_GOTO:
    case IR_S_ASSUME:
    case IR_S_ASSERT:
    case IR_S_RETURN:
    case IR_S_JOIN:
    case IR_S_FREE:
        reads(s->rhs, &acc);
        break;
    default: /* locks, atomics and waits synchronise */
        break;
    }
    for (size_t i = 0; i < acc.len; i++)
        race_access(k, &acc.data[i]);
    base_vec_free(&acc);
}

/* --- rewriting a function --- */

static void rewrite(kctx *k, ir_func *f)
{
    ir_stmt *old = f->stmts;
    uint32_t n = f->nstmts;
    uint32_t *newidx = calloc(n + 1, sizeof *newidx);
    bool *remap = NULL;
    size_t remap_cap = 0;
    f->stmts = NULL;
    f->nstmts = f->stmts_cap = 0;
    k->f = f;
    k->orig_f = f;
    k->choice = ir_add_local(k->p, f, "kiss.choice", k->b, f->loc);
    /* No scheduling inside atomic functions, nor in init (it runs before
     * any thread exists). */
    bool no_points = f->is_atomic || f == k->p->init;
    int depth = no_points ? 1 : 0;
    for (uint32_t i = 0; i < n; i++) {
        const ir_stmt *s = &old[i];
        newidx[i] = f->nstmts;
        k->loc = s->loc;
        k->origin = 0;
        if (s->kind == IR_S_ATOMIC_END && depth > 0 && !no_points)
            depth--;
        k->orig_stmt = i;
        if (depth == 0 && visible(s))
            scheduling_point(k, s->kind != IR_S_RETURN);
        k->origin = i + 1;
        if (depth == 0 && s->kind == IR_S_ASSIGN && shared(s->lhs) && shared(s->rhs) &&
            ir_type_is_scalar(s->lhs->type)) {
            /* x = x + 1 on shared x is a read and a later write: another
             * thread may run between them (the lost update) */
            ir_var *t = klocal(k, "kiss.v", s->rhs->type);
            if (k->o->races) {
                ir_stmt rd = { .kind = IR_S_ASSIGN, .lhs = V(k, t), .rhs = s->rhs };
                race_stmt(k, &rd);
            }
            assign(k, V(k, t), s->rhs);
            k->origin = 0;
            scheduling_point(k, true);
            k->origin = i + 1;
            if (k->o->races) {
                ir_stmt wr = { .kind = IR_S_ASSIGN, .lhs = s->lhs, .rhs = V(k, t) };
                race_stmt(k, &wr);
            }
            assign(k, s->lhs, V(k, t));
            continue;
        }
        if (k->o->races && f != k->p->init)
            race_stmt(k, s);
        if (k->o->races && s->kind == IR_S_ASSERT) {
            assume(k, s->rhs); /* a failing assertion ends the program; races are the question */
            continue;
        }
        switch (s->kind) {
        case IR_S_ASYNC: lower_async(k, s); break;
        case IR_S_JOIN: lower_join(k, s); break;
        case IR_S_LOCK: lower_lock(k, s); break;
        case IR_S_UNLOCK: lower_unlock(k, s); break;
        case IR_S_LOCK_INIT: lower_init(k, s); break;
        case IR_S_ATOMIC_BEGIN:
            assign(k, V(k, k->in_atomic), bin(k, IR_OP_ADD, V(k, k->in_atomic), C(k, 1)));
            if (!no_points)
                depth++;
            break;
        case IR_S_ATOMIC_END:
            assign(k, V(k, k->in_atomic), bin(k, IR_OP_SUB, V(k, k->in_atomic), C(k, 1)));
            stop_if_recorded(k);
            break;
        case IR_S_THREAD_EXIT:
            assign(k, V(k, k->exited), C(k, 1));
            assign(k, V(k, k->raise), C(k, 1));
            ret(k);
            break;
        case IR_S_LOCK_DESTROY:
        case IR_S_COND_WAIT:
        case IR_S_COND_SIGNAL: emit(k, IR_S_SKIP); break;
        case IR_S_CALL: {
            bool atomic_callee = s->callee->kind == IR_E_FUNC && s->callee->func->is_atomic;
            bool may_raise = s->callee->kind != IR_E_FUNC || s->callee->func->has_body;
            if (atomic_callee)
                assign(k, V(k, k->in_atomic), bin(k, IR_OP_ADD, V(k, k->in_atomic), C(k, 1)));
            uint32_t c = emit(k, IR_S_CALL);
            f->stmts[c] = *s;
            f->stmts[c].origin = i + 1;
            if (atomic_callee) {
                assign(k, V(k, k->in_atomic), bin(k, IR_OP_SUB, V(k, k->in_atomic), C(k, 1)));
                stop_if_recorded(k);
            }
            if (may_raise)
                return_if_raised(k);
            break;
        }
        default: {
            uint32_t c = emit(k, s->kind);
            f->stmts[c] = *s;
            f->stmts[c].origin = i + 1;
            if (s->kind == IR_S_GOTO) {
                if (remap_cap <= c) {
                    size_t nc = (c + 1) * 2;
                    remap = realloc(remap, nc * sizeof *remap);
                    memset(remap + remap_cap, 0, (nc - remap_cap) * sizeof *remap);
                    remap_cap = nc;
                }
                remap[c] = true;
            }
            break;
        }
        }
    }
    newidx[n] = f->nstmts;
    for (uint32_t i = 0; i < f->nstmts && i < remap_cap; i++) {
        if (!remap[i])
            continue;
        ir_stmt *s = &f->stmts[i];
        uint32_t *t = BASE_ARENA_ARRAY(&k->p->arena, uint32_t, s->ntargets);
        for (uint32_t j = 0; j < s->ntargets; j++)
            t[j] = newidx[s->targets[j] <= n ? s->targets[j] : n];
        s->targets = t;
    }
    free(remap);
    free(newidx);
    free(old);
}

/* --- thread-local storage --- */

/* A _Thread_local / __thread global becomes one copy per thread, an array
 * indexed by kiss.cur (a running thread's id is below max_threads). */
static const ir_expr *tls_subst(kctx *k, const ir_expr *e, ir_var *const *copies)
{
    if (!e)
        return NULL;
    if (e->kind == IR_E_VAR && e->var->kind == IR_V_GLOBAL && e->var->is_thread_local) {
        for (uint32_t i = 0; i < k->p->nglobals; i++)
            if (k->p->globals[i] == e->var && copies[i])
                return at(k, copies[i], V(k, k->cur));
        return e;
    }
    const ir_expr *a = tls_subst(k, e->a, copies), *b = tls_subst(k, e->b, copies),
                  *c = tls_subst(k, e->c, copies);
    if (a == e->a && b == e->b && c == e->c)
        return e;
    ir_expr *n = BASE_ARENA_NEW(&k->p->arena, ir_expr);
    *n = *e;
    n->a = a;
    n->b = b;
    n->c = c;
    return n;
}

static ir_var *global(kctx *k, const char *name, const ir_type *t);
static const ir_type *array_of(kctx *k, const ir_type *elem, uint32_t n);

static void thread_locals(kctx *k)
{
    uint32_t ng = k->p->nglobals;
    ir_var **copies = calloc(ng ? ng : 1, sizeof *copies);
    bool any = false;
    for (uint32_t i = 0; i < ng; i++) {
        ir_var *v = k->p->globals[i];
        if (!v->is_thread_local)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s.tls", base_sym_str(k->p->syms, v->name));
        copies[i] = global(k, name, array_of(k, v->type, k->o->max_threads));
        any = true;
    }
    for (uint32_t fi = 0; any && fi < k->p->nfuncs; fi++) {
        ir_func *f = k->p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            ir_stmt *s = &f->stmts[i];
            s->lhs = tls_subst(k, s->lhs, copies);
            s->rhs = tls_subst(k, s->rhs, copies);
            s->callee = tls_subst(k, s->callee, copies);
            if (s->nargs) {
                const ir_expr **args = BASE_ARENA_ARRAY(&k->p->arena, const ir_expr *, s->nargs);
                for (uint32_t a = 0; a < s->nargs; a++)
                    args[a] = tls_subst(k, s->args[a], copies);
                s->args = args;
            }
        }
    }
    /* __ravel_init ran its initialisers on copy 0 (kiss.cur is 0 then):
     * every other thread starts from the same values */
    ir_func *init = k->p->init;
    if (any && init) {
        k->f = init;
        k->origin = 0;
        k->loc = init->loc;
        /* before init's final return */
        ir_stmt last = init->nstmts ? init->stmts[init->nstmts - 1] : (ir_stmt){ 0 };
        bool had_return = init->nstmts && last.kind == IR_S_RETURN;
        if (had_return)
            init->nstmts--;
        for (uint32_t i = 0; i < ng; i++)
            for (uint32_t t = 1; copies[i] && t < k->o->max_threads; t++)
                assign(k, at(k, copies[i], C(k, t)), at(k, copies[i], C(k, 0)));
        if (had_return) {
            uint32_t r = emit(k, IR_S_RETURN);
            init->stmts[r] = last;
        }
    }
    free(copies);
}

/* --- the scheduler, the thread dispatcher, the entry --- */

static ir_func *new_func(kctx *k, const char *name, const ir_type *ret, const ir_type *const *ps,
                         uint32_t n)
{
    ir_func *f = ir_add_func(k->p, name, ir_type_func(k->p, ret, ps, n, false),
                             base_srcloc_make("<kiss>", 0, 0));
    f->external_linkage = false;
    return f;
}

/* kiss.schedule: up to K rounds; each picks a slot nondeterministically
 * and runs its thread, or stops. The slot is tested against each constant
 * j rather than used as an index, so on every path the checker knows which
 * slot runs and that it is empty while its thread runs: a scheduling point
 * inside that thread then sees only the other slots, and constant folding
 * removes what cannot run (the encoding stays small). */
static void build_schedule(kctx *k)
{
    ir_func *f = k->schedule;
    k->f = f;
    k->origin = 0;
    k->loc = f->loc;
    ir_var *c = ir_add_local(k->p, f, "kiss.pick", k->i32, k->loc);
    ir_var *saved = ir_add_local(k->p, f, "kiss.saved", k->i32, k->loc);
    BASE_VEC(uint32_t) to_ret = { 0 };
    base_vec_push(&to_ret, jump(k, bin(k, IR_OP_NE, V(k, k->in_atomic), C(k, 0)), 0));
    int32_t K = (int32_t)k->o->pending;
    for (int32_t round = 0; round < K; round++) {
        assign(k, V(k, c), ir_nondet(k->p, k->i32));
        BASE_VEC(uint32_t) next = { 0 };
        for (int32_t j = 0; j < K; j++) {
            const ir_expr *slot = C(k, j);
            const ir_expr *go = ir_binary(k->p, IR_OP_LAND, k->i32, bin(k, IR_OP_EQ, V(k, c), slot),
                                          bin(k, IR_OP_NE, at(k, k->ts_used, slot), C(k, 0)));
            uint32_t skip = jump(k, ir_unary(k->p, IR_OP_LNOT, k->i32, go), 0);
            assign(k, at(k, k->ts_used, slot), C(k, 0));
            run_thread(k, saved, at(k, k->ts_tid, slot), at(k, k->ts_fn, slot),
                       at(k, k->ts_arg, slot));
            base_vec_push(&next, jump(k, NULL, 0));
            land(k, skip);
        }
        /* the pick names no pending thread: scheduling stops */
        base_vec_push(&to_ret, jump(k, NULL, 0));
        for (size_t i = 0; i < next.len; i++)
            land(k, next.data[i]);
        base_vec_free(&next);
    }
    for (size_t i = 0; i < to_ret.len; i++)
        land(k, to_ret.data[i]);
    base_vec_free(&to_ret);
    emit(k, IR_S_RETURN);
}

static void build_run(kctx *k)
{
    ir_func *f = k->run;
    k->f = f;
    k->origin = 0;
    k->loc = f->loc;
    ir_var *fn = ir_add_param(k->p, f, "fn", k->i32, k->loc);
    ir_var *arg = ir_add_param(k->p, f, "arg", k->vptr, k->loc);
    for (size_t i = 0; i < k->threads.len; i++) {
        const ir_func *g = k->threads.data[i];
        uint32_t j = jump(k, bin(k, IR_OP_NE, V(k, fn), C(k, (int64_t)i)), 0);
        uint32_t n = g->type->nparams;
        const ir_expr **args = BASE_ARENA_ARRAY(&k->p->arena, const ir_expr *, n);
        for (uint32_t a = 0; a < n; a++)
            args[a] = a == 0 ? ir_cast(k->p, g->type->params[0], V(k, arg))
                             : ir_const(k->p, g->type->params[a], 0);
        call(k, g, args, n);
        emit(k, IR_S_RETURN);
        land(k, j);
    }
    emit(k, IR_S_RETURN);
}

static ir_var *global(kctx *k, const char *name, const ir_type *t)
{
    ir_var *v = ir_add_global(k->p, name, t, base_srcloc_make("<kiss>", 0, 0));
    v->is_static = true;
    return v;
}

static const ir_type *array_of(kctx *k, const ir_type *elem, uint32_t n)
{
    ir_type *a = BASE_ARENA_NEW(&k->p->arena, ir_type);
    a->kind = IR_T_ARRAY;
    a->to = elem;
    a->count = n;
    a->size = elem->size * n;
    a->align = elem->align;
    return a;
}

void kiss_result_free(kiss_result *r)
{
    free(r->sites);
    r->sites = NULL;
    r->nsites = 0;
}

ir_func *kiss_translate(ir_program *p, const kiss_opts *o, kiss_result *r, base_diag *d)
{
    ir_func *mainf = ir_find_func(p, "main");
    if (!mainf || !mainf->has_body) {
        const char *file = "<program>";
        for (uint32_t i = 0; i < p->nfuncs && file[0] == '<'; i++)
            if (p->funcs[i]->has_body && p->funcs[i] != p->init && p->funcs[i]->loc.file)
                file = p->funcs[i]->loc.file;
        base_diag_error(d, base_srcloc_make(file, 0, 0),
                        "the program has no main function to start from");
        return NULL;
    }
    kiss_opts defaults = { .pending = 2, .max_threads = 16 };
    if (!o)
        o = &defaults;
    kctx k = { .p = p, .o = o, .d = d };
    k.i32 = ir_type_int(p, 32, true);
    k.b = ir_type_int(p, 1, false);
    k.vptr = ir_type_ptr(p, ir_type_void(p));
    retype_program(&k);
    uint32_t K = o->pending ? o->pending : 1;
    k.raise = global(&k, KISS_RAISE, k.i32);
    k.exited = global(&k, "kiss.exited", k.i32);
    k.in_atomic = global(&k, "kiss.in_atomic", k.i32);
    k.cur = global(&k, KISS_CUR, k.i32);
    k.next_tid = global(&k, "kiss.next_tid", k.i32);
    k.ts_used = global(&k, "kiss.ts_used", array_of(&k, k.i32, K));
    k.ts_fn = global(&k, "kiss.ts_fn", array_of(&k, k.i32, K));
    k.ts_arg = global(&k, "kiss.ts_arg", array_of(&k, k.vptr, K));
    k.ts_tid = global(&k, "kiss.ts_tid", array_of(&k, k.i32, K));
    k.done = global(&k, "kiss.done", array_of(&k, k.i32, o->max_threads));
    if (o->races) {
        k.race_access = global(&k, "kiss.race_access", k.i32);
        k.race_addr = global(&k, "kiss.race_addr", k.vptr);
        k.race_tid = global(&k, KISS_RACE_TID, k.i32);
        k.race_site = global(&k, KISS_RACE_SITE, k.i32);
        k.race_atomic = global(&k, "kiss.race_atomic", k.i32);
    }
    thread_locals(&k);
    uint32_t nuser = p->nfuncs;
    k.schedule = new_func(&k, "kiss.schedule", ir_type_void(p), NULL, 0);
    const ir_type *run_ps[2] = { k.i32, k.vptr };
    k.run = new_func(&k, "kiss.run", ir_type_void(p), run_ps, 2);
    for (uint32_t i = 0; i < nuser; i++) {
        ir_func *f = p->funcs[i];
        if (f->has_body)
            rewrite(&k, f);
    }
    build_schedule(&k);
    build_run(&k);
    ir_func *entry = new_func(&k, "kiss.main", ir_type_void(p), NULL, 0);
    k.f = entry;
    k.origin = 0;
    k.loc = mainf->loc;
    assign(&k, V(&k, k.cur), C(&k, 0));
    assign(&k, V(&k, k.next_tid), C(&k, 1));
    uint32_t n = mainf->type->nparams;
    const ir_expr **args = BASE_ARENA_ARRAY(&p->arena, const ir_expr *, n);
    for (uint32_t a = 0; a < n; a++)
        args[a] = ir_const(p, mainf->type->params[a], 0);
    call(&k, mainf, args, n);
    assign(&k, V(&k, k.raise), C(&k, 0));
    assign(&k, V(&k, k.exited), C(&k, 0));
    call(&k, k.schedule, NULL, 0);
    emit(&k, IR_S_RETURN);
    base_vec_free(&k.threads);
    if (r) {
        r->sites = k.sites.data;
        r->nsites = (uint32_t)k.sites.len;
    } else {
        base_vec_free(&k.sites);
    }
    return entry;
}
