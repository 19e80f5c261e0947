/* Unit tests for deadlock: programs built by hand in the IR (as
 * tests/ir/test_ir.c does), one per rule — summaries and renaming through
 * wrappers and struct fields, cycle search (two and three locks), thread
 * concurrency (joins, loops), and each heuristic with its switch. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "deadlock/deadlock.h"
#include "ir/ir.h"
#include "ir/ir_check.h"

typedef struct tb {
    base_intern_pool syms;
    ir_program p;
    const ir_type *mtx, *vp, *i32, *fn_thread, *fn_void;
    ir_var *m[6];
    uint32_t line;
} tb;

static base_srcloc at(tb *t)
{
    return base_srcloc_make("t.c", ++t->line, 1);
}

static void tb_init(tb *t)
{
    memset(t, 0, sizeof *t);
    base_intern_init(&t->syms);
    ir_program_init(&t->p, &t->syms);
    t->mtx = ir_type_mutex(&t->p);
    t->i32 = ir_type_int(&t->p, 32, true);
    t->vp = ir_type_ptr(&t->p, ir_type_int(&t->p, 8, true));
    const ir_type *params[] = { t->vp };
    t->fn_thread = ir_type_func(&t->p, t->vp, params, 1, false);
    t->fn_void = ir_type_func(&t->p, ir_type_void(&t->p), NULL, 0, false);
    static const char *names[] = { "m1", "m2", "m3", "g", "m5", "m6" };
    for (int i = 0; i < 6; i++)
        t->m[i] = ir_add_global(&t->p, names[i], t->mtx, at(t));
    t->p.init = ir_add_func(&t->p, "__ravel_init", t->fn_void, at(t));
}

static void tb_free(tb *t)
{
    ir_program_free(&t->p);
    base_intern_free(&t->syms);
}

static ir_func *thread_fn(tb *t, const char *name)
{
    ir_func *f = ir_add_func(&t->p, name, t->fn_thread, at(t));
    ir_add_param(&t->p, f, "arg", t->vp, at(t));
    f->external_linkage = true;
    return f;
}

static void lock_op(tb *t, ir_func *f, ir_stmt_kind k, const ir_expr *ptr)
{
    uint32_t s = ir_emit(&t->p, f, k, at(t));
    f->stmts[s].rhs = ptr;
}

static void lk(tb *t, ir_func *f, int i) { lock_op(t, f, IR_S_LOCK, ir_addr(&t->p, ir_var_ref(&t->p, t->m[i]))); }
static void ul(tb *t, ir_func *f, int i) { lock_op(t, f, IR_S_UNLOCK, ir_addr(&t->p, ir_var_ref(&t->p, t->m[i]))); }

static void ret(tb *t, ir_func *f) { ir_emit(&t->p, f, IR_S_RETURN, at(t)); }

static uint32_t spawn(tb *t, ir_func *in, ir_func *f, ir_var *handle)
{
    uint32_t s = ir_emit(&t->p, in, IR_S_ASYNC, at(t));
    in->stmts[s].callee = ir_func_ref(&t->p, f);
    if (handle)
        in->stmts[s].lhs = ir_var_ref(&t->p, handle);
    return s;
}

static void join(tb *t, ir_func *in, ir_var *handle)
{
    uint32_t s = ir_emit(&t->p, in, IR_S_JOIN, at(t));
    in->stmts[s].rhs = ir_var_ref(&t->p, handle);
}

static void call(tb *t, ir_func *in, ir_func *g, const ir_expr **args, uint32_t n)
{
    uint32_t s = ir_emit(&t->p, in, IR_S_CALL, at(t));
    in->stmts[s].callee = ir_func_ref(&t->p, g);
    in->stmts[s].args = args;
    in->stmts[s].nargs = n;
}

static ir_func *main_fn(tb *t)
{
    ir_func *f = ir_add_func(&t->p, "main", ir_type_func(&t->p, t->i32, NULL, 0, false), at(t));
    f->external_linkage = true;
    return f;
}

/* thread function: lock a, lock b, unlock b, unlock a */
static ir_func *nested(tb *t, const char *name, int a, int b)
{
    ir_func *f = thread_fn(t, name);
    lk(t, f, a);
    lk(t, f, b);
    ul(t, f, b);
    ul(t, f, a);
    ret(t, f);
    return f;
}

static void run(tb *t, const deadlock_opts *o, deadlock_result *r)
{
    base_diag d;
    base_diag_init(&d);
    assert_int_equal(ir_check(&t->p, &d), 0);
    base_diag_free(&d);
    deadlock_opts def;
    deadlock_opts_default(&def);
    deadlock_analyse(&t->p, o ? o : &def, r);
}

static size_t count(const deadlock_result *r, deadlock_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        n += r->findings[i].kind == k;
    return n;
}

static void test_abba(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = nested(&t, "t1", 0, 1), *t2 = nested(&t, "t2", 1, 0);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].kind, DEADLOCK_CYCLE);
    assert_int_equal(r.findings[0].nedges, 2);
    const deadlock_edge *e = r.findings[0].edges;
    assert_string_equal(e[0].held, "m1");
    assert_string_equal(e[0].wanted, "m2");
    assert_string_equal(e[0].thread, "t1");
    assert_string_equal(e[1].held, "m2");
    assert_string_equal(e[1].thread, "t2");
    assert_non_null(e[0].thread_start);
    assert_int_equal(e[0].wanted_chain.nframes, 1);
    assert_int_equal(e[0].wanted_chain.frames[0].line, e[0].held_chain.frames[0].line + 1);
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_same_order_and_single_thread(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = nested(&t, "t1", 0, 1), *t2 = nested(&t, "t2", 0, 1);
    ir_func *t3 = thread_fn(&t, "t3"); /* inversion inside one thread */
    lk(&t, t3, 2); lk(&t, t3, 4); ul(&t, t3, 4); ul(&t, t3, 2);
    lk(&t, t3, 4); lk(&t, t3, 2); ul(&t, t3, 2); ul(&t, t3, 4);
    ret(&t, t3);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    spawn(&t, mf, t3, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.lock_order = true;
    run(&t, &o, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].kind, DEADLOCK_LOCK_ORDER);
    assert_string_equal(r.findings[0].edges[0].thread, "t3");
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_thread_in_loop(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t3 = thread_fn(&t, "worker");
    lk(&t, t3, 0); lk(&t, t3, 1); ul(&t, t3, 1); ul(&t, t3, 0);
    lk(&t, t3, 1); lk(&t, t3, 0); ul(&t, t3, 0); ul(&t, t3, 1);
    ret(&t, t3);
    ir_func *mf = main_fn(&t);
    ir_var *h = ir_add_local(&t.p, mf, "h", t.i32, at(&t));
    uint32_t s0 = spawn(&t, mf, t3, h); /* 0: async; 1: goto 0 or 2 */
    uint32_t g = ir_emit(&t.p, mf, IR_S_GOTO, at(&t));
    uint32_t *tg = BASE_ARENA_ARRAY(&t.p.arena, uint32_t, 2);
    tg[0] = s0;
    tg[1] = g + 1;
    mf->stmts[g].targets = tg;
    mf->stmts[g].ntargets = 2;
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    deadlock_result_free(&r);
    /* joined inside the loop: never two at once */
    mf->stmts[g].kind = IR_S_JOIN;
    mf->stmts[g].rhs = ir_var_ref(&t.p, h);
    mf->stmts[g].targets = NULL;
    mf->stmts[g].ntargets = 0;
    uint32_t g2 = ir_emit(&t.p, mf, IR_S_GOTO, at(&t));
    mf->stmts[g2].targets = tg;
    mf->stmts[g2].ntargets = 2;
    tg[1] = g2 + 1;
    ret(&t, mf);
    mf->stmts[g + 1].kind = IR_S_SKIP; /* the old return */
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_join_orders_threads(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = nested(&t, "t1", 0, 1), *t2 = nested(&t, "t2", 1, 0);
    ir_func *mf = main_fn(&t);
    ir_var *h = ir_add_local(&t.p, mf, "h", t.i32, at(&t));
    spawn(&t, mf, t1, h);
    join(&t, mf, h);
    spawn(&t, mf, t2, NULL);
    /* main itself inverts after the join: concurrent with t2 only */
    lk(&t, mf, 0); lk(&t, mf, 1); ul(&t, mf, 1); ul(&t, mf, 0);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    assert_string_equal(r.findings[0].edges[0].thread, "main");
    assert_null(r.findings[0].edges[0].thread_start);
    assert_string_equal(r.findings[0].edges[1].thread, "t2");
    deadlock_result_free(&r);
    tb_free(&t);
}

/* boss joins its worker before it inverts the order, but two bosses run at
 * once (started in a loop): one boss's A -> B meets the other's worker. */
static void test_nested_threads(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *worker = nested(&t, "worker", 1, 0);
    ir_func *boss = thread_fn(&t, "boss");
    ir_var *h = ir_add_local(&t.p, boss, "h", t.i32, at(&t));
    spawn(&t, boss, worker, h);
    join(&t, boss, h);
    lk(&t, boss, 0); lk(&t, boss, 1); ul(&t, boss, 1); ul(&t, boss, 0);
    ret(&t, boss);
    ir_func *mf = main_fn(&t);
    uint32_t s0 = spawn(&t, mf, boss, NULL);
    uint32_t g = ir_emit(&t.p, mf, IR_S_GOTO, at(&t));
    uint32_t *tg = BASE_ARENA_ARRAY(&t.p.arena, uint32_t, 2);
    tg[0] = s0;
    tg[1] = g + 1;
    mf->stmts[g].targets = tg;
    mf->stmts[g].ntargets = 2;
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    assert_int_equal(r.nthreads, 3);
    deadlock_result_free(&r);
    /* one boss only: the worker is joined before the inversion */
    mf->stmts[g].kind = IR_S_SKIP;
    mf->stmts[g].targets = NULL;
    mf->stmts[g].ntargets = 0;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_three_lock_cycle(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *a = nested(&t, "ta", 0, 1), *b = nested(&t, "tb", 1, 2), *c = nested(&t, "tc", 2, 0);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, a, NULL);
    spawn(&t, mf, b, NULL);
    spawn(&t, mf, c, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].nedges, 3);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.max_cycle_len = 2;
    deadlock_result_free(&r);
    run(&t, &o, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    tb_free(&t);
}

/* A gate lock taken in the callers, the inversion in callees. */
static void test_gate_lock_in_caller(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *f1 = ir_add_func(&t.p, "f1", t.fn_void, at(&t));
    lk(&t, f1, 0); lk(&t, f1, 1); ul(&t, f1, 1); ul(&t, f1, 0); ret(&t, f1);
    ir_func *f2 = ir_add_func(&t.p, "f2", t.fn_void, at(&t));
    lk(&t, f2, 1); lk(&t, f2, 0); ul(&t, f2, 0); ul(&t, f2, 1); ret(&t, f2);
    ir_func *t1 = thread_fn(&t, "t1");
    lk(&t, t1, 3); call(&t, t1, f1, NULL, 0); ul(&t, t1, 3); ret(&t, t1);
    ir_func *t2 = thread_fn(&t, "t2");
    lk(&t, t2, 3); call(&t, t2, f2, NULL, 0); ul(&t, t2, 3); ret(&t, t2);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.no_gate_locks = true;
    run(&t, &o, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    /* the chain goes through the call */
    const deadlock_edge *e = &r.findings[0].edges[0];
    assert_int_equal(e->wanted_chain.nframes, 2);
    assert_true(e->wanted_chain.frames[0].is_call);
    assert_string_equal(e->wanted_chain.frames[1].func, "f1");
    assert_int_equal(e->nguards, 2);
    deadlock_result_free(&r);
    tb_free(&t);
}

/* take(a, b) locks *a then *b: renamed at each call. */
static void test_wrapper_renaming(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    const ir_type *mp = ir_type_ptr(&t.p, t.mtx);
    const ir_type *ps[] = { mp, mp };
    ir_func *take = ir_add_func(&t.p, "take", ir_type_func(&t.p, ir_type_void(&t.p), ps, 2, false), at(&t));
    ir_var *a = ir_add_param(&t.p, take, "a", mp, at(&t));
    ir_var *b = ir_add_param(&t.p, take, "b", mp, at(&t));
    lock_op(&t, take, IR_S_LOCK, ir_var_ref(&t.p, a));
    lock_op(&t, take, IR_S_LOCK, ir_var_ref(&t.p, b));
    lock_op(&t, take, IR_S_UNLOCK, ir_var_ref(&t.p, b));
    lock_op(&t, take, IR_S_UNLOCK, ir_var_ref(&t.p, a));
    ret(&t, take);
    ir_func *t1 = thread_fn(&t, "t1"), *t2 = thread_fn(&t, "t2");
    const ir_expr **a1 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a1[0] = ir_addr(&t.p, ir_var_ref(&t.p, t.m[0]));
    a1[1] = ir_addr(&t.p, ir_var_ref(&t.p, t.m[1]));
    const ir_expr **a2 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a2[0] = a1[1];
    a2[1] = a1[0];
    call(&t, t1, take, a1, 2);
    ret(&t, t1);
    call(&t, t2, take, a2, 2);
    ret(&t, t2);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_string_equal(r.findings[0].edges[0].held, "m1");
    assert_string_equal(r.findings[0].edges[0].wanted, "m2");
    assert_string_equal(r.findings[0].edges[0].wanted_chain.frames[1].func, "take");
    deadlock_result_free(&r);
    tb_free(&t);
}

/* struct acct { int id; mutex lk; } A, B; xfer(f, t) locks &f->lk, &t->lk */
static void test_struct_field_params(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_type *st = BASE_ARENA_NEW(&t.p.arena, ir_type);
    st->kind = IR_T_STRUCT;
    st->tag = base_intern_cstr(&t.syms, "acct");
    st->nfields = 2;
    st->fields = BASE_ARENA_ARRAY(&t.p.arena, ir_field, 2);
    st->fields[0].name = base_intern_cstr(&t.syms, "id");
    st->fields[0].type = t.i32;
    st->fields[1].name = base_intern_cstr(&t.syms, "lk");
    st->fields[1].type = t.mtx;
    st->size = 8;
    ir_var *A = ir_add_global(&t.p, "A", st, at(&t)), *B = ir_add_global(&t.p, "B", st, at(&t));
    const ir_type *sp = ir_type_ptr(&t.p, st);
    const ir_type *ps[] = { sp, sp };
    ir_func *x = ir_add_func(&t.p, "xfer", ir_type_func(&t.p, ir_type_void(&t.p), ps, 2, false), at(&t));
    ir_var *f = ir_add_param(&t.p, x, "f", sp, at(&t));
    ir_var *to = ir_add_param(&t.p, x, "t", sp, at(&t));
    /* a local copy of the pointer, as lowering makes: p = f */
    ir_var *pl = ir_add_local(&t.p, x, "p", sp, at(&t));
    uint32_t s = ir_emit(&t.p, x, IR_S_ASSIGN, at(&t));
    x->stmts[s].lhs = ir_var_ref(&t.p, pl);
    x->stmts[s].rhs = ir_var_ref(&t.p, f);
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, ir_member(&t.p, ir_deref(&t.p, ir_var_ref(&t.p, pl)), 1)));
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, ir_member(&t.p, ir_deref(&t.p, ir_var_ref(&t.p, to)), 1)));
    lock_op(&t, x, IR_S_UNLOCK, ir_addr(&t.p, ir_member(&t.p, ir_deref(&t.p, ir_var_ref(&t.p, to)), 1)));
    lock_op(&t, x, IR_S_UNLOCK, ir_addr(&t.p, ir_member(&t.p, ir_deref(&t.p, ir_var_ref(&t.p, f)), 1)));
    ret(&t, x);
    ir_func *t1 = thread_fn(&t, "t1"), *t2 = thread_fn(&t, "t2");
    const ir_expr **a1 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a1[0] = ir_addr(&t.p, ir_var_ref(&t.p, A));
    a1[1] = ir_addr(&t.p, ir_var_ref(&t.p, B));
    const ir_expr **a2 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a2[0] = a1[1];
    a2[1] = a1[0];
    call(&t, t1, x, a1, 2);
    ret(&t, t1);
    call(&t, t2, x, a2, 2);
    ret(&t, t2);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_string_equal(r.findings[0].edges[0].held, "A.lk");
    assert_string_equal(r.findings[0].edges[0].wanted, "B.lk");
    deadlock_result_free(&r);
    tb_free(&t);
}

static const ir_expr *acct_field(tb *t, ir_var *p, uint32_t field)
{
    return ir_member(&t->p, ir_deref(&t->p, ir_var_ref(&t->p, p)), field);
}

static uint32_t *targets1(tb *t, uint32_t to)
{
    uint32_t *tg = BASE_ARENA_ARRAY(&t->p.arena, uint32_t, 1);
    tg[0] = to;
    return tg;
}

/* Locks ordered by a value of their owners (goblint's account example):
 *   if (f->id == t->id) return;
 *   if (f->id < t->id) { lock f; lock t } else { lock t; lock f } */
static void test_value_order(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_type *st = BASE_ARENA_NEW(&t.p.arena, ir_type);
    st->kind = IR_T_STRUCT;
    st->tag = base_intern_cstr(&t.syms, "acct");
    st->nfields = 2;
    st->fields = BASE_ARENA_ARRAY(&t.p.arena, ir_field, 2);
    st->fields[0].name = base_intern_cstr(&t.syms, "id");
    st->fields[0].type = t.i32;
    st->fields[1].name = base_intern_cstr(&t.syms, "lk");
    st->fields[1].type = t.mtx;
    st->size = 8;
    ir_var *A = ir_add_global(&t.p, "A", st, at(&t)), *B = ir_add_global(&t.p, "B", st, at(&t));
    const ir_type *sp = ir_type_ptr(&t.p, st), *b1 = ir_type_int(&t.p, 1, false);
    const ir_type *ps[] = { sp, sp };
    ir_func *x = ir_add_func(&t.p, "deposit", ir_type_func(&t.p, ir_type_void(&t.p), ps, 2, false), at(&t));
    ir_var *f = ir_add_param(&t.p, x, "f", sp, at(&t));
    ir_var *to = ir_add_param(&t.p, x, "t", sp, at(&t));
    /* 0: if (f->id == t->id) goto 11 (the return) */
    uint32_t s = ir_emit(&t.p, x, IR_S_GOTO, at(&t));
    x->stmts[s].rhs = ir_binary(&t.p, IR_OP_EQ, b1, acct_field(&t, f, 0), acct_field(&t, to, 0));
    x->stmts[s].targets = targets1(&t, 11);
    x->stmts[s].ntargets = 1;
    /* 1: if (!(f->id < t->id)) goto 5 */
    s = ir_emit(&t.p, x, IR_S_GOTO, at(&t));
    x->stmts[s].rhs = ir_unary(&t.p, IR_OP_LNOT, b1,
                               ir_binary(&t.p, IR_OP_LT, b1, acct_field(&t, f, 0), acct_field(&t, to, 0)));
    x->stmts[s].targets = targets1(&t, 5);
    x->stmts[s].ntargets = 1;
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, acct_field(&t, f, 1)));  /* 2 */
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, acct_field(&t, to, 1))); /* 3 */
    s = ir_emit(&t.p, x, IR_S_GOTO, at(&t));                           /* 4: goto 7 */
    x->stmts[s].targets = targets1(&t, 7);
    x->stmts[s].ntargets = 1;
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, acct_field(&t, to, 1))); /* 5 */
    lock_op(&t, x, IR_S_LOCK, ir_addr(&t.p, acct_field(&t, f, 1)));  /* 6 */
    s = ir_emit(&t.p, x, IR_S_ASSIGN, at(&t));                         /* 7 */
    x->stmts[s].lhs = acct_field(&t, to, 0);
    x->stmts[s].rhs = ir_const(&t.p, t.i32, 0);
    lock_op(&t, x, IR_S_UNLOCK, ir_addr(&t.p, acct_field(&t, to, 1))); /* 8 */
    lock_op(&t, x, IR_S_UNLOCK, ir_addr(&t.p, acct_field(&t, f, 1)));  /* 9 */
    ir_emit(&t.p, x, IR_S_SKIP, at(&t));                                /* 10 */
    ret(&t, x);                                                         /* 11 */
    ir_func *t1 = thread_fn(&t, "t1"), *t2 = thread_fn(&t, "t2");
    const ir_expr **a1 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a1[0] = ir_addr(&t.p, ir_var_ref(&t.p, A));
    a1[1] = ir_addr(&t.p, ir_var_ref(&t.p, B));
    const ir_expr **a2 = BASE_ARENA_ARRAY(&t.p.arena, const ir_expr *, 2);
    a2[0] = a1[1];
    a2[1] = a1[0];
    call(&t, t1, x, a1, 2);
    ret(&t, t1);
    call(&t, t2, x, a2, 2);
    ret(&t, t2);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.no_value_order = true;
    run(&t, &o, &r);
    assert_int_equal(r.nfindings, 1);
    deadlock_result_free(&r);
    /* without the equality test, A.id == B.id allows the else branches */
    x->stmts[0].kind = IR_S_SKIP;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_trylock(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = nested(&t, "t1", 0, 1);
    ir_func *t2 = thread_fn(&t, "t2");
    lk(&t, t2, 1);
    lk(&t, t2, 0);
    t2->stmts[t2->nstmts - 1].is_try = true; /* trylock(m1) while m2 held: no wait */
    lk(&t, t2, 2);                           /* m1 held afterwards: m1 -> m3 */
    ret(&t, t2);
    ir_func *t3 = nested(&t, "t3", 2, 0);    /* m3 -> m1: a real cycle with t2 */
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    deadlock_result r;
    ret(&t, mf);
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.no_trylock = true;
    run(&t, &o, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    deadlock_result_free(&r);
    /* the lock taken by trylock is held afterwards */
    mf->stmts[mf->nstmts - 1].kind = IR_S_SKIP;
    spawn(&t, mf, t3, NULL);
    ret(&t, mf);
    run(&t, NULL, &r);
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    assert_string_equal(r.findings[0].edges[0].held, "m1");
    assert_string_equal(r.findings[0].edges[0].wanted, "m3");
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_self_and_recursive(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = thread_fn(&t, "t1");
    lk(&t, t1, 0);
    lk(&t, t1, 0); /* m1 again on every path */
    ul(&t, t1, 0);
    ul(&t, t1, 0);
    ret(&t, t1);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.findings[0].kind, DEADLOCK_SELF);
    assert_string_equal(r.findings[0].edges[0].held, "m1");
    deadlock_result_free(&r);
    /* initialised recursive in the program's init function */
    uint32_t s = ir_emit(&t.p, t.p.init, IR_S_LOCK_INIT, at(&t));
    t.p.init->stmts[s].rhs = ir_addr(&t.p, ir_var_ref(&t.p, t.m[0]));
    t.p.init->stmts[s].lock_kind = IR_LOCK_MUTEX_RECURSIVE;
    ret(&t, t.p.init);
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.no_recursive = true;
    run(&t, &o, &r);
    assert_int_equal(r.nfindings, 1);
    deadlock_result_free(&r);
    tb_free(&t);
}

static void test_rwlock_read_read(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = nested(&t, "t1", 0, 1), *t2 = nested(&t, "t2", 1, 0);
    /* every acquisition of m1 is a read */
    t1->stmts[0].lock_kind = IR_LOCK_RW_READ;
    t2->stmts[1].lock_kind = IR_LOCK_RW_READ;
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    assert_int_equal(r.nfindings, 0);
    deadlock_result_free(&r);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.no_rwlock = true;
    run(&t, &o, &r);
    assert_int_equal(r.nfindings, 1);
    deadlock_result_free(&r);
    tb_free(&t);
}

/* Double lock along an infeasible path resets the lockset (heuristic 1). */
static void test_double_lock_reset(void **state)
{
    (void)state;
    tb t;
    tb_init(&t);
    ir_func *t1 = thread_fn(&t, "t1");
    /* 0: if * goto 2; 1: lock m1; 2: lock m1 (may be held); 3: lock m2 */
    uint32_t g = ir_emit(&t.p, t1, IR_S_GOTO, at(&t));
    ir_var *c = ir_add_local(&t.p, t1, "c", ir_type_int(&t.p, 1, false), at(&t));
    t1->stmts[g].rhs = ir_var_ref(&t.p, c);
    uint32_t *tg = BASE_ARENA_ARRAY(&t.p.arena, uint32_t, 1);
    tg[0] = 2;
    t1->stmts[g].targets = tg;
    t1->stmts[g].ntargets = 1;
    lk(&t, t1, 2);
    lk(&t, t1, 0);
    lk(&t, t1, 0); /* m1 may be held here: not on every path */
    ret(&t, t1);
    ir_func *t2 = nested(&t, "t2", 0, 2);
    ir_func *mf = main_fn(&t);
    spawn(&t, mf, t1, NULL);
    spawn(&t, mf, t2, NULL);
    ret(&t, mf);
    deadlock_result r;
    run(&t, NULL, &r);
    /* m3 -> m1 from t1 and m1 -> m3 from t2: a cycle */
    assert_int_equal(count(&r, DEADLOCK_CYCLE), 1);
    assert_int_equal(count(&r, DEADLOCK_SELF), 1);
    deadlock_result_free(&r);
    tb_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abba),
        cmocka_unit_test(test_same_order_and_single_thread),
        cmocka_unit_test(test_thread_in_loop),
        cmocka_unit_test(test_join_orders_threads),
        cmocka_unit_test(test_nested_threads),
        cmocka_unit_test(test_three_lock_cycle),
        cmocka_unit_test(test_gate_lock_in_caller),
        cmocka_unit_test(test_wrapper_renaming),
        cmocka_unit_test(test_struct_field_params),
        cmocka_unit_test(test_value_order),
        cmocka_unit_test(test_trylock),
        cmocka_unit_test(test_self_and_recursive),
        cmocka_unit_test(test_rwlock_read_read),
        cmocka_unit_test(test_double_lock_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
