/* dl_cache: summaries on disk (see dl_cache.h for the key and the format).
 *
 * Three parts: stable hashes (of IR, for keys, and of summary contents),
 * the writer (a summary to bytes, definitions before their uses) and the
 * reader (bytes back to interned ids, every index and kind checked before
 * it is used: a bad byte makes the whole file a miss). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "deadlock/dl_cache.h"
#include "deadlock/dl_internal.h"
#include "deadlock/dl_store.h"

#define MAGIC "RAVELDLC"
#define MAGIC_LEN 8

struct dl_cache {
    dl_ctx *c;
    dl_summary_store iface; /* dl_cache_as_store */
    char *dir;
    bool usable;
    uint64_t ctx_hash;
    uint64_t *ir_hash;     /* per function, 0: not computed */
    uint64_t *key_of;      /* per function: its component's key (after it was done) */
    uint64_t *sum_hash;    /* per function: content hash of its final summary */
    base_hashmap type_h;   /* ir_type pointer -> hash */
    base_hashmap file_h;   /* file name pointer -> hash */
    base_hashmap path_h, trace_h, inst_h; /* id -> content hash */
    base_hashmap func_by_name, global_by_name; /* name hash -> index + 1 (0: ambiguous) */
    base_hashmap file_by_name; /* name hash -> pointer */
    unsigned tmp_seq;
    size_t hits, misses, bad, write_errors;
};

static uint64_t mixh(uint64_t h, uint64_t x) { return base_hash64(h ^ (x + 0x9e3779b97f4a7c15ull)); }
static uint64_t h_str(const char *s) { return s ? base_hash_bytes(s, strlen(s)) : 0x5bd1e995ull; }
static uint64_t fix_key(uint64_t h) { return h == BASE_HASHMAP_EMPTY ? 0 : h; }

static const char *sym(const dl_ctx *c, base_sym s) { return base_sym_str(c->prog->syms, s); }
static const char *func_name(const dl_ctx *c, uint32_t fi) { return sym(c, c->prog->funcs[fi]->name); }
static const char *global_name(const dl_ctx *c, uint32_t gi) { return sym(c, c->prog->globals[gi]->name); }

/* --- stable hashes of the IR --- */

static uint64_t h_file(dl_cache *k, const char *file)
{
    uint64_t v, key = fix_key((uint64_t)(uintptr_t)file);
    if (base_hashmap_get(&k->file_h, key, &v))
        return v;
    v = h_str(file);
    base_hashmap_put(&k->file_h, key, v);
    return v;
}

static uint64_t h_type(dl_cache *k, const ir_type *t, int depth)
{
    if (!t)
        return 0x1234;
    uint64_t v, key = fix_key((uint64_t)(uintptr_t)t);
    if (depth == 0 && base_hashmap_get(&k->type_h, key, &v))
        return v;
    uint64_t h = mixh(t->kind + 1, t->bits);
    h = mixh(h, t->is_signed);
    h = mixh(h, t->count);
    h = mixh(h, t->variadic);
    if (t->kind == IR_T_STRUCT || t->kind == IR_T_UNION) {
        h = mixh(h, h_str(sym(k->c, t->tag)));
        h = mixh(h, t->nfields);
        for (uint32_t i = 0; i < t->nfields; i++)
            h = mixh(h, h_str(sym(k->c, t->fields[i].name)));
    } else if (depth < 3) {
        h = mixh(h, h_type(k, t->to, depth + 1));
        h = mixh(h, t->nparams);
        for (uint32_t i = 0; i < t->nparams; i++)
            h = mixh(h, h_type(k, t->params[i], depth + 1));
    }
    if (depth == 0)
        base_hashmap_put(&k->type_h, key, h);
    return h;
}

static uint64_t h_var(dl_cache *k, const ir_var *v)
{
    if (!v)
        return 7;
    if (v->kind == IR_V_GLOBAL)
        return mixh(1, h_str(sym(k->c, v->name)));
    return mixh(mixh(v->kind + 2, v->id), v->address_taken);
}

static uint64_t h_expr(dl_cache *k, const ir_expr *e)
{
    if (!e)
        return 3;
    uint64_t h = mixh(e->kind + 11, e->op);
    h = mixh(h, (uint64_t)e->value);
    h = mixh(h, h_type(k, e->type, 0));
    switch (e->kind) {
    case IR_E_VAR: h = mixh(h, h_var(k, e->var)); break;
    case IR_E_FIELD: h = mixh(h, e->field); break;
    case IR_E_FUNC: h = mixh(h, e->func ? h_str(sym(k->c, e->func->name)) : 5); break;
    case IR_E_STRING: h = mixh(h, h_str(e->string)); break;
    default: break;
    }
    h = mixh(h, h_expr(k, e->a));
    h = mixh(h, h_expr(k, e->b));
    return mixh(h, h_expr(k, e->c));
}

static uint64_t h_func_ref(dl_cache *k, const ir_func *g)
{
    return mixh(mixh(h_str(sym(k->c, g->name)), g->has_body), h_type(k, g->type, 0));
}

static uint64_t h_stmt(dl_cache *k, const ir_stmt *s)
{
    uint64_t h = mixh(s->kind + 101, h_file(k, s->loc.file));
    h = mixh(h, (uint64_t)s->loc.line << 32 | s->loc.col);
    h = mixh(h, h_expr(k, s->lhs));
    h = mixh(h, h_expr(k, s->rhs));
    h = mixh(h, h_expr(k, s->callee));
    h = mixh(h, s->nargs);
    for (uint32_t i = 0; i < s->nargs; i++)
        h = mixh(h, h_expr(k, s->args[i]));
    h = mixh(h, s->ntargets);
    for (uint32_t i = 0; i < s->ntargets; i++)
        h = mixh(h, s->targets[i]);
    h = mixh(h, s->ncands);
    for (uint32_t i = 0; i < s->ncands; i++)
        h = mixh(h, h_func_ref(k, s->cands[i]));
    h = mixh(h, s->lock_kind);
    return mixh(h, (uint64_t)s->is_try << 2 | (uint64_t)s->zeroed << 1 | s->all);
}

static uint64_t ir_hash(dl_cache *k, uint32_t fi)
{
    if (k->ir_hash[fi])
        return k->ir_hash[fi];
    const ir_func *f = k->c->prog->funcs[fi];
    uint64_t h = mixh(h_func_ref(k, f), f->external_linkage);
    h = mixh(h, f->nparams);
    for (uint32_t i = 0; i < f->nparams; i++)
        h = mixh(mixh(h, f->params[i]->address_taken), h_type(k, f->params[i]->type, 0));
    h = mixh(h, f->nlocals);
    for (uint32_t i = 0; i < f->nlocals; i++)
        h = mixh(mixh(h, f->locals[i]->address_taken), h_type(k, f->locals[i]->type, 0));
    h = mixh(h, f->nstmts);
    for (uint32_t i = 0; i < f->nstmts; i++)
        h = mixh(h, h_stmt(k, &f->stmts[i]));
    if (!h)
        h = 1;
    k->ir_hash[fi] = h;
    return h;
}

/* Everything outside the functions that summaries read: the options that
 * change them, the target, and every lock initialisation (the recursive
 * pre-pass). Order-independent over functions. */
static uint64_t context_hash(dl_cache *k)
{
    const dl_ctx *c = k->c;
    const deadlock_opts *o = c->opts;
    uint64_t h = mixh(DL_CACHE_VERSION, c->prog->ptr_bytes);
    h = mixh(h, o->no_double_lock_reset);
    h = mixh(h, o->no_recursive);
    h = mixh(h, o->no_trylock);
    h = mixh(h, o->no_rwlock);
    h = mixh(h, o->no_value_order);
    h = mixh(h, o->max_scc_iters);
    h = mixh(h, DL_MAX_DEPTH * 100 + DL_MAX_ENV_VALUES);
    uint64_t inits = 0;
    for (uint32_t fi = 0; fi < c->prog->nfuncs; fi++) {
        const ir_func *f = c->prog->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind == IR_S_LOCK_INIT)
                inits += mixh(mixh(h_str(func_name(c, fi)), s->lock_kind), h_expr(k, s->rhs));
        }
    }
    return mixh(h, inits);
}

/* --- content hashes of summaries (independent of interning order) --- */

static uint64_t rec_sig_hash(dl_cache *k, const ir_type *t)
{
    return t ? h_type(k, t, 0) : 0x77;
}

static uint64_t hp(dl_cache *k, uint32_t path)
{
    if (path == DL_NONE)
        return 0x99;
    uint64_t v;
    if (base_hashmap_get(&k->path_h, path, &v))
        return v;
    const dl_path *p = &k->c->paths.data[path];
    uint64_t h = mixh(p->kind + 201, p->parent == DL_NONE ? 0 : hp(k, p->parent));
    switch ((dl_path_kind)p->kind) {
    case DL_BASE_GLOBAL: h = mixh(h, h_str(global_name(k->c, (uint32_t)p->a))); break;
    case DL_BASE_PARAM: h = mixh(h, p->a); break;
    case DL_BASE_LOCAL: h = mixh(mixh(h, h_str(func_name(k->c, (uint32_t)p->a))), p->b); break;
    case DL_BASE_FUNC:
    case DL_BASE_RET: h = mixh(h, h_str(func_name(k->c, (uint32_t)p->a))); break;
    case DL_BASE_FORMAL: h = mixh(mixh(h, h_str(func_name(k->c, (uint32_t)p->a))), p->b); break;
    case DL_SEL_FIELD:
        h = mixh(mixh(h, p->a), rec_sig_hash(k, (const ir_type *)(uintptr_t)p->b));
        break;
    case DL_SEL_STAR:
        h = mixh(mixh(h, p->a), p->b ? rec_sig_hash(k, (const ir_type *)(uintptr_t)p->b) : 0);
        break;
    case DL_SEL_INDEX: h = mixh(h, p->a); break;
    default: break;
    }
    base_hashmap_put(&k->path_h, path, h);
    return h;
}

static uint64_t hv(dl_cache *k, uint32_t v)
{
    return v == DL_NONE ? 0x98 : mixh(hp(k, dl_val_path(v)), v & 1u);
}

static uint64_t htr(dl_cache *k, uint32_t t)
{
    if (t == DL_NONE)
        return 0x97;
    uint64_t v;
    if (base_hashmap_get(&k->trace_h, t, &v))
        return v;
    const dl_trace *x = &k->c->traces.data[t];
    uint64_t h = mixh(x->kind + 301, x->func ? h_str(sym(k->c, x->func->name)) : 0);
    h = mixh(h, h_file(k, x->loc.file));
    h = mixh(h, (uint64_t)x->loc.line << 32 | x->loc.col);
    h = mixh(h, htr(k, x->next));
    base_hashmap_put(&k->trace_h, t, h);
    return h;
}

static uint64_t hin(dl_cache *k, uint32_t i)
{
    uint64_t v;
    if (base_hashmap_get(&k->inst_h, i, &v))
        return v;
    const dl_inst *x = &k->c->insts.data[i];
    uint64_t h = mixh(401, h_str(sym(k->c, x->site_func->name)));
    h = mixh(h, (uint64_t)(x->site - x->site_func->stmts));
    h = mixh(h, hv(k, x->callee));
    h = mixh(h, hv(k, x->arg));
    h = mixh(h, hp(k, x->handle));
    base_hashmap_put(&k->inst_h, i, h);
    return h;
}

typedef enum ekind { EK_PATH, EK_MODE, EK_VALUE, EK_INST, EK_ATOM, EK_COUNT } ekind;

static uint64_t helem(dl_cache *k, ekind ek, uint32_t x)
{
    switch (ek) {
    case EK_PATH: return hp(k, x);
    case EK_MODE: return mixh(hp(k, x >> 1), x & 1u);
    case EK_VALUE: return hv(k, x);
    case EK_INST: return hin(k, x);
    case EK_ATOM: {
        const dl_atom *a = &k->c->atoms.data[x];
        return mixh(mixh(a->op + 501, hv(k, a->x)), hv(k, a->y));
    }
    default: return 0;
    }
}

static uint64_t hset(dl_cache *k, ekind ek, uint32_t s)
{
    if (s == DL_NONE)
        return 0x96;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < dl_set_len(k->c, s); i++)
        sum += base_hash64(helem(k, ek, dl_set_data(k->c, s)[i]));
    return mixh(sum, dl_set_len(k->c, s));
}

static uint64_t summary_hash(dl_cache *k, const dl_summary *x)
{
    uint64_t h = 601;
    h = mixh(h, hset(k, EK_PATH, x->must_held_entry));
    h = mixh(h, hset(k, EK_PATH, x->must_free_entry));
    h = mixh(h, hset(k, EK_MODE, x->held_may_exit));
    h = mixh(h, hset(k, EK_MODE, x->held_must_exit));
    h = mixh(h, hset(k, EK_PATH, x->rel_may_exit));
    h = mixh(h, hset(k, EK_PATH, x->rel_must_exit));
    h = mixh(h, hset(k, EK_INST, x->live_exit));
    h = mixh(h, hset(k, EK_PATH, x->joins));
    h = mixh(h, hset(k, EK_PATH, x->joined_exit));
    h = mixh(h, hset(k, EK_VALUE, x->ret));
    h = mixh(h, x->ret_has_null);
    h = mixh(h, x->nret_cases);
    h = mixh(h, hset(k, EK_PATH, x->opaque));
    for (uint32_t i = 0; i < x->nret_cases; i++)
        h = mixh(mixh(h, (uint64_t)x->ret_case_val[i]), hset(k, EK_MODE, x->ret_case_held[i]));
    h = mixh(h, hset(k, EK_PATH, x->recursive));
    h = mixh(h, x->nunknown);
    uint64_t sum = 0;
    for (size_t i = 0; i < x->deps.len; i++) {
        const dl_dep *d = &x->deps.data[i];
        uint64_t e = mixh(mixh(1, helem(k, EK_MODE, d->a)), helem(k, EK_MODE, d->b));
        e = mixh(mixh(e, htr(k, d->ta)), htr(k, d->tb));
        e = mixh(mixh(e, hset(k, EK_PATH, d->guards)), hset(k, EK_INST, d->par));
        e = mixh(mixh(mixh(e, hset(k, EK_ATOM, d->conds)), hset(k, EK_PATH, d->joined)), d->may_held);
        e = mixh(e, d->chain == DL_NONE ? 0x98 : mixh(hp(k, d->chain >> 1), d->chain & 1u));
        sum += base_hash64(e);
    }
    for (size_t i = 0; i < x->acqs.len; i++) {
        const dl_acq *q = &x->acqs.data[i];
        uint64_t e = mixh(mixh(2, helem(k, EK_MODE, q->lm)), q->is_try);
        e = mixh(mixh(e, htr(k, q->trace)), hset(k, EK_PATH, q->guards));
        e = mixh(mixh(e, hset(k, EK_PATH, q->released)), hset(k, EK_INST, q->par));
        e = mixh(mixh(e, hset(k, EK_ATOM, q->conds)), hset(k, EK_PATH, q->joined));
        e = mixh(mixh(e, hp(k, q->anchor)), q->link == DL_NONE ? 0x98 : hp(k, q->link >> 1));
        sum += base_hash64(e);
    }
    for (size_t i = 0; i < x->selfs.len; i++) {
        const dl_self *s = &x->selfs.data[i];
        uint64_t e = mixh(mixh(3, hp(k, s->lock)), htr(k, s->t1));
        sum += base_hash64(mixh(mixh(e, htr(k, s->t2)), hset(k, EK_INST, s->par)));
    }
    for (size_t i = 0; i < x->spawns.len; i++) {
        const dl_spawn *s = &x->spawns.data[i];
        uint64_t e = mixh(mixh(4, hin(k, s->inst)), hset(k, EK_INST, s->live));
        sum += base_hash64(mixh(mixh(e, htr(k, s->trace)), s->multi));
    }
    h = mixh(h, (uint64_t)x->deps.len << 48 ^ (uint64_t)x->acqs.len << 32 ^
                    (uint64_t)x->selfs.len << 16 ^ x->spawns.len);
    return mixh(h, sum);
}

/* --- keys --- */

uint64_t dl_cache_key(dl_cache *k, const uint32_t *members, uint32_t n, const uint32_t *callees,
                      uint32_t m)
{
    dl_ctx *c = k->c;
    uint64_t h = mixh(k->ctx_hash, n), sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += base_hash64(mixh(h_str(func_name(c, members[i])), ir_hash(k, members[i])));
    h = mixh(h, sum);
    sum = 0;
    uint64_t *seen = base_xcalloc(m + 1, sizeof *seen);
    uint32_t nseen = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t g = callees[i];
        bool dup = false;
        for (uint32_t j = 0; j < nseen && !dup; j++)
            dup = seen[j] == g;
        if (dup)
            continue;
        seen[nseen++] = g;
        const ir_func *gf = c->prog->funcs[g];
        uint64_t e = mixh(h_func_ref(k, gf), gf->has_body ? k->sum_hash[g] : 0);
        if (gf->has_body && !c->opts->no_value_order && dl_branches_on_param(c, g))
            e = mixh(e, k->key_of[g]);
        sum += base_hash64(e);
    }
    free(seen);
    h = mixh(mixh(h, sum), nseen);
    return h ? h : 1;
}

static void finish_members(dl_cache *k, uint64_t key, const uint32_t *members, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        k->key_of[members[i]] = key;
        k->sum_hash[members[i]] = summary_hash(k, &k->c->sums[members[i]]);
    }
}

/* --- the byte stream --- */

static void put_u(base_strbuf *b, uint64_t v)
{
    do {
        uint8_t x = v & 0x7f;
        v >>= 7;
        base_strbuf_putc(b, (char)(x | (v ? 0x80 : 0)));
    } while (v);
}

static void put_s(base_strbuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u(b, n);
    for (size_t i = 0; i < n; i++)
        base_strbuf_putc(b, s[i]);
}

typedef struct rd {
    const uint8_t *p, *end;
    bool bad;
} rd;

static uint64_t get_u(rd *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        uint8_t x = *r->p++;
        v |= (uint64_t)(x & 0x7f) << shift;
        if (!(x & 0x80))
            return v;
    }
    r->bad = true;
    return 0;
}

/* A bounded index: < n, else the stream is bad (returns 0). */
static uint32_t get_ix(rd *r, size_t n)
{
    uint64_t v = get_u(r);
    if (r->bad || v >= n) {
        r->bad = true;
        return 0;
    }
    return (uint32_t)v;
}

/* data[i] for an index i read from the stream (< len), else bad. */
static uint32_t get_at(rd *r, const uint32_t *data, size_t len)
{
    uint32_t i = get_ix(r, len);
    return r->bad ? 0 : data[i];
}

/* A string (not NUL-terminated in the stream) copied into buf (size cap). */
static bool get_s(rd *r, char *buf, size_t cap)
{
    uint64_t n = get_u(r);
    if (r->bad || n >= cap || n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return false;
    }
    memcpy(buf, r->p, n);
    buf[n] = 0;
    r->p += n;
    return true;
}

/* --- writer: definitions first, each once; local indices in order --- */

enum { R_FUNC = 1, R_GLOBAL, R_TYPE, R_FILE, R_PATH, R_TRACE, R_INST, R_ATOM, R_SET, R_SUMMARY };

typedef struct wr {
    dl_cache *k;
    base_strbuf *b;
    base_hashmap func, global, type, file, path, trace, inst, atom, set; /* id -> local */
    uint32_t nfunc, nglobal, ntype, nfile, npath, ntrace, ninst, natom, nset;
    bool fail; /* something has no stable name: the file is not written */
} wr;

static bool memo(base_hashmap *m, uint64_t id, uint32_t *local)
{
    uint64_t v;
    if (base_hashmap_get(m, fix_key(id), &v)) {
        *local = (uint32_t)v;
        return true;
    }
    return false;
}

static uint32_t w_func(wr *w, uint32_t fi)
{
    uint32_t l;
    if (memo(&w->func, fi, &l))
        return l;
    base_strbuf_putc(w->b, R_FUNC);
    put_s(w->b, func_name(w->k->c, fi));
    base_hashmap_put(&w->func, fi, w->nfunc);
    return w->nfunc++;
}

static uint32_t w_func_ptr(wr *w, const ir_func *f)
{
    uint32_t fi = dl_func_index(w->k->c, f);
    if (fi == DL_NONE) {
        w->fail = true;
        return 0;
    }
    return w_func(w, fi);
}

static uint32_t w_global(wr *w, uint32_t gi)
{
    uint32_t l;
    if (memo(&w->global, gi, &l))
        return l;
    base_strbuf_putc(w->b, R_GLOBAL);
    put_s(w->b, global_name(w->k->c, gi));
    base_hashmap_put(&w->global, gi, w->nglobal);
    return w->nglobal++;
}

static uint32_t w_type(wr *w, const ir_type *t)
{
    uint32_t l;
    if (memo(&w->type, (uint64_t)(uintptr_t)t, &l))
        return l;
    const dl_ctx *c = w->k->c;
    base_strbuf_putc(w->b, R_TYPE);
    put_u(w->b, t->kind == IR_T_UNION);
    put_s(w->b, sym(c, t->tag));
    put_u(w->b, t->nfields);
    for (uint32_t i = 0; i < t->nfields; i++)
        put_s(w->b, sym(c, t->fields[i].name));
    base_hashmap_put(&w->type, fix_key((uint64_t)(uintptr_t)t), w->ntype);
    return w->ntype++;
}

static uint32_t w_file(wr *w, const char *file)
{
    uint32_t l;
    if (memo(&w->file, (uint64_t)(uintptr_t)file, &l))
        return l;
    base_strbuf_putc(w->b, R_FILE);
    put_s(w->b, file ? file : "");
    base_hashmap_put(&w->file, fix_key((uint64_t)(uintptr_t)file), w->nfile);
    return w->nfile++;
}

static uint32_t w_path(wr *w, uint32_t path)
{
    uint32_t l;
    if (memo(&w->path, path, &l))
        return l;
    const dl_path p = w->k->c->paths.data[path];
    uint32_t parent = p.parent == DL_NONE ? 0 : w_path(w, p.parent) + 1;
    uint32_t fa = 0, ty = 0;
    switch ((dl_path_kind)p.kind) {
    case DL_BASE_GLOBAL: fa = w_global(w, (uint32_t)p.a); break;
    case DL_BASE_LOCAL:
    case DL_BASE_FUNC:
    case DL_BASE_RET:
    case DL_BASE_FORMAL: fa = w_func(w, (uint32_t)p.a); break;
    case DL_SEL_FIELD:
    case DL_SEL_STAR: ty = p.b ? w_type(w, (const ir_type *)(uintptr_t)p.b) + 1 : 0; break;
    default: break;
    }
    base_strbuf_putc(w->b, R_PATH);
    put_u(w->b, p.kind);
    put_u(w->b, parent);
    switch ((dl_path_kind)p.kind) {
    case DL_BASE_GLOBAL: put_u(w->b, fa); break;
    case DL_BASE_PARAM: put_u(w->b, p.a); break;
    case DL_BASE_LOCAL:
    case DL_BASE_FORMAL: put_u(w->b, fa); put_u(w->b, p.b); break;
    case DL_BASE_FUNC:
    case DL_BASE_RET: put_u(w->b, fa); break;
    case DL_SEL_FIELD:
    case DL_SEL_STAR: put_u(w->b, p.a); put_u(w->b, ty); break;
    case DL_SEL_INDEX: put_u(w->b, p.a); break;
    default: break;
    }
    base_hashmap_put(&w->path, path, w->npath);
    return w->npath++;
}

static uint32_t w_value(wr *w, uint32_t v) { return w_path(w, dl_val_path(v)) << 1 | (v & 1u); }
static uint32_t w_opt_value(wr *w, uint32_t v) { return v == DL_NONE ? 0 : w_value(w, v) + 1; }

static uint32_t w_trace(wr *w, uint32_t t)
{
    uint32_t l;
    if (memo(&w->trace, t, &l))
        return l;
    const dl_trace x = w->k->c->traces.data[t];
    uint32_t next = x.next == DL_NONE ? 0 : w_trace(w, x.next) + 1;
    uint32_t f = w_func_ptr(w, x.func), file = w_file(w, x.loc.file);
    base_strbuf_putc(w->b, R_TRACE);
    put_u(w->b, x.kind);
    put_u(w->b, f);
    put_u(w->b, file);
    put_u(w->b, x.loc.line);
    put_u(w->b, x.loc.col);
    put_u(w->b, next);
    base_hashmap_put(&w->trace, t, w->ntrace);
    return w->ntrace++;
}

static uint32_t w_inst(wr *w, uint32_t i)
{
    uint32_t l;
    if (memo(&w->inst, i, &l))
        return l;
    const dl_inst x = w->k->c->insts.data[i];
    uint32_t f = w_func_ptr(w, x.site_func);
    uint32_t callee = w_opt_value(w, x.callee), arg = w_opt_value(w, x.arg);
    uint32_t handle = x.handle == DL_NONE ? 0 : w_path(w, x.handle) + 1;
    base_strbuf_putc(w->b, R_INST);
    put_u(w->b, f);
    put_u(w->b, (uint64_t)(x.site - x.site_func->stmts));
    put_u(w->b, callee);
    put_u(w->b, arg);
    put_u(w->b, handle);
    base_hashmap_put(&w->inst, i, w->ninst);
    return w->ninst++;
}

static uint32_t w_atom(wr *w, uint32_t a)
{
    uint32_t l;
    if (memo(&w->atom, a, &l))
        return l;
    const dl_atom x = w->k->c->atoms.data[a];
    uint32_t vx = w_value(w, x.x), vy = w_value(w, x.y);
    base_strbuf_putc(w->b, R_ATOM);
    put_u(w->b, x.op);
    put_u(w->b, vx);
    put_u(w->b, vy);
    base_hashmap_put(&w->atom, a, w->natom);
    return w->natom++;
}

static uint32_t w_elem(wr *w, ekind ek, uint32_t x)
{
    switch (ek) {
    case EK_PATH: return w_path(w, x);
    case EK_MODE: return w_path(w, x >> 1) << 1 | (x & 1u);
    case EK_VALUE: return w_value(w, x);
    case EK_INST: return w_inst(w, x);
    case EK_ATOM: return w_atom(w, x);
    default: return 0;
    }
}

/* A set: local index + 1 (0 for DL_NONE). The key of the memo is the set
 * id and its kind (one id may be used with two kinds, e.g. the empty set). */
static uint32_t w_set(wr *w, ekind ek, uint32_t s)
{
    if (s == DL_NONE)
        return 0;
    uint32_t l;
    uint64_t id = (uint64_t)s * EK_COUNT + ek;
    if (memo(&w->set, id, &l))
        return l + 1;
    const dl_ctx *c = w->k->c;
    uint32_t n = dl_set_len(c, s);
    uint32_t *loc = base_xmalloc((n ? n : 1) * sizeof *loc);
    for (uint32_t i = 0; i < n; i++)
        loc[i] = w_elem(w, ek, dl_set_data(c, s)[i]);
    base_strbuf_putc(w->b, R_SET);
    put_u(w->b, ek);
    put_u(w->b, n);
    for (uint32_t i = 0; i < n; i++)
        put_u(w->b, loc[i]);
    free(loc);
    base_hashmap_put(&w->set, fix_key(id), w->nset);
    return ++w->nset;
}

static void wr_init(wr *w, dl_cache *k, base_strbuf *b)
{
    memset(w, 0, sizeof *w);
    w->k = k;
    w->b = b;
    base_hashmap *ms[] = { &w->func, &w->global, &w->type, &w->file, &w->path,
                           &w->trace, &w->inst, &w->atom, &w->set };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        base_hashmap_init(ms[i]);
}

static void wr_free(wr *w)
{
    base_hashmap *ms[] = { &w->func, &w->global, &w->type, &w->file, &w->path,
                           &w->trace, &w->inst, &w->atom, &w->set };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        base_hashmap_free(ms[i]);
}

/* One member: its definitions, then the summary record that uses them. */
static bool write_summary(dl_cache *k, base_strbuf *b, const dl_summary *x)
{
    wr w;
    wr_init(&w, k, b);
    /* pass 1 defines everything; the record after it only refers back */
    uint32_t s[12];
    s[0] = w_set(&w, EK_PATH, x->must_held_entry);
    s[1] = w_set(&w, EK_PATH, x->must_free_entry);
    s[2] = w_set(&w, EK_MODE, x->held_may_exit);
    s[3] = w_set(&w, EK_MODE, x->held_must_exit);
    s[4] = w_set(&w, EK_PATH, x->rel_may_exit);
    s[5] = w_set(&w, EK_PATH, x->rel_must_exit);
    s[6] = w_set(&w, EK_INST, x->live_exit);
    s[7] = w_set(&w, EK_PATH, x->joins);
    s[8] = w_set(&w, EK_PATH, x->joined_exit);
    s[9] = w_set(&w, EK_VALUE, x->ret);
    s[10] = w_set(&w, EK_PATH, x->recursive);
    BASE_VEC(uint32_t) rec = { 0 };
    for (size_t i = 0; i < x->deps.len; i++) {
        const dl_dep *d = &x->deps.data[i];
        uint32_t v[] = { w_elem(&w, EK_MODE, d->a), w_elem(&w, EK_MODE, d->b), w_trace(&w, d->ta),
                         w_trace(&w, d->tb), w_set(&w, EK_PATH, d->guards), w_set(&w, EK_INST, d->par),
                         w_set(&w, EK_ATOM, d->conds), w_set(&w, EK_PATH, d->joined), d->may_held,
                         d->chain == DL_NONE ? 0 : (w_path(&w, d->chain >> 1) << 1 | (d->chain & 1u)) + 1 };
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            base_vec_push(&rec, v[j]);
    }
    for (size_t i = 0; i < x->acqs.len; i++) {
        const dl_acq *q = &x->acqs.data[i];
        uint32_t v[] = { w_elem(&w, EK_MODE, q->lm), q->is_try, w_trace(&w, q->trace),
                         w_set(&w, EK_PATH, q->guards), w_set(&w, EK_PATH, q->released),
                         w_set(&w, EK_INST, q->par), w_set(&w, EK_ATOM, q->conds),
                         w_set(&w, EK_PATH, q->joined),
                         q->anchor == DL_NONE || q->link == DL_NONE ? 0 : w_path(&w, q->anchor) + 1,
                         q->anchor == DL_NONE || q->link == DL_NONE ? 0 : w_path(&w, q->link >> 1) + 1 };
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            base_vec_push(&rec, v[j]);
    }
    for (size_t i = 0; i < x->selfs.len; i++) {
        const dl_self *e = &x->selfs.data[i];
        uint32_t v[] = { w_path(&w, e->lock), w_trace(&w, e->t1), w_trace(&w, e->t2),
                         w_set(&w, EK_INST, e->par) };
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            base_vec_push(&rec, v[j]);
    }
    for (size_t i = 0; i < x->spawns.len; i++) {
        const dl_spawn *e = &x->spawns.data[i];
        uint32_t v[] = { w_inst(&w, e->inst), w_set(&w, EK_INST, e->live), w_trace(&w, e->trace),
                         e->multi };
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            base_vec_push(&rec, v[j]);
    }
    uint32_t rcs[DL_MAX_RET_CASES], opq = w_set(&w, EK_PATH, x->opaque);
    for (uint32_t i = 0; i < x->nret_cases; i++)
        rcs[i] = w_set(&w, EK_MODE, x->ret_case_held[i]);
    base_strbuf_putc(b, R_SUMMARY);
    for (int i = 0; i < 11; i++)
        put_u(b, s[i]);
    put_u(b, x->ret_has_null);
    put_u(b, opq);
    put_u(b, x->nret_cases);
    for (uint32_t i = 0; i < x->nret_cases; i++) {
        put_u(b, (uint64_t)x->ret_case_val[i]);
        put_u(b, rcs[i]);
    }
    put_u(b, x->nunknown);
    put_u(b, x->deps.len);
    put_u(b, x->acqs.len);
    put_u(b, x->selfs.len);
    put_u(b, x->spawns.len);
    for (size_t i = 0; i < rec.len; i++)
        put_u(b, rec.data[i]);
    base_vec_free(&rec);
    bool ok = !w.fail;
    wr_free(&w);
    return ok;
}

/* --- reader --- */

typedef struct rtab {
    BASE_VEC(uint32_t) func, global, path, trace, inst, atom, set;
    BASE_VEC(uint8_t) set_kind;
    BASE_VEC(const ir_type *) type;
    BASE_VEC(const char *) file;
} rtab;

static void rtab_free(rtab *t)
{
    base_vec_free(&t->func);
    base_vec_free(&t->global);
    base_vec_free(&t->path);
    base_vec_free(&t->trace);
    base_vec_free(&t->inst);
    base_vec_free(&t->atom);
    base_vec_free(&t->set);
    base_vec_free(&t->set_kind);
    base_vec_free(&t->type);
    base_vec_free(&t->file);
}

static bool lookup_name(const base_hashmap *m, const char *name, uint32_t *out)
{
    uint64_t v;
    if (!base_hashmap_get(m, fix_key(h_str(name)), &v) || v == 0)
        return false; /* unknown or ambiguous */
    *out = (uint32_t)(v - 1);
    return true;
}

/* A record type from its tag and field names: the program's own when it
 * has one with that signature, else a new node with just the names. */
static const ir_type *r_type(dl_cache *k, rd *r, char *buf, size_t cap)
{
    dl_ctx *c = k->c;
    bool is_union = get_u(r) != 0;
    if (!get_s(r, buf, cap))
        return NULL;
    base_intern_pool *pool = c->prog->syms;
    base_sym tag = *buf ? base_intern_cstr(pool, buf) : 0;
    uint64_t nf = get_u(r);
    if (r->bad || nf > (uint64_t)(r->end - r->p))
        return r->bad = true, NULL;
    ir_type *t = base_arena_alloc(&c->arena, sizeof *t);
    memset(t, 0, sizeof *t);
    t->kind = is_union ? IR_T_UNION : IR_T_STRUCT;
    t->tag = tag;
    t->nfields = (uint32_t)nf;
    t->fields = base_arena_alloc(&c->arena, (nf ? nf : 1) * sizeof *t->fields);
    memset(t->fields, 0, (nf ? nf : 1) * sizeof *t->fields);
    for (uint64_t i = 0; i < nf; i++) {
        if (!get_s(r, buf, cap))
            return NULL;
        t->fields[i].name = *buf ? base_intern_cstr(pool, buf) : 0;
    }
    return dl_canon_type(c, t);
}

static const char *r_file(dl_cache *k, const char *name)
{
    uint64_t v;
    if (base_hashmap_get(&k->file_by_name, fix_key(h_str(name)), &v)) {
        const char *f = (const char *)(uintptr_t)v;
        if (strcmp(f, name) == 0)
            return f;
    }
    size_t n = strlen(name);
    char *copy = base_arena_alloc(&k->c->arena, n + 1);
    memcpy(copy, name, n + 1);
    base_hashmap_put(&k->file_by_name, fix_key(h_str(name)), (uint64_t)(uintptr_t)copy);
    return copy;
}

static bool base_kind(uint64_t k)
{
    return k <= DL_BASE_FORMAL || k == DL_BASE_RET || k == DL_BASE_CLASS;
}

static uint32_t r_path(dl_cache *k, rd *r, rtab *t)
{
    dl_ctx *c = k->c;
    uint64_t kind = get_u(r);
    uint32_t parent = get_ix(r, t->path.len + 1);
    if (r->bad || kind > DL_SEL_STAR || base_kind(kind) != (parent == 0))
        return r->bad = true, DL_NONE;
    uint32_t fi, out = DL_NONE;
    switch ((dl_path_kind)kind) {
    case DL_BASE_GLOBAL: {
        uint32_t gi = get_at(r, t->global.data, t->global.len);
        if (r->bad)
            return DL_NONE;
        out = dl_path_base(c, DL_BASE_GLOBAL, gi, 0);
        break;
    }
    case DL_BASE_PARAM: {
        uint64_t a = get_u(r);
        if (a >= 0x80000000u)
            return r->bad = true, DL_NONE;
        out = dl_path_base(c, DL_BASE_PARAM, a, 0);
        break;
    }
    case DL_BASE_LOCAL:
    case DL_BASE_FORMAL: {
        fi = get_at(r, t->func.data, t->func.len);
        uint64_t b = get_u(r);
        const ir_func *f = c->prog->funcs[r->bad ? 0 : fi];
        bool ok = kind == DL_BASE_FORMAL
                      ? b < f->nparams
                      : ((b & 0x80000000u) ? (b & 0x7fffffffu) < f->nparams && b <= 0xffffffffu
                                           : b < f->nlocals);
        if (r->bad || !ok)
            return r->bad = true, DL_NONE;
        out = dl_path_base(c, (dl_path_kind)kind, fi, b);
        break;
    }
    case DL_BASE_FUNC:
    case DL_BASE_RET:
        fi = get_at(r, t->func.data, t->func.len);
        if (r->bad)
            return DL_NONE;
        out = dl_path_base(c, (dl_path_kind)kind, fi, 0);
        break;
    case DL_BASE_CLASS:
        out = dl_path_base(c, DL_BASE_CLASS, 0, 0);
        break;
    case DL_SEL_FIELD:
    case DL_SEL_STAR: {
        uint64_t a = get_u(r);
        uint32_t ty = get_ix(r, t->type.len + 1);
        const ir_type *type = ty ? t->type.data[ty - 1] : NULL;
        if (r->bad || (type && a >= type->nfields))
            return r->bad = true, DL_NONE;
        out = dl_path_sel(c, t->path.data[parent - 1], (dl_path_kind)kind, a, (uint64_t)(uintptr_t)type);
        break;
    }
    case DL_SEL_INDEX: {
        uint64_t a = get_u(r);
        if (r->bad)
            return DL_NONE;
        out = dl_path_sel(c, t->path.data[parent - 1], DL_SEL_INDEX, a, 0);
        break;
    }
    default:
        out = dl_path_sel(c, t->path.data[parent - 1], (dl_path_kind)kind, 0, 0);
        break;
    }
    return r->bad ? DL_NONE : out;
}

static uint32_t r_value(rd *r, const rtab *t)
{
    uint64_t v = get_u(r);
    if (r->bad || (v >> 1) >= t->path.len)
        return r->bad = true, DL_NONE;
    uint32_t p = t->path.data[v >> 1];
    return v & 1u ? dl_val_addr(p) : dl_val_load(p);
}

static uint32_t r_opt_value(rd *r, const rtab *t)
{
    uint64_t v = get_u(r);
    if (r->bad || v == 0)
        return DL_NONE;
    v--;
    if ((v >> 1) >= t->path.len)
        return r->bad = true, DL_NONE;
    uint32_t p = t->path.data[v >> 1];
    return v & 1u ? dl_val_addr(p) : dl_val_load(p);
}

static uint32_t r_elem(rd *r, const rtab *t, ekind ek)
{
    switch (ek) {
    case EK_PATH: return get_at(r, t->path.data, t->path.len);
    case EK_MODE: {
        uint64_t v = get_u(r);
        if (r->bad || (v >> 1) >= t->path.len)
            return r->bad = true, 0;
        return t->path.data[v >> 1] << 1 | (uint32_t)(v & 1u);
    }
    case EK_VALUE: return r_value(r, t);
    case EK_INST: return get_at(r, t->inst.data, t->inst.len);
    case EK_ATOM: return get_at(r, t->atom.data, t->atom.len);
    default: return r->bad = true, 0;
    }
}

/* A set reference of kind ek (local index + 1; 0 is DL_NONE, allowed only
 * when opt). */
static uint32_t r_setref(rd *r, const rtab *t, ekind ek, bool opt)
{
    uint32_t i = get_ix(r, t->set.len + 1);
    if (r->bad)
        return DL_NONE;
    if (i == 0) {
        if (!opt)
            r->bad = true;
        return DL_NONE;
    }
    if (t->set_kind.data[i - 1] != ek)
        return r->bad = true, DL_NONE;
    return t->set.data[i - 1];
}

static uint32_t r_trace(rd *r, const rtab *t)
{
    return get_at(r, t->trace.data, t->trace.len);
}

/* Reads one member's records into sum; false on any inconsistency. */
static bool read_summary(dl_cache *k, rd *r, dl_summary *sum)
{
    dl_ctx *c = k->c;
    rtab t;
    memset(&t, 0, sizeof t);
    char buf[4096];
    bool done = false;
    while (!r->bad && !done) {
        if (r->p >= r->end) {
            r->bad = true;
            break;
        }
        uint8_t tag = *r->p++;
        switch (tag) {
        case R_FUNC: {
            uint32_t fi;
            if (get_s(r, buf, sizeof buf) && lookup_name(&k->func_by_name, buf, &fi))
                base_vec_push(&t.func, fi);
            else
                r->bad = true;
            break;
        }
        case R_GLOBAL: {
            uint32_t gi;
            if (get_s(r, buf, sizeof buf) && lookup_name(&k->global_by_name, buf, &gi))
                base_vec_push(&t.global, gi);
            else
                r->bad = true;
            break;
        }
        case R_TYPE: {
            const ir_type *ty = r_type(k, r, buf, sizeof buf);
            if (ty)
                base_vec_push(&t.type, ty);
            break;
        }
        case R_FILE:
            if (get_s(r, buf, sizeof buf))
                base_vec_push(&t.file, r_file(k, buf));
            break;
        case R_PATH: {
            uint32_t p = r_path(k, r, &t);
            if (!r->bad)
                base_vec_push(&t.path, p);
            break;
        }
        case R_TRACE: {
            uint64_t kind = get_u(r);
            uint32_t f = get_ix(r, t.func.len), file = get_ix(r, t.file.len);
            uint64_t line = get_u(r), col = get_u(r);
            uint32_t next = get_ix(r, t.trace.len + 1);
            if (r->bad || kind > DL_TR_RETAKE || line > UINT32_MAX || col > UINT32_MAX ||
                (kind == DL_TR_CALL) != (next != 0)) {
                r->bad = true;
                break;
            }
            base_srcloc loc = base_srcloc_make(t.file.data[file], (uint32_t)line, (uint32_t)col);
            base_vec_push(&t.trace, dl_trace_mk(c, (dl_trace_kind)kind, c->prog->funcs[t.func.data[f]],
                                                loc, next ? t.trace.data[next - 1] : DL_NONE));
            break;
        }
        case R_INST: {
            uint32_t f = get_ix(r, t.func.len);
            uint64_t si = get_u(r);
            dl_inst in;
            in.callee = r_opt_value(r, &t);
            in.arg = r_opt_value(r, &t);
            uint32_t h = get_ix(r, t.path.len + 1);
            if (r->bad)
                break;
            in.site_func = c->prog->funcs[t.func.data[f]];
            if (si >= in.site_func->nstmts || in.site_func->stmts[si].kind != IR_S_ASYNC) {
                r->bad = true;
                break;
            }
            in.site = &in.site_func->stmts[si];
            in.handle = h ? t.path.data[h - 1] : DL_NONE;
            base_vec_push(&t.inst, dl_inst_mk(c, &in));
            break;
        }
        case R_ATOM: {
            uint64_t op = get_u(r);
            uint32_t x = r_value(r, &t), y = r_value(r, &t);
            if (r->bad || op > DL_CMP_AFTER) {
                r->bad = true;
                break;
            }
            base_vec_push(&t.atom, dl_atom_mk(c, (dl_cmp)op, x, y));
            break;
        }
        case R_SET: {
            uint64_t ek = get_u(r), n = get_u(r);
            if (r->bad || ek >= EK_COUNT || n > (uint64_t)(r->end - r->p)) {
                r->bad = true;
                break;
            }
            uint32_t *xs = base_xmalloc((n ? n : 1) * sizeof *xs);
            for (uint64_t i = 0; i < n && !r->bad; i++)
                xs[i] = r_elem(r, &t, (ekind)ek);
            if (!r->bad) {
                base_vec_push(&t.set, dl_set(c, xs, (uint32_t)n));
                base_vec_push(&t.set_kind, (uint8_t)ek);
            }
            free(xs);
            break;
        }
        case R_SUMMARY: {
            dl_summary x;
            memset(&x, 0, sizeof x);
            x.must_held_entry = r_setref(r, &t, EK_PATH, false);
            x.must_free_entry = r_setref(r, &t, EK_PATH, false);
            x.held_may_exit = r_setref(r, &t, EK_MODE, false);
            x.held_must_exit = r_setref(r, &t, EK_MODE, false);
            x.rel_may_exit = r_setref(r, &t, EK_PATH, false);
            x.rel_must_exit = r_setref(r, &t, EK_PATH, false);
            x.live_exit = r_setref(r, &t, EK_INST, false);
            x.joins = r_setref(r, &t, EK_PATH, false);
            x.joined_exit = r_setref(r, &t, EK_PATH, false);
            x.ret = r_setref(r, &t, EK_VALUE, true);
            x.recursive = r_setref(r, &t, EK_PATH, false);
            x.ret_has_null = get_u(r) != 0;
            x.opaque = r_setref(r, &t, EK_PATH, false);
            uint64_t nrc = get_u(r);
            if (r->bad || nrc == 1 || nrc > DL_MAX_RET_CASES) {
                r->bad = true;
                break;
            }
            x.nret_cases = (uint32_t)nrc;
            for (uint32_t i = 0; i < DL_MAX_RET_CASES; i++)
                x.ret_case_held[i] = c->empty;
            for (uint32_t i = 0; i < x.nret_cases; i++) {
                x.ret_case_val[i] = (int64_t)get_u(r);
                x.ret_case_held[i] = r_setref(r, &t, EK_MODE, false);
            }
            uint64_t nunk = get_u(r);
            uint64_t nd = get_u(r), nq = get_u(r), ns = get_u(r), nsp = get_u(r);
            uint64_t left = (uint64_t)(r->end - r->p);
            if (r->bad || nunk > UINT32_MAX || nd > left || nq > left || ns > left || nsp > left) {
                r->bad = true;
                break;
            }
            x.nunknown = (uint32_t)nunk;
            for (uint64_t i = 0; i < nd && !r->bad; i++) {
                dl_dep d;
                d.a = r_elem(r, &t, EK_MODE);
                d.b = r_elem(r, &t, EK_MODE);
                d.ta = r_trace(r, &t);
                d.tb = r_trace(r, &t);
                d.guards = r_setref(r, &t, EK_PATH, false);
                d.par = r_setref(r, &t, EK_INST, false);
                d.conds = r_setref(r, &t, EK_ATOM, false);
                d.joined = r_setref(r, &t, EK_PATH, false);
                d.may_held = get_u(r) != 0;
                uint64_t ch = get_u(r);
                if (ch && (ch - 1) >> 1 >= t.path.len)
                    r->bad = true;
                d.chain = r->bad || ch == 0 ? DL_NONE : t.path.data[(ch - 1) >> 1] << 1 | (uint32_t)((ch - 1) & 1u);
                base_vec_push(&x.deps, d);
            }
            for (uint64_t i = 0; i < nq && !r->bad; i++) {
                dl_acq q;
                q.lm = r_elem(r, &t, EK_MODE);
                q.is_try = get_u(r) != 0;
                q.trace = r_trace(r, &t);
                q.guards = r_setref(r, &t, EK_PATH, false);
                q.released = r_setref(r, &t, EK_PATH, false);
                q.par = r_setref(r, &t, EK_INST, false);
                q.conds = r_setref(r, &t, EK_ATOM, false);
                q.joined = r_setref(r, &t, EK_PATH, false);
                uint32_t an = get_ix(r, t.path.len + 1), lk = get_ix(r, t.path.len + 1);
                q.anchor = q.link = DL_NONE;
                if (!r->bad && an && lk) {
                    q.anchor = t.path.data[an - 1];
                    q.link = t.path.data[lk - 1] << 1;
                }
                base_vec_push(&x.acqs, q);
            }
            for (uint64_t i = 0; i < ns && !r->bad; i++) {
                dl_self e;
                e.lock = r_elem(r, &t, EK_PATH);
                e.t1 = r_trace(r, &t);
                e.t2 = r_trace(r, &t);
                e.par = r_setref(r, &t, EK_INST, false);
                base_vec_push(&x.selfs, e);
            }
            for (uint64_t i = 0; i < nsp && !r->bad; i++) {
                dl_spawn e;
                e.inst = r_elem(r, &t, EK_INST);
                e.live = r_setref(r, &t, EK_INST, false);
                e.trace = r_trace(r, &t);
                e.multi = get_u(r) != 0;
                base_vec_push(&x.spawns, e);
            }
            if (r->bad) {
                dl_summary_free(&x);
                break;
            }
            x.done = true;
            *sum = x;
            done = true;
            break;
        }
        default:
            r->bad = true;
        }
    }
    rtab_free(&t);
    return !r->bad;
}

/* --- files --- */

static char *path_of(const dl_cache *k, uint64_t key)
{
    size_t n = strlen(k->dir) + 32;
    char *p = base_xmalloc(n);
    snprintf(p, n, "%s/%016llx.dls", k->dir, (unsigned long long)key);
    return p;
}

bool dl_cache_load(dl_cache *k, uint64_t key, const uint32_t *members, uint32_t n)
{
    dl_ctx *c = k->c;
    if (!k->usable) {
        k->misses += n;
        return false;
    }
    char *path = path_of(k, key);
    size_t len = 0;
    char *data = base_read_file(path, &len);
    free(path);
    if (!data) {
        k->misses += n;
        return false;
    }
    bool ok = len >= MAGIC_LEN + 8 && memcmp(data, MAGIC, MAGIC_LEN) == 0;
    if (ok) {
        uint64_t stored = 0;
        for (int i = 0; i < 8; i++)
            stored |= (uint64_t)(uint8_t)data[len - 8 + (size_t)i] << (8 * i);
        ok = base_hash_bytes(data, len - 8) == stored;
    }
    dl_summary *got = base_xcalloc(n + 1, sizeof *got);
    uint32_t ngot = 0;
    if (ok) {
        rd r = { (const uint8_t *)data + MAGIC_LEN, (const uint8_t *)data + len - 8, false };
        ok = get_u(&r) == DL_CACHE_VERSION && get_u(&r) == key && get_u(&r) == n && !r.bad;
        char buf[4096];
        for (uint32_t i = 0; ok && i < n; i++) {
            /* members by name, in the order of this run's component */
            ok = get_s(&r, buf, sizeof buf) && strcmp(buf, func_name(c, members[i])) == 0;
            uint64_t blen = ok ? get_u(&r) : 0;
            ok = ok && !r.bad && blen <= (uint64_t)(r.end - r.p);
            if (!ok)
                break;
            rd sub = { r.p, r.p + blen, false };
            ok = read_summary(k, &sub, &got[i]) && sub.p == sub.end;
            if (ok)
                ngot++;
            r.p += blen;
        }
        ok = ok && r.p == r.end;
    }
    free(data);
    if (!ok) {
        for (uint32_t i = 0; i < ngot; i++)
            dl_summary_free(&got[i]);
        free(got);
        k->bad++;
        k->misses += n;
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        dl_summary_free(&c->sums[members[i]]);
        c->sums[members[i]] = got[i];
        c->sums[members[i]].done = true;
    }
    free(got);
    finish_members(k, key, members, n);
    k->hits += n;
    return true;
}

void dl_cache_store(dl_cache *k, uint64_t key, const uint32_t *members, uint32_t n)
{
    dl_ctx *c = k->c;
    finish_members(k, key, members, n);
    if (!k->usable)
        return;
    base_strbuf b = { 0 }, one = { 0 };
    for (size_t i = 0; i < MAGIC_LEN; i++)
        base_strbuf_putc(&b, MAGIC[i]);
    put_u(&b, DL_CACHE_VERSION);
    put_u(&b, key);
    put_u(&b, n);
    for (uint32_t i = 0; i < n; i++) {
        put_s(&b, func_name(c, members[i]));
        one.len = 0;
        if (!write_summary(k, &one, &c->sums[members[i]])) {
            base_strbuf_free(&one);
            base_strbuf_free(&b);
            return;
        }
        put_u(&b, one.len);
        for (size_t j = 0; j < one.len; j++)
            base_strbuf_putc(&b, one.data[j]);
    }
    uint64_t sum = base_hash_bytes(b.data, b.len);
    for (int i = 0; i < 8; i++)
        base_strbuf_putc(&b, (char)(sum >> (8 * i)));
    base_strbuf_free(&one);

    char *path = path_of(k, key);
    size_t tn = strlen(k->dir) + 64;
    char *tmp = base_xmalloc(tn);
    snprintf(tmp, tn, "%s/.tmp.%ld.%u", k->dir, (long)getpid(), k->tmp_seq++);
    FILE *fp = fopen(tmp, "wb");
    bool ok = fp && fwrite(b.data, 1, b.len, fp) == b.len;
    if (fp && fclose(fp) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        remove(tmp);
        k->write_errors++;
    }
    free(tmp);
    free(path);
    base_strbuf_free(&b);
}

/* --- open / close --- */

static void index_name(base_hashmap *m, const char *name, uint32_t ix)
{
    uint64_t key = fix_key(h_str(name)), v;
    if (base_hashmap_get(m, key, &v))
        base_hashmap_put(m, key, 0); /* two objects, one name: never resolved */
    else
        base_hashmap_put(m, key, (uint64_t)ix + 1);
}

dl_cache *dl_cache_open(dl_ctx *c, const char *dir)
{
    dl_cache *k = base_xcalloc(1, sizeof *k);
    k->c = c;
    size_t n = strlen(dir);
    k->dir = base_xmalloc(n + 1);
    memcpy(k->dir, dir, n + 1);
    while (n > 1 && k->dir[n - 1] == '/')
        k->dir[--n] = 0;
    struct stat st;
    if (stat(k->dir, &st) != 0 && errno == ENOENT)
        mkdir(k->dir, 0777);
    k->usable = stat(k->dir, &st) == 0 && S_ISDIR(st.st_mode) && access(k->dir, R_OK | W_OK | X_OK) == 0;
    uint32_t nf = c->prog->nfuncs;
    k->ir_hash = base_xcalloc(nf + 1, sizeof *k->ir_hash);
    k->key_of = base_xcalloc(nf + 1, sizeof *k->key_of);
    k->sum_hash = base_xcalloc(nf + 1, sizeof *k->sum_hash);
    base_hashmap *ms[] = { &k->type_h, &k->file_h, &k->path_h, &k->trace_h, &k->inst_h,
                           &k->func_by_name, &k->global_by_name, &k->file_by_name };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        base_hashmap_init(ms[i]);
    for (uint32_t i = 0; i < nf; i++)
        index_name(&k->func_by_name, func_name(c, i), i);
    for (uint32_t i = 0; i < c->prog->nglobals; i++)
        index_name(&k->global_by_name, global_name(c, i), i);
    /* the program's own file name strings, so traces read back share them */
    base_hashmap seen;
    base_hashmap_init(&seen);
    for (uint32_t fi = 0; fi < nf; fi++) {
        const ir_func *f = c->prog->funcs[fi];
        for (uint32_t i = 0; i <= f->nstmts; i++) {
            const char *file = i < f->nstmts ? f->stmts[i].loc.file : f->loc.file;
            uint64_t v;
            if (!file || base_hashmap_get(&seen, fix_key((uint64_t)(uintptr_t)file), &v))
                continue;
            base_hashmap_put(&seen, fix_key((uint64_t)(uintptr_t)file), 1);
            base_hashmap_put(&k->file_by_name, fix_key(h_str(file)), (uint64_t)(uintptr_t)file);
        }
    }
    base_hashmap_free(&seen);
    k->ctx_hash = context_hash(k);
    return k;
}

void dl_cache_close(dl_cache *k, deadlock_result *res)
{
    res->cache_hits = k->hits;
    res->cache_misses = k->misses;
    res->cache_bad = k->bad;
    res->cache_write_errors = k->write_errors + (k->usable ? 0 : 1);
    base_hashmap *ms[] = { &k->type_h, &k->file_h, &k->path_h, &k->trace_h, &k->inst_h,
                           &k->func_by_name, &k->global_by_name, &k->file_by_name };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        base_hashmap_free(ms[i]);
    free(k->ir_hash);
    free(k->key_of);
    free(k->sum_hash);
    free(k->dir);
    free(k);
}

/* --- the summary pass's store (dl_store.h) --- */

static uint64_t store_key(void *impl, const uint32_t *members, uint32_t n, const uint32_t *callees,
                          uint32_t m)
{
    return dl_cache_key(impl, members, n, callees, m);
}

static bool store_load(void *impl, uint64_t key, const uint32_t *members, uint32_t n)
{
    return dl_cache_load(impl, key, members, n);
}

static void store_store(void *impl, uint64_t key, const uint32_t *members, uint32_t n)
{
    dl_cache_store(impl, key, members, n);
}

const dl_summary_store *dl_cache_as_store(dl_cache *k)
{
    k->iface.impl = k;
    k->iface.key = store_key;
    k->iface.load = store_load;
    k->iface.store = store_store;
    return &k->iface;
}
