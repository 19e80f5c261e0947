#include "logic/ground.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/xalloc.h"
#include "logic/combinators.h"
#include "sat/qbf.h"

enum { POS = 1, NEG = -1, BOTH = 0 };

void logic_grounder_init(logic_grounder *g, logic_builder *b, sat_circuit *c)
{
    memset(g, 0, sizeof *g);
    g->b = b;
    g->st = b->st;
    g->circ = c;
    g->stack_cap = 1024;
    g->stack = base_xmalloc(g->stack_cap * sizeof(int));
}

void logic_grounder_free(logic_grounder *g)
{
    for (uint32_t i = 0; i < g->tables_cap; i++)
        free(g->tables[i]);
    free(g->tables);
    free(g->env);
    free(g->stack);
    free(g->var_level);
    memset(g, 0, sizeof *g);
}

const int *logic_ground_table(const logic_grounder *g, const logic_sovar *v)
{
    return v->id < g->tables_cap ? g->tables[v->id] : NULL;
}

static void set_var(logic_grounder *g, int32_t var, uint32_t elem)
{
    if ((uint32_t)var >= g->env_cap) {
        uint32_t ncap = g->env_cap ? g->env_cap : 64;
        while (ncap <= (uint32_t)var)
            ncap *= 2;
        g->env = base_xrealloc(g->env, base_mul_size(ncap, sizeof *g->env));
        g->env_cap = ncap;
    }
    g->env[var] = (int32_t)elem;
}

static uint32_t term(const logic_grounder *g, logic_term t)
{
    return logic_term_is_const(t) ? logic_term_elem(t) : (uint32_t)g->env[t];
}

static void push(logic_grounder *g, int lit)
{
    if (g->sp == g->stack_cap) {
        g->stack_cap = g->stack_cap ? g->stack_cap * 2 : 1024;
        g->stack = base_xrealloc(g->stack, base_mul_size(g->stack_cap, sizeof(int)));
    }
    g->stack[g->sp++] = lit;
}

static bool stopped(logic_grounder *g)
{
    if (g->status != LOGIC_GROUND_OK)
        return true;
    if ((++g->instances & 0xfff) == 0) {
        if (g->deadline > 0 && base_now() > g->deadline)
            g->status = LOGIC_GROUND_TIMEOUT;
        else if (g->max_clauses && sat_num_clauses(g->circ->solver) > g->max_clauses)
            g->status = LOGIC_GROUND_TOO_LARGE;
    }
    return g->status != LOGIC_GROUND_OK;
}

static size_t tuple(const logic_grounder *g, uint32_t arity, const logic_term *args)
{
    size_t i = term(g, args[0]);
    if (arity == 2)
        i = i * g->st->n + term(g, args[1]);
    return i;
}

/* --- three-valued evaluation, for bounds: no gates are made --- */

enum { V_FALSE = 0, V_TRUE = 1, V_UNKNOWN = 2 };

static int eval3(logic_grounder *g, const logic_formula *f)
{
    switch (f->kind) {
    case LOGIC_TRUE: return V_TRUE;
    case LOGIC_FALSE: return V_FALSE;
    case LOGIC_REL: {
        const logic_relation *r = &g->st->rels[f->rel];
        return logic_bit_get(r->bits, tuple(g, r->arity, f->args)) ? V_TRUE : V_FALSE;
    }
    case LOGIC_SOV: {
        const int *t = logic_ground_table(g, f->sov);
        if (!t)
            return V_UNKNOWN; /* not declared yet: anything goes */
        int l = t[tuple(g, f->sov->arity, f->args)];
        if (g->value && l != SAT_TRUE && l != SAT_FALSE)
            return g->value(g->value_ud, l) ? V_TRUE : V_FALSE;
        return l == SAT_TRUE ? V_TRUE : l == SAT_FALSE ? V_FALSE : V_UNKNOWN;
    }
    case LOGIC_SOV_MAY: {
        const int *t = logic_ground_table(g, f->sov);
        if (!t)
            return V_UNKNOWN;
        return t[tuple(g, 2, f->args)] != SAT_FALSE ? V_TRUE : V_FALSE;
    }
    case LOGIC_EQ:
        return term(g, f->args[0]) == term(g, f->args[1]) ? V_TRUE : V_FALSE;
    case LOGIC_NOT: {
        int v = eval3(g, f->kids[0]);
        return v == V_UNKNOWN ? v : !v;
    }
    case LOGIC_AND:
    case LOGIC_OR: {
        int zero = f->kind == LOGIC_AND ? V_FALSE : V_TRUE, res = !zero;
        for (uint32_t i = 0; i < f->nkids; i++) {
            int v = eval3(g, f->kids[i]);
            if (v == zero)
                return zero;
            if (v == V_UNKNOWN)
                res = V_UNKNOWN;
        }
        return res;
    }
    case LOGIC_IMPLIES: {
        int a = eval3(g, f->kids[0]);
        if (a == V_FALSE)
            return V_TRUE;
        int c = eval3(g, f->kids[1]);
        if (c == V_TRUE)
            return V_TRUE;
        return a == V_TRUE && c == V_FALSE ? V_FALSE : V_UNKNOWN;
    }
    case LOGIC_IFF: {
        int a = eval3(g, f->kids[0]), c = eval3(g, f->kids[1]);
        return a == V_UNKNOWN || c == V_UNKNOWN ? V_UNKNOWN : a == c;
    }
    case LOGIC_FORALL:
    case LOGIC_EXISTS: {
        int zero = f->kind == LOGIC_FORALL ? V_FALSE : V_TRUE, res = !zero;
        for (uint32_t e = 0; e < g->st->n; e++) {
            set_var(g, f->var, e);
            int v = eval3(g, f->kids[0]);
            if (v == zero)
                return zero;
            if (v == V_UNKNOWN)
                res = V_UNKNOWN;
        }
        return res;
    }
    case LOGIC_SO_EXISTS:
    case LOGIC_SO_FORALL:
        return V_UNKNOWN;
    }
    return V_UNKNOWN;
}

/* --- bounds by relational algebra on bit matrices --- */

/* A three-valued relation: may (not known false) and must (known true), as
 * bit rows of `rw` words (arity 2: n rows; arity 1: one row). Evaluating a
 * bound this way gives exactly what eval3 gives tuple by tuple (a sequence
 * may hold where some z has both sides possible, must where some z has both
 * known), in O(n^3/64) for a sequence instead of O(n^3) per level. Bits past
 * n in a row are junk and never read. */
typedef struct mat3 {
    uint64_t *may, *must;
} mat3;

static size_t row_words(const logic_grounder *g)
{
    return g->st->n / 64 + 1;
}

static mat3 mat_new(const logic_grounder *g, uint32_t arity)
{
    size_t w = row_words(g) * (arity == 2 ? g->st->n : 1);
    mat3 m = { base_xcalloc(w ? w : 1, sizeof(uint64_t)), base_xcalloc(w ? w : 1, sizeof(uint64_t)) };
    return m;
}

static void mat_free(mat3 *m)
{
    free(m->may);
    free(m->must);
}

static inline bool row_get(const uint64_t *row, uint32_t c)
{
    return row[c >> 6] >> (c & 63) & 1;
}

static inline void row_set(uint64_t *row, uint32_t c)
{
    row[c >> 6] |= (uint64_t)1 << (c & 63);
}

static mat3 eval_mat(logic_grounder *g, const logic_rexpr *r)
{
    uint32_t n = g->st->n, ar = r->arity;
    size_t rw = row_words(g), words = rw * (ar == 2 ? n : 1);
    mat3 m = mat_new(g, ar);
    switch (r->kind) {
    case LOGIC_R_EMPTY:
        break;
    case LOGIC_R_ALL:
        memset(m.may, 0xff, words * sizeof(uint64_t));
        memset(m.must, 0xff, words * sizeof(uint64_t));
        break;
    case LOGIC_R_REL: {
        const logic_relation *rel = &g->st->rels[r->rel];
        for (uint32_t a = 0; a < (ar == 2 ? n : 1); a++)
            for (uint32_t c = 0; c < n; c++)
                if (logic_bit_get(rel->bits, ar == 2 ? (size_t)a * n + c : c)) {
                    row_set(m.may + a * rw, c);
                    row_set(m.must + a * rw, c);
                }
        break;
    }
    case LOGIC_R_SOV: {
        const int *t = logic_ground_table(g, r->sov);
        if (!t) { /* not declared yet: anything goes */
            memset(m.may, 0xff, words * sizeof(uint64_t));
            break;
        }
        for (uint32_t a = 0; a < (ar == 2 ? n : 1); a++)
            for (uint32_t c = 0; c < n; c++) {
                int l = t[ar == 2 ? (size_t)a * n + c : c];
                if (g->value && l != SAT_TRUE && l != SAT_FALSE)
                    l = g->value(g->value_ud, l) ? SAT_TRUE : SAT_FALSE;
                if (l != SAT_FALSE)
                    row_set(m.may + a * rw, c);
                if (l == SAT_TRUE)
                    row_set(m.must + a * rw, c);
            }
        break;
    }
    case LOGIC_R_UNION:
    case LOGIC_R_INTER:
    case LOGIC_R_DIFF: {
        mat3 x = eval_mat(g, r->a), y = eval_mat(g, r->b);
        for (size_t i = 0; i < words; i++) {
            if (r->kind == LOGIC_R_UNION) {
                m.may[i] = x.may[i] | y.may[i];
                m.must[i] = x.must[i] | y.must[i];
            } else if (r->kind == LOGIC_R_INTER) {
                m.may[i] = x.may[i] & y.may[i];
                m.must[i] = x.must[i] & y.must[i];
            } else {
                m.may[i] = x.may[i] & ~y.must[i];
                m.must[i] = x.must[i] & ~y.may[i];
            }
        }
        mat_free(&x);
        mat_free(&y);
        break;
    }
    case LOGIC_R_SEQ: {
        mat3 x = eval_mat(g, r->a), y = eval_mat(g, r->b);
        for (uint32_t a = 0; a < n; a++) {
            if (g->deadline > 0 && (a & 63) == 0 && base_now() > g->deadline) {
                g->status = LOGIC_GROUND_TIMEOUT;
                break;
            }
            for (uint32_t k = 0; k < n; k++) {
                if (row_get(x.may + a * rw, k))
                    for (size_t w = 0; w < rw; w++)
                        m.may[a * rw + w] |= y.may[k * rw + w];
                if (row_get(x.must + a * rw, k))
                    for (size_t w = 0; w < rw; w++)
                        m.must[a * rw + w] |= y.must[k * rw + w];
            }
        }
        mat_free(&x);
        mat_free(&y);
        break;
    }
    case LOGIC_R_INV: {
        mat3 x = eval_mat(g, r->a);
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t c = 0; c < n; c++) {
                if (row_get(x.may + c * rw, a))
                    row_set(m.may + a * rw, c);
                if (row_get(x.must + c * rw, a))
                    row_set(m.must + a * rw, c);
            }
        mat_free(&x);
        break;
    }
    case LOGIC_R_ID: {
        mat3 s = eval_mat(g, r->a);
        for (uint32_t a = 0; a < n; a++) {
            if (row_get(s.may, a))
                row_set(m.may + a * rw, a);
            if (row_get(s.must, a))
                row_set(m.must + a * rw, a);
        }
        mat_free(&s);
        break;
    }
    case LOGIC_R_PROD: {
        mat3 s = eval_mat(g, r->a), t = eval_mat(g, r->b);
        for (uint32_t a = 0; a < n; a++) {
            if (row_get(s.may, a))
                memcpy(m.may + a * rw, t.may, rw * sizeof(uint64_t));
            if (row_get(s.must, a))
                memcpy(m.must + a * rw, t.must, rw * sizeof(uint64_t));
        }
        mat_free(&s);
        mat_free(&t);
        break;
    }
    case LOGIC_R_FORMULA: {
        /* No algebra for an arbitrary formula: evaluate it tuple by tuple. */
        int32_t x = logic_fresh_var(g->b), y = logic_fresh_var(g->b);
        const logic_formula *f = logic_apply(g->b, r, x, y);
        for (uint32_t a = 0; a < (ar == 2 ? n : 1); a++) {
            if (ar == 2)
                set_var(g, x, a);
            for (uint32_t c = 0; c < n; c++) {
                set_var(g, ar == 2 ? y : x, c);
                int v = eval3(g, f);
                if (v != V_FALSE)
                    row_set(m.may + a * rw, c);
                if (v == V_TRUE)
                    row_set(m.must + a * rw, c);
            }
        }
        break;
    }
    }
    return m;
}

uint64_t *logic_ground_eval(logic_grounder *g, const logic_rexpr *r,
                            bool (*value)(void *ud, int lit), void *ud)
{
    g->value = value;
    g->value_ud = ud;
    mat3 m = eval_mat(g, r);
    g->value = NULL;
    g->value_ud = NULL;
    free(m.may);
    return m.must;
}

/* QBF mode: SAT variable var is quantified at the current level. */
static void set_level(logic_grounder *g, int var)
{
    if ((size_t)var >= g->var_level_cap) {
        size_t ncap = g->var_level_cap ? g->var_level_cap : 1024;
        while (ncap <= (size_t)var)
            ncap *= 2;
        g->var_level = base_xrealloc(g->var_level, base_mul_size(ncap, sizeof *g->var_level));
        memset(g->var_level + g->var_level_cap, 0,
               (ncap - g->var_level_cap) * sizeof *g->var_level);
        g->var_level_cap = ncap;
    }
    g->var_level[var] = g->qlevel + 1;
}

static void grow_tables(logic_grounder *g, uint32_t id)
{
    if (id < g->tables_cap)
        return;
    uint32_t ncap = g->tables_cap ? g->tables_cap : 16;
    while (ncap <= id)
        ncap *= 2;
    g->tables = base_xrealloc(g->tables, base_mul_size(ncap, sizeof *g->tables));
    memset(g->tables + g->tables_cap, 0, (ncap - g->tables_cap) * sizeof *g->tables);
    g->tables_cap = ncap;
}

/* The fill graph of rows (n rows of rw words; see logic_sovar.bound_elim):
 * excluded tuples (exclude's must) leave first, then vertices go one by one,
 * each time the one whose elimination adds the fewest edges (in-degree times
 * out-degree among the remaining), and rows receive every edge added. */
static void elim_fill(logic_grounder *g, uint64_t *rows, const logic_rexpr *exclude)
{
    uint32_t n = g->st->n;
    size_t rw = row_words(g);
    mat3 ex = { NULL, NULL };
    if (exclude) {
        ex = eval_mat(g, exclude);
        for (size_t i = 0; i < rw * n; i++)
            rows[i] &= ~ex.must[i];
    }
    /* The current graph: out rows (copy of rows) and in rows, without loops. */
    size_t words = rw * n + 1;
    uint64_t *out = base_xcalloc(words, sizeof(uint64_t));
    uint64_t *in = base_xcalloc(words, sizeof(uint64_t));
    uint32_t *indeg = base_xcalloc(n ? n : 1, sizeof *indeg), *outdeg = base_xcalloc(n ? n : 1, sizeof *outdeg);
    bool *gone = base_xcalloc(n ? n : 1, sizeof *gone);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t c = 0; c < n; c++)
            if (a != c && row_get(rows + a * rw, c)) {
                row_set(out + a * rw, c);
                row_set(in + c * rw, a);
                outdeg[a]++;
                indeg[c]++;
            }
    for (uint32_t step = 0; step < n; step++) {
        uint32_t v = UINT32_MAX;
        uint64_t best = UINT64_MAX;
        for (uint32_t c = 0; c < n && best; c++) {
            uint64_t cost = (uint64_t)indeg[c] * outdeg[c];
            if (!gone[c] && cost < best) {
                best = cost;
                v = c;
            }
        }
        for (uint32_t u = 0; best && u < n; u++) {
            if (!row_get(in + v * rw, u))
                continue;
            for (size_t k = 0; k < rw; k++) {
                uint64_t add = out[v * rw + k] & ~out[u * rw + k];
                if (ex.must)
                    add &= ~ex.must[u * rw + k];
                if (k == u >> 6)
                    add &= ~((uint64_t)1 << (u & 63));
                out[u * rw + k] |= add;
                rows[u * rw + k] |= add;
                while (add) {
                    uint32_t w = (uint32_t)(k * 64) + (uint32_t)__builtin_ctzll(add);
                    add &= add - 1;
                    row_set(in + w * rw, u);
                    outdeg[u]++;
                    indeg[w]++;
                }
            }
        }
        gone[v] = true;
        for (uint32_t u = 0; u < n; u++) {
            if (row_get(in + v * rw, u)) {
                out[u * rw + (v >> 6)] &= ~((uint64_t)1 << (v & 63));
                outdeg[u]--;
            }
            if (row_get(out + v * rw, u)) {
                in[u * rw + (v >> 6)] &= ~((uint64_t)1 << (v & 63));
                indeg[u]--;
            }
        }
    }
    free(out);
    free(in);
    free(indeg);
    free(outdeg);
    free(gone);
    if (exclude)
        mat_free(&ex);
}

static int ground(logic_grounder *g, const logic_formula *f, int pol);

/* Declares an SO variable: computes its bound and makes one SAT variable
 * per possible tuple. Redeclaring (a quantifier under a first-order
 * quantifier is grounded once per instance) makes fresh variables. */
static void declare(logic_grounder *g, const logic_sovar *v)
{
    uint32_t n = g->st->n;
    size_t size = v->arity == 1 ? n : (size_t)n * n;
    grow_tables(g, v->id);
    size_t rw = row_words(g), nrows = v->arity == 2 ? n : 1;
    uint64_t *rows; /* the possible tuples, row-aligned */
    if (!v->bound) {
        rows = base_xmalloc(base_mul_size(rw * nrows, sizeof(uint64_t)));
        memset(rows, 0xff, rw * nrows * sizeof(uint64_t));
    } else {
        mat3 m = eval_mat(g, v->bound);
        rows = m.may;
        free(m.must);
        if (v->bound_elim && v->arity == 2) {
            elim_fill(g, rows, v->exclude);
        } else if (v->bound_closure && v->arity == 2) {
            /* Warshall over rows of bits. */
            for (uint32_t k = 0; k < n; k++)
                for (uint32_t a = 0; a < n; a++)
                    if (row_get(rows + a * rw, k))
                        for (size_t w = 0; w < rw; w++)
                            rows[a * rw + w] |= rows[k * rw + w];
        }
        if (v->exclude) {
            mat3 ex = eval_mat(g, v->exclude);
            for (size_t i = 0; i < rw * nrows; i++)
                rows[i] &= ~ex.must[i];
            mat_free(&ex);
        }
    }
    if (v->bound_bits)
        for (size_t i = 0; i < rw * nrows; i++)
            rows[i] &= v->bound_bits[i];
    /* A definition, inlined: each tuple is def's literal (a constant where
     * def's value is fixed). Not in QBF mode (see so_def). */
    mat3 dm = { NULL, NULL };
    const logic_formula *df = NULL;
    int32_t dx = 0, dy = 0;
    if (v->def && !g->qbf) {
        dm = eval_mat(g, v->def);
        for (size_t i = 0; i < rw * nrows; i++)
            rows[i] &= dm.may[i];
        dx = logic_fresh_var(g->b);
        dy = logic_fresh_var(g->b);
        df = logic_apply(g->b, v->def, dx, dy);
    }
    int *t = base_xmalloc(base_mul_size(size ? size : 1, sizeof(int)));
    for (size_t i = 0; i < size; i++) {
        uint32_t a = v->arity == 2 ? (uint32_t)(i / n) : 0, c = (uint32_t)(v->arity == 2 ? i % n : i);
        if (!row_get(rows + a * rw, c)) {
            t[i] = SAT_FALSE;
        } else if ((v->must_bits && row_get(v->must_bits + a * rw, c)) ||
                   (df && row_get(dm.must + a * rw, c))) {
            t[i] = SAT_TRUE;
        } else if (df) {
            if (v->arity == 2)
                set_var(g, dx, a);
            set_var(g, v->arity == 2 ? dy : dx, c);
            t[i] = ground(g, df, BOTH);
        } else {
            t[i] = sat_circuit_var(g->circ);
            g->so_vars++;
            if (g->qbf)
                set_level(g, t[i]);
        }
    }
    if (df)
        mat_free(&dm);
    free(g->tables[v->id]);
    g->tables[v->id] = t;
    free(rows);
}

/* The constraint a declared variable's definition still needs: w <-> def
 * in QBF mode, where declare makes fresh variables for it; else NULL. */
static const logic_formula *so_def(logic_grounder *g, const logic_sovar *v)
{
    if (!v->def || !g->qbf)
        return NULL;
    return logic_req(g->b, logic_r_sov(g->b, v), v->def);
}

void logic_ground_set_table(logic_grounder *g, const logic_sovar *v, const int *lits)
{
    uint32_t n = g->st->n;
    size_t size = v->arity == 1 ? n : (size_t)n * n;
    grow_tables(g, v->id);
    free(g->tables[v->id]);
    int *t = base_xmalloc(base_mul_size(size ? size : 1, sizeof(int)));
    memcpy(t, lits, size * sizeof(int));
    g->tables[v->id] = t;
}

/* Enters an SO quantifier: false (and NEEDS_QBF) if it cannot be grounded;
 * else *saved is the level to restore after its body. */
static bool so_enter(logic_grounder *g, const logic_formula *f, int pol, uint32_t *saved)
{
    bool existential = f->kind == LOGIC_SO_EXISTS ? pol == POS : pol == NEG;
    *saved = g->qlevel;
    if (!g->qbf) {
        if (!existential) {
            g->status = LOGIC_GROUND_NEEDS_QBF;
            return false;
        }
        return true;
    }
    if (pol == BOTH) {
        g->status = LOGIC_GROUND_NEEDS_QBF;
        return false;
    }
    uint32_t parity = existential ? 0 : 1;
    if (g->qlevel % 2 != parity)
        g->qlevel++;
    if (g->qlevel > g->max_level)
        g->max_level = g->qlevel;
    return true;
}

uint32_t logic_ground_var_level(const logic_grounder *g, int var)
{
    uint32_t inner = g->max_level + (g->max_level % 2);
    if (var > 0 && (size_t)var < g->var_level_cap && g->var_level[var])
        return g->var_level[var] - 1;
    return inner;
}

static void emit_clause(void *ctx, const int *clause, size_t len)
{
    sat_qbf_add_clause(ctx, clause, len);
}

sat_qbf *logic_ground_qbf(const logic_grounder *g, const int *units, size_t nunits)
{
    sat_qbf *q = sat_qbf_new();
    int nv = sat_num_vars(g->circ->solver);
    uint32_t inner = g->max_level + (g->max_level % 2);
    /* A gate goes to the outermost existential level at or inside its
     * inputs' levels rather than innermost: its (one-directional)
     * definition is then a clause of that level, and the level's solver
     * sees the whole constraint instead of a clause per use that mixes it
     * with inner variables. The gate is still a function of variables
     * quantified before it, so the QBF's truth is the same. The constant
     * (variable 1) is outermost. */
    uint32_t *lv = base_xmalloc(base_mul_size((size_t)nv + 1, sizeof *lv));
    for (int v = 1; v <= nv; v++)
        lv[v] = v == SAT_TRUE ? 0 : logic_ground_var_level(g, v);
    const sat_circuit *c = g->circ;
    for (size_t k = 0; k < c->ngates; k++) {
        uint32_t l = 0;
        for (uint32_t i = 0; i < c->gate_in_len[k]; i++) {
            uint32_t li = lv[abs(c->inputs[c->gate_in_off[k] + i])];
            l = li > l ? li : l;
        }
        l += l % 2;
        int out = c->gate_lit[k];
        if (out > 0 && out <= nv && l < lv[out])
            lv[out] = l;
    }
    for (uint32_t l = 0; l <= inner; l++) {
        sat_qbf_add_block(q, l % 2 ? SAT_QBF_FORALL : SAT_QBF_EXISTS, NULL, 0);
        for (int v = 1; v <= nv; v++)
            if (lv[v] == l)
                sat_qbf_add_var(q, v);
    }
    free(lv);
    size_t n;
    const int *lits = sat_recorded(g->circ->solver, &n);
    for (size_t i = 0, start = 0; i < n; i++) {
        if (lits[i] == 0) {
            sat_qbf_add_clause(q, lits + start, i - start);
            start = i + 1;
        }
    }
    int *ul = base_xmalloc(base_mul_size(2 * nunits + 1, sizeof *ul));
    for (size_t i = 0; i < nunits; i++) {
        sat_qbf_add_clause(q, &units[i], 1);
        ul[2 * i] = units[i];
        ul[2 * i + 1] = 0;
    }
    if (g->circ->defer) {
        sat_circuit_emit_needed(g->circ, lits, n, emit_clause, q);
        sat_circuit_emit_needed(g->circ, ul, 2 * nunits, emit_clause, q);
    }
    free(ul);
    return q;
}

static int ground(logic_grounder *g, const logic_formula *f, int pol);

/* --- existentials over conjunctions: equalities pick the witness --- */

enum { MAX_CONJ = 64 };

/* Appends f's conjuncts (nested ANDs flattened) to cs; false when there
 * are more than MAX_CONJ. */
static bool conjuncts(const logic_formula *f, const logic_formula **cs, uint32_t *n)
{
    if (f->kind == LOGIC_AND) {
        for (uint32_t i = 0; i < f->nkids; i++)
            if (!conjuncts(f->kids[i], cs, n))
                return false;
        return true;
    }
    if (*n == MAX_CONJ)
        return false;
    cs[(*n)++] = f;
    return true;
}

/* Is c the equality var = t (or t = var) with t another term? Its value
 * in *val. */
static bool eq_on(const logic_grounder *g, const logic_formula *c, int32_t var, uint32_t *val)
{
    if (c->kind != LOGIC_EQ)
        return false;
    logic_term a = c->args[0], b = c->args[1];
    if (a == var && b != var) {
        *val = term(g, b);
        return true;
    }
    if (b == var && a != var) {
        *val = term(g, a);
        return true;
    }
    return false;
}

/* The conjunction cs[0..n) except cs[skip], as a literal. */
static int ground_conj(logic_grounder *g, const logic_formula *const *cs, uint32_t n, uint32_t skip,
                       int pol)
{
    size_t base = g->sp;
    for (uint32_t i = 0; i < n; i++) {
        if (i == skip)
            continue;
        int l = ground(g, cs[i], pol);
        if (l == SAT_FALSE) {
            g->sp = base;
            return SAT_FALSE;
        }
        push(g, l);
    }
    int r = sat_and(g->circ, g->stack + base, g->sp - base);
    g->sp = base;
    return r;
}

/* exists var. cs[0] & ... & cs[n-1]. A conjunct var = t fixes var (one
 * instance, not n); a disjunction one of whose disjuncts fixes var is
 * split into one existential per disjunct (r? ; s, [S] ; r). Else var
 * ranges over the universe. */
static int ground_exists(logic_grounder *g, int32_t var, const logic_formula *const *cs, uint32_t n,
                         int pol, uint32_t depth)
{
    uint32_t val;
    for (uint32_t i = 0; i < n; i++)
        if (eq_on(g, cs[i], var, &val)) {
            set_var(g, var, val);
            return ground_conj(g, cs, n, i, pol);
        }
    for (uint32_t i = 0; depth < 4 && i < n; i++) {
        if (cs[i]->kind != LOGIC_OR)
            continue;
        bool fixes = false;
        for (uint32_t d = 0; d < cs[i]->nkids && !fixes; d++) {
            const logic_formula *ds[MAX_CONJ];
            uint32_t nd = 0;
            if (conjuncts(cs[i]->kids[d], ds, &nd))
                for (uint32_t k = 0; k < nd && !fixes; k++)
                    fixes = eq_on(g, ds[k], var, &val);
        }
        if (!fixes)
            continue;
        size_t base = g->sp;
        for (uint32_t d = 0; d < cs[i]->nkids; d++) {
            const logic_formula *ds[MAX_CONJ];
            uint32_t nd = 0;
            bool fit = conjuncts(cs[i]->kids[d], ds, &nd) && nd + n - 1 <= MAX_CONJ;
            if (!fit) { /* too many conjuncts: the disjunct whole */
                nd = 0;
                ds[nd++] = cs[i]->kids[d];
            }
            for (uint32_t k = 0; k < n; k++)
                if (k != i)
                    ds[nd++] = cs[k];
            int l = ground_exists(g, var, ds, nd, pol, depth + 1);
            if (l == SAT_TRUE) {
                g->sp = base;
                return SAT_TRUE;
            }
            if (l != SAT_FALSE)
                push(g, l);
        }
        int r = sat_or(g->circ, g->stack + base, g->sp - base);
        g->sp = base;
        return r;
    }
    size_t base = g->sp;
    for (uint32_t e = 0; e < g->st->n; e++) {
        set_var(g, var, e);
        int l = ground_conj(g, cs, n, UINT32_MAX, pol);
        if (l == SAT_TRUE) {
            g->sp = base;
            return SAT_TRUE;
        }
        if (l != SAT_FALSE)
            push(g, l);
    }
    int r = sat_or(g->circ, g->stack + base, g->sp - base);
    g->sp = base;
    return r;
}

static int ground(logic_grounder *g, const logic_formula *f, int pol)
{
    if (stopped(g))
        return SAT_FALSE;
    switch (f->kind) {
    case LOGIC_TRUE: return SAT_TRUE;
    case LOGIC_FALSE: return SAT_FALSE;
    case LOGIC_REL: {
        const logic_relation *r = &g->st->rels[f->rel];
        return logic_bit_get(r->bits, tuple(g, r->arity, f->args)) ? SAT_TRUE : SAT_FALSE;
    }
    case LOGIC_SOV: {
        const int *t = logic_ground_table(g, f->sov);
        if (!t) {
            g->status = LOGIC_GROUND_UNBOUND;
            return SAT_FALSE;
        }
        return t[tuple(g, f->sov->arity, f->args)];
    }
    case LOGIC_SOV_MAY: {
        const int *t = logic_ground_table(g, f->sov);
        if (!t) {
            g->status = LOGIC_GROUND_UNBOUND;
            return SAT_FALSE;
        }
        return t[tuple(g, 2, f->args)] != SAT_FALSE ? SAT_TRUE : SAT_FALSE;
    }
    case LOGIC_EQ:
        return term(g, f->args[0]) == term(g, f->args[1]) ? SAT_TRUE : SAT_FALSE;
    case LOGIC_NOT:
        return -ground(g, f->kids[0], -pol);
    case LOGIC_AND:
    case LOGIC_OR: {
        int zero = f->kind == LOGIC_AND ? SAT_FALSE : SAT_TRUE;
        size_t base = g->sp;
        for (uint32_t i = 0; i < f->nkids; i++) {
            int l = ground(g, f->kids[i], pol);
            if (l == zero) {
                g->sp = base;
                return zero;
            }
            push(g, l);
        }
        int r = f->kind == LOGIC_AND ? sat_and(g->circ, g->stack + base, g->sp - base)
                                     : sat_or(g->circ, g->stack + base, g->sp - base);
        g->sp = base;
        return r;
    }
    case LOGIC_IMPLIES: {
        int a = ground(g, f->kids[0], -pol);
        if (a == SAT_FALSE)
            return SAT_TRUE;
        int c = ground(g, f->kids[1], pol);
        return sat_or2(g->circ, -a, c);
    }
    case LOGIC_IFF: {
        int a = ground(g, f->kids[0], BOTH);
        int c = ground(g, f->kids[1], BOTH);
        return sat_iff(g->circ, a, c);
    }
    case LOGIC_FORALL:
    case LOGIC_EXISTS: {
        if (f->kind == LOGIC_EXISTS) {
            const logic_formula *cs[MAX_CONJ];
            uint32_t n = 0;
            if (conjuncts(f->kids[0], cs, &n))
                return ground_exists(g, f->var, cs, n, pol, 0);
        }
        int zero = f->kind == LOGIC_FORALL ? SAT_FALSE : SAT_TRUE;
        size_t base = g->sp;
        for (uint32_t e = 0; e < g->st->n; e++) {
            set_var(g, f->var, e);
            int l = ground(g, f->kids[0], pol);
            if (l == zero) {
                g->sp = base;
                return zero;
            }
            push(g, l);
        }
        int r = f->kind == LOGIC_FORALL ? sat_and(g->circ, g->stack + base, g->sp - base)
                                        : sat_or(g->circ, g->stack + base, g->sp - base);
        g->sp = base;
        return r;
    }
    case LOGIC_SO_EXISTS:
    case LOGIC_SO_FORALL: {
        uint32_t saved;
        if (!so_enter(g, f, pol, &saved))
            return SAT_FALSE;
        declare(g, f->sov);
        int r = ground(g, f->kids[0], pol);
        const logic_formula *d = so_def(g, f->sov);
        /* a defined variable: E w. (w = def) & body, A w. (w = def) -> body */
        if (d && f->kind == LOGIC_SO_EXISTS)
            r = sat_and2(g->circ, ground(g, d, pol), r);
        else if (d)
            r = sat_or2(g->circ, -ground(g, d, -pol), r);
        g->qlevel = saved;
        return r;
    }
    }
    return SAT_FALSE;
}

int logic_ground_lit(logic_grounder *g, const logic_formula *f)
{
    return ground(g, f, POS);
}

/* Adds the clause (context literals on the stack from ctx) \/ f. */
static void assert_f(logic_grounder *g, size_t ctx, const logic_formula *f);

/* Adds the clause: the context literals stack[ctx..sp) or lit. Context
 * literals are never constants (assert_f pushes only non-constant ones). */
static void add_ctx_clause(logic_grounder *g, size_t ctx, int lit)
{
    if (lit == SAT_TRUE)
        return;
    size_t base = g->sp;
    if (lit != SAT_FALSE)
        push(g, lit);
    sat_add_clause(g->circ->solver, g->stack + ctx, g->sp - ctx);
    g->sp = base;
}

static void assert_f(logic_grounder *g, size_t ctx, const logic_formula *f)
{
    if (stopped(g))
        return;
    switch (f->kind) {
    case LOGIC_TRUE:
        return;
    case LOGIC_AND:
        for (uint32_t i = 0; i < f->nkids; i++)
            assert_f(g, ctx, f->kids[i]);
        return;
    case LOGIC_FORALL:
        for (uint32_t e = 0; e < g->st->n; e++) {
            set_var(g, f->var, e);
            assert_f(g, ctx, f->kids[0]);
        }
        return;
    case LOGIC_IMPLIES: {
        int a = ground(g, f->kids[0], NEG);
        if (a == SAT_FALSE)
            return;
        size_t base = g->sp;
        if (a != SAT_TRUE)
            push(g, -a);
        assert_f(g, ctx, f->kids[1]);
        g->sp = base;
        return;
    }
    case LOGIC_OR: {
        size_t base = g->sp;
        for (uint32_t i = 0; i + 1 < f->nkids; i++) {
            int l = ground(g, f->kids[i], POS);
            if (l == SAT_TRUE) {
                g->sp = base;
                return;
            }
            if (l != SAT_FALSE)
                push(g, l);
        }
        assert_f(g, ctx, f->kids[f->nkids - 1]);
        g->sp = base;
        return;
    }
    case LOGIC_NOT: {
        const logic_formula *k = f->kids[0];
        if (k->kind == LOGIC_EXISTS) {
            for (uint32_t e = 0; e < g->st->n; e++) {
                set_var(g, k->var, e);
                logic_formula neg = { .kind = LOGIC_NOT, .nkids = 1, .kids = &k->kids[0] };
                assert_f(g, ctx, &neg);
            }
            return;
        }
        if (k->kind == LOGIC_AND) {
            /* ~(a /\ b /\ c) = ~a \/ ~b \/ ~c */
            size_t base = g->sp;
            for (uint32_t i = 0; i < k->nkids; i++) {
                int l = ground(g, k->kids[i], NEG);
                if (l == SAT_FALSE) {
                    g->sp = base;
                    return;
                }
                if (l != SAT_TRUE)
                    push(g, -l);
            }
            add_ctx_clause(g, ctx, SAT_FALSE);
            g->sp = base;
            return;
        }
        add_ctx_clause(g, ctx, ground(g, f, POS));
        return;
    }
    case LOGIC_SO_FORALL:
    case LOGIC_SO_EXISTS: {
        /* In QBF mode a universal body is asserted as clauses too, unless
         * its variable has a definition: that is an assumption of the body
         * (A w. (w = def) -> body), not a fact to assert. */
        if (f->kind == LOGIC_SO_FORALL && (!g->qbf || so_def(g, f->sov))) {
            add_ctx_clause(g, ctx, ground(g, f, POS)); /* sets NEEDS_QBF */
            return;
        }
        uint32_t saved;
        if (!so_enter(g, f, POS, &saved))
            return;
        declare(g, f->sov);
        const logic_formula *d = so_def(g, f->sov);
        if (d)
            assert_f(g, ctx, d);
        assert_f(g, ctx, f->kids[0]);
        g->qlevel = saved;
        return;
    }
    default:
        add_ctx_clause(g, ctx, ground(g, f, POS));
        return;
    }
}

void logic_ground_assert(logic_grounder *g, const logic_formula *f)
{
    size_t ctx = g->sp;
    assert_f(g, ctx, f);
    g->sp = ctx;
}
