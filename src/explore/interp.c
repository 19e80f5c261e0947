/* explore/interp: the interpreter (see interp.h for the semantics).
 *
 * Values. A scalar is a uint64_t in canonical form: an integer of w < 64
 * bits is sign-extended (signed) or zero-extended (unsigned) from its w
 * bits, _Bool is 0 or 1, a pointer is its address (zero-extended from the
 * target's pointer width), a float or double is its IEEE bit pattern. An
 * aggregate (struct, union, array, lock object) is never a value: an
 * expression of aggregate type evaluates to the address of its bytes, and
 * assignments, arguments and results copy bytes.
 *
 * Frames. The call stack is explicit (frames[0..nframes)), so recursion
 * depth costs no host stack. A frame's variables (parameters, then
 * locals) are slots vstack[voff ..]: a register variable's slot is its
 * value, a memory variable's slot is its object's address. The caller's pc
 * stays on its CALL while the callee runs.
 *
 * Invariant: once c->stop is set, no further statement runs; every
 * memory access checks its object first, so an abandoned statement may
 * have computed garbage but has written nothing outside live objects. */
#include "explore/interp.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "ir/ir_print.h"

#define MAX_FRAMES 100000u

typedef struct finfo {
    const ir_func *f;
    uint32_t nvars;     /* parameters, then locals */
    bool *in_mem;       /* per variable: it lives in memory */
    uint8_t *ckind;     /* per statement: the choice kind of an ASSIGN of NONDET */
} finfo;

typedef struct frame {
    const finfo *fi;
    uint32_t pc;
    uint32_t depth;
    size_t voff;
    uint32_t first_obj, end_obj; /* the objects made for this activation */
} frame;

struct explore_prog {
    const ir_program *p;
    uint32_t pw;            /* pointer width in bits */
    base_hashmap fidx;      /* ir_func* -> index into fis */
    finfo *fis;
    uint32_t nfis;
    base_hashmap faddr;     /* ir_func* -> its address */
    base_hashmap saddr;     /* string literal (const char *) -> its address */
    base_hashmap taken;     /* ir_var* -> 1: its address is taken */
    uint64_t *gaddr;        /* per global: its address, 0 in a register */
    explore_mem image;      /* globals zero, strings written, functions */
    const ir_var *cur_var;  /* the global kiss.cur (hint), or NULL */
    const ir_var *ts_used;  /* the global array kiss.ts_used (hint), or NULL */
    char unsup[200];
    const finfo *fcache[64];
    /* state reused by the runs */
    explore_mem mem;
    uint64_t *gregs;
    uint64_t *vstack;
    size_t vcap;
    frame *frames;
    size_t fcap;
    uint64_t *argv;
    size_t argcap;
    uint8_t *retbuf;
    size_t retcap;
};

typedef struct vm {
    explore_prog *ep;
    const ir_program *p;
    explore_mem *m;
    uint64_t *gregs;
    const explore_chooser *ch;
    uint32_t pw;
    uint32_t nframes;
    bool stop;
    explore_outcome outcome;
    const char *why;
    const ir_stmt *s;       /* the statement being executed */
    trace_result *tr;         /* trace mode */
    BASE_VEC(trace_step) steps;
    uint32_t nmallocs;
    uint64_t rng;           /* uninitialised register locals (seeded by the chooser) */
    uint64_t max_steps;
    double deadline;
    explore_run_stats st;
} vm;

/* --- types and values --- */

static uint64_t tsize(const vm *c, const ir_type *t)
{
    return ir_type_bytes(t, c->pw / 8);
}

static bool is_agg(const ir_type *t)
{
    return t->kind == IR_T_STRUCT || t->kind == IR_T_UNION || t->kind == IR_T_ARRAY ||
           t->kind == IR_T_MUTEX;
}

static bool is_signed(const ir_type *t)
{
    return t->kind == IR_T_INT && t->is_signed;
}

static uint32_t vwidth(const vm *c, const ir_type *t)
{
    switch (t->kind) {
    case IR_T_INT:
    case IR_T_FLOAT: return t->bits;
    case IR_T_PTR:
    case IR_T_FUNC: return c->pw;
    default: return 64;
    }
}

static inline uint64_t canon_int(uint64_t v, uint32_t w, bool sgn)
{
    if (w >= 64)
        return v;
    if (sgn) {
        unsigned s = 64 - w;
        return (uint64_t)((int64_t)(v << s) >> s);
    }
    return v & (((uint64_t)1 << w) - 1);
}

static inline uint64_t canon(const vm *c, uint64_t v, const ir_type *t)
{
    switch (t->kind) {
    case IR_T_INT: return canon_int(v, t->bits, t->is_signed);
    case IR_T_PTR:
    case IR_T_FUNC: return canon_int(v, c->pw, false);
    case IR_T_FLOAT: return t->bits == 32 ? (v & 0xffffffffu) : v;
    default: return v;
    }
}

static inline float as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline double as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline uint64_t from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline uint64_t from_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* --- stopping --- */

static void stop(vm *c, explore_outcome o, const char *why)
{
    if (c->stop)
        return;
    c->stop = true;
    c->outcome = o;
    c->why = why;
}

static void ub(vm *c, const char *why)
{
    stop(c, EXPLORE_RUN_UNDEFINED, why);
}

/* --- the program --- */

static const char *sym(const explore_prog *ep, base_sym s)
{
    return base_sym_str(ep->p->syms, s);
}

static uint64_t obj_base(const explore_mem *m, uint32_t id)
{
    return m->objs.data[id].base;
}

static const ir_var *root_var(const ir_expr *e)
{
    while (e->kind == IR_E_FIELD || e->kind == IR_E_INDEX) {
        if (e->kind == IR_E_INDEX && e->a->type->kind == IR_T_PTR)
            return NULL;
        e = e->a;
    }
    return e->kind == IR_E_VAR ? e->var : NULL;
}

static void scan_expr(explore_prog *ep, const ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_E_ADDR) {
        const ir_var *v = root_var(e->a);
        if (v)
            base_hashmap_put(&ep->taken, (uint64_t)(uintptr_t)v, 1);
    }
    if (e->kind == IR_E_STRING) {
        uint64_t x;
        if (!base_hashmap_get(&ep->saddr, (uint64_t)(uintptr_t)e->string, &x)) {
            size_t len = strlen(e->string) + 1;
            uint32_t id = explore_mem_new(&ep->image, len, EXPLORE_OBJ_STRING);
            explore_obj *o = &ep->image.objs.data[id];
            o->text = e->string;
            memcpy(ep->image.bytes + o->base, e->string, len);
            base_hashmap_put(&ep->saddr, (uint64_t)(uintptr_t)e->string, o->base);
        }
    }
    scan_expr(ep, e->a);
    scan_expr(ep, e->b);
    scan_expr(ep, e->c);
}

static uint8_t choice_kind(const explore_prog *ep, const ir_stmt *s)
{
    if (s->kind != IR_S_ASSIGN || !s->rhs || s->rhs->kind != IR_E_NONDET || s->lhs->kind != IR_E_VAR)
        return EXPLORE_CH_DATA;
    const char *n = sym(ep, s->lhs->var->name);
    if (strcmp(n, "kiss.choice") == 0)
        return EXPLORE_CH_RAISE;
    if (strcmp(n, "kiss.pick") == 0)
        return EXPLORE_CH_PICK;
    return EXPLORE_CH_DATA;
}

explore_prog *explore_prog_new(const ir_program *p)
{
    explore_prog *ep = base_xcalloc(1, sizeof *ep);
    ep->p = p;
    ep->pw = p->ptr_bytes ? p->ptr_bytes * 8 : 64;
    base_hashmap_init(&ep->fidx);
    base_hashmap_init(&ep->faddr);
    base_hashmap_init(&ep->saddr);
    base_hashmap_init(&ep->taken);
    explore_mem_init(&ep->image);
    explore_mem_init(&ep->mem);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const ir_func *f = p->funcs[i];
        for (uint32_t k = 0; k < f->nstmts; k++) {
            const ir_stmt *s = &f->stmts[k];
            scan_expr(ep, s->lhs);
            scan_expr(ep, s->rhs);
            scan_expr(ep, s->callee);
            for (uint32_t j = 0; j < s->nargs; j++)
                scan_expr(ep, s->args[j]);
        }
    }
    vm tmp = { .pw = ep->pw };
    ep->gaddr = base_xcalloc(p->nglobals + 1, sizeof *ep->gaddr);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const ir_var *v = p->globals[i];
        uint64_t x;
        if (!ir_type_is_scalar(v->type) || v->address_taken ||
            base_hashmap_get(&ep->taken, (uint64_t)(uintptr_t)v, &x)) {
            uint64_t n = tsize(&tmp, v->type);
            uint32_t id = explore_mem_new(&ep->image, n, EXPLORE_OBJ_GLOBAL);
            explore_obj *o = &ep->image.objs.data[id];
            o->var = v;
            o->type = v->type;
            memset(ep->image.bytes + o->base, 0, n);
            ep->gaddr[i] = o->base;
        }
        if (strcmp(sym(ep, v->name), "kiss.cur") == 0 && v->type->kind == IR_T_INT)
            ep->cur_var = v;
        if (strcmp(sym(ep, v->name), "kiss.ts_used") == 0 && v->type->kind == IR_T_ARRAY &&
            v->type->to->kind == IR_T_INT && v->type->to->bits == 32 && ep->gaddr[i])
            ep->ts_used = v;
    }
    ep->nfis = p->nfuncs;
    ep->fis = base_xcalloc(p->nfuncs + 1, sizeof *ep->fis);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const ir_func *f = p->funcs[i];
        finfo *fi = &ep->fis[i];
        fi->f = f;
        fi->nvars = f->nparams + f->nlocals;
        fi->in_mem = base_xcalloc(fi->nvars + 1, sizeof *fi->in_mem);
        for (uint32_t k = 0; k < fi->nvars; k++) {
            const ir_var *v = k < f->nparams ? f->params[k] : f->locals[k - f->nparams];
            uint64_t x;
            fi->in_mem[k] = !ir_type_is_scalar(v->type) || v->address_taken ||
                            base_hashmap_get(&ep->taken, (uint64_t)(uintptr_t)v, &x);
        }
        fi->ckind = base_xcalloc(f->nstmts + 1, 1);
        for (uint32_t k = 0; k < f->nstmts; k++)
            fi->ckind[k] = choice_kind(ep, &f->stmts[k]);
        base_hashmap_put(&ep->fidx, (uint64_t)(uintptr_t)f, i);
        uint32_t id = explore_mem_new(&ep->image, 0, EXPLORE_OBJ_FUNC);
        ep->image.objs.data[id].func = f;
        base_hashmap_put(&ep->faddr, (uint64_t)(uintptr_t)f, obj_base(&ep->image, id));
    }
    ep->gregs = base_xcalloc(p->nglobals + 1, sizeof *ep->gregs);
    return ep;
}

void explore_prog_free(explore_prog *ep)
{
    if (!ep)
        return;
    for (uint32_t i = 0; i < ep->nfis; i++) {
        free(ep->fis[i].in_mem);
        free(ep->fis[i].ckind);
    }
    free(ep->fis);
    base_hashmap_free(&ep->fidx);
    base_hashmap_free(&ep->faddr);
    base_hashmap_free(&ep->saddr);
    base_hashmap_free(&ep->taken);
    free(ep->gaddr);
    explore_mem_free(&ep->image);
    explore_mem_free(&ep->mem);
    free(ep->gregs);
    free(ep->vstack);
    free(ep->frames);
    free(ep->argv);
    free(ep->retbuf);
    free(ep);
}

static const finfo *func_info(explore_prog *ep, const ir_func *f)
{
    /* a direct-mapped cache in front of the map */
    size_t h = ((uintptr_t)f >> 4) & 63;
    if (ep->fcache[h] && ep->fcache[h]->f == f)
        return ep->fcache[h];
    uint64_t i;
    if (!base_hashmap_get(&ep->fidx, (uint64_t)(uintptr_t)f, &i))
        return NULL;
    ep->fcache[h] = &ep->fis[i];
    return &ep->fis[i];
}

static uint64_t func_addr(const explore_prog *ep, const ir_func *f)
{
    uint64_t a = 0;
    base_hashmap_get(&ep->faddr, (uint64_t)(uintptr_t)f, &a);
    return a;
}

/* --- memory access --- */

static inline uint64_t *vars(vm *c, const frame *fr)
{
    return c->ep->vstack + fr->voff;
}

static inline frame *top(vm *c)
{
    return &c->ep->frames[c->nframes - 1];
}

static uint64_t load_raw(vm *c, uint64_t a, uint64_t n)
{
    if (!explore_mem_ok(c->m, a, n)) {
        ub(c, a == 0 ? "a NULL pointer is dereferenced"
                     : "an access outside any live object (dangling, freed or out of bounds)");
        return 0;
    }
    uint64_t v = 0;
    memcpy(&v, c->m->bytes + a, n); /* little endian, as bmc's byte order */
    return v;
}

static void store_raw(vm *c, uint64_t a, uint64_t n, uint64_t v)
{
    if (!explore_mem_ok(c->m, a, n)) {
        ub(c, a == 0 ? "a NULL pointer is dereferenced"
                     : "an access outside any live object (dangling, freed or out of bounds)");
        return;
    }
    memcpy(c->m->bytes + a, &v, n);
}

static bool mem_range_ok(vm *c, uint64_t a, uint64_t n)
{
    if (n == 0)
        return true;
    if (!explore_mem_ok(c->m, a, n)) {
        ub(c, a == 0 ? "a NULL pointer is dereferenced"
                     : "an access outside any live object (dangling, freed or out of bounds)");
        return false;
    }
    return true;
}

static uint64_t load(vm *c, uint64_t a, const ir_type *t)
{
    uint64_t n = tsize(c, t);
    if (n > 8 || (t->kind == IR_T_INT && t->bits > 64) || (t->kind == IR_T_FLOAT && t->bits > 64)) {
        ub(c, "unsupported type: a scalar wider than 64 bits (long double, __int128)");
        return 0;
    }
    uint64_t v = load_raw(c, a, n);
    if (t->kind == IR_T_INT && t->bits == 1)
        return v != 0;
    return canon(c, v, t);
}

/* --- lvalues --- */

typedef struct lval {
    uint64_t *reg;   /* a register variable's slot, or NULL */
    uint64_t addr;
    uint32_t bw, boff;
} lval;

static uint64_t eval(vm *c, const ir_expr *e);

/* p + i * sz, within p's object (one past its end allowed). */
static uint64_t ptr_add(vm *c, uint64_t p, int64_t i, uint64_t sz)
{
    uint64_t r = canon_int(p + (uint64_t)i * sz, c->pw, false);
    if (i == 0 || sz == 0)
        return r;
    uint32_t id = explore_mem_id(c->m, p);
    if (!id) {
        ub(c, p ? "pointer arithmetic on a pointer to no object" : "pointer arithmetic on NULL");
        return 0;
    }
    const explore_obj *o = &c->m->objs.data[id];
    if (r < o->base || r > o->base + o->size) {
        ub(c, "pointer arithmetic leaves its object");
        return 0;
    }
    return r;
}

static bool eval_lv(vm *c, const ir_expr *e, lval *lv, bool end_ok)
{
    switch (e->kind) {
    case IR_E_VAR: {
        const ir_var *v = e->var;
        lv->bw = lv->boff = 0;
        if (v->kind == IR_V_GLOBAL) {
            if (c->ep->gaddr[v->id]) {
                lv->reg = NULL;
                lv->addr = c->ep->gaddr[v->id];
            } else {
                lv->reg = &c->gregs[v->id];
            }
            return true;
        }
        frame *fr = top(c);
        uint32_t k = v->kind == IR_V_PARAM ? v->id : fr->fi->f->nparams + v->id;
        uint64_t *slot = &vars(c, fr)[k];
        if (fr->fi->in_mem[k]) {
            lv->reg = NULL;
            lv->addr = *slot;
        } else {
            lv->reg = slot;
        }
        return true;
    }
    case IR_E_DEREF:
        lv->reg = NULL;
        lv->bw = lv->boff = 0;
        lv->addr = eval(c, e->a);
        return !c->stop;
    case IR_E_FIELD: {
        if (!eval_lv(c, e->a, lv, false))
            return false;
        if (lv->reg) {
            ub(c, "internal: a field of a register");
            return false;
        }
        const ir_field *f = &e->a->type->fields[e->field];
        lv->addr += f->offset;
        lv->bw = f->bit_width;
        lv->boff = f->bit_offset;
        return true;
    }
    case IR_E_INDEX: {
        uint64_t sz = tsize(c, e->type);
        if (e->a->type->kind == IR_T_PTR) {
            uint64_t base = eval(c, e->a);
            int64_t i = (int64_t)eval(c, e->b);
            if (c->stop)
                return false;
            lv->reg = NULL;
            lv->bw = lv->boff = 0;
            lv->addr = ptr_add(c, base, i, sz);
            return !c->stop;
        }
        if (!eval_lv(c, e->a, lv, false))
            return false;
        if (lv->reg) {
            ub(c, "internal: an index into a register");
            return false;
        }
        uint64_t raw = eval(c, e->b);
        if (c->stop)
            return false;
        const ir_type *at = e->a->type;
        /* an index i of an array of count elements: i < count, or == count
         * when only the address is taken */
        if (at->kind == IR_T_ARRAY && at->count) {
            bool neg = is_signed(e->b->type) && (int64_t)raw < 0;
            if (neg || raw > at->count || (raw == at->count && !end_ok)) {
                ub(c, "an array index out of bounds");
                return false;
            }
        }
        lv->addr = canon_int(lv->addr + raw * sz, c->pw, false);
        lv->bw = lv->boff = 0;
        return true;
    }
    default:
        ub(c, "internal: not an lvalue");
        return false;
    }
}

static uint64_t read_lv(vm *c, const lval *lv, const ir_type *t)
{
    if (lv->reg)
        return *lv->reg;
    if (lv->bw) {
        uint64_t nb = (lv->boff + lv->bw + 7) / 8;
        if (nb > 8) {
            ub(c, "unsupported: a bit-field spanning more than 8 bytes");
            return 0;
        }
        uint64_t raw = load_raw(c, lv->addr, nb);
        uint64_t v = (raw >> lv->boff) & (lv->bw >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << lv->bw) - 1));
        if (t->kind == IR_T_INT && t->bits == 1)
            return v != 0;
        if (is_signed(t))
            v = canon_int(v, lv->bw, true);
        return canon(c, v, t);
    }
    return load(c, lv->addr, t);
}

static void write_lv(vm *c, const lval *lv, const ir_type *t, uint64_t v)
{
    if (lv->reg) {
        *lv->reg = v;
        return;
    }
    if (lv->bw) {
        uint64_t nb = (lv->boff + lv->bw + 7) / 8;
        if (nb > 8) {
            ub(c, "unsupported: a bit-field spanning more than 8 bytes");
            return;
        }
        uint64_t old = load_raw(c, lv->addr, nb);
        uint64_t mask = (lv->bw >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << lv->bw) - 1)) << lv->boff;
        uint64_t nv = (old & ~mask) | ((v << lv->boff) & mask);
        store_raw(c, lv->addr, nb, nv);
        return;
    }
    uint64_t n = tsize(c, t);
    if (n > 8) {
        ub(c, "unsupported type: a scalar wider than 64 bits (long double, __int128)");
        return;
    }
    store_raw(c, lv->addr, n, v);
}

/* --- expressions --- */

static explore_site site_of(vm *c, const ir_stmt *s)
{
    explore_site w = { 0, 0, 0, false };
    /* (function index, statement index) of the choice and of its caller's
     * CALL: stable across processes, unlike addresses, so runs are
     * reproducible from the seed alone */
    (void)s;
    const frame *me = top(c);
    uint64_t k = (((uint64_t)(me->fi - c->ep->fis) << 32) + me->pc + 1) * 0x9E3779B97F4A7C15ull;
    if (c->nframes >= 2) {
        const frame *caller = &c->ep->frames[c->nframes - 2];
        k ^= (((uint64_t)(caller->fi - c->ep->fis) << 32) + caller->pc + 0x9e37) *
             0xC2B2AE3D27D4EB4Full;
    }
    k ^= k >> 29;
    w.key = k;
    w.tid = 0;
    w.depth = c->nframes;
    const ir_var *cv = c->ep->cur_var;
    if (cv) {
        if (c->ep->gaddr[cv->id]) {
            uint64_t a = c->ep->gaddr[cv->id];
            uint32_t v;
            memcpy(&v, c->m->bytes + a, 4);
            w.tid = v;
        } else {
            w.tid = (uint32_t)c->gregs[cv->id];
        }
    }
    if (w.tid > c->st.max_tid && w.tid < (1u << 30))
        c->st.max_tid = w.tid;
    return w;
}

static uint64_t choose(vm *c, explore_choice_kind k, const ir_type *t)
{
    /* only scheduling choices need their site (two hashes and a read) */
    explore_site w = { 0, 0, c->nframes, false };
    if (k == EXPLORE_CH_RAISE || k == EXPLORE_CH_PICK)
        w = site_of(c, c->s);
    if (k == EXPLORE_CH_PICK && c->ep->ts_used) {
        const ir_var *u = c->ep->ts_used;
        const uint8_t *b = c->m->bytes + c->ep->gaddr[u->id];
        w.idle = true;
        for (uint64_t j = 0; j < u->type->count && w.idle; j++) {
            int32_t used;
            memcpy(&used, b + 4 * j, 4);
            w.idle = used == 0;
        }
    }
    if (k == EXPLORE_CH_RAISE)
        c->st.raise_points++;
    else if (k == EXPLORE_CH_PICK)
        c->st.pick_points++;
    uint64_t v = c->ch->choose(c->ch->ctx, k, t, 0, &w);
    if (t->kind == IR_T_INT && t->bits == 1)
        return v & 1;
    return canon(c, v, t);
}

static uint64_t const_value(vm *c, const ir_expr *e)
{
    const ir_type *t = e->type;
    if (t->kind == IR_T_FLOAT) {
        if (t->bits == 64)
            return from_f64(e->fvalue);
        if (t->bits == 32)
            return from_f32((float)e->fvalue);
        ub(c, "unsupported type: long double");
        return 0;
    }
    if (!ir_type_is_scalar(t))
        return 0;
    if (t->kind == IR_T_INT && t->bits > 64) {
        ub(c, "unsupported type: an integer wider than 64 bits");
        return 0;
    }
    return canon(c, (uint64_t)e->value, t);
}

static bool truth(vm *c, uint64_t v, const ir_type *t)
{
    if (t->kind == IR_T_FLOAT) {
        if (t->bits == 32)
            return as_f32(v) != 0.0f;
        if (t->bits == 64)
            return as_f64(v) != 0.0;
        ub(c, "unsupported type: long double");
        return false;
    }
    return v != 0;
}

static bool eval_cond(vm *c, const ir_expr *e)
{
    return truth(c, eval(c, e), e->type);
}

/* C's conversion of v (canonical at from) to type to. */
static uint64_t convert(vm *c, uint64_t v, const ir_type *from, const ir_type *to)
{
    if (to->kind == IR_T_VOID || is_agg(to) || is_agg(from))
        return v;
    bool fi = from->kind == IR_T_INT || from->kind == IR_T_PTR || from->kind == IR_T_FUNC;
    bool ti = to->kind == IR_T_INT || to->kind == IR_T_PTR || to->kind == IR_T_FUNC;
    if ((from->kind == IR_T_INT && from->bits > 64) || (to->kind == IR_T_INT && to->bits > 64) ||
        (from->kind == IR_T_FLOAT && from->bits > 64) || (to->kind == IR_T_FLOAT && to->bits > 64)) {
        ub(c, "unsupported type: long double or an integer wider than 64 bits");
        return 0;
    }
    if (fi && ti) {
        if (to->kind == IR_T_INT && to->bits == 1)
            return v != 0;
        return canon(c, v, to);
    }
    if (from->kind == IR_T_FLOAT && to->kind == IR_T_FLOAT) {
        if (from->bits == to->bits)
            return v;
        return to->bits == 32 ? from_f32((float)as_f64(v)) : from_f64((double)as_f32(v));
    }
    if (fi && to->kind == IR_T_FLOAT) {
        if (from->kind != IR_T_INT) {
            ub(c, "a pointer converted to floating point");
            return 0;
        }
        bool s = from->is_signed;
        if (to->bits == 32)
            return from_f32(s ? (float)(int64_t)v : (float)v);
        return from_f64(s ? (double)(int64_t)v : (double)v);
    }
    if (from->kind == IR_T_FLOAT && ti) {
        double d = from->bits == 32 ? (double)as_f32(v) : as_f64(v);
        if (to->kind == IR_T_INT && to->bits == 1)
            return d != 0.0;
        if (to->kind != IR_T_INT) {
            ub(c, "floating point converted to a pointer");
            return 0;
        }
        double t = trunc(d);
        uint32_t w = to->bits;
        bool ok;
        if (to->is_signed)
            ok = t >= -ldexp(1.0, (int)w - 1) && t < ldexp(1.0, (int)w - 1);
        else
            ok = t >= 0.0 && t < ldexp(1.0, (int)w);
        if (!ok || isnan(d)) {
            ub(c, "a floating-point value out of the range of its integer type");
            return 0;
        }
        return canon(c, to->is_signed ? (uint64_t)(int64_t)t : (uint64_t)t, to);
    }
    return canon(c, v, to);
}

static uint64_t eval_float_binary(vm *c, const ir_expr *e, uint64_t a, uint64_t b)
{
    const ir_type *at = e->a->type, *bt = e->b->type;
    if (at->kind != IR_T_FLOAT || bt->kind != IR_T_FLOAT || at->bits != bt->bits ||
        (at->bits != 32 && at->bits != 64)) {
        ub(c, "unsupported: mixed or long double floating-point operands");
        return 0;
    }
    bool f = at->bits == 32;
    switch (e->op) {
    case IR_OP_EQ: return f ? as_f32(a) == as_f32(b) : as_f64(a) == as_f64(b);
    case IR_OP_NE: return f ? as_f32(a) != as_f32(b) : as_f64(a) != as_f64(b);
    case IR_OP_LT: return f ? as_f32(a) < as_f32(b) : as_f64(a) < as_f64(b);
    case IR_OP_LE: return f ? as_f32(a) <= as_f32(b) : as_f64(a) <= as_f64(b);
    case IR_OP_GT: return f ? as_f32(a) > as_f32(b) : as_f64(a) > as_f64(b);
    case IR_OP_GE: return f ? as_f32(a) >= as_f32(b) : as_f64(a) >= as_f64(b);
    default: break;
    }
    if (e->type->kind != IR_T_FLOAT || e->type->bits != at->bits) {
        ub(c, "unsupported: a floating-point operation of another result type");
        return 0;
    }
    if (f) {
        float x = as_f32(a), y = as_f32(b);
        switch (e->op) {
        case IR_OP_ADD: return from_f32(x + y);
        case IR_OP_SUB: return from_f32(x - y);
        case IR_OP_MUL: return from_f32(x * y);
        case IR_OP_DIV: return from_f32(x / y);
        default: break;
        }
    } else {
        double x = as_f64(a), y = as_f64(b);
        switch (e->op) {
        case IR_OP_ADD: return from_f64(x + y);
        case IR_OP_SUB: return from_f64(x - y);
        case IR_OP_MUL: return from_f64(x * y);
        case IR_OP_DIV: return from_f64(x / y);
        default: break;
        }
    }
    ub(c, "unsupported floating-point operator");
    return 0;
}

static bool same_object(vm *c, uint64_t a, uint64_t b)
{
    uint32_t ia = explore_mem_id(c->m, a), ib = explore_mem_id(c->m, b);
    return ia && ia == ib;
}

static uint64_t eval_binary(vm *c, const ir_expr *e)
{
    const ir_type *at = e->a->type, *bt = e->b->type;
    if (e->op == IR_OP_LAND) /* operands are side-effect free: skipping b is exact */
        return eval_cond(c, e->a) && !c->stop && eval_cond(c, e->b);
    if (e->op == IR_OP_LOR)
        return (eval_cond(c, e->a) || (!c->stop && eval_cond(c, e->b))) ? 1 : 0;
    uint64_t a = eval(c, e->a), b = eval(c, e->b);
    if (c->stop)
        return 0;
    if (at->kind == IR_T_FLOAT || bt->kind == IR_T_FLOAT || e->type->kind == IR_T_FLOAT)
        return eval_float_binary(c, e, a, b);
    if ((at->kind == IR_T_INT && at->bits > 64) || (bt->kind == IR_T_INT && bt->bits > 64) ||
        (e->type->kind == IR_T_INT && e->type->bits > 64)) {
        ub(c, "unsupported type: an integer wider than 64 bits");
        return 0;
    }
    switch (e->op) {
    case IR_OP_EQ:
    case IR_OP_NE:
    case IR_OP_LT:
    case IR_OP_LE:
    case IR_OP_GT:
    case IR_OP_GE: {
        uint32_t wa = vwidth(c, at), wb = vwidth(c, bt), w = wa > wb ? wa : wb;
        bool sgn = is_signed(at) && is_signed(bt);
        if (e->op != IR_OP_EQ && e->op != IR_OP_NE && at->kind == IR_T_PTR &&
            bt->kind == IR_T_PTR && !same_object(c, a, b)) {
            ub(c, "a relational comparison of pointers into different objects");
            return 0;
        }
        bool r;
        if (sgn) {
            int64_t x = (int64_t)a, y = (int64_t)b;
            switch (e->op) {
            case IR_OP_EQ: r = x == y; break;
            case IR_OP_NE: r = x != y; break;
            case IR_OP_LT: r = x < y; break;
            case IR_OP_LE: r = x <= y; break;
            case IR_OP_GT: r = x > y; break;
            default: r = x >= y; break;
            }
        } else {
            uint64_t x = canon_int(a, w, false), y = canon_int(b, w, false);
            switch (e->op) {
            case IR_OP_EQ: r = x == y; break;
            case IR_OP_NE: r = x != y; break;
            case IR_OP_LT: r = x < y; break;
            case IR_OP_LE: r = x <= y; break;
            case IR_OP_GT: r = x > y; break;
            default: r = x >= y; break;
            }
        }
        return r;
    }
    case IR_OP_PTR_ADD: {
        const ir_type *to = at->kind == IR_T_PTR ? at->to : NULL;
        uint64_t sz = to && to->kind != IR_T_VOID && to->kind != IR_T_FUNC ? tsize(c, to) : 1;
        return ptr_add(c, a, (int64_t)b, sz);
    }
    case IR_OP_PTR_DIFF: {
        const ir_type *to = at->kind == IR_T_PTR ? at->to : NULL;
        uint64_t sz = to && to->kind != IR_T_VOID && to->kind != IR_T_FUNC ? tsize(c, to) : 1;
        if (!same_object(c, a, b)) {
            ub(c, "a subtraction of pointers into different objects");
            return 0;
        }
        int64_t d = (int64_t)(a - b);
        if (sz > 1)
            d /= (int64_t)sz;
        return canon(c, (uint64_t)d, e->type);
    }
    default: break;
    }
    const ir_type *t = e->type;
    uint32_t w = vwidth(c, t);
    bool sgn = is_signed(t);
    if (e->op == IR_OP_SHL || e->op == IR_OP_SHR) {
        /* C: a count that is negative or >= the width, a left shift of a
         * negative value or one that overflows a signed type are
         * undefined (bmc gives them values; a run stops instead) */
        if ((is_signed(bt) && (int64_t)b < 0) || canon_int(b, vwidth(c, bt), false) >= w) {
            ub(c, "a shift by a negative count or by at least the width");
            return 0;
        }
        uint64_t cnt = canon_int(b, vwidth(c, bt), false);
        uint64_t x = canon(c, a, t);
        if (e->op == IR_OP_SHL) {
            uint64_t r = canon(c, x << cnt, t);
            if (sgn && ((int64_t)x < 0 || (cnt && (x >> (w - 1 - cnt)) != 0))) {
                ub(c, "a signed left shift that overflows");
                return 0;
            }
            return r;
        }
        if (sgn)
            return canon(c, (uint64_t)((int64_t)x >> cnt), t); /* arithmetic, as gcc */
        return canon(c, x >> cnt, t);
    }
    uint64_t x = canon(c, a, t), y = canon(c, b, t), r;
    switch (e->op) {
    case IR_OP_ADD: r = x + y; break;
    case IR_OP_SUB: r = x - y; break;
    case IR_OP_MUL: r = x * y; break;
    case IR_OP_AND: r = x & y; break;
    case IR_OP_OR: r = x | y; break;
    case IR_OP_XOR: r = x ^ y; break;
    case IR_OP_DIV:
    case IR_OP_MOD:
        if (y == 0) {
            ub(c, "a division by zero");
            return 0;
        }
        if (sgn) {
            int64_t sx = (int64_t)x, sy = (int64_t)y;
            if (sy == -1) { /* INT_MIN / -1 overflows: checked below */
                r = e->op == IR_OP_DIV ? (uint64_t)0 - x : 0;
                if (e->op == IR_OP_MOD && canon(c, (uint64_t)0 - x, t) != (uint64_t)0 - x) {
                    ub(c, "a signed integer overflow");
                    return 0;
                }
            } else {
                r = (uint64_t)(e->op == IR_OP_DIV ? sx / sy : sx % sy);
            }
        } else {
            r = e->op == IR_OP_DIV ? x / y : x % y;
        }
        break;
    default:
        ub(c, "internal: an unknown binary operator");
        return 0;
    }
    if (sgn && e->op != IR_OP_AND && e->op != IR_OP_OR && e->op != IR_OP_XOR) {
        /* signed overflow is undefined in C: the exact result must fit */
        int64_t sx = (int64_t)x, sy = (int64_t)y, exact;
        bool ovf = false;
        switch (e->op) {
        case IR_OP_ADD: ovf = __builtin_add_overflow(sx, sy, &exact); break;
        case IR_OP_SUB: ovf = __builtin_sub_overflow(sx, sy, &exact); break;
        case IR_OP_MUL: ovf = __builtin_mul_overflow(sx, sy, &exact); break;
        default: exact = (int64_t)r; break;
        }
        if (e->op == IR_OP_DIV && sy == -1)
            ovf = sx == INT64_MIN;
        if (ovf || canon(c, (uint64_t)exact, t) != (uint64_t)exact) {
            ub(c, "a signed integer overflow");
            return 0;
        }
    }
    return canon(c, r, t);
}

static uint64_t eval(vm *c, const ir_expr *e)
{
    switch (e->kind) {
    case IR_E_CONST: return const_value(c, e);
    case IR_E_VAR:
        if (e->var->kind == IR_V_GLOBAL) {
            if (!c->ep->gaddr[e->var->id])
                return c->gregs[e->var->id]; /* a register global */
        } else if (!is_agg(e->type)) {
            frame *fr = top(c);
            uint32_t k = e->var->kind == IR_V_PARAM ? e->var->id : fr->fi->f->nparams + e->var->id;
            if (!fr->fi->in_mem[k])
                return vars(c, fr)[k];
        }
        /* fall through */
    case IR_E_DEREF:
    case IR_E_FIELD:
    case IR_E_INDEX: {
        lval lv;
        if (!eval_lv(c, e, &lv, false))
            return 0;
        if (is_agg(e->type))
            return lv.addr; /* an aggregate's value is where its bytes are */
        return read_lv(c, &lv, e->type);
    }
    case IR_E_ADDR: {
        if (e->a->kind == IR_E_DEREF)
            return eval(c, e->a->a);
        lval lv;
        if (!eval_lv(c, e->a, &lv, true))
            return 0;
        if (lv.reg) {
            ub(c, "internal: the address of a register variable");
            return 0;
        }
        return lv.addr;
    }
    case IR_E_FUNC: return func_addr(c->ep, e->func);
    case IR_E_STRING: {
        uint64_t a = 0;
        base_hashmap_get(&c->ep->saddr, (uint64_t)(uintptr_t)e->string, &a);
        return a;
    }
    case IR_E_UNARY: {
        if (e->op == IR_OP_LNOT)
            return !eval_cond(c, e->a);
        uint64_t a = eval(c, e->a);
        if (e->type->kind == IR_T_FLOAT || e->a->type->kind == IR_T_FLOAT) {
            if (e->op == IR_OP_NEG && e->type->kind == IR_T_FLOAT && ir_type_eq(e->a->type, e->type) &&
                (e->type->bits == 32 || e->type->bits == 64))
                return e->type->bits == 32 ? from_f32(-as_f32(a)) : from_f64(-as_f64(a));
            ub(c, "unsupported floating-point operation");
            return 0;
        }
        if (e->type->kind == IR_T_INT && e->type->bits > 64) {
            ub(c, "unsupported type: an integer wider than 64 bits");
            return 0;
        }
        uint64_t x = canon(c, a, e->type);
        uint64_t r = canon(c, e->op == IR_OP_NEG ? (uint64_t)0 - x : ~x, e->type);
        if (e->op == IR_OP_NEG && is_signed(e->type) && x && r == x) {
            ub(c, "a signed integer overflow");
            return 0;
        }
        return r;
    }
    case IR_E_BINARY: return eval_binary(c, e);
    case IR_E_CAST: {
        uint64_t v = eval(c, e->a);
        return c->stop ? 0 : convert(c, v, e->a->type, e->type);
    }
    case IR_E_ITE: {
        bool cond = eval_cond(c, e->a);
        if (c->stop)
            return 0;
        const ir_expr *x = cond ? e->b : e->c;
        uint64_t v = eval(c, x);
        if (is_agg(e->type))
            return v;
        return convert(c, v, x->type, e->type);
    }
    case IR_E_NONDET: return choose(c, EXPLORE_CH_DATA, e->type);
    }
    return 0;
}

/* --- the trace (trace mode only) --- */

static trace_value value_of(vm *c, const uint8_t *bytes, uint64_t n, const ir_type *t)
{
    trace_value v = { .type = t };
    uint64_t bits = 0;
    memcpy(&bits, bytes, n < 8 ? n : 8);
    if (t->kind == IR_T_INT && t->bits < 64)
        bits &= ((uint64_t)1 << t->bits) - 1;
    v.bits = bits;
    base_strbuf b = { 0 };
    explore_mem_format(c->m, c->p, &b, bytes, n, t, 0);
    v.text = base_arena_strdup(&c->tr->arena, base_strbuf_cstr(&b));
    base_strbuf_free(&b);
    return v;
}

static trace_value scalar_value(vm *c, uint64_t v, const ir_type *t)
{
    uint8_t bytes[8];
    memcpy(bytes, &v, 8);
    uint64_t n = tsize(c, t);
    return value_of(c, bytes, n > 8 ? 8 : n, t);
}

static trace_step *add_step(vm *c, trace_step_kind k)
{
    frame *fr = top(c);
    trace_step st = { .kind = k, .func = fr->fi->f, .stmt = fr->pc,
                      .loc = c->s ? c->s->loc : fr->fi->f->loc, .depth = fr->depth };
    base_vec_push(&c->steps, st);
    return &base_vec_last(&c->steps);
}

static void set_lhs(vm *c, trace_step *st, const ir_expr *lhs)
{
    base_strbuf b = { 0 };
    ir_print_expr(&b, c->p, lhs);
    st->lhs = base_arena_strdup(&c->tr->arena, base_strbuf_cstr(&b));
    base_strbuf_free(&b);
    if (lhs->kind == IR_E_VAR)
        st->var = lhs->var;
}

/* An ASSIGN or NONDET step for a scalar store of v to lhs. */
static void step_assign(vm *c, trace_step_kind k, const ir_expr *lhs, uint64_t v)
{
    trace_step *st = add_step(c, k);
    set_lhs(c, st, lhs);
    st->value = scalar_value(c, v, lhs->type);
}

/* --- statements --- */

static void assign_scalar(vm *c, const ir_expr *lhs, uint64_t v, trace_step_kind k)
{
    if (lhs->kind == IR_E_VAR && !c->tr) { /* the common case: a register */
        const ir_var *var = lhs->var;
        if (var->kind == IR_V_GLOBAL) {
            if (!c->ep->gaddr[var->id]) {
                c->gregs[var->id] = v;
                return;
            }
        } else {
            frame *fr = top(c);
            uint32_t i = var->kind == IR_V_PARAM ? var->id : fr->fi->f->nparams + var->id;
            if (!fr->fi->in_mem[i]) {
                vars(c, fr)[i] = v;
                return;
            }
        }
    }
    lval lv;
    if (!eval_lv(c, lhs, &lv, false))
        return;
    write_lv(c, &lv, lhs->type, v);
    if (c->tr && !c->stop)
        step_assign(c, k, lhs, v);
}

/* Copies n bytes from src (an address; host bytes when hsrc) to lhs. */
static void assign_agg(vm *c, const ir_expr *lhs, uint64_t src, const uint8_t *hsrc, bool zero)
{
    lval lv;
    if (!eval_lv(c, lhs, &lv, false))
        return;
    if (lv.reg) {
        ub(c, "internal: an aggregate in a register");
        return;
    }
    uint64_t n = tsize(c, lhs->type);
    if (!mem_range_ok(c, lv.addr, n))
        return;
    if (zero)
        memset(c->m->bytes + lv.addr, 0, n);
    else if (hsrc)
        memcpy(c->m->bytes + lv.addr, hsrc, n);
    else if (mem_range_ok(c, src, n))
        memmove(c->m->bytes + lv.addr, c->m->bytes + src, n);
    if (c->tr && !c->stop) {
        trace_step *st = add_step(c, TRACE_STEP_ASSIGN);
        set_lhs(c, st, lhs);
        if (zero) {
            st->value.type = lhs->type;
            st->value.text = "{0}";
        } else {
            st->value = value_of(c, c->m->bytes + lv.addr, n, lhs->type);
        }
    }
}

static void fill_fresh(vm *c, uint64_t addr, uint64_t n)
{
    if (n)
        c->ch->fill(c->ch->ctx, c->m->bytes + addr, n);
}

/* Pushes a frame for g with args (canonical values at types, or for an
 * aggregate its address); arguments missing get nondeterministic values. */
static void push_frame(vm *c, const ir_func *g, const uint64_t *args, const ir_expr *const *arg_exprs,
                       uint32_t nargs)
{
    const finfo *fi = func_info(c->ep, g);
    if (!fi) {
        ub(c, "internal: a function unknown to the program");
        return;
    }
    if (c->nframes >= MAX_FRAMES) {
        stop(c, EXPLORE_RUN_LIMIT, "the call stack is too deep");
        return;
    }
    explore_prog *ep = c->ep;
    size_t voff = 0;
    uint32_t depth = 0;
    if (c->nframes) {
        const frame *t = top(c);
        voff = t->voff + t->fi->nvars;
        depth = t->depth + 1;
    }
    if (voff + fi->nvars + 1 > ep->vcap) {
        size_t cap = ep->vcap ? ep->vcap : 1024;
        while (cap < voff + fi->nvars + 1)
            cap *= 2;
        ep->vstack = base_xrealloc(ep->vstack, cap * sizeof *ep->vstack);
        ep->vcap = cap;
    }
    if (c->nframes + 1 > ep->fcap) {
        size_t cap = ep->fcap ? ep->fcap * 2 : 256;
        ep->frames = base_xrealloc(ep->frames, cap * sizeof *ep->frames);
        ep->fcap = cap;
    }
    /* the caller's frame stays on top while the arguments are stored: the
     * choices below are made at the CALL */
    uint64_t *vs = ep->vstack + voff;
    uint32_t first = (uint32_t)c->m->objs.len;
    for (uint32_t k = 0; k < fi->nvars && !c->stop; k++) {
        bool param = k < g->nparams;
        const ir_var *v = param ? g->params[k] : g->locals[k - g->nparams];
        bool agg = is_agg(v->type);
        bool given = param && k < nargs;
        uint64_t val = 0;
        if (given)
            val = agg ? args[k] : convert(c, args[k], arg_exprs[k]->type, v->type);
        else if (!agg && param)
            val = choose(c, EXPLORE_CH_DATA, v->type);
        else if (!agg && !fi->in_mem[k]) {
            /* an uninitialised register local: any value (a cheap generator
             * seeded by the chooser, so runs stay reproducible; 0 often) */
            c->rng ^= c->rng << 13;
            c->rng ^= c->rng >> 7;
            c->rng ^= c->rng << 17;
            val = (c->rng & 3) == 0 ? 0 : canon(c, c->rng >> 2, v->type);
            if (v->type->kind == IR_T_INT && v->type->bits == 1)
                val &= 1;
        }
        if (!fi->in_mem[k]) {
            vs[k] = val;
            continue;
        }
        uint64_t n = tsize(c, v->type);
        if (v->type->kind == IR_T_ARRAY && v->type->count == 0)
            n = 0; /* a variable-length array: its size is not in the type */
        uint32_t id = explore_mem_new(c->m, n, EXPLORE_OBJ_LOCAL);
        if (!id) {
            stop(c, EXPLORE_RUN_LIMIT, "the address space limit");
            return;
        }
        explore_obj *o = &c->m->objs.data[id];
        o->var = v;
        o->func = g;
        o->type = v->type;
        vs[k] = o->base;
        if (given && agg) {
            if (mem_range_ok(c, val, n))
                memmove(c->m->bytes + o->base, c->m->bytes + val, n);
        } else if (param && !agg) {
            memcpy(c->m->bytes + o->base, &val, n > 8 ? 8 : n);
        } else {
            fill_fresh(c, o->base, n); /* uninitialised: nondeterministic bytes */
        }
    }
    if (c->stop)
        return;
    frame *fr = &ep->frames[c->nframes++];
    fr->fi = fi;
    fr->pc = 0;
    fr->depth = depth;
    fr->voff = voff;
    fr->first_obj = first;
    fr->end_obj = (uint32_t)c->m->objs.len;
}

static void pop_frame(vm *c)
{
    frame *fr = top(c);
    for (uint32_t i = fr->first_obj; i < fr->end_obj; i++)
        c->m->objs.data[i].live = false;
    c->nframes--;
}

/* Functions without a body known only to read through their pointer
 * arguments (bmc's list). */
static const char *const read_only_externals[] = {
    "printf", "fprintf", "puts", "fputs", "putchar", "strlen", "strnlen", "strcmp", "strncmp",
    "memcmp", "strchr", "strrchr", "strstr", "atoi", "atol", "abs", "labs", "exit", "abort",
    "__assert_fail", "assert", "perror", "free", "pthread_self",
};

static bool may_write_through_args(vm *c, const ir_func *g, const ir_stmt *s)
{
    const char *name = sym(c->ep, g->name);
    for (size_t i = 0; i < sizeof read_only_externals / sizeof *read_only_externals; i++)
        if (strcmp(name, read_only_externals[i]) == 0)
            return false;
    for (uint32_t k = 0; k < s->nargs; k++)
        if (s->args[k]->type->kind == IR_T_PTR && s->args[k]->kind != IR_E_STRING &&
            !(s->args[k]->kind == IR_E_CONST && s->args[k]->value == 0))
            return true;
    return false;
}

static void exec_call(vm *c, const ir_stmt *s)
{
    explore_prog *ep = c->ep;
    uint32_t n = s->nargs;
    if (n > ep->argcap) {
        ep->argcap = n * 2;
        ep->argv = base_xrealloc(ep->argv, ep->argcap * sizeof *ep->argv);
    }
    for (uint32_t k = 0; k < n && !c->stop; k++) {
        if (s->args[k]->kind == IR_E_CONST && is_agg(s->args[k]->type)) {
            ub(c, "unsupported: an aggregate constant as an argument");
            return;
        }
        ep->argv[k] = eval(c, s->args[k]);
    }
    if (c->stop)
        return;
    const ir_func *g = NULL;
    if (s->callee->kind == IR_E_FUNC) {
        g = s->callee->func;
    } else {
        uint64_t fp = eval(c, s->callee);
        if (c->stop)
            return;
        for (uint32_t k = 0; k < s->ncands && !g; k++)
            if (func_addr(ep, s->cands[k]) == fp)
                g = s->cands[k];
        if (!g) {
            ub(c, s->ncands ? "a call through a pointer equal to none of its candidates"
                            : "a call through a function pointer with no known target");
            return;
        }
    }
    if (c->tr) {
        trace_step *st = add_step(c, TRACE_STEP_CALL);
        st->callee = g;
        st->external = !g->has_body;
        st->nargs = n;
        if (n) {
            trace_value *av = BASE_ARENA_ARRAY(&c->tr->arena, trace_value, n);
            for (uint32_t k = 0; k < n; k++) {
                const ir_type *t = s->args[k]->type;
                if (is_agg(t)) {
                    uint64_t sz = tsize(c, t);
                    if (explore_mem_ok(c->m, ep->argv[k], sz))
                        av[k] = value_of(c, c->m->bytes + ep->argv[k], sz, t);
                    else
                        av[k] = (trace_value){ .type = t, .text = "?" };
                } else {
                    av[k] = scalar_value(c, ep->argv[k], t);
                }
            }
            st->args = av;
        }
    }
    if (!g->has_body) {
        if (g->not_lowered) {
            ub(c, "a call to a function that could not be lowered");
            return;
        }
        if (g->writes_memory) {
            ub(c, "inline assembly that may write any memory (a \"memory\" clobber)");
            return;
        }
        if (may_write_through_args(c, g, s)) {
            ub(c, "a call to a function without a body that may write through a pointer argument");
            return;
        }
        if (s->lhs) {
            if (is_agg(s->lhs->type)) {
                ub(c, "unsupported: an aggregate result of a function without a body");
                return;
            }
            assign_scalar(c, s->lhs, choose(c, EXPLORE_CH_DATA, s->lhs->type), TRACE_STEP_NONDET);
        }
        top(c)->pc++;
        return;
    }
    push_frame(c, g, ep->argv, s->args, n);
}

/* Returns from the top frame with value v (ret_agg: the bytes are in
 * retbuf; fell: it fell off its end, so it has no value). */
static void do_return(vm *c, uint64_t v, bool has_value, bool fell)
{
    const ir_func *g = top(c)->fi->f;
    const ir_type *rt = g->type->to;
    pop_frame(c);
    if (c->nframes == 0)
        return;
    frame *fr = top(c);
    const ir_stmt *s = &fr->fi->f->stmts[fr->pc];
    c->s = s;
    if (s->lhs && rt && rt->kind != IR_T_VOID) {
        if (fell || !has_value) {
            ub(c, "the value of a function that ended without returning one is used");
            return;
        }
        if (is_agg(s->lhs->type))
            assign_agg(c, s->lhs, 0, c->ep->retbuf, false);
        else
            assign_scalar(c, s->lhs, convert(c, v, rt, s->lhs->type), TRACE_STEP_ASSIGN);
    }
    fr->pc++;
}

static void exec_return(vm *c, const ir_stmt *s)
{
    frame *fr = top(c);
    const ir_type *rt = fr->fi->f->type->to;
    uint64_t v = 0;
    bool has = false;
    if (s->rhs && rt->kind != IR_T_VOID) {
        has = true;
        uint64_t x = eval(c, s->rhs);
        if (c->stop)
            return;
        if (is_agg(rt)) {
            uint64_t n = tsize(c, rt);
            if (!mem_range_ok(c, x, n))
                return;
            if (n > c->ep->retcap) {
                c->ep->retcap = n;
                c->ep->retbuf = base_xrealloc(c->ep->retbuf, n);
            }
            memcpy(c->ep->retbuf, c->m->bytes + x, n);
        } else {
            v = convert(c, x, s->rhs->type, rt);
        }
    }
    if (c->stop)
        return;
    if (c->tr) {
        trace_step *st = add_step(c, TRACE_STEP_RETURN);
        st->callee = fr->fi->f;
        st->value.type = rt;
        if (has && is_agg(rt))
            st->value = value_of(c, c->ep->retbuf, tsize(c, rt), rt);
        else if (has)
            st->value = scalar_value(c, v, rt);
    }
    do_return(c, v, has, false);
}

static void exec_alloc(vm *c, const ir_stmt *s)
{
    uint64_t n = eval(c, s->rhs);
    if (c->stop)
        return;
    if (n > (EXPLORE_MEM_LIMIT >> 2)) {
        stop(c, EXPLORE_RUN_LIMIT, "a malloc larger than the address space limit");
        return;
    }
    uint32_t id = explore_mem_new(c->m, n, EXPLORE_OBJ_HEAP);
    if (!id) {
        stop(c, EXPLORE_RUN_LIMIT, "the address space limit");
        return;
    }
    explore_obj *o = &c->m->objs.data[id];
    o->line = s->loc.line;
    o->serial = ++c->nmallocs;
    o->zeroed = s->zeroed;
    const ir_type *t = s->lhs->type->kind == IR_T_PTR ? s->lhs->type->to : NULL;
    if (t && (t->kind == IR_T_VOID || tsize(c, t) != n))
        t = NULL;
    o->type = t;
    uint64_t base = o->base;
    if (s->zeroed)
        memset(c->m->bytes + base, 0, n);
    else
        fill_fresh(c, base, n);
    lval lv;
    if (!eval_lv(c, s->lhs, &lv, false))
        return;
    uint64_t v = canon(c, base, s->lhs->type);
    write_lv(c, &lv, s->lhs->type, v);
    if (c->tr && !c->stop) {
        trace_step *st = add_step(c, TRACE_STEP_ALLOC);
        set_lhs(c, st, s->lhs);
        st->value = scalar_value(c, v, s->lhs->type);
        st->alloc_size = n;
    }
}

static void exec_free(vm *c, const ir_stmt *s)
{
    uint64_t a = eval(c, s->rhs);
    if (c->stop || a == 0)
        return;
    uint32_t id = explore_mem_id(c->m, a);
    explore_obj *o = &c->m->objs.data[id];
    if (!id || o->kind != EXPLORE_OBJ_HEAP || o->base != a || !o->live) {
        ub(c, "free of a pointer that is not a live malloc block");
        return;
    }
    o->live = false;
}

static void run_frames(vm *c)
{
    explore_prog *ep = c->ep;
    uint64_t budget = c->max_steps;
    while (c->nframes && !c->stop) {
        frame *fr = top(c);
        const ir_func *f = fr->fi->f;
        if (fr->pc >= f->nstmts) {
            /* fell off the end */
            c->s = NULL;
            if (c->tr && (f->nstmts || f != c->p->init)) {
                trace_step *st = add_step(c, TRACE_STEP_RETURN);
                st->stmt = f->nstmts;
                st->loc = f->nstmts ? f->stmts[f->nstmts - 1].loc : f->loc;
                st->callee = f;
                st->value.type = f->type->to;
            }
            do_return(c, 0, false, true);
            continue;
        }
        const ir_stmt *s = &f->stmts[fr->pc];
        c->s = s;
        if (++c->st.steps >= budget) {
            stop(c, EXPLORE_RUN_LIMIT, "the step limit of a run");
            break;
        }
        if ((c->st.steps & 0xffff) == 0 && c->deadline > 0 && base_now() > c->deadline) {
            stop(c, EXPLORE_RUN_LIMIT, "the deadline");
            break;
        }
        switch (s->kind) {
        case IR_S_SKIP:
        case IR_S_ATOMIC_BEGIN:
        case IR_S_ATOMIC_END: fr->pc++; break;
        case IR_S_FREE:
            exec_free(c, s);
            fr->pc++;
            break;
        case IR_S_ASSIGN:
            if (s->rhs->kind == IR_E_NONDET) {
                explore_choice_kind k = (explore_choice_kind)fr->fi->ckind[fr->pc];
                assign_scalar(c, s->lhs, choose(c, k, s->lhs->type), TRACE_STEP_NONDET);
            } else if (is_agg(s->lhs->type)) {
                if (s->rhs->kind == IR_E_CONST)
                    assign_agg(c, s->lhs, 0, NULL, true);
                else {
                    uint64_t src = eval(c, s->rhs);
                    if (!c->stop)
                        assign_agg(c, s->lhs, src, NULL, false);
                }
            } else {
                uint64_t v = eval(c, s->rhs);
                if (!c->stop)
                    assign_scalar(c, s->lhs, convert(c, v, s->rhs->type, s->lhs->type),
                                  TRACE_STEP_ASSIGN);
            }
            fr->pc++;
            break;
        case IR_S_CALL: exec_call(c, s); break;
        case IR_S_RETURN: exec_return(c, s); break;
        case IR_S_GOTO: {
            bool jump = !s->rhs || eval_cond(c, s->rhs);
            if (c->stop)
                break;
            if (!jump || s->ntargets == 0) {
                fr->pc++;
                break;
            }
            uint32_t k = 0;
            if (s->ntargets > 1) {
                explore_site w = site_of(c, s);
                k = (uint32_t)(c->ch->choose(c->ch->ctx, EXPLORE_CH_BRANCH, NULL, s->ntargets, &w) %
                               s->ntargets);
            }
            if (c->tr) {
                trace_step *st = add_step(c, TRACE_STEP_GOTO);
                st->target = s->targets[k];
            }
            fr->pc = s->targets[k];
            break;
        }
        case IR_S_ASSUME: {
            bool ok = eval_cond(c, s->rhs);
            if (c->stop)
                break;
            if (!ok) {
                stop(c, EXPLORE_RUN_ASSUME, "an assumption does not hold");
                break;
            }
            if (c->tr)
                add_step(c, TRACE_STEP_ASSUME)->message = s->message;
            fr->pc++;
            break;
        }
        case IR_S_ASSERT: {
            bool ok = eval_cond(c, s->rhs);
            if (c->stop)
                break;
            if (c->tr)
                add_step(c, TRACE_STEP_ASSERT)->message = s->message;
            if (!ok) {
                stop(c, EXPLORE_RUN_BUG, "an assertion fails");
                break;
            }
            fr->pc++;
            break;
        }
        case IR_S_ALLOC:
            exec_alloc(c, s);
            fr->pc++;
            break;
        case IR_S_THREAD_EXIT: stop(c, EXPLORE_RUN_ASSUME, "a thread exit in a sequential program"); break;
        case IR_S_ASYNC:
        case IR_S_JOIN:
        case IR_S_LOCK:
        case IR_S_UNLOCK:
        case IR_S_LOCK_INIT:
        case IR_S_LOCK_DESTROY:
        case IR_S_COND_WAIT:
        case IR_S_COND_SIGNAL:
            snprintf(ep->unsup, sizeof ep->unsup,
                     "unsupported construct: %s in a sequential check (the KISS translation "
                     "removes it)",
                     ir_stmt_kind_name(s->kind));
            stop(c, EXPLORE_RUN_UNSUPPORTED, ep->unsup);
            break;
        }
    }
}

void explore_run_once(explore_prog *ep, const ir_func *entry, const explore_chooser *ch,
                      uint64_t max_steps, double deadline, trace_result *trace, explore_run *out)
{
    vm c = { .ep = ep, .p = ep->p, .m = &ep->mem, .gregs = ep->gregs, .ch = ch, .pw = ep->pw,
             .tr = trace, .max_steps = max_steps ? max_steps : UINT64_MAX, .deadline = deadline };
    c.rng = ch->choose(ch->ctx, EXPLORE_CH_UNINIT, NULL, 0, &(explore_site){ 0, 0, 0, false }) | 1;
    explore_mem_copy(&ep->mem, &ep->image);
    memset(ep->gregs, 0, (ep->p->nglobals + 1) * sizeof *ep->gregs);
    const ir_program *p = ep->p;
    if (p->init && p->init->has_body) {
        push_frame(&c, p->init, NULL, NULL, 0);
        run_frames(&c);
    }
    if (!c.stop) {
        push_frame(&c, entry, NULL, NULL, 0);
        run_frames(&c);
    }
    memset(out, 0, sizeof *out);
    out->outcome = c.stop ? c.outcome : EXPLORE_RUN_DONE;
    out->why = c.why;
    out->stats = c.st;
    if (c.s) {
        out->loc = c.s->loc;
        if (c.nframes) {
            out->func = top(&c)->fi->f;
            out->stmt = top(&c)->pc;
        }
    }
    if (trace) {
        trace->nsteps = c.steps.len;
        trace->steps = BASE_ARENA_ARRAY(&trace->arena, trace_step, c.steps.len ? c.steps.len : 1);
        if (c.steps.len)
            memcpy(trace->steps, c.steps.data, c.steps.len * sizeof *c.steps.data);
        base_vec_free(&c.steps);
    }
}
