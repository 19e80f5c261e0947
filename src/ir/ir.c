#include "ir/ir.h"

#include <string.h>

#include "base/xalloc.h"

void ir_program_init(ir_program *p, base_intern_pool *syms)
{
    memset(p, 0, sizeof *p);
    base_arena_init(&p->arena);
    p->syms = syms;
    p->ptr_bytes = 8;
    base_hashmap_init(&p->ptr_types);
}

void ir_program_free(ir_program *p)
{
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        free(p->funcs[i]->stmts);
        free(p->funcs[i]->locals);
    }
    free(p->funcs);
    free(p->globals);
    base_hashmap_free(&p->ptr_types);
    base_arena_free(&p->arena);
    memset(p, 0, sizeof *p);
}

static ir_type *new_type(ir_program *p, ir_type_kind k)
{
    ir_type *t = BASE_ARENA_NEW(&p->arena, ir_type);
    t->kind = k;
    return t;
}

const ir_type *ir_type_void(ir_program *p)
{
    if (!p->void_type)
        p->void_type = new_type(p, IR_T_VOID);
    return p->void_type;
}

/* The slot of an integer type in int_types, or -1 for an unusual width. */
static int int_slot(uint32_t bits)
{
    switch (bits) {
    case 1: return 0;
    case 8: return 1;
    case 16: return 2;
    case 32: return 3;
    case 64: return 4;
    case 128: return 5;
    default: return -1;
    }
}

const ir_type *ir_type_int(ir_program *p, uint32_t bits, bool is_signed)
{
    int slot = int_slot(bits);
    if (slot >= 0 && p->int_types[is_signed][slot])
        return p->int_types[is_signed][slot];
    ir_type *t = new_type(p, IR_T_INT);
    t->bits = bits;
    t->is_signed = is_signed;
    t->size = (bits + 7) / 8;
    t->align = (uint32_t)t->size;
    if (slot >= 0)
        p->int_types[is_signed][slot] = t;
    return t;
}

const ir_type *ir_type_float(ir_program *p, uint32_t bits)
{
    ir_type *t = new_type(p, IR_T_FLOAT);
    t->bits = bits;
    t->size = bits == 80 ? 16 : bits / 8;
    t->align = (uint32_t)t->size;
    return t;
}

const ir_type *ir_type_ptr(ir_program *p, const ir_type *to)
{
    uint64_t found;
    if (base_hashmap_get(&p->ptr_types, (uint64_t)(uintptr_t)to, &found))
        return (const ir_type *)(uintptr_t)found;
    ir_type *t = new_type(p, IR_T_PTR);
    t->to = to;
    t->size = p->ptr_bytes;
    t->align = p->ptr_bytes;
    base_hashmap_put(&p->ptr_types, (uint64_t)(uintptr_t)to, (uint64_t)(uintptr_t)t);
    return t;
}

const ir_type *ir_type_mutex(ir_program *p)
{
    ir_type *t = new_type(p, IR_T_MUTEX);
    t->size = 40;
    return t;
}

const ir_type *ir_type_func(ir_program *p, const ir_type *ret, const ir_type *const *params,
                            uint32_t nparams, bool variadic)
{
    ir_type *t = new_type(p, IR_T_FUNC);
    t->to = ret;
    t->params = BASE_ARENA_ARRAY(&p->arena, const ir_type *, nparams);
    for (uint32_t i = 0; i < nparams; i++)
        t->params[i] = params[i];
    t->nparams = nparams;
    t->variadic = variadic;
    return t;
}

bool ir_type_eq(const ir_type *a, const ir_type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case IR_T_VOID:
        return true;
    case IR_T_MUTEX:
        return a->tag == b->tag;
    case IR_T_INT:
        return a->bits == b->bits && a->is_signed == b->is_signed;
    case IR_T_FLOAT:
        return a->bits == b->bits;
    case IR_T_PTR:
        return ir_type_eq(a->to, b->to);
    case IR_T_ARRAY:
        return a->count == b->count && ir_type_eq(a->to, b->to);
    case IR_T_STRUCT:
    case IR_T_UNION:
        /* Tagged aggregates are nominal; anonymous ones compare by fields. */
        if (a->tag || b->tag)
            return a->tag == b->tag;
        if (a->nfields != b->nfields)
            return false;
        for (uint32_t i = 0; i < a->nfields; i++)
            if (a->fields[i].name != b->fields[i].name || !ir_type_eq(a->fields[i].type, b->fields[i].type))
                return false;
        return true;
    case IR_T_FUNC:
        if (a->nparams != b->nparams || a->variadic != b->variadic || !ir_type_eq(a->to, b->to))
            return false;
        for (uint32_t i = 0; i < a->nparams; i++)
            if (!ir_type_eq(a->params[i], b->params[i]))
                return false;
        return true;
    }
    return false;
}

uint64_t ir_type_bytes(const ir_type *t, uint32_t ptr_bytes)
{
    switch (t->kind) {
    case IR_T_INT:
    case IR_T_FLOAT: return t->size ? t->size : (t->bits + 7) / 8;
    case IR_T_PTR: return ptr_bytes;
    default: return t->size ? t->size : 1;
    }
}

bool ir_type_is_scalar(const ir_type *t)
{
    return t->kind == IR_T_INT || t->kind == IR_T_PTR || t->kind == IR_T_FLOAT;
}

#define GROW(arr, n, cap)                                                        \
    do {                                                                         \
        if ((n) == (cap)) {                                                      \
            (cap) = (cap) ? (cap) * 2 : 8;                                       \
            (arr) = base_xrealloc((arr), base_mul_size((cap), sizeof *(arr)));   \
        }                                                                        \
    } while (0)

ir_var *ir_add_global(ir_program *p, const char *name, const ir_type *t, base_srcloc loc)
{
    ir_var *v = BASE_ARENA_NEW(&p->arena, ir_var);
    v->kind = IR_V_GLOBAL;
    v->name = base_intern_cstr(p->syms, name);
    v->type = t;
    v->loc = loc;
    GROW(p->globals, p->nglobals, p->globals_cap);
    v->id = p->nglobals;
    p->globals[p->nglobals++] = v;
    return v;
}

ir_func *ir_add_func(ir_program *p, const char *name, const ir_type *t, base_srcloc loc)
{
    ir_func *f = BASE_ARENA_NEW(&p->arena, ir_func);
    f->name = base_intern_cstr(p->syms, name);
    f->type = t;
    f->loc = loc;
    f->external_linkage = true;
    GROW(p->funcs, p->nfuncs, p->funcs_cap);
    p->funcs[p->nfuncs++] = f;
    return f;
}

ir_var *ir_add_local(ir_program *p, ir_func *f, const char *name, const ir_type *t, base_srcloc loc)
{
    ir_var *v = BASE_ARENA_NEW(&p->arena, ir_var);
    v->kind = IR_V_LOCAL;
    v->name = base_intern_cstr(p->syms, name);
    v->type = t;
    v->loc = loc;
    GROW(f->locals, f->nlocals, f->locals_cap);
    v->id = f->nlocals;
    f->locals[f->nlocals++] = v;
    return v;
}

ir_var *ir_add_param(ir_program *p, ir_func *f, const char *name, const ir_type *t, base_srcloc loc)
{
    ir_var *v = BASE_ARENA_NEW(&p->arena, ir_var);
    v->kind = IR_V_PARAM;
    v->name = base_intern_cstr(p->syms, name);
    v->type = t;
    v->loc = loc;
    ir_var **ps = BASE_ARENA_ARRAY(&p->arena, ir_var *, f->nparams + 1);
    for (uint32_t i = 0; i < f->nparams; i++)
        ps[i] = f->params[i];
    v->id = f->nparams;
    ps[f->nparams++] = v;
    f->params = ps;
    return v;
}

uint32_t ir_emit(ir_program *p, ir_func *f, ir_stmt_kind k, base_srcloc loc)
{
    (void)p;
    GROW(f->stmts, f->nstmts, f->stmts_cap);
    ir_stmt *s = &f->stmts[f->nstmts];
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->loc = loc;
    f->has_body = true;
    return f->nstmts++;
}

static ir_expr *new_expr(ir_program *p, ir_expr_kind k, const ir_type *t)
{
    ir_expr *e = BASE_ARENA_NEW(&p->arena, ir_expr);
    e->kind = k;
    e->type = t;
    return e;
}

const ir_expr *ir_const(ir_program *p, const ir_type *t, int64_t v)
{
    ir_expr *e = new_expr(p, IR_E_CONST, t);
    e->value = v;
    return e;
}

const ir_expr *ir_var_ref(ir_program *p, const ir_var *v)
{
    ir_expr *e = new_expr(p, IR_E_VAR, v->type);
    e->var = v;
    return e;
}

const ir_expr *ir_deref(ir_program *p, const ir_expr *a)
{
    ir_expr *e = new_expr(p, IR_E_DEREF, a->type->kind == IR_T_PTR ? a->type->to : NULL);
    e->a = a;
    return e;
}

const ir_expr *ir_addr(ir_program *p, const ir_expr *lv)
{
    ir_expr *e = new_expr(p, IR_E_ADDR, ir_type_ptr(p, lv->type));
    e->a = lv;
    const ir_expr *base = lv;
    while (base->kind == IR_E_FIELD || base->kind == IR_E_INDEX)
        base = base->a;
    if (base->kind == IR_E_VAR)
        ((ir_var *)base->var)->address_taken = true;
    return e;
}

const ir_expr *ir_func_ref(ir_program *p, const ir_func *f)
{
    ir_expr *e = new_expr(p, IR_E_FUNC, ir_type_ptr(p, f->type));
    e->func = f;
    return e;
}

const ir_expr *ir_binary(ir_program *p, ir_op op, const ir_type *t, const ir_expr *a,
                         const ir_expr *b)
{
    ir_expr *e = new_expr(p, IR_E_BINARY, t);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

const ir_expr *ir_nondet(ir_program *p, const ir_type *t)
{
    return new_expr(p, IR_E_NONDET, t);
}

const ir_expr *ir_unary(ir_program *p, ir_op op, const ir_type *t, const ir_expr *a)
{
    ir_expr *e = new_expr(p, IR_E_UNARY, t);
    e->op = op;
    e->a = a;
    return e;
}

const ir_expr *ir_cast(ir_program *p, const ir_type *t, const ir_expr *a)
{
    if (ir_type_eq(t, a->type))
        return a;
    ir_expr *e = new_expr(p, IR_E_CAST, t);
    e->a = a;
    return e;
}

const ir_expr *ir_ite(ir_program *p, const ir_type *t, const ir_expr *c, const ir_expr *a,
                      const ir_expr *b)
{
    ir_expr *e = new_expr(p, IR_E_ITE, t);
    e->a = c;
    e->b = a;
    e->c = b;
    return e;
}

const ir_expr *ir_member(ir_program *p, const ir_expr *agg, uint32_t field)
{
    ir_expr *e = new_expr(p, IR_E_FIELD, agg->type->fields[field].type);
    e->a = agg;
    e->field = field;
    return e;
}

const ir_expr *ir_index(ir_program *p, const ir_expr *arr, const ir_expr *idx)
{
    ir_expr *e = new_expr(p, IR_E_INDEX, arr->type->to);
    e->a = arr;
    e->b = idx;
    return e;
}

const ir_expr *ir_string(ir_program *p, const ir_type *t, const char *bytes)
{
    ir_expr *e = new_expr(p, IR_E_STRING, t);
    e->string = bytes;
    return e;
}

ir_func *ir_find_func(const ir_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (strcmp(base_sym_str(p->syms, p->funcs[i]->name), name) == 0)
            return p->funcs[i];
    return NULL;
}

bool ir_is_lvalue(const ir_expr *e)
{
    return e->kind == IR_E_VAR || e->kind == IR_E_DEREF || e->kind == IR_E_FIELD ||
           e->kind == IR_E_INDEX;
}
