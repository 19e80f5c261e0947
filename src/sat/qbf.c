/* qbf: prenex CNF QBF by clausal abstraction (CAQE; Rabe and Tentrup,
 * "CAQE: A Certifying QBF Solver", FMCAD 2015), one CaDiCaL per level.
 *
 * Levels. Adjacent blocks of one kind merge; empty blocks vanish; free
 * variables join an outermost existential level (made if the first block
 * is universal); if the innermost level is universal an empty existential
 * level is appended. So levels alternate, and the last one is existential.
 * depth(C) is the innermost level of a literal of clause C.
 *
 * The game. Levels are assigned outermost first. After levels < i are
 * assigned, what remains of the QBF depends only on which clauses they
 * satisfy (the rest lose their outer literals), so that set is the whole
 * state: sat_by[C] is the level that first satisfied C, or NONE.
 *
 * Certificates. Solving level i under a state returns the winner and a set
 * of clauses that explains the win for every state that agrees on it:
 *   EXISTS_WINS(S): the existential player wins from level i whenever every
 *     clause of S is satisfied at entry to i;
 *   FORALL_WINS(U): the universal player wins from level i whenever every
 *     clause of U is unsatisfied at entry to i.
 * Both are monotone in the state, which is what makes them reusable.
 *
 * Existential level i: its solver has a copy of the level's variables and,
 * per clause C as needed, a_C ("C is satisfied at entry", fixed by
 * assumptions: -a_C when it is not; free otherwise) and b_C ("C is left to
 * the inner levels"). Every clause with depth(C) == i is added at once as
 * (a_C | C_i), C_i its literals of level i; a clause refined later gets
 * (a_C | C_i | b_C). UNSAT: the failed -a_C assumptions form U. SAT: the
 * inner levels are asked; EXISTS_WINS(S') gives S = the clauses of S' not
 * satisfied by this level's assignment; FORALL_WINS(U') adds the
 * refinement (-b_C for some C in U'), i.e. satisfy one of them here, which
 * excludes the current assignment, and the level tries again.
 *
 * Universal level j: per clause as needed, a_C (assumed true exactly when C
 * is satisfied at entry) and t_C ("C is kept unsatisfied through level j"):
 * t_C -> -a_C and t_C -> -l for each literal l of C at level j. UNSAT: the
 * failed a_C form S. SAT: a clause with depth(C) == j left unsatisfied is
 * false, so FORALL_WINS({C}); else the inner levels are asked:
 * FORALL_WINS(U) is passed up as it is (U was unsatisfied at entry to j as
 * well, and the same literals can be falsified again), EXISTS_WINS(S) adds
 * the refinement (t_C for some C in S) and the level tries again.
 *
 * The innermost level, existential, wins whenever its solver is
 * satisfiable; S is then every clause of depth < n and the clauses
 * satisfied at entry that it cannot also satisfy itself: starting from
 * those its model leaves to the outside, each one the level above
 * satisfied is tried with -a_C and dropped if the solver still answers SAT
 * (small certificates are what make the refinements general). A universal
 * level refines with one shared literal t_G for all clauses of depth < j:
 * they are satisfied at entry on every path that reaches j.
 *
 * Invariants: on entry to level i exactly the clauses satisfied by levels
 * < i have sat_by != NONE (each level undoes its trail before returning);
 * every refinement clause excludes the assignment that caused it, so each
 * level's loop terminates; a level's learnt clauses hold for every state,
 * so the solvers are kept between calls (and between sat_qbf_solve calls).
 * Tautological clauses are dropped when the levels are built. */
#include "sat/qbf.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define NONE UINT32_MAX

typedef BASE_VEC(int) int_vec;
typedef BASE_VEC(uint32_t) u32_vec;

typedef struct block {
    sat_qbf_quant kind;
    size_t off, len; /* into bvars */
} block;

typedef struct level {
    sat_qbf_quant kind;
    sat_solver *s;
    int_vec vars;    /* original variables of this level */
    int *avar;       /* clause -> a_C in s, 0: not made */
    int *bvar;       /* clause -> b_C (existential) or t_C (universal), 0: not made */
    u32_vec alist;   /* clauses with an a_C */
    u32_vec trail;   /* clauses this level's assignment satisfied first */
    u32_vec deep;    /* clauses with depth == this level */
    u32_vec sub;     /* certificate returned by the next level */
    int_vec tmp;
    u32_vec shallow; /* clauses with depth < this level (universal and innermost levels) */
    int ga, gt;      /* universal: a_G, t_G for all of shallow at once (0: not made) */
    uint8_t *keep;   /* innermost: clause -> KEEP_* while minimising (scratch) */
    u32_vec kept;
} level;

struct sat_qbf {
    int maxvar;
    int32_t *var_block; /* var -> block index, -1: free; varcap entries */
    size_t varcap;
    BASE_VEC(block) blocks;
    int_vec bvars;
    int_vec lits;
    BASE_VEC(size_t) coff; /* clause i is lits[coff[i] .. coff[i+1]) */
    int_vec assumptions;
    double deadline;
    uint64_t budget;
    sat_qbf_stats stats;

    /* built by prepare */
    bool prepared;
    size_t nprep;        /* clauses the levels know */
    int prep_maxvar;
    uint32_t nlevels;
    level *levels;
    uint32_t *block_level; /* block -> level */
    uint32_t *var_level;   /* var -> level (0..prep_maxvar) */
    int *var_local;        /* var -> variable in its level's solver */
    bool *val;             /* var -> value in the current assignment */
    bool *model;           /* var -> value in the last winning outer assignment */
    uint32_t *cdepth;      /* clause -> depth, NONE: tautology (ignored) */
    uint32_t *cmin;        /* clause -> outermost level of a literal */
    uint32_t *sat_by;
    int occ_maxvar;        /* variables the occurrence lists cover */
    size_t *occ_off;       /* literal index -> offset into occ */
    uint32_t *occ;
    bool has_empty;
    bool have_model;
    uint64_t iter_start;
    u32_vec top;
};

static size_t nclauses(const sat_qbf *q) { return q->coff.len ? q->coff.len - 1 : 0; }

sat_qbf *sat_qbf_new(void)
{
    sat_qbf *q = base_xcalloc(1, sizeof *q);
    base_vec_push(&q->coff, 0);
    return q;
}

static void unprepare(sat_qbf *q)
{
    if (!q->prepared)
        return;
    for (uint32_t i = 0; i < q->nlevels; i++) {
        level *L = &q->levels[i];
        sat_solver_free(L->s);
        base_vec_free(&L->vars);
        free(L->avar);
        free(L->bvar);
        base_vec_free(&L->alist);
        base_vec_free(&L->trail);
        base_vec_free(&L->deep);
        base_vec_free(&L->sub);
        base_vec_free(&L->tmp);
        base_vec_free(&L->shallow);
        free(L->keep);
        base_vec_free(&L->kept);
    }
    free(q->levels);
    free(q->block_level);
    free(q->var_level);
    free(q->var_local);
    free(q->val);
    free(q->model);
    free(q->cdepth);
    free(q->cmin);
    free(q->sat_by);
    free(q->occ_off);
    free(q->occ);
    base_vec_free(&q->top);
    q->levels = NULL;
    q->block_level = NULL;
    q->var_level = NULL;
    q->var_local = NULL;
    q->val = q->model = NULL;
    q->cdepth = q->sat_by = q->cmin = NULL;
    q->occ_off = NULL;
    q->occ = NULL;
    q->nlevels = 0;
    q->prepared = false;
    q->have_model = false;
}

void sat_qbf_free(sat_qbf *q)
{
    if (!q)
        return;
    unprepare(q);
    free(q->var_block);
    base_vec_free(&q->blocks);
    base_vec_free(&q->bvars);
    base_vec_free(&q->lits);
    base_vec_free(&q->coff);
    base_vec_free(&q->assumptions);
    free(q);
}

static void grow_vars(sat_qbf *q, int var)
{
    if ((size_t)var >= q->varcap) {
        size_t ncap = q->varcap ? q->varcap : 64;
        while (ncap <= (size_t)var)
            ncap *= 2;
        q->var_block = base_xrealloc(q->var_block, base_mul_size(ncap, sizeof *q->var_block));
        for (size_t i = q->varcap; i < ncap; i++)
            q->var_block[i] = -1;
        q->varcap = ncap;
    }
    if (var > q->maxvar)
        q->maxvar = var;
}

bool sat_qbf_add_block(sat_qbf *q, sat_qbf_quant k, const int *vars, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (vars[i] <= 0 || vars[i] == INT32_MAX)
            return false;
        if ((size_t)vars[i] < q->varcap && q->var_block[vars[i]] >= 0)
            return false;
        for (size_t j = 0; j < i; j++)
            if (vars[j] == vars[i])
                return false;
    }
    unprepare(q);
    block b = { k, q->bvars.len, 0 };
    base_vec_push(&q->blocks, b);
    for (size_t i = 0; i < n; i++) {
        grow_vars(q, vars[i]);
        q->var_block[vars[i]] = (int32_t)(q->blocks.len - 1);
        base_vec_push(&q->bvars, vars[i]);
    }
    base_vec_last(&q->blocks).len = n;
    return true;
}

bool sat_qbf_add_var(sat_qbf *q, int var)
{
    if (q->blocks.len == 0 || var <= 0 || var == INT32_MAX)
        return false;
    if ((size_t)var < q->varcap && q->var_block[var] >= 0)
        return false;
    unprepare(q);
    grow_vars(q, var);
    q->var_block[var] = (int32_t)(q->blocks.len - 1);
    base_vec_push(&q->bvars, var);
    base_vec_last(&q->blocks).len++;
    return true;
}

/* The level of var once prepared (new free variables are outermost). */
static uint32_t level_of(const sat_qbf *q, int var)
{
    if (var <= q->prep_maxvar)
        return q->var_level[var];
    int32_t b = (size_t)var < q->varcap ? q->var_block[var] : -1;
    return b < 0 ? 0 : q->block_level[b];
}

static void ensure_local(sat_qbf *q, int var);

void sat_qbf_add_clause(sat_qbf *q, const int *lits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int v = abs(lits[i]);
        assert(lits[i] != 0 && lits[i] != INT32_MIN);
        grow_vars(q, v);
    }
    /* Only outer existential literals: give the clause to level 0 as it is. */
    bool outer = q->prepared && q->levels[0].kind == SAT_QBF_EXISTS;
    for (size_t i = 0; outer && i < n; i++)
        outer = level_of(q, abs(lits[i])) == 0;
    if (q->prepared && !outer)
        unprepare(q);
    for (size_t i = 0; i < n; i++)
        base_vec_push(&q->lits, lits[i]);
    base_vec_push(&q->coff, q->lits.len);
    if (outer) {
        level *L = &q->levels[0];
        base_vec_clear(&L->tmp);
        for (size_t i = 0; i < n; i++) {
            int v = abs(lits[i]);
            ensure_local(q, v);
            base_vec_push(&L->tmp, lits[i] > 0 ? q->var_local[v] : -q->var_local[v]);
        }
        sat_add_clause(L->s, L->tmp.data, L->tmp.len);
    }
}

void sat_qbf_assume(sat_qbf *q, int lit)
{
    assert(lit != 0 && lit != INT32_MIN);
    grow_vars(q, abs(lit));
    base_vec_push(&q->assumptions, lit);
}

void sat_qbf_set_deadline(sat_qbf *q, double deadline)
{
    q->deadline = deadline;
    for (uint32_t i = 0; i < q->nlevels; i++)
        sat_set_deadline(q->levels[i].s, deadline);
}

void sat_qbf_set_budget(sat_qbf *q, uint64_t max_iterations) { q->budget = max_iterations; }

sat_qbf_stats sat_qbf_get_stats(const sat_qbf *q) { return q->stats; }

int sat_qbf_max_var(const sat_qbf *q) { return q->maxvar; }
size_t sat_qbf_num_blocks(const sat_qbf *q) { return q->blocks.len; }

sat_qbf_quant sat_qbf_block(const sat_qbf *q, size_t i, const int **vars, size_t *n)
{
    const block *b = &q->blocks.data[i];
    *vars = q->bvars.data ? q->bvars.data + b->off : NULL;
    *n = b->len;
    return b->kind;
}

long sat_qbf_var_block(const sat_qbf *q, int var)
{
    return var > 0 && (size_t)var < q->varcap ? q->var_block[var] : -1;
}

size_t sat_qbf_num_clauses(const sat_qbf *q) { return nclauses(q); }

const int *sat_qbf_clause(const sat_qbf *q, size_t i, size_t *n)
{
    *n = q->coff.data[i + 1] - q->coff.data[i];
    return q->lits.data ? q->lits.data + q->coff.data[i] : NULL;
}

/* --- building the levels --- */

static size_t lit_index(int lit) { return 2 * (size_t)abs(lit) + (lit < 0); }

static int local_lit(const sat_qbf *q, int lit)
{
    int l = q->var_local[abs(lit)];
    return lit > 0 ? l : -l;
}

/* Makes room for var in the per-variable arrays after prepare (a free
 * variable first seen in an outer clause or an assumption). */
static void ensure_local(sat_qbf *q, int var)
{
    if (var > q->prep_maxvar) {
        size_t n = (size_t)var + 1;
        q->var_level = base_xrealloc(q->var_level, base_mul_size(n, sizeof *q->var_level));
        q->var_local = base_xrealloc(q->var_local, base_mul_size(n, sizeof *q->var_local));
        q->val = base_xrealloc(q->val, n);
        q->model = base_xrealloc(q->model, n);
        for (size_t v = (size_t)q->prep_maxvar + 1; v < n; v++) {
            q->var_level[v] = level_of(q, (int)v);
            q->var_local[v] = 0;
            q->val[v] = q->model[v] = false;
        }
        q->prep_maxvar = var;
    }
    if (q->var_local[var] == 0 && q->var_level[var] == 0) {
        level *L = &q->levels[0];
        q->var_local[var] = sat_new_var(L->s);
        base_vec_push(&L->vars, var);
    }
}

static void prepare(sat_qbf *q)
{
    size_t nc = nclauses(q);
    int maxv = q->maxvar;
    q->nprep = nc;
    q->prep_maxvar = maxv;
    q->occ_maxvar = maxv;
    q->var_level = base_xcalloc((size_t)maxv + 1, sizeof *q->var_level);
    q->var_local = base_xcalloc((size_t)maxv + 1, sizeof *q->var_local);
    q->val = base_xcalloc((size_t)maxv + 1, 1);
    q->model = base_xcalloc((size_t)maxv + 1, 1);
    q->block_level = base_xcalloc(q->blocks.len + 1, sizeof *q->block_level);

    /* Level kinds: free variables (outermost existential), then the
     * nonempty blocks, merged; then an existential level if needed. */
    bool any_free = false;
    for (int v = 1; v <= maxv && !any_free; v++)
        any_free = q->var_block[v] < 0;
    sat_qbf_quant *kinds = base_xmalloc(base_mul_size(q->blocks.len + 2, sizeof *kinds));
    uint32_t nl = 0;
    if (any_free)
        kinds[nl++] = SAT_QBF_EXISTS;
    for (size_t b = 0; b < q->blocks.len; b++) {
        if (q->blocks.data[b].len == 0) {
            q->block_level[b] = nl ? nl - 1 : 0;
            continue;
        }
        if (nl == 0 || kinds[nl - 1] != q->blocks.data[b].kind)
            kinds[nl++] = q->blocks.data[b].kind;
        q->block_level[b] = nl - 1;
    }
    if (nl == 0 || kinds[nl - 1] != SAT_QBF_EXISTS)
        kinds[nl++] = SAT_QBF_EXISTS;
    q->nlevels = nl;
    q->levels = base_xcalloc(nl, sizeof *q->levels);
    for (uint32_t i = 0; i < nl; i++) {
        level *L = &q->levels[i];
        L->kind = kinds[i];
        L->s = sat_solver_new();
        sat_set_deadline(L->s, q->deadline);
        L->avar = base_xcalloc(nc ? nc : 1, sizeof *L->avar);
        L->bvar = base_xcalloc(nc ? nc : 1, sizeof *L->bvar);
    }
    free(kinds);
    for (int v = 1; v <= maxv; v++) {
        int32_t b = q->var_block[v];
        uint32_t l = b < 0 ? 0 : q->block_level[b];
        q->var_level[v] = l;
        q->var_local[v] = sat_new_var(q->levels[l].s);
        base_vec_push(&q->levels[l].vars, v);
    }

    /* Clause depths, tautologies, occurrences. */
    q->cdepth = base_xmalloc(base_mul_size(nc ? nc : 1, sizeof *q->cdepth));
    q->sat_by = base_xmalloc(base_mul_size(nc ? nc : 1, sizeof *q->sat_by));
    q->cmin = base_xmalloc(base_mul_size(nc ? nc : 1, sizeof *q->cmin));
    size_t nlit = 2 * (size_t)maxv + 2;
    q->occ_off = base_xcalloc(nlit + 1, sizeof *q->occ_off);
    q->has_empty = false;
    uint32_t *mark = base_xcalloc((size_t)maxv + 1, sizeof *mark);
    for (size_t c = 0; c < nc; c++) {
        q->sat_by[c] = NONE;
        q->cmin[c] = 0;
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        uint32_t d = 0;
        bool taut = false;
        for (size_t k = 0; k < n; k++) {
            int v = abs(l[k]);
            uint32_t tag = (uint32_t)(2 * c + 2 + (l[k] < 0));
            if (mark[v] / 2 == c + 1 && mark[v] != tag)
                taut = true;
            mark[v] = tag;
            if (q->var_level[v] > d)
                d = q->var_level[v];
        }
        if (n == 0)
            q->has_empty = true;
        q->cdepth[c] = taut ? NONE : d;
        if (taut)
            continue;
        for (size_t k = 0; k < n; k++)
            q->occ_off[lit_index(l[k]) + 1]++;
    }
    free(mark);
    for (size_t i = 0; i < nlit; i++)
        q->occ_off[i + 1] += q->occ_off[i];
    q->occ = base_xmalloc(base_mul_size(q->occ_off[nlit] ? q->occ_off[nlit] : 1, sizeof *q->occ));
    size_t *fill = base_xmalloc(base_mul_size(nlit, sizeof *fill));
    memcpy(fill, q->occ_off, nlit * sizeof *fill);
    for (size_t c = 0; c < nc; c++) {
        if (q->cdepth[c] == NONE)
            continue;
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        for (size_t k = 0; k < n; k++)
            q->occ[fill[lit_index(l[k])]++] = (uint32_t)c;
    }
    free(fill);

    /* cmin, and the clauses each existential level must satisfy. */
    for (size_t c = 0; c < nc; c++) {
        uint32_t d = q->cdepth[c];
        if (d == NONE)
            continue;
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        uint32_t lo = d;
        for (size_t k = 0; k < n; k++)
            if (q->var_level[abs(l[k])] < lo)
                lo = q->var_level[abs(l[k])];
        q->cmin[c] = lo;
        base_vec_push(&q->levels[d].deep, (uint32_t)c);
        level *L = &q->levels[d];
        if (L->kind != SAT_QBF_EXISTS)
            continue;
        base_vec_clear(&L->tmp);
        for (size_t k = 0; k < n; k++)
            if (q->var_level[abs(l[k])] == d)
                base_vec_push(&L->tmp, local_lit(q, l[k]));
        if (lo < d) {
            L->avar[c] = sat_new_var(L->s);
            base_vec_push(&L->alist, (uint32_t)c);
            base_vec_push(&L->tmp, L->avar[c]);
        }
        sat_add_clause(L->s, L->tmp.data, L->tmp.len);
    }
    for (uint32_t i = 1; i < nl; i++) {
        level *L = &q->levels[i];
        if (L->kind == SAT_QBF_EXISTS && i + 1 < nl)
            continue;
        for (size_t c = 0; c < nc; c++)
            if (q->cdepth[c] != NONE && q->cdepth[c] < i)
                base_vec_push(&L->shallow, (uint32_t)c);
        if (L->kind == SAT_QBF_EXISTS)
            L->keep = base_xcalloc(nc ? nc : 1, 1);
    }
    q->prepared = true;
}

/* a_C at level i, made on first use; 0 when C has no outer literal. */
static int avar(sat_qbf *q, uint32_t i, uint32_t c)
{
    level *L = &q->levels[i];
    if (q->cmin[c] >= i)
        return 0;
    if (!L->avar[c]) {
        L->avar[c] = sat_new_var(L->s);
        base_vec_push(&L->alist, c);
    }
    return L->avar[c];
}

/* Existential level i: b_C with its clause (a_C | C_i | b_C). */
static int bvar(sat_qbf *q, uint32_t i, uint32_t c)
{
    level *L = &q->levels[i];
    if (L->bvar[c])
        return L->bvar[c];
    int a = avar(q, i, c);
    int b = sat_new_var(L->s);
    L->bvar[c] = b;
    size_t n;
    const int *l = sat_qbf_clause(q, c, &n);
    base_vec_clear(&L->tmp);
    for (size_t k = 0; k < n; k++)
        if (q->var_level[abs(l[k])] == i)
            base_vec_push(&L->tmp, local_lit(q, l[k]));
    if (a)
        base_vec_push(&L->tmp, a);
    base_vec_push(&L->tmp, b);
    sat_add_clause(L->s, L->tmp.data, L->tmp.len);
    return b;
}

/* Universal level j: t_C with t_C -> -a_C and t_C -> -l for l in C_j. */
static int tvar(sat_qbf *q, uint32_t j, uint32_t c)
{
    level *L = &q->levels[j];
    if (L->bvar[c])
        return L->bvar[c];
    int a = avar(q, j, c);
    int t = sat_new_var(L->s);
    L->bvar[c] = t;
    if (a)
        sat_add_binary(L->s, -t, -a);
    size_t n;
    const int *l = sat_qbf_clause(q, c, &n);
    for (size_t k = 0; k < n; k++)
        if (q->var_level[abs(l[k])] == j)
            sat_add_binary(L->s, -t, -local_lit(q, l[k]));
    return t;
}

static bool lit_true(const sat_qbf *q, int lit)
{
    return q->val[abs(lit)] == (lit > 0);
}

/* Whether level i's current assignment satisfies clause c. */
static bool sat_here(const sat_qbf *q, uint32_t i, uint32_t c)
{
    size_t n;
    const int *l = sat_qbf_clause(q, c, &n);
    for (size_t k = 0; k < n; k++)
        if (q->var_level[abs(l[k])] == i && lit_true(q, l[k]))
            return true;
    return false;
}

static void assign(sat_qbf *q, uint32_t i)
{
    level *L = &q->levels[i];
    for (size_t k = 0; k < L->vars.len; k++) {
        int v = L->vars.data[k];
        bool b = sat_value(L->s, q->var_local[v]);
        q->val[v] = b;
        int lit = b ? v : -v;
        if (v > q->occ_maxvar)
            continue;
        size_t li = lit_index(lit);
        for (size_t o = q->occ_off[li]; o < q->occ_off[li + 1]; o++) {
            uint32_t c = q->occ[o];
            if (q->sat_by[c] == NONE) {
                q->sat_by[c] = i;
                base_vec_push(&L->trail, c);
            }
        }
    }
}

static void undo(sat_qbf *q, uint32_t i)
{
    level *L = &q->levels[i];
    for (size_t k = 0; k < L->trail.len; k++)
        q->sat_by[L->trail.data[k]] = NONE;
    base_vec_clear(&L->trail);
}

static void save_model(sat_qbf *q)
{
    const level *L = &q->levels[0];
    for (size_t k = 0; k < L->vars.len; k++)
        q->model[L->vars.data[k]] = q->val[L->vars.data[k]];
    q->have_model = true;
}

typedef enum outcome { EXISTS_WINS, FORALL_WINS, GAVE_UP } outcome;

/* Whether level i's solver's current model satisfies clause c with a
 * literal of level i. */
static bool sat_inner(const sat_qbf *q, uint32_t i, uint32_t c)
{
    const level *L = &q->levels[i];
    size_t n;
    const int *l = sat_qbf_clause(q, c, &n);
    for (size_t m = 0; m < n; m++)
        if (q->var_level[abs(l[m])] == i && sat_value(L->s, local_lit(q, l[m])))
            return true;
    return false;
}

/* The first literal of clause c at level l that the current assignment
 * makes true (0: none). */
static int true_lit_at(const sat_qbf *q, uint32_t l, uint32_t c)
{
    size_t n;
    const int *lits = sat_qbf_clause(q, c, &n);
    for (size_t k = 0; k < n; k++)
        if (q->var_level[abs(lits[k])] == l && lit_true(q, lits[k]))
            return lits[k];
    return 0;
}

/* The innermost level i > 0 wins (the caller's solve answered SAT and its
 * assignment is undone): the certificate. Every clause with depth < i, and
 * of the clauses satisfied at entry, those the level needs: first those its
 * model satisfies with no literal of its own (the candidates). Only the
 * level above refines on the certificate directly; to it, clauses
 * satisfied further out are constants, so only candidates that level i-1
 * satisfied are tried, a group at a time: the candidates whose first true
 * literal of level i-1 is the same (to the level above, keeping one of
 * them already means keeping that literal). A group is tried with -a_C for
 * each of its clauses (satisfy it here) and for every clause dropped
 * before; SAT drops the group, and every untried candidate the new model
 * satisfies here too; UNSAT keeps the group. So every solve that answers
 * SAT has -a_C for each clause outside the final certificate, and there is
 * one solve per literal of level i-1 rather than one per clause. False if
 * the solver gave up. */
enum { KEEP_NO = 0, KEEP_TRY, KEEP_YES, KEEP_TEST };

static bool minimise(sat_qbf *q, uint32_t i, u32_vec *cert)
{
    level *L = &q->levels[i];
    base_vec_clear(&L->kept);
    for (size_t k = 0; k < L->alist.len; k++) {
        uint32_t c = L->alist.data[k];
        if (q->sat_by[c] == NONE)
            continue;
        if (!sat_inner(q, i, c)) {
            L->keep[c] = q->sat_by[c] == i - 1 ? KEEP_TRY : KEEP_YES;
            base_vec_push(&L->kept, c);
        }
    }
    for (size_t t = 0; t < L->kept.len; t++) {
        uint32_t first = L->kept.data[t];
        if (L->keep[first] != KEEP_TRY)
            continue;
        int key = true_lit_at(q, i - 1, first);
        for (size_t u = t; u < L->kept.len; u++) {
            uint32_t c = L->kept.data[u];
            if (L->keep[c] == KEEP_TRY && (c == first || true_lit_at(q, i - 1, c) == key))
                L->keep[c] = KEEP_TEST;
        }
        for (size_t k = 0; k < L->alist.len; k++) {
            uint32_t c = L->alist.data[k];
            if (q->sat_by[c] == NONE || L->keep[c] == KEEP_NO || L->keep[c] == KEEP_TEST)
                sat_assume(L->s, -L->avar[c]);
        }
        q->stats.sat_calls++;
        sat_result r = sat_solve(L->s);
        if (r == SAT_UNKNOWN) {
            for (size_t k = 0; k < L->kept.len; k++)
                L->keep[L->kept.data[k]] = KEEP_NO;
            return false;
        }
        for (size_t u = t; u < L->kept.len; u++) {
            uint32_t c = L->kept.data[u];
            if (L->keep[c] == KEEP_TEST)
                L->keep[c] = r == SAT_SAT ? KEEP_NO : KEEP_YES;
            else if (r == SAT_SAT && L->keep[c] == KEEP_TRY && sat_inner(q, i, c))
                L->keep[c] = KEEP_NO;
        }
    }
    base_vec_clear(cert);
    for (size_t k = 0; k < L->kept.len; k++) {
        uint32_t c = L->kept.data[k];
        if (L->keep[c] == KEEP_YES)
            base_vec_push(cert, c);
        L->keep[c] = KEEP_NO;
    }
    for (size_t k = 0; k < L->shallow.len; k++)
        base_vec_push(cert, L->shallow.data[k]);
    return true;
}

/* Universal level j: the literal of the refinement for clause c. Clauses
 * with depth < j are satisfied at entry on every path that reaches j, so
 * they share one literal t_G -> -a_G (a_G always assumed) instead of one
 * each; its failure stands for all of them. */
static int tlit(sat_qbf *q, uint32_t j, uint32_t c)
{
    level *L = &q->levels[j];
    if (q->cdepth[c] >= j)
        return tvar(q, j, c);
    if (!L->gt) {
        L->ga = sat_new_var(L->s);
        L->gt = sat_new_var(L->s);
        sat_add_binary(L->s, -L->gt, -L->ga);
    }
    return L->gt;
}

static bool out_of_time(sat_qbf *q)
{
    if (q->budget && q->stats.iterations - q->iter_start >= q->budget)
        return true;
    return q->deadline > 0 && base_now() > q->deadline;
}

static outcome solve_level(sat_qbf *q, uint32_t i, u32_vec *cert)
{
    level *L = &q->levels[i];
    bool last = i + 1 == q->nlevels;
    for (;;) {
        base_vec_clear(cert);
        if (out_of_time(q))
            return GAVE_UP;
        bool ex = L->kind == SAT_QBF_EXISTS;
        for (size_t k = 0; k < L->alist.len; k++) {
            uint32_t c = L->alist.data[k];
            bool entry_sat = q->sat_by[c] != NONE;
            if (ex && !entry_sat)
                sat_assume(L->s, -L->avar[c]);
            else if (!ex && entry_sat)
                sat_assume(L->s, L->avar[c]);
        }
        if (!ex && L->ga)
            sat_assume(L->s, L->ga);
        if (i == 0)
            for (size_t k = 0; k < q->assumptions.len; k++)
                sat_assume(L->s, local_lit(q, q->assumptions.data[k]));
        q->stats.sat_calls++;
        sat_result r = sat_solve(L->s);
        if (r == SAT_UNKNOWN)
            return GAVE_UP;
        if (r == SAT_UNSAT) {
            for (size_t k = 0; k < L->alist.len; k++) {
                uint32_t c = L->alist.data[k];
                bool entry_sat = q->sat_by[c] != NONE;
                if (ex && !entry_sat && sat_failed(L->s, -L->avar[c]))
                    base_vec_push(cert, c);
                else if (!ex && entry_sat && sat_failed(L->s, L->avar[c]))
                    base_vec_push(cert, c);
            }
            if (!ex && L->ga && sat_failed(L->s, L->ga))
                for (size_t k = 0; k < L->shallow.len; k++)
                    base_vec_push(cert, L->shallow.data[k]);
            return ex ? FORALL_WINS : EXISTS_WINS;
        }
        q->stats.iterations++;
        assign(q, i);
        if (ex && last) {
            if (i == 0) {
                save_model(q);
                undo(q, i);
                return EXISTS_WINS;
            }
            undo(q, i);
            if (!minimise(q, i, cert))
                return GAVE_UP;
            return EXISTS_WINS;
        }
        if (!ex) {
            for (size_t k = 0; k < L->deep.len; k++) {
                uint32_t c = L->deep.data[k];
                if (q->sat_by[c] == NONE) {
                    base_vec_push(cert, c);
                    undo(q, i);
                    return FORALL_WINS;
                }
            }
        }
        outcome o = solve_level(q, i + 1, &L->sub);
        if (o == GAVE_UP) {
            undo(q, i);
            return GAVE_UP;
        }
        if (ex && o == EXISTS_WINS) {
            for (size_t k = 0; k < L->sub.len; k++) {
                uint32_t c = L->sub.data[k];
                assert(q->sat_by[c] != NONE);
                if (q->sat_by[c] != i && !sat_here(q, i, c))
                    base_vec_push(cert, c);
            }
            if (i == 0)
                save_model(q);
            undo(q, i);
            return EXISTS_WINS;
        }
        if (!ex && o == FORALL_WINS) {
            for (size_t k = 0; k < L->sub.len; k++)
                base_vec_push(cert, L->sub.data[k]);
            undo(q, i);
            return FORALL_WINS;
        }
        /* The opponent won below: learn, and try another assignment. */
        for (size_t k = 0; k < L->sub.len; k++) {
            uint32_t c = L->sub.data[k];
            if (ex)
                bvar(q, i, c);
            else
                tlit(q, i, c);
        }
        /* bvar/tvar use L->tmp themselves: build the clause after. */
        base_vec_clear(&L->tmp);
        bool group = false;
        for (size_t k = 0; k < L->sub.len; k++) {
            uint32_t c = L->sub.data[k];
            if (ex)
                base_vec_push(&L->tmp, -L->bvar[c]);
            else if (q->cdepth[c] >= i)
                base_vec_push(&L->tmp, L->bvar[c]);
            else
                group = true;
        }
        if (group)
            base_vec_push(&L->tmp, L->gt);
        sat_add_clause(L->s, L->tmp.data, L->tmp.len);
        q->stats.refinements++;
        undo(q, i);
    }
}

sat_result sat_qbf_solve(sat_qbf *q)
{
    if (!q->prepared)
        prepare(q);
    q->stats.levels = q->nlevels;
    q->have_model = false;
    q->iter_start = q->stats.iterations;
    sat_result res;
    bool bad_assumption = false;
    for (size_t k = 0; k < q->assumptions.len; k++) {
        int v = abs(q->assumptions.data[k]);
        if (level_of(q, v) != 0 || q->levels[0].kind != SAT_QBF_EXISTS)
            bad_assumption = true;
        else
            ensure_local(q, v);
    }
    if (bad_assumption) {
        res = SAT_UNKNOWN;
    } else if (q->has_empty) {
        res = SAT_UNSAT;
    } else {
        outcome o = solve_level(q, 0, &q->top);
        res = o == EXISTS_WINS ? SAT_SAT : o == FORALL_WINS ? SAT_UNSAT : SAT_UNKNOWN;
    }
    base_vec_clear(&q->assumptions);
    return res;
}

bool sat_qbf_value(const sat_qbf *q, int lit)
{
    int v = abs(lit);
    if (!q->have_model || v > q->prep_maxvar || q->var_level[v] != 0)
        return false;
    return q->model[v] == (lit > 0);
}
