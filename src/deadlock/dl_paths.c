/* dl_paths: interning of access paths, values, sets, traces and thread
 * instances for the deadlock analysis, renaming from a callee's namespace
 * into a caller's, and lock names for the report (see dl_internal.h).
 *
 * Invariant: every interned object is immutable; renaming never changes a
 * path, it interns a new one. */
#include <stdlib.h>
#include <string.h>

#include "deadlock/dl_internal.h"

/* --- tuple interning: open addressing over base_hashmap with rehashing
 * on collisions (keys are hashes, values ids; equality checked on the
 * stored tuples) --- */

static uint64_t tuple_hash(dl_tuple k)
{
    uint64_t h = base_hash64(k.a ^ 0x9e3779b97f4a7c15ull);
    h = base_hash64(h ^ k.b);
    h = base_hash64(h ^ k.c);
    h = base_hash64(h ^ k.d);
    return h == BASE_HASHMAP_EMPTY ? 0 : h;
}

uint32_t dl_tuple_intern(dl_itab *t, dl_tuple k, bool *is_new)
{
    uint64_t h = tuple_hash(k);
    for (;;) {
        uint64_t id;
        if (!base_hashmap_get(&t->index, h, &id)) {
            base_vec_push(&t->items, k);
            base_hashmap_put(&t->index, h, t->items.len - 1);
            if (is_new)
                *is_new = true;
            return (uint32_t)(t->items.len - 1);
        }
        dl_tuple o = t->items.data[id];
        if (o.a == k.a && o.b == k.b && o.c == k.c && o.d == k.d) {
            if (is_new)
                *is_new = false;
            return (uint32_t)id;
        }
        h = base_hash64(h + 1);
        if (h == BASE_HASHMAP_EMPTY)
            h = 0;
    }
}

void dl_itab_free(dl_itab *t)
{
    base_vec_free(&t->items);
    base_hashmap_free(&t->index);
}

/* --- paths --- */

static uint32_t path_intern(dl_ctx *c, uint32_t parent, dl_path_kind k, uint64_t a, uint64_t b)
{
    bool is_new;
    dl_tuple key = { parent, k, a, b };
    uint32_t id = dl_tuple_intern(&c->paths_t, key, &is_new);
    if (is_new) {
        dl_path p = { parent, k, a, b, parent == DL_NONE ? 0 : c->paths.data[parent].depth + 1 };
        base_vec_push(&c->paths, p);
    }
    return id;
}

uint32_t dl_path_base(dl_ctx *c, dl_path_kind k, uint64_t a, uint64_t b)
{
    return path_intern(c, DL_NONE, k, a, b);
}

static uint64_t type_sig(const ir_type *t)
{
    uint64_t h = base_hash64(((uint64_t)t->kind << 32 | t->tag) + 0x7f4a7c15ull);
    h = base_hash64(h ^ t->nfields);
    for (uint32_t i = 0; i < t->nfields; i++)
        h = base_hash64(h ^ ((uint64_t)t->fields[i].name + 0x9e3779b97f4a7c15ull * (i + 1)));
    return h == BASE_HASHMAP_EMPTY ? 0 : h;
}

static bool type_same_sig(const ir_type *x, const ir_type *y)
{
    if (x->kind != y->kind || x->tag != y->tag || x->nfields != y->nfields)
        return false;
    for (uint32_t i = 0; i < x->nfields; i++)
        if (x->fields[i].name != y->fields[i].name)
            return false;
    return true;
}

/* The first record type seen with t's signature (kind, tag, field names);
 * an incomplete type (no fields) keeps itself unless a type with its tag
 * and no fields was seen. */
const ir_type *dl_canon_type(dl_ctx *c, const ir_type *t)
{
    if (!t || (t->kind != IR_T_STRUCT && t->kind != IR_T_UNION))
        return t;
    uint64_t h = type_sig(t), ix;
    for (;;) {
        if (!base_hashmap_get(&c->type_canon, h, &ix)) {
            base_vec_push(&c->canon_types, t);
            base_hashmap_put(&c->type_canon, h, c->canon_types.len - 1);
            return t;
        }
        const ir_type *o = c->canon_types.data[ix];
        if (o == t || type_same_sig(o, t))
            return o;
        h = base_hash64(h + 1);
        if (h == BASE_HASHMAP_EMPTY)
            h = 0;
    }
}

#define DL_FOLD_TAIL 3

/* The label of a fold of selectors sel[from..to): the field when every
 * field selector (and every fold) in it is that one field. */
static void star_label(const dl_ctx *c, const uint32_t *sel, uint32_t from, uint32_t to,
                       uint64_t *a, uint64_t *b)
{
    *a = 0, *b = 0;
    bool have = false;
    for (uint32_t i = from; i < to; i++) {
        const dl_path *q = &c->paths.data[sel[i]];
        if (q->kind != DL_SEL_FIELD && q->kind != DL_SEL_STAR)
            continue;
        if ((q->kind == DL_SEL_STAR && !q->b) || (have && (q->a != *a || q->b != *b))) {
            *a = 0, *b = 0;
            return;
        }
        *a = q->a, *b = q->b, have = true;
    }
}

/* Selector k(a, b) appended to a path of DL_MAX_DEPTH - 1 selectors: the
 * path folded. The selectors between the first DL_MAX_DEPTH - 4 and the
 * last two become one STAR, labelled with the field when they repeat one
 * field (`h->next->...->next(->next)*->m`). The result names every object
 * the long path names (and more): a sound summary, strictly shorter, and
 * one of few (no more paths than cutting them made, but the lock's own
 * field stays: two mutexes of one deep node keep two names). */
static uint32_t path_fold(dl_ctx *c, uint32_t parent, dl_path_kind k, uint64_t a, uint64_t b)
{
    uint32_t sel[DL_MAX_DEPTH + 2], n = 0, base = parent;
    for (; c->paths.data[base].parent != DL_NONE && n <= DL_MAX_DEPTH; base = c->paths.data[base].parent)
        sel[n++] = base;
    for (uint32_t i = 0; i < n / 2; i++) { /* root first */
        uint32_t t = sel[i];
        sel[i] = sel[n - 1 - i];
        sel[n - 1 - i] = t;
    }
    /* the new selector, interned on the parent to be read like the others
     * (that path, one too deep, is never handed out) */
    sel[n] = path_intern(c, parent, k, a, b);
    /* the first selectors and the last two (`->m`, what names the lock)
     * stay, what is between folds */
    uint32_t m = n + 1, i0 = DL_MAX_DEPTH - 4, keep_from = m - 2;
    uint64_t la, lb;
    star_label(c, sel, i0, keep_from, &la, &lb);
    uint32_t out = base;
    for (uint32_t i = 0; i < i0; i++) {
        const dl_path *q = &c->paths.data[sel[i]];
        out = path_intern(c, out, (dl_path_kind)q->kind, q->a, q->b);
    }
    if (c->paths.data[out].kind != DL_SEL_STAR)
        out = path_intern(c, out, DL_SEL_STAR, la, lb);
    else if (c->paths.data[out].a != la || c->paths.data[out].b != lb)
        out = path_intern(c, c->paths.data[out].parent, DL_SEL_STAR, 0, 0);
    for (uint32_t i = keep_from; i < m; i++) {
        const dl_path *q = &c->paths.data[sel[i]], *o = &c->paths.data[out];
        if (q->kind == DL_SEL_STAR && o->kind == DL_SEL_STAR) { /* two folds in a row are one */
            if (q->a != o->a || q->b != o->b)
                out = path_intern(c, o->parent, DL_SEL_STAR, 0, 0);
            continue;
        }
        out = path_intern(c, out, (dl_path_kind)q->kind, q->a, q->b);
    }
    return out;
}

uint32_t dl_path_sel(dl_ctx *c, uint32_t parent, dl_path_kind k, uint64_t a, uint64_t b)
{
    if (parent == DL_NONE)
        return DL_NONE;
    if ((k == DL_SEL_FIELD || k == DL_SEL_STAR) && b)
        b = (uint64_t)(uintptr_t)dl_canon_type(c, (const ir_type *)(uintptr_t)b);
    const dl_path *p = &c->paths.data[parent];
    if (p->kind == DL_SEL_TRUNC)
        return parent;
    if (k == DL_SEL_STAR && p->kind == DL_SEL_STAR) /* two folds in a row are one */
        return p->b == b && p->a == a ? parent : path_intern(c, p->parent, DL_SEL_STAR, 0, 0);
    if (p->depth + 1 >= DL_MAX_DEPTH)
        return path_fold(c, parent, k, a, b);
    /* after a fold, at most DL_FOLD_TAIL selectors: the ones before the
     * last two join the fold (a path that grew past the bound once keeps
     * growing the same way, through recursion) */
    uint32_t after[DL_FOLD_TAIL], na = 0, q = parent;
    while (na < DL_FOLD_TAIL && c->paths.data[q].kind != DL_SEL_STAR &&
           c->paths.data[q].parent != DL_NONE)
        after[na++] = q, q = c->paths.data[q].parent;
    if (na == DL_FOLD_TAIL && c->paths.data[q].kind == DL_SEL_STAR) {
        uint32_t sel[DL_FOLD_TAIL + 1];
        sel[0] = q;
        for (uint32_t i = 0; i + 1 < DL_FOLD_TAIL; i++)
            sel[1 + i] = after[DL_FOLD_TAIL - 1 - i];
        uint64_t la, lb;
        star_label(c, sel, 0, DL_FOLD_TAIL, &la, &lb);
        uint32_t out = path_intern(c, c->paths.data[q].parent, DL_SEL_STAR, la, lb);
        const dl_path *x = &c->paths.data[after[0]];
        out = path_intern(c, out, (dl_path_kind)x->kind, x->a, x->b);
        return path_intern(c, out, k, a, b);
    }
    /* *(q + 0) is *q: an index 0 right after a dereference is dropped. */
    if (k == DL_SEL_INDEX && a == 0 && p->kind == DL_SEL_DEREF)
        return parent;
    return path_intern(c, parent, k, a, b);
}

uint32_t dl_path_root(const dl_ctx *c, uint32_t path)
{
    while (c->paths.data[path].parent != DL_NONE)
        path = c->paths.data[path].parent;
    return path;
}

uint32_t dl_deref(dl_ctx *c, uint32_t value)
{
    if (value == DL_NONE)
        return DL_NONE;
    if (dl_val_is_addr(value))
        return dl_val_path(value);
    return dl_path_sel(c, dl_val_path(value), DL_SEL_DEREF, 0, 0);
}

bool dl_path_has_any(const dl_ctx *c, uint32_t path)
{
    for (; path != DL_NONE; path = c->paths.data[path].parent)
        if (c->paths.data[path].kind == DL_SEL_ANY || c->paths.data[path].kind == DL_SEL_TRUNC ||
            c->paths.data[path].kind == DL_BASE_CLASS ||
            c->paths.data[path].kind == DL_SEL_STAR)
            return true;
    return false;
}

static uint32_t path_class(dl_ctx *c, uint32_t path, bool keep_globals);

uint32_t dl_path_class(dl_ctx *c, uint32_t path, bool keep_globals)
{
    uint64_t key = (uint64_t)path << 1 | keep_globals, memo;
    if (base_hashmap_get(&c->path_classes, key, &memo))
        return (uint32_t)memo;
    uint32_t out = path_class(c, path, keep_globals);
    base_hashmap_put(&c->path_classes, key, out);
    return out;
}

static uint32_t path_class(dl_ctx *c, uint32_t path, bool keep_globals)
{
    uint32_t chain[DL_MAX_DEPTH + 2], n = 0;
    bool deref = false;
    for (uint32_t q = path; q != DL_NONE && n < DL_MAX_DEPTH + 2; q = c->paths.data[q].parent) {
        chain[n++] = q;
        deref |= c->paths.data[q].kind == DL_SEL_DEREF;
    }
    dl_path_kind root = (dl_path_kind)c->paths.data[chain[n - 1]].kind;
    if (keep_globals && root == DL_BASE_GLOBAL && !deref)
        return path;
    uint32_t last = n; /* chain index of the last field selector */
    for (uint32_t k = 0; k + 1 < n && last == n; k++)
        if (c->paths.data[chain[k]].kind == DL_SEL_FIELD)
            last = k;
    uint32_t out = dl_path_base(c, DL_BASE_CLASS, 0, 0);
    if (last == n) /* no field: renaming may make it any path, so it stays (a class: any) */
        return root == DL_BASE_CLASS ? out : path;
    for (uint32_t k = last + 1; k-- > 0;) {
        const dl_path p = c->paths.data[chain[k]];
        out = dl_path_sel(c, out, (dl_path_kind)p.kind, p.a, p.b);
    }
    return out;
}

/* A lock stored in a local variable's own storage (no dereference on the
 * way): a new object for every activation of the function. */
bool dl_path_is_local_object(const dl_ctx *c, uint32_t path, const ir_func **owner)
{
    for (; path != DL_NONE; path = c->paths.data[path].parent) {
        const dl_path *p = &c->paths.data[path];
        if (p->kind == DL_SEL_DEREF || p->kind == DL_SEL_STAR)
            return false;
        if (p->kind == DL_BASE_LOCAL) {
            if (owner)
                *owner = c->prog->funcs[p->a];
            return true;
        }
    }
    return false;
}

uint64_t dl_field_key(const dl_ctx *c, uint32_t path)
{
    const dl_path *p = &c->paths.data[path];
    if (p->kind != DL_SEL_FIELD)
        return 0;
    const ir_type *t = (const ir_type *)(uintptr_t)p->b;
    if (!t || !t->tag)
        return 0; /* anonymous structs: too weak a key */
    uint64_t k = base_hash64((uint64_t)t->tag * 1000003u + p->a);
    return k == BASE_HASHMAP_EMPTY ? 1 : k;
}

/* Whether a path names one object at the time it is read: no element at
 * an unknown index, no fold, no class and no call's result on it (two
 * calls may return two objects). */
static bool path_definite(const dl_ctx *c, uint32_t path)
{
    for (; path != DL_NONE; path = c->paths.data[path].parent) {
        dl_path_kind k = (dl_path_kind)c->paths.data[path].kind;
        if (k == DL_SEL_ANY || k == DL_SEL_TRUNC || k == DL_SEL_STAR || k == DL_BASE_CLASS ||
            k == DL_BASE_RET)
            return false;
    }
    return true;
}

/* The link from the object of lock `from` to that of lock `to` (the class
 * path `(any).g`), or DL_NONE. */
static uint32_t path_link(dl_ctx *c, uint32_t held, uint32_t wanted)
{
    /* the lock's own fields, the same in both (`.lock`, `.sync.m`) */
    uint32_t pa = held, pb = wanted, inner = DL_NONE;
    while (pa != DL_NONE && pb != DL_NONE && c->paths.data[pa].kind == DL_SEL_FIELD &&
           c->paths.data[pb].kind == DL_SEL_FIELD && c->paths.data[pa].a == c->paths.data[pb].a &&
           c->paths.data[pa].b == c->paths.data[pb].b) {
        inner = pa;
        pa = c->paths.data[pa].parent;
        pb = c->paths.data[pb].parent;
    }
    if (inner == DL_NONE || pa == DL_NONE || pb == DL_NONE || !path_definite(c, pa))
        return DL_NONE;
    uint64_t rec = c->paths.data[inner].b, g = 0;
    if (!rec)
        return DL_NONE;
    /* the wanted object: the held one's, then one or more `->g` */
    unsigned steps = 0;
    while (pb != pa) {
        const dl_path *d = &c->paths.data[pb];
        if (d->kind != DL_SEL_DEREF || d->parent == DL_NONE)
            return DL_NONE;
        const dl_path *f = &c->paths.data[d->parent];
        if (f->kind != DL_SEL_FIELD || f->b != rec || (steps && f->a != g))
            return DL_NONE;
        g = f->a;
        steps++;
        pb = f->parent;
        if (pb == DL_NONE)
            return DL_NONE;
    }
    if (!steps)
        return DL_NONE;
    return dl_path_sel(c, dl_path_base(c, DL_BASE_CLASS, 0, 0), DL_SEL_FIELD, g, rec);
}

uint32_t dl_path_anchor(dl_ctx *c, uint32_t lock, uint32_t want, uint32_t *link)
{
    *link = DL_NONE;
    if (lock == DL_NONE)
        return DL_NONE;
    uint32_t own[DL_MAX_DEPTH + 2], n = 0, o = lock;
    while (o != DL_NONE && c->paths.data[o].kind == DL_SEL_FIELD && n < DL_MAX_DEPTH + 2) {
        own[n++] = o;
        o = c->paths.data[o].parent;
    }
    if (!n || o == DL_NONE)
        return DL_NONE;
    uint64_t rec = c->paths.data[own[n - 1]].b, g = 0;
    const dl_path *w = want != DL_NONE ? &c->paths.data[want >> 1] : NULL;
    if (!rec || (w && w->b != rec))
        return DL_NONE;
    unsigned steps = 0;
    for (;;) {
        const dl_path *d = &c->paths.data[o];
        if (d->kind != DL_SEL_DEREF || d->parent == DL_NONE)
            break;
        const dl_path *f = &c->paths.data[d->parent];
        if (f->kind != DL_SEL_FIELD || f->b != rec || (steps && f->a != g) || (w && f->a != w->a) ||
            f->parent == DL_NONE)
            break;
        g = f->a;
        steps++;
        o = f->parent;
    }
    if ((!steps && !w) || !path_definite(c, o))
        return DL_NONE;
    if (!steps)
        return *link = want, lock;
    for (uint32_t i = n; i-- > 0;) {
        uint64_t fa = c->paths.data[own[i]].a, fb = c->paths.data[own[i]].b;
        o = dl_path_sel(c, o, DL_SEL_FIELD, fa, fb);
    }
    *link = dl_path_sel(c, dl_path_base(c, DL_BASE_CLASS, 0, 0), DL_SEL_FIELD, g, rec) << 1;
    return o;
}

uint32_t dl_path_chain(dl_ctx *c, uint32_t held, uint32_t wanted)
{
    if (held == DL_NONE || wanted == DL_NONE || held == wanted)
        return DL_NONE;
    uint32_t g = path_link(c, held, wanted);
    if (g != DL_NONE)
        return g << 1;
    g = path_link(c, wanted, held);
    return g == DL_NONE ? DL_NONE : g << 1 | 1u;
}

bool dl_lock_is_recursive(const dl_ctx *c, uint32_t lock)
{
    if (c->opts->no_recursive)
        return false;
    uint64_t v;
    if (base_hashmap_get(&c->rec_locks, lock, &v))
        return true;
    uint64_t fk = dl_field_key(c, lock);
    return fk && base_hashmap_get(&c->rec_fields, fk, &v) &&
           !base_hashmap_get(&c->nonrec_fields, fk, &v);
}

/* --- sets --- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Interns a sorted, duplicate-free array. */
static uint32_t set_intern_sorted(dl_ctx *c, const uint32_t *xs, uint32_t n)
{
    uint64_t h = base_hash64(n + 0x51ull);
    for (uint32_t i = 0; i < n; i++)
        h = base_hash64(h ^ xs[i]);
    dl_tuple key = { h, n, 0, 0 };
    for (;;) {
        bool is_new;
        uint32_t id = dl_tuple_intern(&c->sets_t, key, &is_new);
        if (is_new) {
            uint32_t *copy = base_arena_alloc(&c->arena, (n ? n : 1) * sizeof *copy);
            if (n)
                memcpy(copy, xs, n * sizeof *xs);
            base_vec_push(&c->sets, copy);
            base_vec_push(&c->set_len, n);
            return id;
        }
        if (c->set_len.data[id] == n &&
            (n == 0 || memcmp(c->sets.data[id], xs, n * sizeof *xs) == 0))
            return id;
        key.c++; /* a hash collision between different sets: next slot */
    }
}

uint32_t dl_set(dl_ctx *c, const uint32_t *xs, uint32_t n)
{
    if (n == 0)
        return set_intern_sorted(c, NULL, 0);
    uint32_t buf[16] = { 0 };
    uint32_t *tmp = n <= 16 ? buf : base_xmalloc(n * sizeof *tmp);
    memcpy(tmp, xs, n * sizeof *xs);
    qsort(tmp, n, sizeof *tmp, cmp_u32);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || tmp[m - 1] != tmp[i])
            tmp[m++] = tmp[i];
    uint32_t id = set_intern_sorted(c, tmp, m);
    if (tmp != buf)
        free(tmp);
    return id;
}

bool dl_set_has(const dl_ctx *c, uint32_t s, uint32_t x)
{
    const uint32_t *d = c->sets.data[s];
    uint32_t lo = 0, hi = c->set_len.data[s];
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d[mid] == x)
            return true;
        if (d[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

typedef enum { OP_UNION, OP_INTER, OP_MINUS } set_op;

static uint32_t set_merge(dl_ctx *c, uint32_t s, uint32_t t, set_op op)
{
    if (s == t)
        return op == OP_MINUS ? c->empty : s;
    const uint32_t *a = c->sets.data[s], *b = c->sets.data[t];
    uint32_t na = c->set_len.data[s], nb = c->set_len.data[t];
    if (op == OP_UNION && nb == 0)
        return s;
    if (op == OP_UNION && na == 0)
        return t;
    if (op == OP_INTER && (na == 0 || nb == 0))
        return c->empty;
    if (op == OP_MINUS && (na == 0 || nb == 0))
        return s;
    uint32_t buf[32] = { 0 };
    uint32_t cap = na + nb;
    uint32_t *out = cap <= 32 ? buf : base_xmalloc(cap * sizeof *out);
    uint32_t i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        if (j >= nb || (i < na && a[i] < b[j])) {
            if (op != OP_INTER)
                out[n++] = a[i];
            i++;
        } else if (i >= na || b[j] < a[i]) {
            if (op == OP_UNION)
                out[n++] = b[j];
            j++;
        } else {
            if (op != OP_MINUS)
                out[n++] = a[i];
            i++;
            j++;
        }
    }
    uint32_t id = set_intern_sorted(c, out, n);
    if (out != buf)
        free(out);
    return id;
}

uint32_t dl_set_union(dl_ctx *c, uint32_t s, uint32_t t) { return set_merge(c, s, t, OP_UNION); }
uint32_t dl_set_inter(dl_ctx *c, uint32_t s, uint32_t t) { return set_merge(c, s, t, OP_INTER); }
uint32_t dl_set_minus(dl_ctx *c, uint32_t s, uint32_t t) { return set_merge(c, s, t, OP_MINUS); }

uint32_t dl_set_add(dl_ctx *c, uint32_t s, uint32_t x)
{
    if (dl_set_has(c, s, x))
        return s;
    return dl_set_union(c, s, dl_set(c, &x, 1));
}

/* --- traces and instances --- */

uint32_t dl_trace_mk(dl_ctx *c, dl_trace_kind k, const ir_func *f, base_srcloc loc, uint32_t next)
{
    bool is_new;
    dl_tuple key = { (uint64_t)k << 32 | next, (uint64_t)(uintptr_t)f,
                     (uint64_t)(uintptr_t)loc.file, (uint64_t)loc.line << 32 | loc.col };
    uint32_t id = dl_tuple_intern(&c->traces_t, key, &is_new);
    if (is_new) {
        dl_trace t = { k, f, loc, next };
        base_vec_push(&c->traces, t);
    }
    return id;
}

uint32_t dl_inst_mk(dl_ctx *c, const dl_inst *i)
{
    bool is_new;
    dl_tuple key = { (uint64_t)(uintptr_t)i->site, (uint64_t)i->callee << 32 | i->arg, i->handle,
                     (uint64_t)(uintptr_t)i->site_func };
    uint32_t id = dl_tuple_intern(&c->insts_t, key, &is_new);
    if (is_new)
        base_vec_push(&c->insts, *i);
    return id;
}

uint32_t dl_func_index(const dl_ctx *c, const ir_func *f)
{
    uint64_t v;
    if (f && base_hashmap_get(&c->func_index, (uint64_t)(uintptr_t)f, &v))
        return (uint32_t)v;
    return DL_NONE;
}

/* --- condition atoms --- */

uint32_t dl_atom_mk(dl_ctx *c, dl_cmp op, uint32_t x, uint32_t y)
{
    if ((op == DL_CMP_EQ || op == DL_CMP_NE) && y < x) {
        uint32_t t = x;
        x = y;
        y = t;
    }
    bool is_new;
    dl_tuple key = { op, x, y, 0 };
    uint32_t id = dl_tuple_intern(&c->atoms_t, key, &is_new);
    if (is_new) {
        dl_atom a = { op, x, y };
        base_vec_push(&c->atoms, a);
    }
    return id;
}

uint32_t dl_atom_neg(dl_ctx *c, uint32_t atom)
{
    dl_atom a = c->atoms.data[atom];
    switch (a.op) {
    case DL_CMP_LT: return dl_atom_mk(c, DL_CMP_LE, a.y, a.x);
    case DL_CMP_LE: return dl_atom_mk(c, DL_CMP_LT, a.y, a.x);
    case DL_CMP_EQ: return dl_atom_mk(c, DL_CMP_NE, a.x, a.y);
    case DL_CMP_NE: return dl_atom_mk(c, DL_CMP_EQ, a.x, a.y);
    case DL_CMP_TRUE: return dl_atom_mk(c, DL_CMP_FALSE, a.x, a.x);
    case DL_CMP_FALSE: return dl_atom_mk(c, DL_CMP_TRUE, a.x, a.x);
    case DL_CMP_SINCE:
    case DL_CMP_AFTER: break; /* markers, never negated */
    }
    return atom;
}

#define MAX_TERMS 24

bool dl_atoms_sat(const dl_ctx *c, uint32_t set)
{
    uint32_t n = dl_set_len(c, set);
    if (n < 2)
        return true;
    uint32_t terms[MAX_TERMS], nt = 0;
    /* le[i][j]: i <= j derived; lt[i][j]: i < j derived */
    bool le[MAX_TERMS][MAX_TERMS], lt[MAX_TERMS][MAX_TERMS];
    memset(le, 0, sizeof le);
    memset(lt, 0, sizeof lt);
    for (uint32_t i = 0; i < n; i++) {
        const dl_atom *a = &c->atoms.data[dl_set_data(c, set)[i]];
        if (a->op == DL_CMP_TRUE || a->op == DL_CMP_FALSE || a->op == DL_CMP_SINCE ||
            a->op == DL_CMP_AFTER)
            continue; /* not an order between values (dl_internal.h) */
        uint32_t ix[2] = { UINT32_MAX, UINT32_MAX }, v[2] = { a->x, a->y };
        for (int k = 0; k < 2; k++) {
            for (uint32_t t = 0; t < nt; t++)
                if (terms[t] == v[k])
                    ix[k] = t;
            if (ix[k] == UINT32_MAX) {
                if (nt == MAX_TERMS)
                    return true; /* too big to decide: assume it can hold */
                terms[nt] = v[k];
                ix[k] = nt++;
            }
        }
        switch (a->op) {
        case DL_CMP_LT: lt[ix[0]][ix[1]] = le[ix[0]][ix[1]] = true; break;
        case DL_CMP_LE: le[ix[0]][ix[1]] = true; break;
        case DL_CMP_EQ: le[ix[0]][ix[1]] = le[ix[1]][ix[0]] = true; break;
        case DL_CMP_NE: break;
        default: break;
        }
    }
    for (uint32_t i = 0; i < nt; i++)
        le[i][i] = true;
    for (uint32_t k = 0; k < nt; k++)
        for (uint32_t i = 0; i < nt; i++)
            for (uint32_t j = 0; j < nt; j++)
                if (le[i][k] && le[k][j]) {
                    le[i][j] = true;
                    if (lt[i][k] || lt[k][j])
                        lt[i][j] = true;
                }
    for (uint32_t i = 0; i < nt; i++)
        if (lt[i][i])
            return false;
    for (uint32_t i = 0; i < n; i++) {
        const dl_atom *a = &c->atoms.data[dl_set_data(c, set)[i]];
        if (a->op != DL_CMP_NE)
            continue;
        uint32_t x = 0, y = 0;
        for (uint32_t t = 0; t < nt; t++) {
            if (terms[t] == a->x)
                x = t;
            if (terms[t] == a->y)
                y = t;
        }
        if (le[x][y] && le[y][x])
            return false;
    }
    return true;
}

/* --- renaming --- */

void dl_rename_init(dl_rename *r, const ir_func *callee, const uint32_t *actuals, uint32_t n)
{
    memset(r, 0, sizeof *r);
    r->callee = callee;
    r->actuals = actuals;
    r->nactuals = n;
    base_hashmap_init(&r->memo_path);
    base_hashmap_init(&r->bound);
    base_hashmap_init(&r->memo_instset);
}

void dl_rename_free(dl_rename *r)
{
    base_hashmap_free(&r->memo_path);
    base_hashmap_free(&r->bound);
    base_hashmap_free(&r->memo_instset);
}

static uint32_t rename_path_rec(dl_ctx *c, dl_rename *r, uint32_t path, bool *via_formal);

uint32_t dl_rename_path(dl_ctx *c, dl_rename *r, uint32_t path)
{
    bool via;
    return rename_path_rec(c, r, path, &via);
}

/* The value a thread binding gives the pointer at path (DL_NONE: none). */
static uint32_t path_bound(const dl_rename *r, uint32_t path)
{
    for (uint32_t i = 0; i < r->ngbind; i++)
        if (r->gbind[2 * i] == path)
            return r->gbind[2 * i + 1];
    return DL_NONE;
}

bool dl_rename_was_bound(const dl_rename *r, uint32_t renamed)
{
    uint64_t v;
    return renamed != DL_NONE && base_hashmap_get(&r->bound, renamed, &v);
}

/* A path rooted at formal i: the formal variable's own storage when no
 * dereference follows (a by-value parameter: a copy local to the callee),
 * else the actual's value dereferenced. via_formal says the base was a
 * formal (the caller needs that the first selector be a dereference). */
static uint32_t rename_path_rec(dl_ctx *c, dl_rename *r, uint32_t path, bool *via_formal)
{
    uint64_t memo;
    if (base_hashmap_get(&r->memo_path, path, &memo)) {
        *via_formal = false;
        return (uint32_t)memo;
    }
    const dl_path p = c->paths.data[path];
    uint32_t out;
    *via_formal = false;
    if (p.parent == DL_NONE) {
        if (p.kind == DL_BASE_PARAM) {
            /* The formal variable itself (its storage) is callee-local. */
            uint32_t fi = dl_func_index(c, r->callee);
            out = dl_path_base(c, DL_BASE_LOCAL, fi, 0x80000000u | p.a);
            *via_formal = true;
        } else {
            out = path;
        }
    } else {
        const dl_path *par = &c->paths.data[p.parent];
        if (p.kind == DL_SEL_DEREF && par->parent == DL_NONE && par->kind == DL_BASE_PARAM) {
            uint32_t v = par->a < r->nactuals ? r->actuals[par->a] : DL_NONE;
            if (v != DL_NONE) {
                out = dl_deref(c, v);
            } else {
                uint32_t fi = dl_func_index(c, r->callee);
                uint32_t b = dl_path_base(c, DL_BASE_FORMAL, fi, par->a);
                out = dl_path_sel(c, b, DL_SEL_DEREF, 0, 0);
            }
        } else {
            bool via;
            uint32_t np = rename_path_rec(c, r, p.parent, &via);
            uint32_t bv = np != DL_NONE && p.kind == DL_SEL_DEREF && r->ngbind ? path_bound(r, np)
                                                                               : DL_NONE;
            if (bv != DL_NONE)
                out = dl_deref(c, bv);
            else
                out = np == DL_NONE ? DL_NONE : dl_path_sel(c, np, (dl_path_kind)p.kind, p.a, p.b);
            if (out != DL_NONE && (bv != DL_NONE || dl_rename_was_bound(r, np)))
                base_hashmap_put(&r->bound, out, 1);
        }
    }
    base_hashmap_put(&r->memo_path, path, out);
    return out;
}

uint32_t dl_rename_value(dl_ctx *c, dl_rename *r, uint32_t value)
{
    if (value == DL_NONE)
        return DL_NONE;
    uint32_t path = dl_val_path(value);
    const dl_path *p = &c->paths.data[path];
    if (!dl_val_is_addr(value) && p->parent == DL_NONE && p->kind == DL_BASE_PARAM)
        return p->a < r->nactuals ? r->actuals[p->a] : DL_NONE; /* the formal's value */
    uint32_t np = dl_rename_path(c, r, path);
    if (np == DL_NONE)
        return DL_NONE;
    return dl_val_is_addr(value) ? dl_val_addr(np) : dl_val_load(np);
}

uint32_t dl_rename_lockset(dl_ctx *c, dl_rename *r, uint32_t set, bool modes)
{
    uint32_t n = dl_set_len(c, set);
    if (n == 0)
        return set;
    const uint32_t *d = dl_set_data(c, set);
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp), m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lock = modes ? d[i] >> 1 : d[i];
        uint32_t nl = dl_rename_path(c, r, lock);
        if (nl != DL_NONE)
            tmp[m++] = modes ? (nl << 1 | (d[i] & 1u)) : nl;
    }
    uint32_t id = dl_set(c, tmp, m);
    free(tmp);
    return id;
}

uint32_t dl_rename_valset(dl_ctx *c, dl_rename *r, uint32_t set)
{
    uint32_t n = dl_set_len(c, set);
    const uint32_t *d = dl_set_data(c, set);
    uint32_t *tmp = base_xmalloc((n ? n : 1) * sizeof *tmp), m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = dl_rename_value(c, r, d[i]);
        if (v != DL_NONE)
            tmp[m++] = v;
    }
    uint32_t id = dl_set(c, tmp, m);
    free(tmp);
    return id;
}

uint32_t dl_rename_inst(dl_ctx *c, dl_rename *r, uint32_t inst)
{
    dl_inst i = c->insts.data[inst];
    i.callee = dl_rename_value(c, r, i.callee);
    if (i.arg != DL_NONE)
        i.arg = dl_rename_value(c, r, i.arg);
    if (i.handle != DL_NONE)
        i.handle = dl_rename_path(c, r, i.handle);
    return dl_inst_mk(c, &i);
}

uint32_t dl_widen_value(dl_ctx *c, uint32_t v)
{
    if (v == DL_NONE)
        return v;
    uint32_t k = dl_path_class(c, dl_val_path(v), true);
    return dl_val_is_addr(v) ? dl_val_addr(k) : dl_val_load(k);
}

uint32_t dl_widen_inst(dl_ctx *c, uint32_t inst)
{
    dl_inst i = c->insts.data[inst];
    bool known = i.callee != DL_NONE && dl_val_is_addr(i.callee) &&
                 c->paths.data[dl_val_path(i.callee)].kind == DL_BASE_FUNC &&
                 c->paths.data[dl_val_path(i.callee)].parent == DL_NONE;
    if (!known)
        i.callee = dl_val_load(dl_path_base(c, DL_BASE_CLASS, 0, 0));
    i.arg = dl_widen_value(c, i.arg);
    i.handle = DL_NONE;
    return dl_inst_mk(c, &i);
}

uint32_t dl_widen_instset(dl_ctx *c, uint32_t set)
{
    uint64_t memo;
    if (base_hashmap_get(&c->widened_instsets, set, &memo))
        return (uint32_t)memo;
    uint32_t n = dl_set_len(c, set);
    uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = dl_widen_inst(c, dl_set_data(c, set)[i]);
    uint32_t out = dl_set(c, tmp, n);
    free(tmp);
    base_hashmap_put(&c->widened_instsets, set, out);
    return out;
}

uint32_t dl_rename_atomset(dl_ctx *c, dl_rename *r, uint32_t set)
{
    uint32_t n = dl_set_len(c, set);
    if (n == 0)
        return set;
    const uint32_t *d = dl_set_data(c, set);
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp), m = 0;
    for (uint32_t i = 0; i < n; i++) {
        dl_atom a = c->atoms.data[d[i]];
        uint32_t x = dl_rename_value(c, r, a.x), y = dl_rename_value(c, r, a.y);
        if (x != DL_NONE && y != DL_NONE)
            tmp[m++] = dl_atom_mk(c, a.op, x, y);
    }
    uint32_t id = dl_set(c, tmp, m);
    free(tmp);
    return id;
}

uint32_t dl_rename_instset(dl_ctx *c, dl_rename *r, uint32_t set)
{
    uint32_t n = dl_set_len(c, set);
    if (n == 0)
        return set;
    uint64_t memo;
    if (base_hashmap_get(&r->memo_instset, set, &memo))
        return (uint32_t)memo;
    const uint32_t *d = dl_set_data(c, set);
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = dl_rename_inst(c, r, d[i]);
    uint32_t id = dl_set(c, tmp, n);
    free(tmp);
    base_hashmap_put(&r->memo_instset, set, id);
    return id;
}

/* --- names --- */

static const char *func_name(const dl_ctx *c, uint64_t fi)
{
    return base_sym_str(c->prog->syms, c->prog->funcs[fi]->name);
}

static void print_base(const dl_ctx *c, base_strbuf *out, const dl_path *p)
{
    const ir_program *prog = c->prog;
    switch ((dl_path_kind)p->kind) {
    case DL_BASE_GLOBAL:
        base_strbuf_puts(out, base_sym_str(prog->syms, prog->globals[p->a]->name));
        break;
    case DL_BASE_PARAM:
        base_strbuf_printf(out, "param%u", (unsigned)p->a);
        break;
    case DL_BASE_LOCAL: {
        const ir_func *f = prog->funcs[p->a];
        const char *name = "?";
        if (p->b & 0x80000000u) {
            uint32_t i = (uint32_t)(p->b & 0x7fffffffu);
            if (i < f->nparams)
                name = base_sym_str(prog->syms, f->params[i]->name);
        } else if (p->b < f->nlocals) {
            name = base_sym_str(prog->syms, f->locals[p->b]->name);
        }
        base_strbuf_printf(out, "%s:%s", func_name(c, p->a), name);
        break;
    }
    case DL_BASE_FUNC:
        base_strbuf_puts(out, func_name(c, p->a));
        break;
    case DL_BASE_RET:
        base_strbuf_printf(out, "%s()", func_name(c, p->a));
        break;
    case DL_BASE_CLASS:
        base_strbuf_puts(out, "(any)");
        break;
    case DL_BASE_FORMAL: {
        const ir_func *f = prog->funcs[p->a];
        const char *name = p->b < f->nparams ? base_sym_str(prog->syms, f->params[p->b]->name) : "?";
        base_strbuf_printf(out, "%s:%s", func_name(c, p->a), name);
        break;
    }
    default:
        base_strbuf_puts(out, "?");
    }
}

/* Prints a path as C: FIELD after DEREF is `->`, a dereference at the end
 * is `*p`. */
void dl_print_path(const dl_ctx *c, base_strbuf *out, uint32_t path)
{
    uint32_t chain[DL_MAX_DEPTH + 2];
    uint32_t n = 0;
    for (uint32_t q = path; q != DL_NONE && n < DL_MAX_DEPTH + 2; q = c->paths.data[q].parent)
        chain[n++] = q;
    if (n == 0) { /* DL_NONE: no path at all */
        base_strbuf_puts(out, "?");
        return;
    }
    /* chain[n-1] is the base. Count trailing dereferences to print as '*'. */
    uint32_t stars = 0;
    while (stars < n - 1 && c->paths.data[chain[stars]].kind == DL_SEL_DEREF)
        stars++;
    for (uint32_t i = 0; i < stars; i++)
        base_strbuf_putc(out, '*');
    print_base(c, out, &c->paths.data[chain[n - 1]]);
    for (uint32_t k = n - 1; k-- > stars;) {
        const dl_path *p = &c->paths.data[chain[k]];
        switch ((dl_path_kind)p->kind) {
        case DL_SEL_DEREF:
            if (k > stars && (c->paths.data[chain[k - 1]].kind == DL_SEL_INDEX ||
                              c->paths.data[chain[k - 1]].kind == DL_SEL_ANY)) {
                /* p[i]: the index prints itself */
            } else if (k > stars && c->paths.data[chain[k - 1]].kind == DL_SEL_FIELD) {
                base_strbuf_puts(out, "->");
                const dl_path *f = &c->paths.data[chain[k - 1]];
                const ir_type *t = (const ir_type *)(uintptr_t)f->b;
                if (t && f->a < t->nfields)
                    base_strbuf_puts(out, base_sym_str(c->prog->syms, t->fields[f->a].name));
                else
                    base_strbuf_printf(out, "f%u", (unsigned)f->a);
                k--;
            } else {
                base_strbuf_puts(out, "[0]");
            }
            break;
        case DL_SEL_FIELD: {
            const ir_type *t = (const ir_type *)(uintptr_t)p->b;
            base_strbuf_putc(out, '.');
            if (t && p->a < t->nfields)
                base_strbuf_puts(out, base_sym_str(c->prog->syms, t->fields[p->a].name));
            else
                base_strbuf_printf(out, "f%u", (unsigned)p->a);
            break;
        }
        case DL_SEL_INDEX:
            base_strbuf_printf(out, "[%lld]", (long long)(int64_t)p->a);
            break;
        case DL_SEL_ANY:
            base_strbuf_puts(out, "[*]");
            break;
        case DL_SEL_TRUNC:
            base_strbuf_puts(out, "...");
            break;
        case DL_SEL_STAR: {
            const ir_type *t = (const ir_type *)(uintptr_t)p->b;
            if (t && p->a < t->nfields)
                base_strbuf_printf(out, "(->%s)*", base_sym_str(c->prog->syms, t->fields[p->a].name));
            else
                base_strbuf_puts(out, "(...)*");
            break;
        }
        default:
            break;
        }
    }
}
