/* dl_threads: from summaries to findings.
 *
 * 1. The thread tree: roots are the entry points; every thread start in a
 *    node's summary (renamed with the node's argument, so all names are in
 *    the roots' namespace) is a child node. A node is "multi" when more than
 *    one instance may run at once (started again while an earlier start may
 *    still run, or its parent is multi, or it is a library-mode root).
 * 2. Two dependencies may happen at the same time when they come from
 *    different nodes that may run concurrently: an ancestor's dependency
 *    recorded while the child's branch was started and not joined (its
 *    `par` set), siblings started while the other was running (the `live`
 *    set at the start), or two roots in library mode; or from one multi node.
 * 3. The lock graph (one edge per held/wanted pair) is searched for
 *    elementary cycles, shortest first; a cycle is a deadlock when each edge
 *    can take a dependency such that all are pairwise concurrent, no common
 *    guard (gate lock) protects them all, and every waiting thread really
 *    blocks (read/read on an rwlock does not). A cycle whose lock set
 *    contains an already reported one is not reported again.
 *
 * Invariant: findings are produced in a deterministic order (cycle search
 * follows lock ids, which follow the order of the program). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deadlock/dl_internal.h"
#include "deadlock/dl_scc.h"

typedef struct tnode {
    uint32_t func;
    uint32_t arg;
    int parent;
    uint32_t inst;
    uint32_t live;
    bool multi;
    uint32_t spawn_trace;
    uint32_t depth;
    uint32_t root;
    uint32_t gb_start, gb_len; /* its bindings: pairs in finder.gbinds */
} tnode;

typedef struct tdep {
    uint32_t node;
    dl_dep d;
    bool bound; /* a lock named through a binding of the thread's start */
} tdep;

typedef struct finder {
    dl_ctx *c;
    BASE_VEC(tnode) nodes;
    BASE_VEC(tdep) deps;
    BASE_VEC(dl_self) selfs;
    BASE_VEC(uint32_t) self_node;
    BASE_VEC(uint32_t) gbinds; /* (path, value) pairs of the nodes */
    bool library;
    bool programs; /* the roots are the mains of different programs: never concurrent */
    base_hashmap classes; /* lock classes some widened summary uses (dl_summary.c) */
    BASE_VEC(uint32_t) link_cycles; /* (set of lock nodes, link) pairs: cycles ordered along a link */
} finder;

/* A lock as the lock graph names it: its class when a widened summary
 * named some lock by that class, so the concrete names of its objects in
 * other summaries meet the class (every cycle of objects is a cycle of
 * their nodes). */
static uint32_t collapse(finder *fd, uint32_t lock)
{
    if (lock == DL_NONE || fd->classes.count == 0)
        return lock;
    uint32_t k = dl_path_class(fd->c, lock, false);
    uint64_t v;
    return k != lock && base_hashmap_get(&fd->classes, k, &v) ? k : lock;
}

static uint32_t guards_kept(finder *fd, uint32_t guards);

/* An array-wide lock (a class is abstract too, and says so itself). */
static bool array_wide(const dl_ctx *c, uint32_t lock)
{
    return dl_path_has_any(c, lock) && !dl_path_is_class(c, lock);
}

/* A lock named through a class (a widened summary, or a thread started
 * with a widened argument: `(any).coder->mutex`), normalised to its class
 * and noted; others as they are. */
static uint32_t note_class(finder *fd, uint32_t lock)
{
    if (!dl_path_is_class(fd->c, lock))
        return lock;
    lock = dl_path_class(fd->c, lock, false);
    base_hashmap_put(&fd->classes, lock, 1);
    return lock;
}

/* After every thread's effects are in: the classes used, then every
 * lock by its class where a class is used. */
static void collapse_all(finder *fd)
{
    dl_ctx *c = fd->c;
    for (size_t i = 0; i < fd->deps.len; i++) {
        dl_dep *d = &fd->deps.data[i].d;
        d->a = note_class(fd, d->a >> 1) << 1 | (d->a & 1u);
        d->b = note_class(fd, d->b >> 1) << 1 | (d->b & 1u);
    }
    for (size_t i = 0; i < fd->selfs.len; i++)
        fd->selfs.data[i].lock = note_class(fd, fd->selfs.data[i].lock);
    if (fd->classes.count == 0)
        return;
    size_t keep = 0;
    for (size_t i = 0; i < fd->deps.len; i++) {
        tdep t = fd->deps.data[i];
        uint32_t A = collapse(fd, t.d.a >> 1), B = collapse(fd, t.d.b >> 1);
        if (A == B && !dl_path_is_class(c, A))
            continue;
        t.d.a = A << 1 | (t.d.a & 1u);
        t.d.b = B << 1 | (t.d.b & 1u);
        t.d.guards = guards_kept(fd, t.d.guards);
        fd->deps.data[keep++] = t;
    }
    fd->deps.len = keep;
    for (size_t i = 0; i < fd->selfs.len; i++)
        fd->selfs.data[i].lock = collapse(fd, fd->selfs.data[i].lock);
}

/* The guards of a dependency without the locks collapse() renames. */
static uint32_t guards_kept(finder *fd, uint32_t guards)
{
    dl_ctx *c = fd->c;
    if (fd->classes.count == 0)
        return guards;
    uint32_t n = dl_set_len(c, guards), m = 0;
    uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        if (collapse(fd, dl_set_data(c, guards)[i]) == dl_set_data(c, guards)[i])
            tmp[m++] = dl_set_data(c, guards)[i];
    uint32_t out = m == n ? guards : dl_set(c, tmp, m);
    free(tmp);
    return out;
}

#define MAX_NODES 4096
#define MAX_TREE_DEPTH 8

#define MAX_BINDINGS 16

/* The path of an lvalue of the creating function f as its own summary
 * names it, without a state: a global, a local when `locals` (its storage,
 * or what a pointer local points to), fields and constant elements of
 * those; DL_NONE otherwise. */
static uint32_t site_path(dl_ctx *c, const ir_func *f, const ir_expr *e, bool locals)
{
    while (e->kind == IR_E_CAST)
        e = e->a;
    switch (e->kind) {
    case IR_E_VAR:
        if (e->var->kind == IR_V_GLOBAL)
            return dl_path_base(c, DL_BASE_GLOBAL, e->var->id, 0);
        if (e->var->kind == IR_V_LOCAL && locals)
            return dl_path_base(c, DL_BASE_LOCAL, dl_func_index(c, f), e->var->id);
        return DL_NONE;
    case IR_E_FIELD:
        return dl_path_sel(c, site_path(c, f, e->a, locals), DL_SEL_FIELD, e->field,
                           (uint64_t)(uintptr_t)e->a->type);
    case IR_E_INDEX: {
        const ir_expr *k = e->b;
        while (k->kind == IR_E_CAST)
            k = k->a;
        if (k->kind != IR_E_CONST)
            return DL_NONE;
        return dl_path_sel(c, site_path(c, f, e->a, locals), DL_SEL_INDEX, (uint64_t)k->value, 0);
    }
    case IR_E_DEREF: {
        const ir_expr *q = e->a;
        while (q->kind == IR_E_CAST)
            q = q->a;
        if (q->kind != IR_E_VAR)
            return DL_NONE;
        return dl_path_sel(c, site_path(c, f, q, locals), DL_SEL_DEREF, 0, 0);
    }
    default:
        return DL_NONE;
    }
}

/* The bindings of a thread start: pointers assigned in the straight-line
 * code just before the start statement (no call, no jump into it between),
 * so the creator's value is known there: a pointer global (whose address
 * is never taken), or, when `locals` (the start is in the node's own
 * function, whose namespace the thread's argument is in), a field of a
 * local object or of what a local points to (`j.from = &a`, `job->to =
 * &b`, the object the thread's argument may point to), assigned the
 * address of an object or the value of a variable. Appends (path, value)
 * pairs to fd->gbinds; returns how many pairs. */
static uint32_t site_bindings(finder *fd, const ir_func *f, const ir_stmt *site, bool locals)
{
    dl_ctx *c = fd->c;
    uint32_t at = (uint32_t)(site - f->stmts), n = 0;
    if (at >= f->nstmts)
        return 0;
    uint8_t *target = base_xcalloc(f->nstmts + 1, 1);
    for (uint32_t i = 0; i < f->nstmts; i++)
        if (f->stmts[i].kind == IR_S_GOTO)
            for (uint32_t t = 0; t < f->stmts[i].ntargets; t++)
                target[f->stmts[i].targets[t]] = 1;
    uint32_t seen[MAX_BINDINGS], nseen = 0;
    for (uint32_t i = at; i > 0 && at - i < 64 && !target[i] && n < MAX_BINDINGS; i--) {
        const ir_stmt *t = &f->stmts[i - 1];
        if (t->kind == IR_S_CALL || t->kind == IR_S_RETURN || t->kind == IR_S_THREAD_EXIT ||
            (t->kind == IR_S_GOTO && !t->rhs))
            break;
        if (t->kind != IR_S_ASSIGN || !t->lhs || !t->lhs->type || t->lhs->type->kind != IR_T_PTR)
            continue;
        const ir_expr *l = t->lhs;
        if (l->kind == IR_E_VAR && (l->var->kind != IR_V_GLOBAL || l->var->address_taken))
            continue; /* a pointer variable: a global one only */
        uint32_t lp = site_path(c, f, l, locals);
        if (lp == DL_NONE || dl_path_has_any(c, lp))
            continue;
        bool dup = false;
        for (uint32_t k = 0; k < nseen; k++)
            dup |= seen[k] == lp;
        if (dup || nseen == MAX_BINDINGS)
            continue; /* a later assignment decides */
        seen[nseen++] = lp;
        const ir_expr *r = t->rhs;
        while (r && r->kind == IR_E_CAST)
            r = r->a;
        uint32_t val = DL_NONE;
        if (r && r->kind == IR_E_ADDR) {
            uint32_t p = site_path(c, f, r->a, locals);
            if (p != DL_NONE && !dl_path_has_any(c, p))
                val = dl_val_addr(p);
        } else if (r && r->kind == IR_E_VAR && r->var->type && r->var->type->kind == IR_T_PTR) {
            /* a local copied from another (`p = (T *)t.1` after `t.1 =
             * malloc(...)`): the creator's summary names the first one */
            for (uint32_t j = i - 1; j > 0 && at - j < 64 && r->var->kind == IR_V_LOCAL; j--) {
                const ir_stmt *u = &f->stmts[j - 1];
                if (u->kind == IR_S_CALL || target[j] || !u->lhs || u->lhs->kind != IR_E_VAR ||
                    u->lhs->var != r->var)
                    continue;
                const ir_expr *from = u->kind == IR_S_ASSIGN ? u->rhs : NULL;
                while (from && from->kind == IR_E_CAST)
                    from = from->a;
                if (!from || from->kind != IR_E_VAR || from->var->kind != IR_V_LOCAL)
                    break;
                r = from;
            }
            uint32_t p = site_path(c, f, r, locals);
            if (p != DL_NONE)
                val = dl_val_load(p);
        }
        if (val == DL_NONE)
            continue;
        base_vec_push(&fd->gbinds, lp);
        base_vec_push(&fd->gbinds, val);
        n++;
    }
    free(target);
    return n;
}

static void add_node_effects(finder *fd, uint32_t ni)
{
    dl_ctx *c = fd->c;
    tnode nd = fd->nodes.data[ni];
    const ir_func *f = c->prog->funcs[nd.func];
    const dl_summary *x = &c->sums[nd.func];
    uint32_t actual = nd.arg;
    dl_rename r;
    dl_rename_init(&r, f, &actual, f->nparams ? 1 : 0);
    uint32_t gb[2 * MAX_BINDINGS];
    for (uint32_t i = 0; i < nd.gb_len && i < MAX_BINDINGS; i++) {
        gb[2 * i] = fd->gbinds.data[nd.gb_start + 2 * i];
        gb[2 * i + 1] = fd->gbinds.data[nd.gb_start + 2 * i + 1];
    }
    r.gbind = gb;
    r.ngbind = nd.gb_len < MAX_BINDINGS ? nd.gb_len : MAX_BINDINGS;
    for (size_t i = 0; i < x->deps.len; i++) {
        const dl_dep *d = &x->deps.data[i];
        uint32_t A = dl_rename_path(c, &r, d->a >> 1), B = dl_rename_path(c, &r, d->b >> 1);
        if (A == DL_NONE || B == DL_NONE || (A == B && !dl_path_is_class(c, A)))
            continue;
        tdep td = { ni, { A << 1 | (d->a & 1u), B << 1 | (d->b & 1u), d->ta, d->tb,
                          dl_rename_lockset(c, &r, d->guards, false),
                          dl_rename_instset(c, &r, d->par), dl_rename_atomset(c, &r, d->conds),
                          c->empty, d->may_held, d->chain != DL_NONE ? d->chain : dl_path_chain(c, A, B) },
                    dl_rename_was_bound(&r, A) || dl_rename_was_bound(&r, B) };
        base_vec_push(&fd->deps, td);
    }
    for (size_t i = 0; i < x->selfs.len; i++) {
        dl_self s = x->selfs.data[i];
        s.lock = dl_rename_path(c, &r, s.lock);
        if (s.lock == DL_NONE)
            continue;
        base_vec_push(&fd->selfs, s);
        base_vec_push(&fd->self_node, ni);
    }
    uint32_t rec = dl_rename_lockset(c, &r, x->recursive, false);
    for (uint32_t i = 0; i < dl_set_len(c, rec); i++)
        base_hashmap_put(&c->rec_locks, dl_set_data(c, rec)[i], 1);
    /* children */
    for (size_t i = 0; i < x->spawns.len && fd->nodes.len < MAX_NODES; i++) {
        const dl_spawn *sp = &x->spawns.data[i];
        uint32_t inst = dl_rename_inst(c, &r, sp->inst);
        const dl_inst *in = &c->insts.data[inst];
        uint32_t live = dl_rename_instset(c, &r, sp->live);
        uint32_t targets[64], nt = 0;
        if (in->callee != DL_NONE && dl_val_is_addr(in->callee) &&
            c->paths.data[dl_val_path(in->callee)].kind == DL_BASE_FUNC &&
            c->paths.data[dl_val_path(in->callee)].parent == DL_NONE) {
            targets[nt++] = (uint32_t)c->paths.data[dl_val_path(in->callee)].a;
        } else {
            for (uint32_t k = 0; k < in->site->ncands && nt < 64; k++) {
                uint32_t gi = dl_func_index(c, in->site->cands[k]);
                if (gi != DL_NONE)
                    targets[nt++] = gi;
            }
        }
        for (uint32_t k = 0; k < nt; k++) {
            const ir_func *g = c->prog->funcs[targets[k]];
            if (!g->has_body)
                continue;
            /* recursion in the thread tree: the ancestor runs many times */
            bool again = false;
            for (int an = (int)ni; an >= 0; an = fd->nodes.data[an].parent)
                if (fd->nodes.data[an].func == targets[k] && fd->nodes.data[an].arg == in->arg) {
                    fd->nodes.data[an].multi = true;
                    again = true;
                }
            if (again || nd.depth + 1 >= MAX_TREE_DEPTH)
                continue;
            tnode ch = { targets[k], in->arg, (int)ni, inst, live,
                         sp->multi || fd->nodes.data[ni].multi, sp->trace, nd.depth + 1, nd.root,
                         (uint32_t)fd->gbinds.len, 0 };
            ch.gb_len = site_bindings(fd, in->site_func, in->site, in->site_func == f);
            base_vec_push(&fd->nodes, ch);
        }
    }
    dl_rename_free(&r);
}

/* The child of ancestor `anc` on the path to node n (or -1). */
static int child_towards(const finder *fd, uint32_t anc, uint32_t n)
{
    int prev = -1;
    for (int x = (int)n; x >= 0; x = fd->nodes.data[x].parent) {
        if ((uint32_t)x == anc)
            return prev;
        prev = x;
    }
    return -1;
}

static bool is_ancestor(const finder *fd, uint32_t anc, uint32_t n)
{
    return child_towards(fd, anc, n) >= 0;
}

/* Whether dependency `anc` of an ancestor comes before every dependency
 * `d` of its child node ch: the ancestor started ch (a single instance)
 * while it held L for writing, still holds L at `anc`, and ch had
 * released L (so acquired it, after the ancestor's critical section) on
 * every path before `d`. */
static bool ordered_by_creation(const finder *fd, const tdep *anc, uint32_t ch, const tdep *d)
{
    dl_ctx *c = fd->c;
    const tnode *C = &fd->nodes.data[ch];
    if (d->node != ch || C->multi || C->inst == DL_NONE)
        return false;
    uint32_t h = c->insts.data[C->inst].handle;
    if (h == DL_NONE)
        return false;
    for (uint32_t i = 0; i < dl_set_len(c, anc->d.conds); i++) {
        const dl_atom *x = &c->atoms.data[dl_set_data(c, anc->d.conds)[i]];
        if (x->op != DL_CMP_SINCE || x->y != dl_val_addr(h))
            continue;
        uint32_t after = dl_atom_mk(c, DL_CMP_AFTER, x->x, x->x);
        if (dl_set_has(c, d->d.conds, after))
            return true;
    }
    return false;
}

/* Whether dependencies a (of node na) and b (of node nb) may happen at the
 * same time in different threads. */
static bool concurrent(const finder *fd, const tdep *a, const tdep *b)
{
    dl_ctx *c = fd->c;
    uint32_t na = a->node, nb = b->node;
    const tnode *A = &fd->nodes.data[na], *B = &fd->nodes.data[nb];
    if (na == nb)
        return A->multi;
    if (A->root != B->root) /* library mode: entry points run in any combination; */
        return !fd->programs; /* several programs' mains: different processes */
    /* an ancestor's dependency runs with the descendant when the branch
     * towards it was started and not joined there, or when the ancestor
     * runs more than once (another instance started it) */
    if (is_ancestor(fd, nb, na)) {
        int ch = child_towards(fd, nb, na);
        return B->multi || (dl_set_has(c, b->d.par, fd->nodes.data[ch].inst) &&
                            !ordered_by_creation(fd, b, (uint32_t)ch, a));
    }
    if (is_ancestor(fd, na, nb)) {
        int ch = child_towards(fd, na, nb);
        return A->multi || (dl_set_has(c, a->d.par, fd->nodes.data[ch].inst) &&
                            !ordered_by_creation(fd, a, (uint32_t)ch, b));
    }
    /* the children of the lowest common ancestor */
    int x = (int)na, y = (int)nb;
    while (fd->nodes.data[x].depth > fd->nodes.data[y].depth)
        x = fd->nodes.data[x].parent;
    while (fd->nodes.data[y].depth > fd->nodes.data[x].depth)
        y = fd->nodes.data[y].parent;
    int px = x, py = y;
    while (x != y) {
        px = x, py = y;
        x = fd->nodes.data[x].parent;
        y = fd->nodes.data[y].parent;
    }
    const tnode *X = &fd->nodes.data[px], *Y = &fd->nodes.data[py];
    if (X->inst == Y->inst)
        return X->multi; /* one start, two candidate functions: one runs */
    return dl_set_has(c, X->live, Y->inst) || dl_set_has(c, Y->live, X->inst);
}

/* --- the lock graph --- */

typedef struct ledge {
    uint32_t from, to;
    BASE_VEC(uint32_t) deps; /* indices into fd->deps */
    bool reported;
    uint32_t chain;          /* the link every dependency of the edge follows, or DL_NONE */
} ledge;

typedef struct graph {
    BASE_VEC(uint32_t) locks;  /* node -> lock path */
    base_hashmap lock_ix;      /* lock path -> node */
    BASE_VEC(ledge) edges;
    base_hashmap edge_ix;      /* from << 32 | to -> edge */
    uint32_t **out; uint32_t *nout;
} graph;

static uint32_t g_node(graph *g, uint32_t lock)
{
    uint64_t v;
    if (base_hashmap_get(&g->lock_ix, lock, &v))
        return (uint32_t)v;
    base_vec_push(&g->locks, lock);
    base_hashmap_put(&g->lock_ix, lock, g->locks.len - 1);
    return (uint32_t)(g->locks.len - 1);
}

static void build_graph(finder *fd, graph *g)
{
    memset(g, 0, sizeof *g);
    base_hashmap_init(&g->lock_ix);
    base_hashmap_init(&g->edge_ix);
    for (size_t i = 0; i < fd->deps.len; i++) {
        /* a dependency from an array-wide lock that is held there on some
         * paths only needs two doubts to be wrong at once (the element, and
         * the path: a failed trylock or a flag the analysis does not
         * follow); taken as infeasible (--no-array-may keeps it) */
        const dl_dep *d = &fd->deps.data[i].d;
        if (!fd->c->opts->no_array_may && array_wide(fd->c, d->a >> 1) &&
            !dl_set_has(fd->c, d->guards, d->a >> 1))
            continue;
        /* the same for a dependency from a lock class of a widened summary
         * ((any).f) held on some paths only: the object (the class stands
         * for every object of its field) and the path (in practice each
         * object locked and unlocked in a loop under a flag the analysis
         * does not follow); taken as infeasible (--no-class-may keeps it) */
        if (!fd->c->opts->no_class_may && d->may_held && dl_path_is_class(fd->c, d->a >> 1))
            continue;
        uint32_t a = g_node(g, fd->deps.data[i].d.a >> 1), b = g_node(g, fd->deps.data[i].d.b >> 1);
        uint64_t key = (uint64_t)a << 32 | b, e;
        if (!base_hashmap_get(&g->edge_ix, key, &e)) {
            ledge le = { a, b, { 0 }, false, d->chain };
            base_vec_push(&g->edges, le);
            e = g->edges.len - 1;
            base_hashmap_put(&g->edge_ix, key, e);
        }
        if (g->edges.data[e].chain != d->chain)
            g->edges.data[e].chain = DL_NONE;
        base_vec_push(&g->edges.data[e].deps, (uint32_t)i);
    }
    size_t n = g->locks.len;
    g->nout = base_xcalloc(n + 1, sizeof *g->nout);
    g->out = base_xcalloc(n + 1, sizeof *g->out);
    for (size_t e = 0; e < g->edges.len; e++)
        g->nout[g->edges.data[e].from]++;
    for (size_t v = 0; v < n; v++) {
        g->out[v] = base_xmalloc((g->nout[v] + 1) * sizeof(uint32_t));
        g->nout[v] = 0;
    }
    for (size_t e = 0; e < g->edges.len; e++) {
        uint32_t v = g->edges.data[e].from;
        g->out[v][g->nout[v]++] = (uint32_t)e;
    }
}

static void free_graph(graph *g)
{
    for (size_t v = 0; v < g->locks.len; v++)
        free(g->out[v]);
    free(g->out);
    free(g->nout);
    for (size_t e = 0; e < g->edges.len; e++)
        base_vec_free(&g->edges.data[e].deps);
    base_vec_free(&g->edges);
    base_vec_free(&g->locks);
    base_hashmap_free(&g->lock_ix);
    base_hashmap_free(&g->edge_ix);
}

/* --- choosing one dependency per edge --- */

typedef struct chooser {
    finder *fd;
    graph *g;
    const uint32_t *cyc_edges;
    uint32_t len;
    uint32_t *pick;          /* dep index per edge */
    bool need_concurrency;
    long budget;
    /* the link order: a choice whose every dependency follows one link
     * field is not a finding; ordered is that field (DL_NONE: no such
     * choice), uniform says every dependency of every edge follows it */
    uint32_t ordered;
    bool uniform;
    /* settled: the budget was zeroed because every other choice is ordered
     * the same way; cut: it ran out otherwise (choices left untried) */
    bool settled, cut;
} chooser;

static bool blocks(const tdep *wanting, const tdep *holding)
{
    /* wanting's thread waits for the lock holding's thread holds */
    return !((wanting->d.b & 1u) && (holding->d.a & 1u));
}

/* link: the link field every dependency picked so far follows (DL_NONE:
 * none, or not all the same one). */
static bool choose(chooser *ch, uint32_t k, uint32_t guards, uint32_t conds, uint32_t link)
{
    finder *fd = ch->fd;
    dl_ctx *c = fd->c;
    if (ch->budget-- <= 0) {
        if (!ch->settled)
            ch->cut = true;
        return false;
    }
    if (k == ch->len) {
        if (!c->opts->no_gate_locks && dl_set_len(c, guards) > 0)
            return false;
        const tdep *last = &fd->deps.data[ch->pick[k - 1]], *first = &fd->deps.data[ch->pick[0]];
        if (!blocks(last, first))
            return false;
        /* every thread holds a node's lock and wants that of a node it
         * links to through one field: a cycle of such waits needs a cycle
         * of links (--no-link-order); not where the program stores into
         * the link a value that may close one (dl_links.c) */
        if (link != DL_NONE && !c->opts->no_link_order && !dl_link_may_cycle(c, link)) {
            ch->ordered = link;
            if (ch->uniform) { /* every other choice is ordered the same way */
                ch->budget = 0;
                ch->settled = true;
            }
            return false;
        }
        return true;
    }
    const ledge *e = &ch->g->edges.data[ch->cyc_edges[k]];
    for (size_t i = 0; i < e->deps.len; i++) {
        uint32_t di = e->deps.data[i];
        const tdep *d = &fd->deps.data[di];
        if (k > 0 && !blocks(&fd->deps.data[ch->pick[k - 1]], d))
            continue;
        bool ok = true;
        for (uint32_t j = 0; j < k && ok; j++) {
            const tdep *o = &fd->deps.data[ch->pick[j]];
            if (ch->need_concurrency)
                ok = concurrent(fd, o, d);
        }
        if (!ok)
            continue;
        uint32_t ng = k == 0 ? d->d.guards : dl_set_inter(c, guards, d->d.guards);
        if (!c->opts->no_gate_locks && k > 0 && dl_set_len(c, ng) > 0 && k + 1 == ch->len)
            continue;
        /* value ordering: the branch conditions of all edges must be able
         * to hold together */
        uint32_t nc = dl_set_union(c, conds, d->d.conds);
        if (nc != conds && !dl_atoms_sat(c, nc))
            continue;
        ch->pick[k] = di;
        if (choose(ch, k + 1, ng, nc, k == 0 || d->d.chain == link ? d->d.chain : DL_NONE))
            return true;
    }
    return false;
}

/* Whether a lock is one object per activation of a function that may run
 * more than once at the same time (then no two threads share it). */
static bool activation_local(const finder *fd, uint32_t lock)
{
    const ir_func *owner;
    if (!dl_path_is_local_object(fd->c, lock, &owner))
        return false;
    return strcmp(base_sym_str(fd->c->prog->syms, owner->name), "main") != 0;
}

/* --- conversion to findings --- */

static char *lock_name(dl_ctx *c, uint32_t lock)
{
    base_strbuf b = { 0 };
    dl_print_path(c, &b, lock);
    char *s = base_xstrdup(base_strbuf_cstr(&b));
    base_strbuf_free(&b);
    return s;
}

static void make_chain(dl_ctx *c, uint32_t tr, deadlock_chain *out)
{
    BASE_VEC(deadlock_frame) fr = { 0 };
    for (uint32_t t = tr; t != DL_NONE && fr.len < 64; t = c->traces.data[t].next) {
        const dl_trace *x = &c->traces.data[t];
        deadlock_frame f = { base_xstrdup(base_sym_str(c->prog->syms, x->func->name)),
                             base_xstrdup(x->loc.file ? x->loc.file : "?"), x->loc.line,
                             x->loc.col, x->kind == DL_TR_CALL || x->kind == DL_TR_SPAWN,
                             x->kind == DL_TR_RETAKE };
        base_vec_push(&fr, f);
    }
    out->frames = fr.data;
    out->nframes = fr.len;
}

static void make_edge(finder *fd, const tdep *d, deadlock_edge *e, uint32_t held_tr)
{
    dl_ctx *c = fd->c;
    memset(e, 0, sizeof *e);
    e->held = lock_name(c, d->d.a >> 1);
    e->wanted = lock_name(c, d->d.b >> 1);
    e->held_read = d->d.a & 1u;
    e->wanted_read = d->d.b & 1u;
    const tnode *n = &fd->nodes.data[d->node];
    e->thread = base_xstrdup(base_sym_str(c->prog->syms, c->prog->funcs[n->func]->name));
    if (n->spawn_trace != DL_NONE) {
        uint32_t t = n->spawn_trace;
        const dl_trace *x = &c->traces.data[t];
        char buf[512];
        snprintf(buf, sizeof buf, "%s:%u", x->loc.file ? x->loc.file : "?", x->loc.line);
        e->thread_start = base_xstrdup(buf);
        make_chain(c, n->spawn_trace, &e->start_chain);
    }
    make_chain(c, held_tr, &e->held_chain);
    make_chain(c, d->d.tb, &e->wanted_chain);
    uint32_t gs = d->d.guards;
    e->nguards = dl_set_len(c, gs);
    e->guards = base_xcalloc(e->nguards + 1, sizeof *e->guards);
    for (size_t i = 0; i < e->nguards; i++)
        e->guards[i] = lock_name(c, dl_set_data(c, gs)[i]);
}

/* The innermost frame of a trace is a re-take after a wait. */
static bool trace_is_retake(const dl_ctx *c, uint32_t tr)
{
    while (tr != DL_NONE && c->traces.data[tr].next != DL_NONE)
        tr = c->traces.data[tr].next;
    return tr != DL_NONE && c->traces.data[tr].kind == DL_TR_RETAKE;
}

static bool path_has_fold(const dl_ctx *c, uint32_t path)
{
    for (; path != DL_NONE; path = c->paths.data[path].parent)
        if (c->paths.data[path].kind == DL_SEL_STAR)
            return true;
    return false;
}

static bool formal_rooted(const dl_ctx *c, uint32_t lock)
{
    return c->paths.data[dl_path_root(c, lock)].kind == DL_BASE_FORMAL;
}

/* Why a finding is only a "may": a reason appended ("; " between them),
 * after the lock it is about (NULL: none). */
static void add_why(base_strbuf *why, const char *lock, const char *text)
{
    base_strbuf one = { 0 };
    if (lock)
        base_strbuf_printf(&one, "%s ", lock);
    base_strbuf_puts(&one, text);
    if (!why->len || !strstr(base_strbuf_cstr(why), base_strbuf_cstr(&one))) { /* once */
        if (why->len)
            base_strbuf_puts(why, "; ");
        base_strbuf_puts(why, base_strbuf_cstr(&one));
    }
    base_strbuf_free(&one);
}

static void set_confidence(finder *fd, deadlock_finding *f, const tdep *const *deps, size_t n,
                           bool loop_self)
{
    dl_ctx *c = fd->c;
    base_strbuf why = { 0 };
    bool cls = false;
    for (size_t i = 0; i < n; i++)
        cls |= dl_path_is_class(c, deps[i]->d.a >> 1) || dl_path_is_class(c, deps[i]->d.b >> 1);
    if (cls)
        add_why(&why, NULL,
                "a lock named (any).f stands for every lock in field f of that struct type (a "
                "summary too large was widened)");
    else if (f->abstract_lock) {
        bool folded = false;
        for (size_t i = 0; i < n; i++)
            folded |= path_has_fold(c, deps[i]->d.a >> 1) || path_has_fold(c, deps[i]->d.b >> 1);
        add_why(&why, NULL, folded ? "a folded access path may stand for different objects"
                                   : "an array-wide lock may stand for different elements");
    }
    if (loop_self)
        add_why(&why, NULL, "the loop must go round again");
    for (size_t i = 0; i < n; i++) {
        const dl_dep *d = &deps[i]->d;
        uint32_t A = d->a >> 1, B = d->b >> 1;
        if (f->kind != DEADLOCK_SELF && !dl_set_has(c, d->guards, A) && !dl_path_is_class(c, A))
            add_why(&why, f->edges[i].held, "is held there on some paths only");
        if (trace_is_retake(c, d->tb))
            add_why(&why, f->edges[i].wanted,
                    "is wanted back when a wait returns, which needs a wakeup while another thread holds it");
        for (uint32_t k = 0; k < dl_set_len(c, d->conds); k++) {
            const dl_atom *at = &c->atoms.data[dl_set_data(c, d->conds)[k]];
            const dl_path *fp = &c->paths.data[dl_val_path(at->x)];
            if (at->op != DL_CMP_TRUE || fp->kind != DL_BASE_FUNC || fp->parent != DL_NONE)
                continue;
            const char *fn = base_sym_str(c->prog->syms, c->prog->funcs[fp->a]->name);
            base_strbuf t = { 0 };
            if (at->y != at->x && !dl_val_is_addr(at->x)) {
                base_strbuf_printf(&t, "a call through a pointer reaches %s by the field it is read "
                                   "from, not by its object", fn);
                add_why(&why, NULL, base_strbuf_cstr(&t));
            } else if (dl_val_is_addr(at->x)) {
                base_strbuf_printf(&t, "was passed to %s, which has no body here, and is assumed to stay held",
                                   fn);
                add_why(&why, f->edges[i].held, base_strbuf_cstr(&t));
            } else {
                base_strbuf_printf(&t, "a call through a pointer reaches %s by its type only", fn);
                add_why(&why, NULL, base_strbuf_cstr(&t));
            }
            base_strbuf_free(&t);
        }
        if (deps[i]->bound)
            add_why(&why, NULL,
                    "a lock is named by the pointer a global or a field held when the thread was "
                    "started, assuming the thread reads it before it changes");
        for (int k = 0; k < 2; k++) {
            uint32_t root = dl_path_root(c, k ? B : A);
            if (c->paths.data[root].kind != DL_BASE_RET || (k && root == dl_path_root(c, A)))
                continue;
            add_why(&why, k ? f->edges[i].wanted : f->edges[i].held,
                    "is named by what a call returned, and two calls may return two objects");
        }
        if (formal_rooted(c, A) || formal_rooted(c, B))
            add_why(&why, formal_rooted(c, A) ? f->edges[i].held : f->edges[i].wanted,
                    "is reached through a pointer whose target is not known");
    }
    f->may = why.len > 0;
    f->why = f->may ? base_xstrdup(base_strbuf_cstr(&why)) : NULL;
    base_strbuf_free(&why);
}

typedef BASE_VEC(deadlock_finding) finding_vec;
typedef BASE_VEC(uint32_t) u32_vec;

typedef struct cycle_search {
    finder *fd;
    graph *g;
    finding_vec *out;
    u32_vec reported_sets[2]; /* lock-node sets (as set ids) reported, per kind */
    uint32_t *path_nodes, *path_edges;
    bool *blocked;
    uint32_t *scc;       /* lock node -> strongly connected component */
    long budget;        /* steps of the search for cycles */
    long choice_budget; /* steps of the choice of dependencies, per cycle */
    unsigned maxlen;
    size_t found;
} cycle_search;

static bool superset_of_reported(cycle_search *cs, int kind, uint32_t set)
{
    dl_ctx *c = cs->fd->c;
    for (size_t i = 0; i < cs->reported_sets[kind].len; i++) {
        uint32_t r = cs->reported_sets[kind].data[i];
        if (dl_set_inter(c, r, set) == r)
            return true;
    }
    return false;
}

static void try_cycle(cycle_search *cs, uint32_t len)
{
    finder *fd = cs->fd;
    dl_ctx *c = fd->c;
    uint32_t set = dl_set(c, cs->path_nodes, len);
    bool local = false;
    for (uint32_t i = 0; i < len; i++)
        if (activation_local(fd, cs->g->locks.data[cs->path_nodes[i]]))
            local = true;
    uint32_t *pick = base_xcalloc(len, sizeof *pick);
    bool noted = false;
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 1 && !c->opts->lock_order)
            break;
        if (kind == 0 && local)
            continue;
        if (superset_of_reported(cs, 0, set) || superset_of_reported(cs, kind, set))
            break;
        chooser ch = { fd, cs->g, cs->path_edges, len, pick, kind == 0, cs->choice_budget, DL_NONE, true,
                       false, false };
        for (uint32_t i = 0; i < len; i++) {
            uint32_t ec = cs->g->edges.data[cs->path_edges[i]].chain;
            ch.uniform &= ec != DL_NONE && ec == cs->g->edges.data[cs->path_edges[0]].chain;
        }
        if (!choose(&ch, 0, c->empty, c->empty, DL_NONE)) {
            if (ch.cut) /* a choice of dependencies may close it: not known */
                c->cycles_cut = true;
            if (ch.ordered != DL_NONE && !noted) { /* once per cycle, whichever kind */
                base_vec_push(&fd->link_cycles, set);
                base_vec_push(&fd->link_cycles, ch.ordered);
                noted = true;
            }
            continue;
        }
        deadlock_finding f = { 0 };
        f.kind = kind == 0 ? DEADLOCK_CYCLE : DEADLOCK_LOCK_ORDER;
        f.nedges = len;
        f.edges = base_xcalloc(len, sizeof *f.edges);
        const tdep **used = base_xcalloc(len, sizeof *used);
        for (uint32_t i = 0; i < len; i++) {
            const tdep *d = &fd->deps.data[pick[i]];
            used[i] = d;
            make_edge(fd, d, &f.edges[i], d->d.ta);
            if (array_wide(c, d->d.a >> 1) || array_wide(c, d->d.b >> 1))
                f.abstract_lock = true;
            cs->g->edges.data[cs->path_edges[i]].reported = true;
        }
        set_confidence(fd, &f, used, len, false);
        free(used);
        base_vec_push(cs->out, f);
        base_vec_push(&cs->reported_sets[kind], set);
        cs->found++;
        break;
    }
    free(pick);
}

/* The strongly connected components of the lock graph: a cycle never
 * leaves one, so the search is restricted to it. Returns the number of
 * components; scc[v] is v's. */
typedef struct lock_scc_walk {
    const graph *g;
    uint32_t *scc, *size, ncomp;
} lock_scc_walk;

static bool lock_succ(void *ctx, uint32_t v, uint32_t k, uint32_t *w)
{
    const graph *g = ((lock_scc_walk *)ctx)->g;
    if (k >= g->nout[v])
        return false;
    *w = g->edges.data[g->out[v][k]].to;
    return true;
}

static void lock_emit(void *ctx, const uint32_t *nodes, uint32_t n)
{
    lock_scc_walk *w = ctx;
    for (uint32_t i = 0; i < n; i++)
        w->scc[nodes[i]] = w->ncomp;
    w->size[w->ncomp++] = n;
}

static uint32_t lock_sccs(const graph *g, uint32_t *scc, uint32_t *size)
{
    lock_scc_walk w = { g, scc, size, 0 };
    dl_scc((uint32_t)g->locks.len, lock_succ, lock_emit, &w);
    return w.ncomp;
}

/* Elementary cycles of exactly `len` edges through start (the smallest
 * node of the cycle), by depth-first search. */
static void dfs_cycles(cycle_search *cs, uint32_t start, uint32_t v, uint32_t depth, uint32_t len)
{
    if (cs->found > 10000)
        return;
    if (cs->budget-- <= 0) { /* cycles left unvisited: the run says so */
        cs->fd->c->cycles_cut = true;
        return;
    }
    if ((cs->budget & 1023) == 0 && dl_out_of_budget(cs->fd->c)) {
        cs->fd->c->cycles_cut = true;
        cs->budget = 0;
        return;
    }
    graph *g = cs->g;
    for (uint32_t k = 0; k < g->nout[v]; k++) {
        uint32_t e = g->out[v][k];
        uint32_t w = g->edges.data[e].to;
        if (w < start || cs->scc[w] != cs->scc[start])
            continue;
        cs->path_edges[depth] = e;
        if (w == start) {
            if (depth + 1 == len)
                try_cycle(cs, len);
            continue;
        }
        if (depth + 1 >= len || cs->blocked[w])
            continue;
        cs->blocked[w] = true;
        cs->path_nodes[depth + 1] = w;
        dfs_cycles(cs, start, w, depth + 1, len);
        cs->blocked[w] = false;
    }
}

static void find_cycles(finder *fd, graph *g, finding_vec *out)
{
    dl_ctx *c = fd->c;
    size_t n = g->locks.len;
    if (n == 0)
        return;
    cycle_search cs = { 0 };
    cs.fd = fd;
    cs.g = g;
    cs.out = out;
    cs.path_nodes = base_xcalloc(n + 1, sizeof(uint32_t));
    cs.path_edges = base_xcalloc(n + 1, sizeof(uint32_t));
    cs.blocked = base_xcalloc(n + 1, sizeof(bool));
    cs.scc = base_xcalloc(n + 1, sizeof(uint32_t));
    uint32_t *scc_size = base_xcalloc(n + 1, sizeof(uint32_t));
    uint32_t ncomp = lock_sccs(g, cs.scc, scc_size), largest = 0;
    for (uint32_t i = 0; i < ncomp; i++)
        if (scc_size[i] > largest)
            largest = scc_size[i];
    cs.budget = 5000000;
    cs.choice_budget = 100000;
    /* smaller limits, for the test that a search cut short says so */
    const char *lim = getenv("RAVEL_DL_SEARCH_BUDGET");
    if (lim && *lim) {
        long v = strtol(lim, NULL, 10);
        if (v > 0)
            cs.budget = cs.choice_budget = v;
    }
    unsigned maxlen = c->opts->max_cycle_len ? c->opts->max_cycle_len : (unsigned)n;
    if (maxlen > largest)
        maxlen = largest < 2 ? 2 : largest;
    /* a class waiting for itself: two of its objects taken in opposite
     * orders (the edge is both edges of a cycle of two) */
    for (size_t e = 0; e < g->edges.len && cs.budget > 0; e++) {
        const ledge *le = &g->edges.data[e];
        if (le->from != le->to)
            continue;
        cs.path_nodes[0] = cs.path_nodes[1] = le->from;
        cs.path_edges[0] = cs.path_edges[1] = (uint32_t)e;
        try_cycle(&cs, 2);
    }
    for (unsigned len = 2; len <= maxlen && cs.budget > 0; len++) {
        for (uint32_t s = 0; s < n; s++) {
            if (scc_size[cs.scc[s]] < len)
                continue; /* no cycle of len locks fits in its component */
            cs.path_nodes[0] = s;
            cs.blocked[s] = true;
            dfs_cycles(&cs, s, s, 0, len);
            cs.blocked[s] = false;
            if (c->opts->progress && (s % 64 == 0 || s + 1 == n))
                c->opts->progress(c->opts->progress_ctx, "cycles", s + 1, n, out->len);
        }
    }
    free(cs.path_nodes);
    free(cs.path_edges);
    free(cs.blocked);
    free(cs.scc);
    free(scc_size);
    base_vec_free(&cs.reported_sets[0]);
    base_vec_free(&cs.reported_sets[1]);
}

/* The cycles ordered along a link (fd->link_cycles), grouped by their locks
 * and the link, as the result reports them. */
static void link_ordered_result(finder *fd, const graph *g, deadlock_result *res)
{
    dl_ctx *c = fd->c;
    BASE_VEC(deadlock_link_order) out = { 0 };
    for (size_t i = 0; i < fd->link_cycles.len; i += 2) {
        uint32_t set = fd->link_cycles.data[i], link = fd->link_cycles.data[i + 1];
        base_strbuf b = { 0 };
        for (uint32_t k = 0; k < dl_set_len(c, set); k++) {
            if (k)
                base_strbuf_puts(&b, ", ");
            dl_print_path(c, &b, g->locks.data[dl_set_data(c, set)[k]]);
        }
        const dl_path *f = &c->paths.data[link >> 1];
        bool against = link & 1u;
        const ir_type *t = (const ir_type *)(uintptr_t)f->b;
        const char *field = t && f->a < t->nfields ? base_sym_str(c->prog->syms, t->fields[f->a].name) : "?";
        const char *tag = t && t->tag ? base_sym_str(c->prog->syms, t->tag) : "";
        bool merged = false;
        for (size_t j = 0; j < out.len && !merged; j++) {
            deadlock_link_order *o = &out.data[j];
            if (strcmp(o->locks, base_strbuf_cstr(&b)) == 0 && strcmp(o->link, field) == 0 &&
                strcmp(o->record, tag) == 0 && o->against == against) {
                o->cycles++;
                merged = true;
            }
        }
        if (!merged) {
            deadlock_link_order o = { base_xstrdup(base_strbuf_cstr(&b)), base_xstrdup(field),
                                      base_xstrdup(tag), against, 1 };
            base_vec_push(&out, o);
        }
        base_strbuf_free(&b);
    }
    res->link_ordered = out.data;
    res->nlink_ordered = out.len;
}

static bool called_or_started(const dl_ctx *c, const ir_func *f)
{
    const ir_program *p = c->prog;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *g = p->funcs[fi];
        for (uint32_t i = 0; i < g->nstmts; i++) {
            const ir_stmt *s = &g->stmts[i];
            if (s->kind != IR_S_CALL && s->kind != IR_S_ASYNC)
                continue;
            if (s->callee && s->callee->kind == IR_E_FUNC) {
                if (s->callee->func == f)
                    return true;
            } else {
                for (uint32_t k = 0; k < s->ncands; k++)
                    if (s->cands[k] == f)
                        return true;
            }
        }
    }
    return false;
}

void dl_find(dl_ctx *c, deadlock_result *res)
{
    const ir_program *p = c->prog;
    finder fd = { 0 };
    fd.c = c;
    /* roots */
    BASE_VEC(uint32_t) roots = { 0 };
    ir_func *mainf = ir_find_func(p, "main");
    if (c->opts->entry == DEADLOCK_ENTRY_MAIN && mainf && mainf->has_body) {
        base_vec_push(&roots, dl_func_index(c, mainf));
        /* a database of several programs: every other unit's main is the
         * root of a program of its own */
        for (uint32_t fi = 0; fi < p->nfuncs; fi++)
            if (p->funcs[fi]->is_main && p->funcs[fi]->has_body && p->funcs[fi] != mainf)
                base_vec_push(&roots, fi);
        fd.programs = roots.len > 1;
    } else {
        fd.library = true;
        for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
            const ir_func *f = p->funcs[fi];
            if (!f->has_body || f == p->init)
                continue;
            if (c->opts->entry == DEADLOCK_ENTRY_ALL ? (f->external_linkage || f == mainf)
                                                     : !called_or_started(c, f))
                base_vec_push(&roots, fi);
        }
    }
    res->nentries = roots.len;
    res->entries = base_xcalloc(roots.len + 1, sizeof *res->entries);
    for (size_t i = 0; i < roots.len; i++) {
        res->entries[i] = base_xstrdup(base_sym_str(p->syms, p->funcs[roots.data[i]]->name));
        tnode r = { roots.data[i], DL_NONE, -1, DL_NONE, c->empty, fd.library, DL_NONE, 0,
                    (uint32_t)i, 0, 0 };
        base_vec_push(&fd.nodes, r);
    }
    base_vec_free(&roots);
    base_hashmap_init(&fd.classes);
    for (size_t i = 0; i < fd.nodes.len; i++)
        add_node_effects(&fd, (uint32_t)i);
    collapse_all(&fd);
    res->nthreads = fd.nodes.len;
    res->ndeps = fd.deps.len;

    finding_vec out = { 0 };
    /* self-deadlocks, one per lock */
    base_hashmap seen;
    base_hashmap_init(&seen);
    for (size_t i = 0; i < fd.selfs.len; i++) {
        const dl_self *s = &fd.selfs.data[i];
        uint64_t v;
        if (dl_lock_is_recursive(c, s->lock) || base_hashmap_get(&seen, s->lock, &v))
            continue;
        base_hashmap_put(&seen, s->lock, 1);
        deadlock_finding f = { 0 };
        f.kind = DEADLOCK_SELF;
        f.nedges = 1;
        f.edges = base_xcalloc(1, sizeof *f.edges);
        tdep td = { fd.self_node.data[i], { s->lock << 1, s->lock << 1, s->t1, s->t2, c->empty,
                                            s->par, c->empty, c->empty, false, DL_NONE }, false };
        make_edge(&fd, &td, &f.edges[0], s->t1);
        f.abstract_lock = array_wide(c, s->lock);
        const tdep *one = &td;
        set_confidence(&fd, &f, &one, 1, s->t1 == s->t2);
        base_vec_push(&out, f);
    }
    base_hashmap_free(&seen);

    graph g;
    build_graph(&fd, &g);
    find_cycles(&fd, &g, &out);

    res->findings = out.data;
    res->nfindings = out.len;
    res->nlocks = g.locks.len;
    res->locks = base_xcalloc(g.locks.len + 1, sizeof *res->locks);
    for (size_t i = 0; i < g.locks.len; i++)
        res->locks[i] = lock_name(c, g.locks.data[i]);
    res->ngedges = g.edges.len;
    res->gedges = base_xcalloc(g.edges.len + 1, sizeof *res->gedges);
    for (size_t i = 0; i < g.edges.len; i++) {
        res->gedges[i].from = g.edges.data[i].from;
        res->gedges[i].to = g.edges.data[i].to;
        res->gedges[i].in_finding = g.edges.data[i].reported;
    }
    link_ordered_result(&fd, &g, res);
    free_graph(&g);
    base_vec_free(&fd.nodes);
    base_vec_free(&fd.deps);
    base_vec_free(&fd.selfs);
    base_vec_free(&fd.self_node);
    base_vec_free(&fd.gbinds);
    base_hashmap_free(&fd.classes);
    base_vec_free(&fd.link_cycles);
}
