/* cunit: a translation unit's program as bytes, and linking units (see
 * cunit.h).
 *
 * The bytes: "RVTU", the format version, then varints throughout: the
 * string table (every name, file and text once), the unit's path, counts,
 * dropped flags and diagnostics, the types (records first as shells, so
 * that a record may point to itself; every other type only refers to
 * types before it), the records' fields, the globals, and the functions
 * (parameters, locals, an expression table per function in which every
 * operand comes before its user, and the statements). */
#define _DEFAULT_SOURCE /* realpath */
#include "cfront/cunit.h"

#include <pthread.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "ir/ir_check.h"

#define TAG_VAR 1u

void cf_unit_init(cf_unit *u, const char *path)
{
    memset(u, 0, sizeof *u);
    base_intern_init(&u->syms);
    ir_program_init(&u->p, &u->syms);
    u->path = base_arena_strdup(&u->p.arena, path ? path : "");
    base_hashmap_init(&u->rec_key);
    base_hashmap_init(&u->rec_open);
}

void cf_unit_free(cf_unit *u)
{
    free(u->func_usr);
    free(u->global_usr);
    base_hashmap_free(&u->rec_key);
    base_hashmap_free(&u->rec_open);
    base_vec_free(&u->diags);
    base_vec_free(&u->dropped);
    base_vec_free(&u->inits);
    ir_program_free(&u->p);
    base_intern_free(&u->syms);
    memset(u, 0, sizeof *u);
}

/* --- writing --- */

typedef struct wr {
    base_strbuf body;
    base_strbuf strs;
    size_t nstrs;
    base_hashmap str_ix;  /* content hash (probed) -> index + 1 */
    BASE_VEC(const char *) str_list;
    base_hashmap type_ix; /* type address -> index */
    BASE_VEC(const ir_type *) types;
    BASE_VEC(const ir_type *) records;
    base_hashmap expr_ix; /* per function */
    BASE_VEC(const ir_expr *) exprs;
    const cf_unit *u;
} wr;

static void put_u(base_strbuf *b, uint64_t v)
{
    while (v >= 0x80) {
        base_strbuf_putc(b, (char)(v | 0x80));
        v >>= 7;
    }
    base_strbuf_putc(b, (char)v);
}

static void put_s(base_strbuf *b, int64_t v)
{
    put_u(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* Strings are numbered by content (so that the table does not depend on
 * which copy of a string a node points to). */
static uint64_t str_index(wr *w, const char *s)
{
    if (!s)
        return 0;
    size_t n = strlen(s);
    uint64_t probe = base_hash_bytes(s, n), ix;
    for (;; probe++) {
        if (probe == BASE_HASHMAP_EMPTY)
            continue;
        if (!base_hashmap_get(&w->str_ix, probe, &ix))
            break;
        if (strcmp(w->str_list.data[ix - 1], s) == 0)
            return ix;
    }
    put_u(&w->strs, n);
    base_strbuf_put(&w->strs, s, n);
    base_vec_push(&w->str_list, s);
    ix = ++w->nstrs;
    base_hashmap_put(&w->str_ix, probe, ix);
    return ix;
}

static void put_str(wr *w, const char *s) { put_u(&w->body, str_index(w, s)); }

static void put_sym(wr *w, base_sym s)
{
    put_str(w, s ? base_sym_str(&w->u->syms, s) : NULL);
}

static void put_loc(wr *w, base_srcloc l)
{
    put_str(w, l.file);
    put_u(&w->body, l.line);
    put_u(&w->body, l.col);
}

/* Numbers t and what it refers to: a record before its fields' types, any
 * other type after the types it refers to. */
static void visit_type(wr *w, const ir_type *t)
{
    if (!t || base_hashmap_get(&w->type_ix, (uint64_t)(uintptr_t)t, NULL))
        return;
    if (t->nfields) {
        base_hashmap_put(&w->type_ix, (uint64_t)(uintptr_t)t, w->types.len);
        base_vec_push(&w->types, t);
        base_vec_push(&w->records, t);
        for (uint32_t i = 0; i < t->nfields; i++)
            visit_type(w, t->fields[i].type);
        visit_type(w, t->to);
        for (uint32_t i = 0; i < t->nparams; i++)
            visit_type(w, t->params[i]);
        return;
    }
    visit_type(w, t->to);
    for (uint32_t i = 0; i < t->nparams; i++)
        visit_type(w, t->params[i]);
    if (base_hashmap_get(&w->type_ix, (uint64_t)(uintptr_t)t, NULL))
        return; /* reached through its own parts */
    base_hashmap_put(&w->type_ix, (uint64_t)(uintptr_t)t, w->types.len);
    base_vec_push(&w->types, t);
}

static uint64_t tix(wr *w, const ir_type *t)
{
    uint64_t ix = 0;
    if (t)
        base_hashmap_get(&w->type_ix, (uint64_t)(uintptr_t)t, &ix);
    return t ? ix + 1 : 0;
}

static void visit_func_types(wr *w, const ir_func *f);

static void visit_expr_types(wr *w, const ir_expr *e)
{
    if (!e)
        return;
    visit_type(w, e->type);
    visit_expr_types(w, e->a);
    visit_expr_types(w, e->b);
    visit_expr_types(w, e->c);
}

static void visit_func_types(wr *w, const ir_func *f)
{
    visit_type(w, f->type);
    for (uint32_t i = 0; i < f->nparams; i++)
        visit_type(w, f->params[i]->type);
    for (uint32_t i = 0; i < f->nlocals; i++)
        visit_type(w, f->locals[i]->type);
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        visit_expr_types(w, s->lhs);
        visit_expr_types(w, s->rhs);
        visit_expr_types(w, s->callee);
        for (uint32_t a = 0; a < s->nargs; a++)
            visit_expr_types(w, s->args[a]);
    }
}

static uint64_t eix(wr *w, const ir_expr *e)
{
    if (!e)
        return 0;
    uint64_t ix;
    if (base_hashmap_get(&w->expr_ix, (uint64_t)(uintptr_t)e, &ix))
        return ix + 1;
    eix(w, e->a);
    eix(w, e->b);
    eix(w, e->c);
    base_hashmap_put(&w->expr_ix, (uint64_t)(uintptr_t)e, w->exprs.len);
    base_vec_push(&w->exprs, e);
    return w->exprs.len;
}

static void put_var(wr *w, const ir_var *v)
{
    base_strbuf *b = &w->body;
    put_u(b, v->kind);
    put_sym(w, v->name);
    put_u(b, tix(w, v->type));
    put_u(b, (v->address_taken ? 1u : 0u) | (v->is_static ? 2u : 0u) | (v->is_thread_local ? 4u : 0u));
    put_loc(w, v->loc);
}

static void put_func(wr *w, const ir_func *f, base_hashmap *fix)
{
    base_strbuf *b = &w->body;
    put_u(b, f->nparams);
    for (uint32_t i = 0; i < f->nparams; i++)
        put_var(w, f->params[i]);
    put_u(b, f->nlocals);
    for (uint32_t i = 0; i < f->nlocals; i++)
        put_var(w, f->locals[i]);
    base_hashmap_clear(&w->expr_ix);
    base_vec_clear(&w->exprs);
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        eix(w, s->lhs);
        eix(w, s->rhs);
        eix(w, s->callee);
        for (uint32_t a = 0; a < s->nargs; a++)
            eix(w, s->args[a]);
    }
    put_u(b, w->exprs.len);
    for (size_t i = 0; i < w->exprs.len; i++) {
        const ir_expr *e = w->exprs.data[i];
        put_u(b, e->kind);
        put_u(b, tix(w, e->type));
        put_u(b, e->op);
        put_s(b, e->value);
        uint64_t fb;
        memcpy(&fb, &e->fvalue, sizeof fb);
        put_u(b, fb);
        if (e->var) {
            put_u(b, e->var->kind);
            put_u(b, e->var->id);
        } else {
            put_u(b, 3);
            put_u(b, 0);
        }
        put_u(b, e->field);
        uint64_t fi = 0;
        if (e->func && !base_hashmap_get(fix, (uint64_t)(uintptr_t)e->func, &fi))
            fi = 0;
        put_u(b, fi);
        put_str(w, e->string);
        put_u(b, eix(w, e->a));
        put_u(b, eix(w, e->b));
        put_u(b, eix(w, e->c));
    }
    put_u(b, f->nstmts);
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        put_u(b, s->kind);
        put_loc(w, s->loc);
        put_u(b, eix(w, s->lhs));
        put_u(b, eix(w, s->rhs));
        put_u(b, eix(w, s->callee));
        put_u(b, s->nargs);
        for (uint32_t a = 0; a < s->nargs; a++)
            put_u(b, eix(w, s->args[a]));
        put_u(b, s->ntargets);
        for (uint32_t t = 0; t < s->ntargets; t++)
            put_u(b, s->targets[t]);
        put_u(b, s->ncands);
        for (uint32_t k = 0; k < s->ncands; k++) {
            uint64_t fi = 0;
            base_hashmap_get(fix, (uint64_t)(uintptr_t)s->cands[k], &fi);
            put_u(b, fi);
        }
        put_u(b, s->lock_kind);
        put_u(b, (s->is_try ? 1u : 0u) | (s->zeroed ? 2u : 0u) | (s->all ? 4u : 0u) |
                 (s->result_used ? 8u : 0u) | (uint32_t)s->mo << 4);
        put_str(w, s->message);
        put_u(b, s->origin);
    }
}

void cf_unit_write(base_strbuf *out, const cf_unit *u)
{
    const ir_program *p = &u->p;
    wr w = { .u = u };
    base_hashmap_init(&w.str_ix);
    base_hashmap_init(&w.type_ix);
    base_hashmap_init(&w.expr_ix);
    base_hashmap fix; /* function -> index + 1 */
    base_hashmap_init(&fix);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        base_hashmap_put(&fix, (uint64_t)(uintptr_t)p->funcs[i], i + 1);
    base_strbuf *b = &w.body;
    put_str(&w, u->path);
    put_u(b, u->stats.units);
    put_u(b, u->stats.units_left_out);
    put_u(b, u->stats.units_partial);
    put_u(b, u->errors);
    put_u(b, p->ptr_bytes);
    put_u(b, u->dropped.len);
    for (size_t i = 0; i < u->dropped.len; i++)
        put_str(&w, u->dropped.data[i]);
    put_u(b, u->diags.len);
    for (size_t i = 0; i < u->diags.len; i++) {
        put_u(b, u->diags.data[i].sev);
        put_loc(&w, u->diags.data[i].loc);
        put_str(&w, u->diags.data[i].text);
    }
    for (uint32_t i = 0; i < p->nglobals; i++)
        visit_type(&w, p->globals[i]->type);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        visit_func_types(&w, p->funcs[i]);
    put_u(b, w.types.len);
    for (size_t i = 0; i < w.types.len; i++) {
        const ir_type *t = w.types.data[i];
        put_u(b, t->kind);
        put_u(b, t->bits);
        put_u(b, t->is_signed);
        put_u(b, t->count);
        put_sym(&w, t->tag);
        put_u(b, t->nfields);
        put_u(b, t->variadic);
        put_u(b, t->size);
        put_u(b, t->align);
        uint64_t key = 0, open = 0;
        base_hashmap_get(&u->rec_key, (uint64_t)(uintptr_t)t, &key);
        base_hashmap_get(&u->rec_open, (uint64_t)(uintptr_t)t, &open);
        put_sym(&w, (base_sym)key);
        put_u(b, open);
        if (!t->nfields) { /* refers only to types before it */
            put_u(b, tix(&w, t->to));
            put_u(b, t->nparams);
            for (uint32_t k = 0; k < t->nparams; k++)
                put_u(b, tix(&w, t->params[k]));
        }
    }
    for (size_t i = 0; i < w.records.len; i++) {
        const ir_type *t = w.records.data[i];
        put_u(b, tix(&w, t->to));
        put_u(b, t->nparams);
        for (uint32_t k = 0; k < t->nparams; k++)
            put_u(b, tix(&w, t->params[k]));
        for (uint32_t f = 0; f < t->nfields; f++) {
            const ir_field *fl = &t->fields[f];
            put_sym(&w, fl->name);
            put_u(b, tix(&w, fl->type));
            put_u(b, fl->offset);
            put_u(b, fl->bit_width);
            put_u(b, fl->bit_offset);
        }
    }
    put_u(b, p->nglobals);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        put_var(&w, p->globals[i]);
        put_sym(&w, u->global_usr ? u->global_usr[i] : 0);
    }
    put_u(b, p->nfuncs);
    for (uint32_t i = 0; i < p->nfuncs; i++) { /* headers first: expressions name functions */
        const ir_func *f = p->funcs[i];
        put_sym(&w, f->name);
        put_sym(&w, u->func_usr ? u->func_usr[i] : 0);
        put_u(b, tix(&w, f->type));
        put_loc(&w, f->loc);
        put_u(b, (f->has_body ? 1u : 0u) | (f->is_atomic ? 2u : 0u) |
                     (f->external_linkage ? 4u : 0u) | (f->address_taken ? 8u : 0u) |
                     (f->not_lowered ? 16u : 0u) | (f->is_main ? 32u : 0u) |
                     (f->writes_memory ? 64u : 0u) | (f == p->init ? 128u : 0u));
    }
    for (uint32_t i = 0; i < p->nfuncs; i++)
        put_func(&w, p->funcs[i], &fix);
    put_u(b, u->inits.len);
    for (size_t i = 0; i < u->inits.len; i++) {
        put_u(b, u->inits.data[i].global);
        put_u(b, u->inits.data[i].from);
        put_u(b, u->inits.data[i].to);
    }
    base_strbuf_put(out, "RVTU", 4);
    put_u(out, CF_UNIT_VERSION);
    put_u(out, w.nstrs);
    base_strbuf_put(out, w.strs.data ? w.strs.data : "", w.strs.len);
    base_strbuf_put(out, b->data ? b->data : "", b->len);
    base_strbuf_free(&w.strs);
    base_strbuf_free(&w.body);
    base_hashmap_free(&w.str_ix);
    base_vec_free(&w.str_list);
    base_hashmap_free(&w.type_ix);
    base_hashmap_free(&w.expr_ix);
    base_vec_free(&w.types);
    base_vec_free(&w.records);
    base_vec_free(&w.exprs);
    base_hashmap_free(&fix);
}

/* --- reading --- */

typedef struct rd {
    const unsigned char *p, *end;
    bool bad;
    int line;
    const char **strs;
    size_t nstrs;
    ir_type **types;
    size_t ntypes;
    cf_unit *u;
} rd;

static uint64_t get_u(rd *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) {
            (r->bad = true, r->line = r->line ? r->line : __LINE__);
            return 0;
        }
        unsigned char c = *r->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    (r->bad = true, r->line = r->line ? r->line : __LINE__);
    return 0;
}

/* A count of items taking at least `each` bytes: no more than what is left. */
static uint64_t get_count(rd *r, size_t each)
{
    uint64_t n = get_u(r);
    if (n > (uint64_t)(r->end - r->p) / (each ? each : 1) || n > UINT32_MAX) {
        (r->bad = true, r->line = r->line ? r->line : __LINE__);
        return 0;
    }
    return n;
}

static uint64_t get_max(rd *r, uint64_t max)
{
    uint64_t v = get_u(r);
    if (v > max) {
        (r->bad = true, r->line = r->line ? r->line : __LINE__);
        return 0;
    }
    return v;
}

static int64_t get_s(rd *r)
{
    uint64_t v = get_u(r);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static const char *get_str(rd *r)
{
    uint64_t i = get_max(r, r->nstrs);
    return i ? r->strs[i - 1] : NULL;
}

static base_sym get_sym(rd *r)
{
    const char *s = get_str(r);
    return s ? base_intern_cstr(&r->u->syms, s) : 0;
}

static base_srcloc get_loc(rd *r)
{
    base_srcloc l;
    l.file = get_str(r);
    if (!l.file)
        l.file = "<built-in>";
    l.line = (uint32_t)get_max(r, UINT32_MAX);
    l.col = (uint32_t)get_max(r, UINT32_MAX);
    return l;
}

static const ir_type *get_type(rd *r, bool need)
{
    uint64_t i = get_max(r, r->ntypes);
    if (!i && need)
        (r->bad = true, r->line = r->line ? r->line : __LINE__);
    return i ? r->types[i - 1] : NULL;
}

static ir_var *get_var(rd *r, ir_func *f, bool param)
{
    ir_var_kind k = (ir_var_kind)get_max(r, IR_V_PARAM);
    base_sym name = get_sym(r);
    const ir_type *t = get_type(r, true);
    uint64_t flags = get_u(r);
    base_srcloc loc = get_loc(r);
    if (r->bad)
        return NULL;
    const char *n = name ? base_sym_str(&r->u->syms, name) : "";
    ir_var *v = !f ? ir_add_global(&r->u->p, n, t, loc)
              : param ? ir_add_param(&r->u->p, f, n, t, loc)
                      : ir_add_local(&r->u->p, f, n, t, loc);
    (void)k;
    v->address_taken = flags & 1;
    v->is_static = flags & 2;
    v->is_thread_local = flags & 4;
    return v;
}

static bool get_func(rd *r, ir_func *f)
{
    ir_program *p = &r->u->p;
    uint64_t np = get_count(r, 6);
    for (uint64_t i = 0; i < np && !r->bad; i++)
        get_var(r, f, true);
    uint64_t nl = get_count(r, 6);
    for (uint64_t i = 0; i < nl && !r->bad; i++)
        get_var(r, f, false);
    uint64_t ne = get_count(r, 13 - 1);
    const ir_expr **ex = base_xcalloc(ne + 1, sizeof *ex);
    for (uint64_t i = 0; i < ne && !r->bad; i++) {
        ir_expr *e = BASE_ARENA_NEW(&p->arena, ir_expr);
        e->kind = (ir_expr_kind)get_max(r, IR_E_NONDET);
        e->type = get_type(r, true);
        e->op = (ir_op)get_max(r, IR_OP_PTR_DIFF);
        e->value = get_s(r);
        uint64_t fb = get_u(r);
        memcpy(&e->fvalue, &fb, sizeof fb);
        uint64_t vk = get_max(r, 3), vid = get_u(r);
        if (vk == IR_V_GLOBAL)
            e->var = vid < p->nglobals ? p->globals[vid] : ((r->bad = true, r->line = r->line ? r->line : __LINE__), NULL);
        else if (vk == IR_V_LOCAL)
            e->var = vid < f->nlocals ? f->locals[vid] : ((r->bad = true, r->line = r->line ? r->line : __LINE__), NULL);
        else if (vk == IR_V_PARAM)
            e->var = vid < f->nparams ? f->params[vid] : ((r->bad = true, r->line = r->line ? r->line : __LINE__), NULL);
        e->field = (uint32_t)get_max(r, UINT32_MAX);
        uint64_t fi = get_max(r, p->nfuncs);
        e->func = fi ? p->funcs[fi - 1] : NULL;
        e->string = get_str(r);
        uint64_t a = get_max(r, i), b = get_max(r, i), c = get_max(r, i);
        e->a = a ? ex[a - 1] : NULL;
        e->b = b ? ex[b - 1] : NULL;
        e->c = c ? ex[c - 1] : NULL;
        /* what the users of an expression take for granted */
        if (r->bad)
            break;
        switch (e->kind) {
        case IR_E_VAR: r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->var; break;
        case IR_E_FUNC: r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->func; break;
        case IR_E_STRING: r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->string; break;
        case IR_E_DEREF: case IR_E_ADDR: case IR_E_UNARY: case IR_E_CAST:
            r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->a; break;
        case IR_E_FIELD:
            r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->a || !e->a->type || e->field >= e->a->type->nfields; break;
        case IR_E_INDEX: case IR_E_BINARY: r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->a || !e->b; break;
        case IR_E_ITE: r->line = r->line ? r->line : __LINE__ * 0, r->bad = !e->a || !e->b || !e->c; break;
        default: break;
        }
        ex[i] = e;
    }
    uint64_t ns = get_count(r, 12);
    for (uint64_t i = 0; i < ns && !r->bad; i++) {
        ir_stmt_kind k = (ir_stmt_kind)get_max(r, IR_S_COND_SIGNAL);
        base_srcloc loc = get_loc(r);
        if (r->bad)
            break;
        uint32_t at = ir_emit(p, f, k, loc);
        ir_stmt *s = &f->stmts[at];
        uint64_t l = get_max(r, ne), rh = get_max(r, ne), ca = get_max(r, ne);
        s->lhs = l ? ex[l - 1] : NULL;
        s->rhs = rh ? ex[rh - 1] : NULL;
        s->callee = ca ? ex[ca - 1] : NULL;
        s->nargs = (uint32_t)get_count(r, 1);
        s->args = BASE_ARENA_ARRAY(&p->arena, const ir_expr *, s->nargs);
        for (uint32_t a = 0; a < s->nargs; a++) {
            uint64_t x = get_max(r, ne);
            s->args[a] = x ? ex[x - 1] : ((r->bad = true, r->line = r->line ? r->line : __LINE__), NULL);
        }
        s->ntargets = (uint32_t)get_count(r, 1);
        s->targets = BASE_ARENA_ARRAY(&p->arena, uint32_t, s->ntargets);
        for (uint32_t t = 0; t < s->ntargets; t++)
            s->targets[t] = (uint32_t)get_max(r, ns);
        s->ncands = (uint32_t)get_count(r, 1);
        s->cands = BASE_ARENA_ARRAY(&p->arena, const ir_func *, s->ncands);
        for (uint32_t c = 0; c < s->ncands; c++) {
            uint64_t fi = get_max(r, p->nfuncs);
            s->cands[c] = fi ? p->funcs[fi - 1] : ((r->bad = true, r->line = r->line ? r->line : __LINE__), NULL);
        }
        s->lock_kind = (ir_lock_kind)get_max(r, IR_LOCK_RW);
        uint64_t fl = get_max(r, (uint64_t)(IR_MO_DYNAMIC << 4 | IR_MO_DYNAMIC) << 4 | 15);
        if ((fl >> 4 & 15) > IR_MO_DYNAMIC || (fl >> 8 & 15) > IR_MO_DYNAMIC)
            (r->bad = true, r->line = r->line ? r->line : __LINE__);
        s->is_try = fl & 1;
        s->zeroed = fl & 2;
        s->all = fl & 4;
        s->result_used = fl & 8;
        s->mo = (uint8_t)(fl >> 4);
        s->message = get_str(r);
        s->origin = (uint32_t)get_max(r, UINT32_MAX);
        if ((k == IR_S_CALL || k == IR_S_ASYNC) && !s->callee)
            (r->bad = true, r->line = r->line ? r->line : __LINE__);
    }
    free(ex);
    return !r->bad;
}

bool cf_unit_read(cf_unit *u, const char *data, size_t len)
{
    cf_unit_init(u, "");
    rd r = { .p = (const unsigned char *)data, .end = (const unsigned char *)data + len, .u = u };
    if (len < 4 || memcmp(data, "RVTU", 4) != 0) {
        cf_unit_free(u);
        return false;
    }
    r.p += 4;
    if (get_u(&r) != CF_UNIT_VERSION) {
        cf_unit_free(u);
        return false;
    }
    ir_program *p = &u->p;
    r.nstrs = get_count(&r, 1);
    r.strs = base_xcalloc(r.nstrs + 1, sizeof *r.strs);
    for (size_t i = 0; i < r.nstrs && !r.bad; i++) {
        uint64_t n = get_count(&r, 1);
        if (r.bad)
            break;
        r.strs[i] = base_arena_strndup(&p->arena, (const char *)r.p, n);
        r.p += n;
    }
    const char *path = get_str(&r);
    u->path = path ? path : "";
    u->stats.units = get_u(&r);
    u->stats.units_left_out = get_u(&r);
    u->stats.units_partial = get_u(&r);
    u->errors = get_u(&r);
    p->ptr_bytes = (uint32_t)get_max(&r, 16);
    uint64_t nd = get_count(&r, 1);
    for (uint64_t i = 0; i < nd && !r.bad; i++) {
        const char *f = get_str(&r);
        if (!f)
            (r.bad = true, r.line = r.line ? r.line : __LINE__);
        else
            base_vec_push(&u->dropped, f);
    }
    nd = get_count(&r, 4);
    for (uint64_t i = 0; i < nd && !r.bad; i++) {
        cf_unit_diag dg;
        dg.sev = (base_severity)get_max(&r, BASE_SEV_ERROR);
        dg.loc = get_loc(&r);
        dg.text = get_str(&r);
        if (!dg.text)
            (r.bad = true, r.line = r.line ? r.line : __LINE__);
        else
            base_vec_push(&u->diags, dg);
    }
    size_t ntypes = get_count(&r, 11);
    r.types = base_xcalloc(ntypes + 1, sizeof *r.types);
    BASE_VEC(ir_type *) records = { 0 };
    for (size_t i = 0; i < ntypes && !r.bad; i++) {
        ir_type *t = BASE_ARENA_NEW(&p->arena, ir_type);
        t->kind = (ir_type_kind)get_max(&r, IR_T_FLOAT);
        t->bits = (uint32_t)get_max(&r, 1024);
        t->is_signed = get_max(&r, 1);
        t->count = get_u(&r);
        t->tag = get_sym(&r);
        t->nfields = (uint32_t)get_count(&r, 5);
        t->variadic = get_max(&r, 1);
        t->size = get_u(&r);
        t->align = (uint32_t)get_max(&r, UINT32_MAX);
        base_sym key = get_sym(&r);
        uint64_t open = get_max(&r, 1);
        if (key)
            base_hashmap_put(&u->rec_key, (uint64_t)(uintptr_t)t, key);
        if (open)
            base_hashmap_put(&u->rec_open, (uint64_t)(uintptr_t)t, 1);
        r.types[i] = t;
        r.ntypes = i; /* a type that is not a record refers only to types before it */
        if (t->nfields) {
            base_vec_push(&records, t);
        } else {
            t->to = get_type(&r, false);
            t->nparams = (uint32_t)get_count(&r, 1);
            t->params = BASE_ARENA_ARRAY(&p->arena, const ir_type *, t->nparams);
            for (uint32_t k = 0; k < t->nparams; k++)
                t->params[k] = get_type(&r, true);
            if ((t->kind == IR_T_PTR || t->kind == IR_T_ARRAY || t->kind == IR_T_FUNC) && !t->to)
                (r.bad = true, r.line = r.line ? r.line : __LINE__);
        }
    }
    r.ntypes = ntypes;
    for (size_t i = 0; i < records.len && !r.bad; i++) {
        ir_type *t = records.data[i];
        t->to = get_type(&r, false);
        t->nparams = (uint32_t)get_count(&r, 1);
        t->params = BASE_ARENA_ARRAY(&p->arena, const ir_type *, t->nparams);
        for (uint32_t k = 0; k < t->nparams; k++)
            t->params[k] = get_type(&r, true);
        t->fields = BASE_ARENA_ARRAY(&p->arena, ir_field, t->nfields);
        for (uint32_t f = 0; f < t->nfields; f++) {
            ir_field *fl = &t->fields[f];
            fl->name = get_sym(&r);
            fl->type = get_type(&r, true);
            fl->offset = get_u(&r);
            fl->bit_width = (uint32_t)get_max(&r, 1024);
            fl->bit_offset = (uint32_t)get_max(&r, 1024);
        }
    }
    base_vec_free(&records);
    uint64_t ng = get_count(&r, 7);
    u->global_usr = base_xcalloc(ng + 1, sizeof *u->global_usr);
    for (uint64_t i = 0; i < ng && !r.bad; i++) {
        get_var(&r, NULL, false);
        u->global_usr[i] = get_sym(&r);
    }
    uint64_t nf = get_count(&r, 7);
    u->func_usr = base_xcalloc(nf + 1, sizeof *u->func_usr);
    p->nfuncs = 0;
    for (uint64_t i = 0; i < nf && !r.bad; i++) {
        base_sym name = get_sym(&r);
        u->func_usr[i] = get_sym(&r);
        const ir_type *t = get_type(&r, true);
        base_srcloc loc = get_loc(&r);
        uint64_t fl = get_u(&r);
        if (r.bad || !t || t->kind != IR_T_FUNC) {
            (r.bad = true, r.line = r.line ? r.line : __LINE__);
            break;
        }
        ir_func *f = ir_add_func(p, name ? base_sym_str(&u->syms, name) : "", t, loc);
        f->is_atomic = fl & 2;
        f->external_linkage = fl & 4;
        f->address_taken = fl & 8;
        f->not_lowered = fl & 16;
        f->is_main = fl & 32;
        f->writes_memory = fl & 64;
        f->has_body = fl & 1; /* ir_emit sets it again for the statements */
        if (fl & 128) {
            if (p->init)
                (r.bad = true, r.line = r.line ? r.line : __LINE__);
            p->init = f;
        }
    }
    if (!p->init)
        (r.bad = true, r.line = r.line ? r.line : __LINE__);
    for (uint32_t i = 0; i < p->nfuncs && !r.bad; i++) {
        ir_func *f = p->funcs[i];
        bool body = f->has_body;
        get_func(&r, f);
        f->has_body = body;
        for (uint32_t k = 0; k < f->nstmts && !r.bad; k++)
            for (uint32_t t = 0; t < f->stmts[k].ntargets; t++)
                if (f->stmts[k].targets[t] > f->nstmts)
                    (r.bad = true, r.line = r.line ? r.line : __LINE__);
    }
    uint64_t ni = get_count(&r, 3);
    uint32_t last = 0;
    for (uint64_t i = 0; i < ni && !r.bad; i++) {
        cf_unit_init_range ir;
        ir.global = (uint32_t)get_max(&r, p->nglobals ? p->nglobals - 1 : 0);
        ir.from = (uint32_t)get_max(&r, p->init ? p->init->nstmts : 0);
        ir.to = (uint32_t)get_max(&r, p->init ? p->init->nstmts : 0);
        if (!p->nglobals || ir.from < last || ir.to < ir.from)
            (r.bad = true, r.line = r.line ? r.line : __LINE__);
        last = ir.to;
        base_vec_push(&u->inits, ir);
    }
    if (r.p != r.end)
        (r.bad = true, r.line = r.line ? r.line : __LINE__);
    free(r.strs);
    free(r.types);
    if (!r.bad) { /* well-formed as a program too: what the analyses take for granted */
        base_diag cd;
        base_diag_init(&cd);
        r.bad = ir_check(p, &cd) != 0;
        base_diag_free(&cd);
    }
    if (r.bad) {
        cf_unit_free(u);
        return false;
    }
    return true;
}

/* --- linking --- */

typedef struct lk {
    cf_ctx *c;
    const cf_unit *u;
    base_hashmap types; /* unit type -> program type */
    base_hashmap exprs; /* unit expression -> program expression (per function) */
    ir_func **funcs;    /* unit function -> program function */
    base_hashmap fix;   /* unit function -> its index */
    ir_var **globals;
    ir_func *uf, *pf;   /* the function being copied, in the unit and the program */
    uint32_t local_base, stmt_base;
} lk;

static const char *str_of(lk *l, base_sym s)
{
    return s ? base_sym_str(&l->u->syms, s) : "";
}

static base_sym psym(lk *l, base_sym s)
{
    return s ? base_intern_cstr(l->c->p->syms, base_sym_str(&l->u->syms, s)) : 0;
}

static base_srcloc ploc(lk *l, base_srcloc loc)
{
    loc.file = base_sym_str(l->c->p->syms, base_intern_cstr(l->c->p->syms, loc.file));
    return loc;
}

static void complete_from(ir_type *inc, const ir_type *def)
{
    inc->fields = def->fields;
    inc->nfields = def->nfields;
    inc->size = def->size;
    inc->align = def->align;
}

static const ir_type *ltype(lk *l, const ir_type *t)
{
    if (!t)
        return NULL;
    uint64_t found;
    if (base_hashmap_get(&l->types, (uint64_t)(uintptr_t)t, &found))
        return (const ir_type *)(uintptr_t)found;
    ir_program *p = l->c->p;
    const ir_type *r = NULL;
    switch (t->kind) {
    case IR_T_VOID: r = ir_type_void(p); break;
    case IR_T_INT: r = ir_type_int(p, t->bits, t->is_signed); break;
    case IR_T_PTR: r = ir_type_ptr(p, ltype(l, t->to)); break;
    default: break;
    }
    if (r && r->size == t->size && r->align == t->align && r->tag == 0 && !t->tag && !t->nfields) {
        base_hashmap_put(&l->types, (uint64_t)(uintptr_t)t, (uint64_t)(uintptr_t)r);
        return r;
    }
    ir_type *n = BASE_ARENA_NEW(&p->arena, ir_type);
    *n = *t;
    base_hashmap_put(&l->types, (uint64_t)(uintptr_t)t, (uint64_t)(uintptr_t)n);
    n->tag = psym(l, t->tag);
    n->to = ltype(l, t->to);
    n->params = BASE_ARENA_ARRAY(&p->arena, const ir_type *, t->nparams);
    for (uint32_t i = 0; i < t->nparams; i++)
        n->params[i] = ltype(l, t->params[i]);
    n->fields = BASE_ARENA_ARRAY(&p->arena, ir_field, t->nfields);
    for (uint32_t i = 0; i < t->nfields; i++) {
        n->fields[i] = t->fields[i];
        n->fields[i].name = psym(l, t->fields[i].name);
        n->fields[i].type = ltype(l, t->fields[i].type);
    }
    uint64_t key;
    if (base_hashmap_get(&l->u->rec_key, (uint64_t)(uintptr_t)t, &key)) {
        cf_ctx *c = l->c;
        base_sym k = psym(l, (base_sym)key);
        uint64_t done;
        if (base_hashmap_get(&l->u->rec_open, (uint64_t)(uintptr_t)t, NULL)) {
            if (base_hashmap_get(&c->records_done, k, &done)) {
                complete_from(n, (const ir_type *)(uintptr_t)done);
            } else {
                struct cf_incomplete inc = { k, n };
                base_vec_push(&c->records_incomplete, inc);
            }
        } else if (!base_hashmap_get(&c->records_done, k, NULL)) {
            base_hashmap_put(&c->records_done, k, (uint64_t)(uintptr_t)n);
            size_t keep = 0;
            for (size_t i = 0; i < c->records_incomplete.len; i++) {
                struct cf_incomplete *inc = &c->records_incomplete.data[i];
                if (inc->key == k)
                    complete_from(inc->type, n);
                else
                    c->records_incomplete.data[keep++] = *inc;
            }
            c->records_incomplete.len = keep;
        }
    }
    return n;
}

/* A name for a new function or global (cfront.c's unique_name). */
static const char *new_name(lk *l, const char *name, base_srcloc loc)
{
    cf_ctx *c = l->c;
    base_sym s = base_intern_cstr(c->p->syms, name);
    if (!base_hashmap_get(&c->names, s, NULL)) {
        base_hashmap_put(&c->names, s, 1);
        return name;
    }
    const char *file = strrchr(loc.file, '/') ? strrchr(loc.file, '/') + 1 : loc.file;
    size_t n = strlen(name) + strlen(file) + 16;
    char *r = base_arena_alloc(&c->p->arena, n);
    snprintf(r, n, "%s@%s", name, file);
    base_hashmap_put(&c->names, base_intern_cstr(c->p->syms, r), 1);
    return r;
}

static ir_func *lfunc(lk *l, const ir_func *f)
{
    uint64_t i;
    return base_hashmap_get(&l->fix, (uint64_t)(uintptr_t)f, &i) ? l->funcs[i] : NULL;
}

static ir_var *lvar(lk *l, const ir_var *v)
{
    switch (v->kind) {
    case IR_V_GLOBAL: return l->globals[v->id];
    case IR_V_PARAM: return l->pf->params[v->id];
    case IR_V_LOCAL: return l->pf->locals[l->local_base + v->id];
    }
    return NULL;
}

static const ir_expr *lexpr(lk *l, const ir_expr *e)
{
    if (!e)
        return NULL;
    uint64_t found;
    if (base_hashmap_get(&l->exprs, (uint64_t)(uintptr_t)e, &found))
        return (const ir_expr *)(uintptr_t)found;
    ir_expr *n = BASE_ARENA_NEW(&l->c->p->arena, ir_expr);
    *n = *e;
    n->type = ltype(l, e->type);
    n->var = e->var ? lvar(l, e->var) : NULL;
    if (e->func)
        n->func = lfunc(l, e->func);
    if (e->string)
        n->string = base_arena_strdup(&l->c->p->arena, e->string);
    n->a = lexpr(l, e->a);
    n->b = lexpr(l, e->b);
    n->c = lexpr(l, e->c);
    base_hashmap_put(&l->exprs, (uint64_t)(uintptr_t)e, (uint64_t)(uintptr_t)n);
    return n;
}


/* Copies uf's parameters, locals and statements into pf (appended: the
 * initialiser collects every unit's). */
static void copy_body(lk *l, const ir_func *uf, ir_func *pf)
{
    ir_program *p = l->c->p;
    l->pf = pf;
    base_hashmap_clear(&l->exprs);
    if (pf != p->init) {
        pf->loc = ploc(l, uf->loc); /* the definition's (cf_function) */
        pf->nparams = 0;
        for (uint32_t i = 0; i < uf->nparams; i++) {
            const ir_var *v = uf->params[i];
            ir_var *n = ir_add_param(p, pf, str_of(l, v->name), ltype(l, v->type), ploc(l, v->loc));
            n->address_taken = v->address_taken;
        }
    }
    l->local_base = pf->nlocals;
    for (uint32_t i = 0; i < uf->nlocals; i++) {
        const ir_var *v = uf->locals[i];
        ir_var *n = ir_add_local(p, pf, str_of(l, v->name), ltype(l, v->type), ploc(l, v->loc));
        n->address_taken = v->address_taken;
    }
    for (size_t r = 0; r < (pf == p->init ? l->u->inits.len : 1); r++) {
    uint32_t from = 0, to = uf->nstmts;
    if (pf == p->init) {
        const cf_unit_init_range *ir = &l->u->inits.data[r];
        uint64_t g = (uint64_t)(uintptr_t)l->globals[ir->global];
        if (base_hashmap_get(&l->c->inited, g, NULL))
            continue; /* an earlier unit initialised it */
        base_hashmap_put(&l->c->inited, g, 1);
        from = ir->from;
        to = ir->to;
    }
    uint32_t base = pf->nstmts;
    for (uint32_t i = from; i < to; i++) {
        const ir_stmt *s = &uf->stmts[i];
        uint32_t at = ir_emit(p, pf, s->kind, ploc(l, s->loc));
        ir_stmt *n = &pf->stmts[at];
        n->lhs = lexpr(l, s->lhs);
        n->rhs = lexpr(l, s->rhs);
        n->callee = lexpr(l, s->callee);
        n->nargs = s->nargs;
        n->args = BASE_ARENA_ARRAY(&p->arena, const ir_expr *, s->nargs);
        for (uint32_t a = 0; a < s->nargs; a++)
            n->args[a] = lexpr(l, s->args[a]);
        n->ntargets = s->ntargets;
        n->targets = BASE_ARENA_ARRAY(&p->arena, uint32_t, s->ntargets);
        for (uint32_t t = 0; t < s->ntargets; t++)
            n->targets[t] = (s->targets[t] < from || s->targets[t] > to ? to : s->targets[t]) - from + base;
        n->ncands = s->ncands;
        n->cands = BASE_ARENA_ARRAY(&p->arena, const ir_func *, s->ncands);
        for (uint32_t k = 0; k < s->ncands; k++)
            n->cands[k] = lfunc(l, s->cands[k]);
        n->lock_kind = s->lock_kind;
        n->is_try = s->is_try;
        n->zeroed = s->zeroed;
        n->all = s->all;
        n->mo = s->mo;
        n->result_used = s->result_used;
        n->message = s->message ? base_arena_strdup(&p->arena, s->message) : NULL;
        n->origin = s->origin;
    }
    }
    pf->has_body = uf->has_body || pf->has_body;
}

/* Does path name the same file as the unit option --main gave? */
static bool same_file(const char *want, const char *path)
{
    char *a = realpath(want, NULL), *b = realpath(path, NULL);
    bool same = a && b ? strcmp(a, b) == 0 : strcmp(want, path) == 0;
    free(a);
    free(b);
    return same;
}

static ir_func *link_func(lk *l, const ir_func *f, base_sym usr)
{
    cf_ctx *c = l->c;
    ir_program *p = c->p;
    uint64_t found;
    if (usr && base_hashmap_get(&c->by_usr, usr, &found) && (found & TAG_VAR))
        usr = 0; /* a global's USR (a malformed unit): a function of its own */
    if (usr && base_hashmap_get(&c->by_usr, usr, &found)) {
        ir_func *g = (ir_func *)(uintptr_t)found;
        g->address_taken |= f->address_taken;
        return g;
    }
    const char *name = str_of(l, f->name);
    base_srcloc loc = ploc(l, f->loc);
    ir_func *g;
    if (f->is_main) {
        bool take = c->opts->main_unit ? same_file(c->opts->main_unit, l->u->path) : !c->main_taken;
        if (take && !c->main_taken) {
            c->main_taken = true;
            g = ir_add_func(p, "main", ltype(l, f->type), loc);
            g->is_main = true;
        } else {
            const char *file = strrchr(loc.file, '/') ? strrchr(loc.file, '/') + 1 : loc.file;
            size_t n = strlen(file) + 16;
            char *mn = base_arena_alloc(&p->arena, n);
            snprintf(mn, n, "main@%s", file);
            g = ir_add_func(p, new_name(l, mn, loc), ltype(l, f->type), loc);
            g->is_main = !c->opts->main_unit;
        }
        g->external_linkage = g->is_main && strcmp(base_sym_str(p->syms, g->name), "main") == 0;
    } else {
        g = ir_add_func(p, new_name(l, name, loc), ltype(l, f->type), loc);
        g->external_linkage = f->external_linkage;
    }
    g->is_atomic = f->is_atomic;
    g->address_taken = f->address_taken;
    g->writes_memory = f->writes_memory;
    if (usr)
        base_hashmap_put(&c->by_usr, usr, (uint64_t)(uintptr_t)g);
    return g;
}

void cf_unit_link(cf_ctx *c, const cf_unit *u)
{
    ir_program *p = c->p;
    lk l = { .c = c, .u = u };
    base_hashmap_init(&l.types);
    base_hashmap_init(&l.exprs);
    const ir_program *up = &u->p;
    l.globals = base_xcalloc(up->nglobals + 1, sizeof *l.globals);
    l.funcs = base_xcalloc(up->nfuncs + 1, sizeof *l.funcs);
    base_hashmap_init(&l.fix);
    for (uint32_t i = 0; i < up->nfuncs; i++)
        base_hashmap_put(&l.fix, (uint64_t)(uintptr_t)up->funcs[i], i);
    for (size_t i = 0; i < u->diags.len; i++) {
        const cf_unit_diag *dg = &u->diags.data[i];
        base_diag_report(c->d, dg->sev, ploc(&l, dg->loc), "%s", dg->text);
    }
    c->errors += u->errors;
    c->stats.units += u->stats.units;
    c->stats.units_left_out += u->stats.units_left_out;
    c->stats.units_partial += u->stats.units_partial;
    pthread_mutex_lock(&c->bad_flags.mu); /* the parsing threads read it */
    for (size_t i = 0; i < u->dropped.len; i++) {
        size_t k = 0;
        while (k < c->bad_flags.flags.len && strcmp(c->bad_flags.flags.data[k].flag, u->dropped.data[i]))
            k++;
        if (k == c->bad_flags.flags.len) {
            cf_bad_flag bf = { base_xstrdup(u->dropped.data[i]), 0 };
            base_vec_push(&c->bad_flags.flags, bf);
        }
        c->bad_flags.flags.data[k].units++;
    }
    pthread_mutex_unlock(&c->bad_flags.mu);
    for (uint32_t i = 0; i < up->nglobals; i++) {
        const ir_var *v = up->globals[i];
        base_sym usr = u->global_usr ? psym(&l, u->global_usr[i]) : 0;
        uint64_t found;
        if (usr && base_hashmap_get(&c->by_usr, usr, &found) && !(found & TAG_VAR))
            usr = 0; /* a function's USR (a malformed unit): a global of its own */
        if (usr && base_hashmap_get(&c->by_usr, usr, &found)) {
            l.globals[i] = (ir_var *)(uintptr_t)(found & ~(uint64_t)TAG_VAR);
        } else {
            base_srcloc loc = ploc(&l, v->loc);
            l.globals[i] = ir_add_global(p, new_name(&l, str_of(&l, v->name), loc), ltype(&l, v->type), loc);
            l.globals[i]->is_static = v->is_static;
            l.globals[i]->is_thread_local = v->is_thread_local;
            if (usr)
                base_hashmap_put(&c->by_usr, usr, (uint64_t)(uintptr_t)l.globals[i] | TAG_VAR);
        }
        l.globals[i]->address_taken |= v->address_taken;
    }
    for (uint32_t i = 0; i < up->nfuncs; i++) {
        const ir_func *f = up->funcs[i];
        if (f == up->init) {
            l.funcs[i] = p->init;
            continue;
        }
        base_sym usr = u->func_usr ? psym(&l, u->func_usr[i]) : 0;
        l.funcs[i] = link_func(&l, f, usr);
    }
    for (uint32_t i = 0; i < up->nfuncs; i++) {
        const ir_func *f = up->funcs[i];
        ir_func *g = l.funcs[i];
        if (f == up->init) {
            copy_body(&l, f, g);
        } else if (!g->has_body && !g->not_lowered) {
            if (f->has_body)
                copy_body(&l, f, g);
            else if (f->not_lowered)
                g->not_lowered = true;
        }
    }
    free(l.globals);
    free(l.funcs);
    base_hashmap_free(&l.fix);
    base_hashmap_free(&l.types);
    base_hashmap_free(&l.exprs);
}
