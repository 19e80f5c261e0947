/* capi: calls, and the APIs that become IR statements instead of calls.
 *
 * A call to a function known by name (pthread, C11 threads, SV-COMP's
 * __VERIFIER_* functions, assertion failures, exit, malloc/free, GCC's
 * __sync builtins) is lowered to the statements that say what it does; C11
 * and GCC __atomic operations (clang's AtomicExpr) likewise. Every other
 * call is a CALL statement: to the function when it is named (its body is
 * lowered when it has one, else the callee is marked body-unknown), or
 * through a pointer (candidates are filled in after all files are read).
 *
 * Read-modify-write atomics become ATOMIC_BEGIN; reads and writes;
 * ATOMIC_END, so neither analysis needs to know them. Return values
 * follow the APIs: 0 for success where the operation cannot fail in the
 * model (lock, unlock, create, join). */
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

const ir_expr *cf_callee_value(cf_ctx *c, CXCursor e);

typedef struct call_info {
    CXCursor call;
    CXCursor *args;
    int nargs;
    const ir_type *ret; /* the call's type */
    bool want;
} call_info;

static const ir_expr *arg(cf_ctx *c, const call_info *ci, int i)
{
    if (i >= ci->nargs)
        cf_fail(c, ci->call, "this call needs at least %d arguments", i + 1);
    return cf_rvalue(c, ci->args[i]);
}

static bool is_null(const ir_expr *e)
{
    while (e->kind == IR_E_CAST)
        e = e->a;
    return e->kind == IR_E_CONST && e->value == 0;
}

static const ir_expr *zero_result(cf_ctx *c, const call_info *ci)
{
    if (!ci->want || ci->ret->kind == IR_T_VOID)
        return NULL;
    return cf_const_int(c, ci->ret, 0);
}

/* The object a pointer expression points to: *p, or x for &x. */
static const ir_expr *pointee(cf_ctx *c, const ir_expr *ptr)
{
    if (ptr->kind == IR_E_ADDR)
        return ptr->a;
    if (ptr->type->kind != IR_T_PTR)
        return NULL;
    return ir_deref(c->p, ptr);
}

/* Evaluates the remaining arguments for their side effects only. */
static void rest(cf_ctx *c, const call_info *ci, int from)
{
    for (int i = from; i < ci->nargs; i++)
        cf_effect(c, ci->args[i]);
}

/* --- locks --- */

static const ir_expr *lock_stmt(cf_ctx *c, const call_info *ci, ir_stmt_kind k, ir_lock_kind kind,
                                bool is_try)
{
    const ir_expr *obj = arg(c, ci, 0);
    rest(c, ci, 1);
    uint32_t s = cf_emit(c, k);
    c->f->stmts[s].rhs = obj;
    c->f->stmts[s].lock_kind = kind;
    c->f->stmts[s].is_try = is_try;
    if (is_try && ci->want && ci->ret->kind == IR_T_INT) {
        const ir_expr *t = ir_var_ref(c->p, cf_temp(c, ci->ret));
        c->f->stmts[s].lhs = t;
        return t;
    }
    c->f->stmts[s].result_used = ci->want && ci->ret->kind != IR_T_VOID;
    return zero_result(c, ci);
}

static bool attr_var(const ir_expr *a, base_sym *name)
{
    if (a->kind == IR_E_ADDR && a->a->kind == IR_E_VAR) {
        *name = a->a->var->name;
        return true;
    }
    return false;
}

bool cf_eval_int(CXCursor e, int64_t *out);

/* pthread_mutexattr_settype(&a, KIND): remembered for the mutex inits
 * below it in the same function (glibc's values: 1 recursive, 2
 * errorcheck). */
static const ir_expr *attr_settype(cf_ctx *c, const call_info *ci)
{
    const ir_expr *a = arg(c, ci, 0);
    int64_t kind;
    base_sym name;
    if (ci->nargs >= 2 && cf_eval_int(ci->args[1], &kind) && attr_var(a, &name)) {
        ir_lock_kind k = kind == 1 ? IR_LOCK_MUTEX_RECURSIVE
                         : kind == 2 ? IR_LOCK_MUTEX_ERRORCHECK : IR_LOCK_MUTEX;
        base_hashmap_put(&c->attr_kinds, name, (uint64_t)k + 1);
    } else {
        rest(c, ci, 1);
    }
    return zero_result(c, ci);
}

static const ir_expr *mutex_init(cf_ctx *c, const call_info *ci)
{
    const ir_expr *m = arg(c, ci, 0);
    const ir_expr *a = ci->nargs > 1 ? arg(c, ci, 1) : NULL;
    rest(c, ci, 2);
    uint32_t s = cf_emit(c, IR_S_LOCK_INIT);
    ir_stmt *st = &c->f->stmts[s];
    st->rhs = m;
    st->lock_kind = IR_LOCK_MUTEX;
    base_sym name;
    uint64_t k;
    if (a && !is_null(a)) {
        st->args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, 1);
        st->args[0] = a;
        st->nargs = 1;
        if (attr_var(a, &name) && base_hashmap_get(&c->attr_kinds, name, &k))
            st->lock_kind = (ir_lock_kind)(k - 1);
    }
    return zero_result(c, ci);
}

/* mtx_init(&m, type): mtx_recursive is bit 1 in glibc (mtx_plain 0,
 * mtx_recursive 1, mtx_timed 2). */
static const ir_expr *mtx_init(cf_ctx *c, const call_info *ci)
{
    const ir_expr *m = arg(c, ci, 0);
    int64_t type = 0;
    if (ci->nargs > 1 && !cf_eval_int(ci->args[1], &type))
        rest(c, ci, 1);
    uint32_t s = cf_emit(c, IR_S_LOCK_INIT);
    c->f->stmts[s].rhs = m;
    c->f->stmts[s].lock_kind = type & 1 ? IR_LOCK_MUTEX_RECURSIVE : IR_LOCK_MUTEX;
    return zero_result(c, ci);
}

static const ir_expr *cond_wait(cf_ctx *c, const call_info *ci, bool timed)
{
    const ir_expr *cv = arg(c, ci, 0);
    const ir_expr *m = arg(c, ci, 1);
    rest(c, ci, 2);
    uint32_t s = cf_emit(c, IR_S_UNLOCK);
    c->f->stmts[s].rhs = m;
    s = cf_emit(c, IR_S_COND_WAIT);
    c->f->stmts[s].rhs = cv;
    c->f->stmts[s].args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, 1);
    c->f->stmts[s].args[0] = m;
    c->f->stmts[s].nargs = 1;
    s = cf_emit(c, IR_S_LOCK);
    c->f->stmts[s].rhs = m;
    if (timed && ci->want && ci->ret->kind == IR_T_INT)
        return cf_to_temp(c, ir_nondet(c->p, ci->ret)); /* it may time out */
    return zero_result(c, ci);
}

static const ir_expr *cond_signal(cf_ctx *c, const call_info *ci, bool all)
{
    const ir_expr *cv = arg(c, ci, 0);
    uint32_t s = cf_emit(c, IR_S_COND_SIGNAL);
    c->f->stmts[s].rhs = cv;
    c->f->stmts[s].all = all;
    return zero_result(c, ci);
}

/* --- threads --- */

static const ir_expr *thread_create(cf_ctx *c, const call_info *ci, int fn_arg)
{
    const ir_expr *handle = arg(c, ci, 0);
    if (fn_arg == 2)
        cf_effect(c, ci->args[1]); /* the attributes */
    if (ci->nargs <= fn_arg)
        cf_fail(c, ci->call, "this call needs at least %d arguments", fn_arg + 1);
    const ir_expr *fn = cf_callee_value(c, ci->args[fn_arg]);
    const ir_expr *a = ci->nargs > fn_arg + 1 ? arg(c, ci, fn_arg + 1) : NULL;
    uint32_t s = cf_emit(c, IR_S_ASYNC);
    ir_stmt *st = &c->f->stmts[s];
    st->lhs = is_null(handle) ? NULL : pointee(c, handle);
    st->callee = fn;
    st->rhs = a;
    return zero_result(c, ci);
}

static const ir_expr *thread_join(cf_ctx *c, const call_info *ci)
{
    const ir_expr *h = arg(c, ci, 0);
    const ir_expr *r = ci->nargs > 1 ? arg(c, ci, 1) : NULL;
    uint32_t s = cf_emit(c, IR_S_JOIN);
    c->f->stmts[s].rhs = h;
    if (r && !is_null(r)) {
        c->f->stmts[s].args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, 1);
        c->f->stmts[s].args[0] = r;
        c->f->stmts[s].nargs = 1;
    }
    return zero_result(c, ci);
}

static const ir_expr *thread_exit(cf_ctx *c, const call_info *ci)
{
    uint32_t s = cf_emit(c, IR_S_THREAD_EXIT);
    c->f->stmts[s].rhs = ci->nargs ? arg(c, ci, 0) : NULL;
    return NULL;
}

/* --- verification conventions and the C library --- */

static const ir_expr *fail_here(cf_ctx *c, const call_info *ci, ir_stmt_kind k, const char *msg)
{
    rest(c, ci, 0);
    uint32_t s = cf_emit(c, k);
    c->f->stmts[s].rhs = ir_const(c->p, cf_int_type(c), 0);
    c->f->stmts[s].message = msg;
    return zero_result(c, ci);
}

/* The text of a string literal argument (quotes and escapes removed), or
 * NULL. */
static const char *string_arg(cf_ctx *c, CXCursor a)
{
    for (int guard = 0; guard < 8; guard++) {
        enum CXCursorKind k = clang_getCursorKind(a);
        if (k == CXCursor_StringLiteral)
            break;
        cf_cursors kids = cf_children(c, a);
        if (kids.n != 1)
            return NULL;
        a = kids.v[0];
    }
    if (clang_getCursorKind(a) != CXCursor_StringLiteral)
        return NULL;
    return cf_string_value(c, a);
}

static const ir_expr *assert_fail(cf_ctx *c, const call_info *ci)
{
    const char *text = ci->nargs ? string_arg(c, ci->args[0]) : NULL;
    size_t n = (text ? strlen(text) : 0) + 32;
    char *msg = base_arena_alloc(&c->p->arena, n);
    snprintf(msg, n, "assertion %s", text ? text : "failed");
    uint32_t s = cf_emit(c, IR_S_ASSERT);
    c->f->stmts[s].rhs = ir_const(c->p, cf_int_type(c), 0);
    c->f->stmts[s].message = msg;
    return NULL;
}

static const ir_expr *alloc(cf_ctx *c, const call_info *ci, bool zeroed, bool two)
{
    const ir_expr *n = cf_convert(c, arg(c, ci, 0), cf_size_type(c));
    if (two)
        n = ir_binary(c->p, IR_OP_MUL, cf_size_type(c), n,
                      cf_convert(c, arg(c, ci, 1), cf_size_type(c)));
    const ir_expr *t = ir_var_ref(c->p, cf_temp(c, ci->ret));
    uint32_t s = cf_emit(c, IR_S_ALLOC);
    c->f->stmts[s].lhs = t;
    c->f->stmts[s].rhs = n;
    c->f->stmts[s].zeroed = zeroed;
    return t;
}

static const ir_expr *dealloc(cf_ctx *c, const call_info *ci)
{
    const ir_expr *p = arg(c, ci, 0);
    uint32_t s = cf_emit(c, IR_S_FREE);
    c->f->stmts[s].rhs = p;
    return NULL;
}

static const ir_expr *nondet(cf_ctx *c, const call_info *ci)
{
    rest(c, ci, 0);
    if (ci->ret->kind == IR_T_VOID)
        return NULL;
    return cf_to_temp(c, ir_nondet(c->p, ci->ret));
}

static const ir_expr *assume(cf_ctx *c, const call_info *ci)
{
    const ir_expr *cond = arg(c, ci, 0);
    uint32_t s = cf_emit(c, IR_S_ASSUME);
    c->f->stmts[s].rhs = cond;
    return NULL;
}

static const ir_expr *just(cf_ctx *c, const call_info *ci, ir_stmt_kind k)
{
    rest(c, ci, 0);
    c->mo = IR_MO_NONE;
    cf_emit(c, k);
    return zero_result(c, ci);
}

static const ir_expr *nothing(cf_ctx *c, const call_info *ci)
{
    rest(c, ci, 0);
    return zero_result(c, ci);
}

/* A thread fence of order mo: an atomic section without memory accesses
 * and with that order (a relaxed fence does nothing). */
static void fence(cf_ctx *c, uint8_t mo)
{
    if (mo == IR_MO_RELAXED)
        return;
    c->mo = mo;
    cf_emit(c, IR_S_ATOMIC_BEGIN);
    cf_emit(c, IR_S_ATOMIC_END);
}

/* --- read-modify-write atomics --- */

typedef enum rmw_op { RMW_ADD, RMW_SUB, RMW_AND, RMW_OR, RMW_XOR, RMW_NAND, RMW_XCHG } rmw_op;

static const ir_expr *rmw_value(cf_ctx *c, CXCursor where, rmw_op op, const ir_expr *old,
                                const ir_expr *v)
{
    const ir_type *t = old->type;
    if (t->kind == IR_T_PTR && op != RMW_XCHG)
        cf_unsupported(c, where, "atomic arithmetic on a pointer");
    v = cf_convert(c, v, t);
    const ir_type *ct = cf_promote(c, t);
    const ir_expr *a = cf_convert(c, old, ct), *b = cf_convert(c, v, ct);
    const ir_expr *r;
    switch (op) {
    case RMW_ADD: r = ir_binary(c->p, IR_OP_ADD, ct, a, b); break;
    case RMW_SUB: r = ir_binary(c->p, IR_OP_SUB, ct, a, b); break;
    case RMW_AND: r = ir_binary(c->p, IR_OP_AND, ct, a, b); break;
    case RMW_OR: r = ir_binary(c->p, IR_OP_OR, ct, a, b); break;
    case RMW_XOR: r = ir_binary(c->p, IR_OP_XOR, ct, a, b); break;
    case RMW_NAND: r = ir_unary(c->p, IR_OP_BITNOT, ct, ir_binary(c->p, IR_OP_AND, ct, a, b)); break;
    default: return v;
    }
    return cf_convert(c, r, t);
}

/* atomic { old = *p; *p = old op v; } and the old (or new) value. */
static const ir_expr *rmw(cf_ctx *c, CXCursor where, const ir_expr *ptr, rmw_op op,
                          const ir_expr *v, bool want_new)
{
    const ir_expr *obj = pointee(c, ptr);
    if (!obj)
        cf_fail(c, where, "internal: atomic operation on a non-pointer");
    cf_emit(c, IR_S_ATOMIC_BEGIN);
    const ir_expr *old = cf_to_temp(c, obj);
    const ir_expr *nv = rmw_value(c, where, op, old, v);
    if (want_new)
        nv = cf_to_temp(c, nv);
    cf_assign(c, obj, nv);
    cf_emit(c, IR_S_ATOMIC_END);
    return want_new ? nv : old;
}

/* atomic { ok = *p == expected; if (ok) *p = desired; [else *exp_ptr = *p;] } */
static const ir_expr *cas(cf_ctx *c, CXCursor where, const ir_expr *ptr, const ir_expr *expected,
                          const ir_expr *exp_ptr, const ir_expr *desired, bool want_old)
{
    const ir_expr *obj = pointee(c, ptr);
    if (!obj)
        cf_fail(c, where, "internal: atomic operation on a non-pointer");
    const ir_type *it = cf_int_type(c);
    cf_emit(c, IR_S_ATOMIC_BEGIN);
    const ir_expr *old = cf_to_temp(c, obj);
    if (exp_ptr)
        expected = pointee(c, exp_ptr);
    const ir_expr *ok = cf_to_temp(c, ir_binary(c->p, IR_OP_EQ, it, old, cf_convert(c, expected, old->type)));
    uint32_t to_fail = cf_emit_goto(c, cf_not(c, ok), 0);
    cf_assign(c, obj, cf_convert(c, desired, obj->type));
    uint32_t to_end = 0;
    if (exp_ptr)
        to_end = cf_emit_goto(c, NULL, 0);
    c->f->stmts[to_fail].targets[0] = c->f->nstmts;
    if (exp_ptr) {
        cf_assign(c, pointee(c, exp_ptr), old);
        c->f->stmts[to_end].targets[0] = c->f->nstmts;
    }
    cf_emit(c, IR_S_ATOMIC_END);
    return want_old ? old : ok;
}

static bool sync_rmw_name(const char *n, rmw_op *op, bool *want_new)
{
    static const struct { const char *name; rmw_op op; } ops[] = {
        { "add", RMW_ADD }, { "sub", RMW_SUB }, { "and", RMW_AND },
        { "or", RMW_OR }, { "xor", RMW_XOR }, { "nand", RMW_NAND },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "fetch_and_%s", ops[i].name);
        snprintf(b, sizeof b, "%s_and_fetch", ops[i].name);
        if (strcmp(n, a) == 0 || strcmp(n, b) == 0) {
            *op = ops[i].op;
            *want_new = strcmp(n, b) == 0;
            return true;
        }
    }
    return false;
}

static const ir_expr *sync_builtin(cf_ctx *c, const call_info *ci, const char *name)
{
    /* clang resolves __sync_fetch_and_add to __sync_fetch_and_add_4 (the size) */
    char *n = base_arena_strdup(&c->scratch, name + strlen("__sync_"));
    size_t len = strlen(n);
    while (len > 2 && n[len - 1] >= '0' && n[len - 1] <= '9')
        len--;
    if (len > 1 && n[len - 1] == '_' && len < strlen(n))
        n[len - 1] = 0;
    rmw_op op;
    bool want_new;
    c->mo = IR_MO_SEQ_CST; /* the __sync builtins are full barriers */
    if (sync_rmw_name(n, &op, &want_new)) {
        const ir_expr *p = arg(c, ci, 0), *v = arg(c, ci, 1);
        return rmw(c, ci->call, p, op, v, want_new);
    }
    if (strcmp(n, "bool_compare_and_swap") == 0 || strcmp(n, "val_compare_and_swap") == 0) {
        const ir_expr *p = arg(c, ci, 0), *o = arg(c, ci, 1), *nv = arg(c, ci, 2);
        const ir_expr *r = cas(c, ci->call, p, o, NULL, nv, n[0] == 'v');
        return cf_convert(c, r, ci->ret);
    }
    if (strcmp(n, "lock_test_and_set") == 0) {
        const ir_expr *p = arg(c, ci, 0), *v = arg(c, ci, 1);
        c->mo = IR_MO_ACQUIRE; /* GCC: an acquire barrier only */
        return rmw(c, ci->call, p, RMW_XCHG, v, false);
    }
    if (strcmp(n, "lock_release") == 0) {
        const ir_expr *p = arg(c, ci, 0);
        const ir_expr *obj = pointee(c, p);
        c->mo = IR_MO_RELEASE;
        cf_emit(c, IR_S_ATOMIC_BEGIN);
        cf_assign(c, obj, cf_const_int(c, obj->type, 0));
        cf_emit(c, IR_S_ATOMIC_END);
        return NULL;
    }
    if (strcmp(n, "synchronize") == 0) {
        fence(c, IR_MO_SEQ_CST);
        return NULL;
    }
    cf_unsupported(c, ci->call, name);
}

/* --- C11 and GCC __atomic operations (AtomicExpr) --- */

/* A C11 memory order argument as ir_mo (IR_MO_DYNAMIC: not a constant). */
static uint8_t mo_of(CXCursor order)
{
    int64_t v;
    if (!cf_eval_int(order, &v))
        return IR_MO_DYNAMIC;
    switch (v) { /* memory_order_relaxed .. memory_order_seq_cst */
    case 0: return IR_MO_RELAXED;
    case 1:
    case 2: return IR_MO_ACQUIRE;
    case 3: return IR_MO_RELEASE;
    case 4: return IR_MO_ACQ_REL;
    case 5: return IR_MO_SEQ_CST;
    default: return IR_MO_DYNAMIC;
    }
}

/* The operation's name without its family prefix and suffixes:
 * atomic_fetch_add_explicit, __c11_atomic_fetch_add, __atomic_fetch_add
 * and atomic_fetch_add all give "fetch_add". */
static const char *atomic_op_name(cf_ctx *c, const char *tok)
{
    static const char *const prefixes[] = { "__c11_atomic_", "__atomic_", "atomic_flag_", "atomic_" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(tok, prefixes[i], n) == 0) {
            tok += n;
            break;
        }
    }
    char *s = base_arena_strdup(&c->scratch, tok);
    size_t n = strlen(s);
    if (n > 9 && strcmp(s + n - 9, "_explicit") == 0)
        s[n -= 9] = 0;
    if (n > 2 && strcmp(s + n - 2, "_n") == 0)
        s[n -= 2] = 0;
    return s;
}

const ir_expr *cf_atomic_expr(cf_ctx *c, CXCursor e, bool want)
{
    /* the builtin's name where it is spelled; the macro's name when the
     * spelling is not one (a program's own wrapper macros are named freely) */
    const char *tok = cf_spelled_token(c, e);
    if (strncmp(tok, "__c11_atomic_", 13) != 0 && strncmp(tok, "__atomic_", 9) != 0)
        tok = cf_first_token(c, e);
    const char *op = atomic_op_name(c, tok);
    cf_cursors k = cf_children(c, e);
    /* clang's AtomicExpr children: ptr, order, val1, order_fail, val2, weak. */
    const ir_expr *ptr = k.n ? cf_rvalue(c, k.v[0]) : NULL;
    if (!ptr || ptr->type->kind != IR_T_PTR) {
        char what[200];
        snprintf(what, sizeof what, "atomic operation '%s'", tok);
        cf_unsupported(c, e, what);
    }
    const ir_expr *obj = pointee(c, ptr);
    for (size_t i = 1; i < k.n; i++)
        if (i != 2 && i != 4)
            cf_effect(c, k.v[i]); /* orders and weak flags */
    /* the order (without one, as in atomic_load: seq_cst); a
     * compare-exchange's failure order in the high bits */
    uint8_t mo = k.n > 1 ? mo_of(k.v[1]) : IR_MO_SEQ_CST;
    if (k.n > 3 && strncmp(op, "compare_exchange", 16) == 0)
        mo = (uint8_t)(mo | mo_of(k.v[3]) << 4);
    c->mo = mo;
    const ir_expr *v1 = k.n > 2 ? cf_rvalue(c, k.v[2]) : NULL;
    const ir_expr *v2 = k.n > 4 ? cf_rvalue(c, k.v[4]) : NULL;
    (void)want;
    if (strcmp(op, "load") == 0) {
        cf_emit(c, IR_S_ATOMIC_BEGIN);
        const ir_expr *r = cf_to_temp(c, obj);
        if (v1) /* generic __atomic_load(p, ret, order) */
            cf_assign(c, pointee(c, v1), r);
        cf_emit(c, IR_S_ATOMIC_END);
        return v1 ? NULL : r;
    }
    if (strcmp(op, "store") == 0 || strcmp(op, "init") == 0) {
        if (!v1)
            cf_unsupported(c, e, "atomic store without a value");
        cf_emit(c, IR_S_ATOMIC_BEGIN);
        cf_assign(c, obj, v1);
        cf_emit(c, IR_S_ATOMIC_END);
        return NULL;
    }
    if (strcmp(op, "exchange") == 0 && v1)
        return rmw(c, e, ptr, RMW_XCHG, v1, false);
    if (strncmp(op, "compare_exchange", 16) == 0 && v1 && v2) {
        bool generic = strcmp(op, "compare_exchange") == 0 && strncmp(tok, "__atomic_", 9) == 0 &&
                       strstr(tok, "_n") == NULL;
        const ir_expr *desired = generic ? pointee(c, v2) : v2;
        return cf_convert(c, cas(c, e, ptr, NULL, v1, desired, false), cf_type(c, clang_getCursorType(e), e));
    }
    if (strcmp(op, "test_and_set") == 0) {
        const ir_expr *one = cf_const_int(c, obj->type, 1);
        const ir_expr *old = rmw(c, e, ptr, RMW_XCHG, one, false);
        return cf_convert(c, old, cf_type(c, clang_getCursorType(e), e));
    }
    if (strcmp(op, "clear") == 0) {
        cf_emit(c, IR_S_ATOMIC_BEGIN);
        cf_assign(c, obj, cf_const_int(c, obj->type, 0));
        cf_emit(c, IR_S_ATOMIC_END);
        return NULL;
    }
    static const struct { const char *name; rmw_op op; bool want_new; } rmws[] = {
        { "fetch_add", RMW_ADD, false }, { "fetch_sub", RMW_SUB, false },
        { "fetch_and", RMW_AND, false }, { "fetch_or", RMW_OR, false },
        { "fetch_xor", RMW_XOR, false }, { "fetch_nand", RMW_NAND, false },
        { "add_fetch", RMW_ADD, true }, { "sub_fetch", RMW_SUB, true },
        { "and_fetch", RMW_AND, true }, { "or_fetch", RMW_OR, true },
        { "xor_fetch", RMW_XOR, true }, { "nand_fetch", RMW_NAND, true },
    };
    for (size_t i = 0; i < sizeof rmws / sizeof rmws[0]; i++)
        if (strcmp(op, rmws[i].name) == 0 && v1)
            return rmw(c, e, ptr, rmws[i].op, v1, rmws[i].want_new);
    char what[200];
    snprintf(what, sizeof what, "atomic operation '%s'", tok);
    cf_unsupported(c, e, what);
}

/* --- the table of known functions --- */

typedef enum api {
    API_NONE,
    API_MUTEX_LOCK, API_MUTEX_TRYLOCK, API_MUTEX_UNLOCK, API_MUTEX_INIT, API_MUTEX_DESTROY,
    API_ATTR_SETTYPE,
    API_RD_LOCK, API_RD_TRYLOCK, API_WR_LOCK, API_WR_TRYLOCK, API_RW_UNLOCK, API_RW_INIT,
    API_RW_DESTROY,
    API_SPIN_LOCK, API_SPIN_TRYLOCK, API_SPIN_UNLOCK, API_SPIN_INIT, API_SPIN_DESTROY,
    API_MTX_INIT,
    API_COND_WAIT, API_COND_TIMEDWAIT, API_COND_SIGNAL, API_COND_BROADCAST,
    API_PTHREAD_CREATE, API_THRD_CREATE, API_JOIN, API_THREAD_EXIT,
    API_NONDET, API_ASSUME, API_ATOMIC_BEGIN, API_ATOMIC_END, API_REACH_ERROR, API_ASSERT_FAIL,
    API_HALT, API_MALLOC, API_CALLOC, API_FREE, API_EXPECT, API_NOTHING, API_FENCE,
} api;

static const struct { const char *name; api api; } known[] = {
    { "pthread_mutex_lock", API_MUTEX_LOCK },
    { "pthread_mutex_trylock", API_MUTEX_TRYLOCK },
    { "pthread_mutex_timedlock", API_MUTEX_TRYLOCK },
    { "pthread_mutex_clocklock", API_MUTEX_TRYLOCK },
    { "pthread_mutex_unlock", API_MUTEX_UNLOCK },
    { "pthread_mutex_init", API_MUTEX_INIT },
    { "pthread_mutex_destroy", API_MUTEX_DESTROY },
    { "pthread_mutexattr_settype", API_ATTR_SETTYPE },
    { "pthread_rwlock_rdlock", API_RD_LOCK },
    { "pthread_rwlock_tryrdlock", API_RD_TRYLOCK },
    { "pthread_rwlock_timedrdlock", API_RD_TRYLOCK },
    { "pthread_rwlock_clockrdlock", API_RD_TRYLOCK },
    { "pthread_rwlock_wrlock", API_WR_LOCK },
    { "pthread_rwlock_trywrlock", API_WR_TRYLOCK },
    { "pthread_rwlock_timedwrlock", API_WR_TRYLOCK },
    { "pthread_rwlock_clockwrlock", API_WR_TRYLOCK },
    { "pthread_rwlock_unlock", API_RW_UNLOCK },
    { "pthread_rwlock_init", API_RW_INIT },
    { "pthread_rwlock_destroy", API_RW_DESTROY },
    { "pthread_spin_lock", API_SPIN_LOCK },
    { "pthread_spin_trylock", API_SPIN_TRYLOCK },
    { "pthread_spin_unlock", API_SPIN_UNLOCK },
    { "pthread_spin_init", API_SPIN_INIT },
    { "pthread_spin_destroy", API_SPIN_DESTROY },
    { "mtx_lock", API_MUTEX_LOCK },
    { "mtx_trylock", API_MUTEX_TRYLOCK },
    { "mtx_timedlock", API_MUTEX_TRYLOCK },
    { "mtx_unlock", API_MUTEX_UNLOCK },
    { "mtx_init", API_MTX_INIT },
    { "mtx_destroy", API_MUTEX_DESTROY },
    { "pthread_cond_wait", API_COND_WAIT },
    { "pthread_cond_timedwait", API_COND_TIMEDWAIT },
    { "pthread_cond_clockwait", API_COND_TIMEDWAIT },
    { "cnd_wait", API_COND_WAIT },
    { "cnd_timedwait", API_COND_TIMEDWAIT },
    { "pthread_cond_signal", API_COND_SIGNAL },
    { "cnd_signal", API_COND_SIGNAL },
    { "pthread_cond_broadcast", API_COND_BROADCAST },
    { "cnd_broadcast", API_COND_BROADCAST },
    { "pthread_cond_init", API_NOTHING },
    { "pthread_cond_destroy", API_NOTHING },
    { "cnd_init", API_NOTHING },
    { "cnd_destroy", API_NOTHING },
    { "pthread_mutexattr_init", API_NOTHING },
    { "pthread_mutexattr_destroy", API_NOTHING },
    { "pthread_create", API_PTHREAD_CREATE },
    { "thrd_create", API_THRD_CREATE },
    { "pthread_join", API_JOIN },
    { "thrd_join", API_JOIN },
    { "pthread_exit", API_THREAD_EXIT },
    { "thrd_exit", API_THREAD_EXIT },
    { "__VERIFIER_assume", API_ASSUME },
    { "__VERIFIER_atomic_begin", API_ATOMIC_BEGIN },
    { "__VERIFIER_atomic_end", API_ATOMIC_END },
    { "reach_error", API_REACH_ERROR },
    { "__VERIFIER_error", API_REACH_ERROR },
    { "__assert_fail", API_ASSERT_FAIL },
    { "__assert_rtn", API_ASSERT_FAIL },
    { "__assert", API_ASSERT_FAIL },
    { "abort", API_HALT },
    { "exit", API_HALT },
    { "_exit", API_HALT },
    { "_Exit", API_HALT },
    { "__builtin_unreachable", API_HALT },
    { "__builtin_trap", API_HALT },
    { "malloc", API_MALLOC },
    { "alloca", API_MALLOC },
    { "__builtin_alloca", API_MALLOC },
    { "calloc", API_CALLOC },
    { "free", API_FREE },
    { "__builtin_expect", API_EXPECT },
    { "__c11_atomic_thread_fence", API_FENCE },
    { "__c11_atomic_signal_fence", API_NOTHING },
    { "__atomic_thread_fence", API_FENCE },
    { "__atomic_signal_fence", API_NOTHING },
    { "atomic_thread_fence", API_FENCE },
    { "atomic_signal_fence", API_NOTHING },
};

static api lookup(const char *name)
{
    if (strncmp(name, "__VERIFIER_nondet_", 18) == 0)
        return API_NONDET;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0)
            return known[i].api;
    return API_NONE;
}

static const ir_expr *known_call(cf_ctx *c, const call_info *ci, api a, const char *name)
{
    switch (a) {
    case API_MUTEX_LOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_MUTEX, false);
    case API_MUTEX_TRYLOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_MUTEX, true);
    case API_MUTEX_UNLOCK: return lock_stmt(c, ci, IR_S_UNLOCK, IR_LOCK_MUTEX, false);
    case API_MUTEX_INIT: return mutex_init(c, ci);
    case API_MUTEX_DESTROY: return lock_stmt(c, ci, IR_S_LOCK_DESTROY, IR_LOCK_MUTEX, false);
    case API_ATTR_SETTYPE: return attr_settype(c, ci);
    case API_RD_LOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_RW_READ, false);
    case API_RD_TRYLOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_RW_READ, true);
    case API_WR_LOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_RW_WRITE, false);
    case API_WR_TRYLOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_RW_WRITE, true);
    case API_RW_UNLOCK: return lock_stmt(c, ci, IR_S_UNLOCK, IR_LOCK_RW, false);
    case API_RW_INIT: return lock_stmt(c, ci, IR_S_LOCK_INIT, IR_LOCK_RW, false);
    case API_RW_DESTROY: return lock_stmt(c, ci, IR_S_LOCK_DESTROY, IR_LOCK_RW, false);
    case API_SPIN_LOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_SPIN, false);
    case API_SPIN_TRYLOCK: return lock_stmt(c, ci, IR_S_LOCK, IR_LOCK_SPIN, true);
    case API_SPIN_UNLOCK: return lock_stmt(c, ci, IR_S_UNLOCK, IR_LOCK_SPIN, false);
    case API_SPIN_INIT: return lock_stmt(c, ci, IR_S_LOCK_INIT, IR_LOCK_SPIN, false);
    case API_SPIN_DESTROY: return lock_stmt(c, ci, IR_S_LOCK_DESTROY, IR_LOCK_SPIN, false);
    case API_MTX_INIT: return mtx_init(c, ci);
    case API_COND_WAIT: return cond_wait(c, ci, false);
    case API_COND_TIMEDWAIT: return cond_wait(c, ci, true);
    case API_COND_SIGNAL: return cond_signal(c, ci, false);
    case API_COND_BROADCAST: return cond_signal(c, ci, true);
    case API_PTHREAD_CREATE: return thread_create(c, ci, 2);
    case API_THRD_CREATE: return thread_create(c, ci, 1);
    case API_JOIN: return thread_join(c, ci);
    case API_THREAD_EXIT: return thread_exit(c, ci);
    case API_NONDET: return nondet(c, ci);
    case API_ASSUME: return assume(c, ci);
    case API_ATOMIC_BEGIN: return just(c, ci, IR_S_ATOMIC_BEGIN);
    case API_ATOMIC_END: return just(c, ci, IR_S_ATOMIC_END);
    case API_REACH_ERROR: {
        size_t n = strlen(name) + 3;
        char *msg = base_arena_alloc(&c->p->arena, n);
        snprintf(msg, n, "%s()", name);
        return fail_here(c, ci, IR_S_ASSERT, msg);
    }
    case API_ASSERT_FAIL: return assert_fail(c, ci);
    case API_HALT: return fail_here(c, ci, IR_S_ASSUME, base_arena_strdup(&c->p->arena, name));
    case API_MALLOC: return alloc(c, ci, false, false);
    case API_CALLOC: return alloc(c, ci, true, true);
    case API_FREE: return dealloc(c, ci);
    case API_EXPECT: {
        const ir_expr *v = arg(c, ci, 0);
        rest(c, ci, 1);
        return cf_convert(c, v, ci->ret);
    }
    case API_NOTHING: return nothing(c, ci);
    case API_FENCE: {
        uint8_t mo = ci->nargs ? mo_of(ci->args[0]) : IR_MO_SEQ_CST;
        rest(c, ci, 0);
        fence(c, mo);
        return zero_result(c, ci);
    }
    case API_NONE: break;
    }
    return NULL;
}

/* __builtin_{add,sub,mul}_overflow(a, b, &r) and their typed forms
 * (__builtin_saddl_overflow, ...): r gets the result wrapped to r's type,
 * and the call's value says whether the exact result did not fit. The
 * exact result is computed in 128 bits, where it always fits for operands
 * of at most 64 bits (unsigned 128 for a product of two unsigned ones). */
static const ir_expr *overflow_builtin(cf_ctx *c, const call_info *ci, ir_op op)
{
    const ir_expr *a = arg(c, ci, 0), *b = arg(c, ci, 1), *res = arg(c, ci, 2);
    const ir_expr *r = pointee(c, res);
    if (!r || a->type->kind != IR_T_INT || b->type->kind != IR_T_INT || r->type->kind != IR_T_INT ||
        a->type->bits > 64 || b->type->bits > 64 || r->type->bits > 64)
        cf_unsupported(c, ci->call, "overflow builtin on operands wider than 64 bits");
    bool both_unsigned = !a->type->is_signed && !b->type->is_signed;
    const ir_type *w = cf_int(c, 128, !(both_unsigned && op == IR_OP_MUL));
    const ir_expr *exact =
        cf_to_temp(c, ir_binary(c->p, op, w, cf_convert(c, a, w), cf_convert(c, b, w)));
    cf_assign(c, r, cf_convert(c, exact, r->type));
    const ir_expr *flag = ir_binary(c->p, IR_OP_NE, cf_int_type(c), cf_convert(c, r, w), exact);
    return ci->want && ci->ret->kind != IR_T_VOID ? cf_convert(c, flag, ci->ret) : NULL;
}

/* GCC/clang builtins that are not calls of any function: a constant
 * clang folds (__builtin_constant_p, __builtin_types_compatible_p,
 * __builtin_clz of a constant, ...), the overflow builtins. Returns false
 * for a builtin to be called like any function without a body. */
static bool builtin_call(cf_ctx *c, const call_info *ci, const char *name, const ir_expr **out)
{
    if (strncmp(name, "__builtin_", 10) != 0)
        return false;
    int64_t v;
    if (ci->ret->kind == IR_T_INT && cf_eval_int(ci->call, &v)) {
        *out = ci->want ? cf_const_int(c, ci->ret, v) : NULL;
        return true;
    }
    static const struct { const char *suffix; ir_op op; } ovf[] = {
        { "add_overflow", IR_OP_ADD }, { "addl_overflow", IR_OP_ADD }, { "addll_overflow", IR_OP_ADD },
        { "sub_overflow", IR_OP_SUB }, { "subl_overflow", IR_OP_SUB }, { "subll_overflow", IR_OP_SUB },
        { "mul_overflow", IR_OP_MUL }, { "mull_overflow", IR_OP_MUL }, { "mulll_overflow", IR_OP_MUL },
    };
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ovf / sizeof *ovf; i++) {
        size_t m = strlen(ovf[i].suffix);
        if (n > m && strcmp(name + n - m, ovf[i].suffix) == 0 && ci->nargs == 3) {
            *out = overflow_builtin(c, ci, ovf[i].op);
            return true;
        }
    }
    return false;
}

const ir_expr *cf_call(cf_ctx *c, CXCursor call, bool want)
{
    int n = clang_Cursor_getNumArguments(call);
    if (n < 0)
        cf_unsupported(c, call, "call with unknown arguments");
    call_info ci = { .call = call, .nargs = n, .want = want };
    ci.args = BASE_ARENA_ARRAY(&c->scratch, CXCursor, (size_t)n);
    for (int i = 0; i < n; i++)
        ci.args[i] = clang_Cursor_getArgument(call, (unsigned)i);
    ci.ret = cf_type(c, clang_getCursorType(call), call);
    CXCursor decl = clang_getCursorReferenced(call);
    ir_func *callee = NULL;
    if (clang_getCursorKind(decl) == CXCursor_FunctionDecl) {
        char *name = cf_spelling(c, decl);
        api a = lookup(name);
        if (a != API_NONE)
            return known_call(c, &ci, a, name);
        if (strncmp(name, "__sync_", 7) == 0)
            return sync_builtin(c, &ci, name);
        const ir_expr *b;
        if (builtin_call(c, &ci, name, &b))
            return b;
        callee = cf_func_decl(c, decl);
    }
    const ir_expr *fn;
    if (callee) {
        fn = ir_func_ref(c->p, callee);
    } else {
        cf_cursors kids = cf_children(c, call);
        if (!kids.n)
            cf_unsupported(c, call, "call without a callee");
        fn = cf_callee_value(c, kids.v[0]);
    }
    const ir_expr **args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, (size_t)n);
    for (int i = 0; i < n; i++)
        args[i] = cf_rvalue(c, ci.args[i]);
    uint32_t s = cf_emit(c, IR_S_CALL);
    ir_stmt *st = &c->f->stmts[s];
    st->callee = fn;
    st->args = args;
    st->nargs = (uint32_t)n;
    if (!want || ci.ret->kind == IR_T_VOID)
        return NULL;
    const ir_expr *t = ir_var_ref(c->p, cf_temp(c, ci.ret));
    c->f->stmts[s].lhs = t; /* re-index: cf_temp does not emit */
    return t;
}
