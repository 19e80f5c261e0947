/* formula: second-order formulas over a finite structure (PrideMM §2).
 *
 * A formula is a tree of logic_formula nodes allocated in a logic_builder's
 * arena. First-order variables range over the universe; second-order
 * variables (SO variables) range over relations of arity 1 or 2. Terms are
 * first-order variables or constants (universe elements).
 *
 * Relations are also written as relational expressions (logic_rexpr), the
 * algebra of herd's cat language: union, intersection, difference,
 * sequence, inverse, identity on a set, products of sets. logic_apply turns
 * an expression applied to terms into a formula; the combinators
 * (combinators.h) are built on it.
 *
 * An SO variable may carry a bound (as in Kodkod): a relational expression
 * whose ground value over-approximates every value the variable may take,
 * optionally closed transitively and minus an excluded relation. Tuples
 * outside the bound are the constant false, which is what keeps grounding
 * small (PrideMM §5: fixed relations become constants).
 *
 * Invariant: nodes are immutable once built and may be shared (a DAG). */
#ifndef RAVEL_LOGIC_FORMULA_H
#define RAVEL_LOGIC_FORMULA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "logic/structure.h"

/* A term: a first-order variable (>= 0) or a constant element e, written
 * logic_const(e) (< 0). */
typedef int32_t logic_term;
static inline logic_term logic_const(uint32_t elem) { return -(int32_t)elem - 1; }
static inline bool logic_term_is_const(logic_term t) { return t < 0; }
static inline uint32_t logic_term_elem(logic_term t) { return (uint32_t)(-(t + 1)); }

typedef struct logic_rexpr logic_rexpr;

/* A second-order variable. */
typedef struct logic_sovar {
    const char *name;
    uint32_t id;
    uint32_t arity;
    const logic_rexpr *bound;   /* NULL: every tuple is possible */
    bool bound_closure;         /* close the bound transitively */
    /* Instead: the bound is the fill graph of (bound minus exclude) under a
     * vertex elimination order the grounder picks. Eliminating v adds u -> w
     * for every remaining u -> v and v -> w (u != w, not excluded). A path
     * whose inner vertices are all eliminated before its ends gives an edge
     * of the fill graph, so transitivity asserted only where its conclusion
     * is in the bound (LOGIC_SOV_MAY) and asymmetry still contract every
     * cycle to a contradiction (logic_acyclic). Arity 2 only. */
    bool bound_elim;
    const logic_rexpr *exclude; /* NULL, or a fixed relation removed from the bound */
    /* NULL, or the tuples the variable may hold as bit rows (arity 2: n
     * rows, arity 1: one row, each of n/64+1 words; bit c of row a is the
     * tuple (a, c)), computed before grounding: intersected with the bound. */
    const uint64_t *bound_bits;
    /* NULL, or tuples (bit rows as bound_bits) that hold in every model of
     * the formulas the variable is used in (a consequence of them, e.g. the
     * events every maximal configuration runs): the grounder makes them the
     * constant true instead of SAT variables. */
    const uint64_t *must_bits;
    /* NULL, or an expression the variable equals (an exact definition
     * w <-> def, by the variable's creator, over SO variables declared
     * before it): the grounder makes the variable's table def's ground
     * literals, tuple by tuple, with no variables or clauses of its own, so
     * that what is fixed by the structure stays a constant (in QBF mode:
     * fresh variables and the clauses of w <-> def). */
    const logic_rexpr *def;
} logic_sovar;

typedef enum logic_kind {
    LOGIC_TRUE,
    LOGIC_FALSE,
    LOGIC_REL,       /* a structure relation applied to terms */
    LOGIC_SOV,       /* an SO variable applied to terms */
    LOGIC_EQ,        /* term = term */
    LOGIC_NOT,
    LOGIC_AND,
    LOGIC_OR,
    LOGIC_IMPLIES,
    LOGIC_IFF,
    LOGIC_FORALL,    /* first-order */
    LOGIC_EXISTS,
    LOGIC_SO_EXISTS, /* second-order */
    LOGIC_SO_FORALL,
    LOGIC_SOV_MAY,   /* the tuple lies in an SO variable's bound (fixed once it is declared) */
} logic_kind;

typedef struct logic_formula logic_formula;
struct logic_formula {
    logic_kind kind;
    uint32_t nkids;
    const logic_formula **kids; /* NOT, AND, OR, IMPLIES, IFF, quantifiers */
    uint32_t rel;               /* REL: structure relation index */
    const logic_sovar *sov;     /* SOV, SO_EXISTS, SO_FORALL, SOV_MAY */
    logic_term args[2];         /* REL, SOV, SOV_MAY: arity many; EQ: both */
    int32_t var;                /* FORALL, EXISTS: the bound variable */
};

typedef enum logic_rkind {
    LOGIC_R_EMPTY,
    LOGIC_R_REL,     /* structure relation (arity 1 or 2) */
    LOGIC_R_SOV,     /* SO variable (arity 1 or 2) */
    LOGIC_R_UNION,
    LOGIC_R_INTER,
    LOGIC_R_DIFF,
    LOGIC_R_SEQ,     /* binary: a;b */
    LOGIC_R_INV,     /* binary: a^-1 */
    LOGIC_R_ID,      /* [S]: identity on a set */
    LOGIC_R_PROD,    /* S*T */
    LOGIC_R_ALL,     /* every element (arity 1) or pair (arity 2) */
    LOGIC_R_FORMULA, /* a formula with two free variables (or one, for sets) */
} logic_rkind;

/* A relational expression of arity 1 (a set) or 2 (a binary relation). */
struct logic_rexpr {
    logic_rkind kind;
    uint32_t arity;
    const logic_rexpr *a, *b;
    uint32_t rel;
    const logic_sovar *sov;
    const logic_formula *body; /* FORMULA: free variables fv[0], fv[1] */
    int32_t fv[2];
};

/* A constraint a builder in lazy mode deferred (logic_builder.lazy). */
typedef enum logic_lazy_kind {
    LOGIC_LAZY_ACYCLIC, /* acyclic(r) (logic_acyclic; a total order's transitivity) */
    LOGIC_LAZY_TRANS,   /* r transitive (r an SO variable: logic_plus) */
} logic_lazy_kind;

typedef struct logic_lazy {
    logic_lazy_kind kind;
    const char *name;
    const logic_rexpr *r;
    const struct logic_lazy *next;
} logic_lazy;

typedef struct logic_builder {
    base_arena arena;
    const logic_structure *st;
    int32_t nvars;   /* first-order variables handed out */
    uint32_t nsov;   /* SO variables handed out */
    const char *error; /* first construction error (unknown relation), or NULL */
    /* The model's named checks, newest first (logic/check.h). */
    const struct logic_check *checks;
    uint32_t nchecks;
    /* Lazy mode (set before building; po_mm's refinement): logic_acyclic,
     * the transitivity of logic_plus's variable and of logic_total_on's
     * order are left out of the formulas built and listed in `deferred`
     * (newest first), for a caller that checks them in each model it gets
     * and adds the clauses a model breaks (a cycle, a triangle) until none
     * is broken. Equivalent only where these constructs stand in positive
     * position, conjoined up to the top (the built-in models; a caller
     * must not use lazy mode for formulas that negate them). */
    bool lazy;
    const logic_lazy *deferred;
} logic_builder;

void logic_builder_init(logic_builder *b, const logic_structure *st);
void logic_builder_free(logic_builder *b);
int32_t logic_fresh_var(logic_builder *b);
logic_sovar *logic_new_sovar(logic_builder *b, const char *name, uint32_t arity);

/* Formulas. */
const logic_formula *logic_true(logic_builder *b);
const logic_formula *logic_false(logic_builder *b);
const logic_formula *logic_rel1(logic_builder *b, uint32_t rel, logic_term x);
const logic_formula *logic_rel2(logic_builder *b, uint32_t rel, logic_term x, logic_term y);
const logic_formula *logic_sov1(logic_builder *b, const logic_sovar *v, logic_term x);
const logic_formula *logic_sov2(logic_builder *b, const logic_sovar *v, logic_term x, logic_term y);
/* (x, y) lies in v's bound: a constant once v is declared. */
const logic_formula *logic_sov_may2(logic_builder *b, const logic_sovar *v, logic_term x, logic_term y);
const logic_formula *logic_eq(logic_builder *b, logic_term x, logic_term y);
const logic_formula *logic_not(logic_builder *b, const logic_formula *f);
const logic_formula *logic_and2(logic_builder *b, const logic_formula *f, const logic_formula *g);
const logic_formula *logic_or2(logic_builder *b, const logic_formula *f, const logic_formula *g);
const logic_formula *logic_and(logic_builder *b, const logic_formula **fs, uint32_t n);
const logic_formula *logic_or(logic_builder *b, const logic_formula **fs, uint32_t n);
const logic_formula *logic_implies(logic_builder *b, const logic_formula *f, const logic_formula *g);
const logic_formula *logic_iff(logic_builder *b, const logic_formula *f, const logic_formula *g);
const logic_formula *logic_forall(logic_builder *b, int32_t var, const logic_formula *body);
const logic_formula *logic_exists(logic_builder *b, int32_t var, const logic_formula *body);
const logic_formula *logic_so_exists(logic_builder *b, const logic_sovar *v, const logic_formula *body);
const logic_formula *logic_so_forall(logic_builder *b, const logic_sovar *v, const logic_formula *body);

/* Relational expressions. logic_named looks a structure relation up by
 * name; a name the structure lacks is the empty relation of that arity
 * (models name annotations that a test may not use). */
const logic_rexpr *logic_named(logic_builder *b, const char *name, uint32_t arity);
const logic_rexpr *logic_r_rel(logic_builder *b, uint32_t rel);
const logic_rexpr *logic_r_sov(logic_builder *b, const logic_sovar *v);
const logic_rexpr *logic_r_empty(logic_builder *b, uint32_t arity);
const logic_rexpr *logic_r_all(logic_builder *b, uint32_t arity);
const logic_rexpr *logic_union(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y);
const logic_rexpr *logic_inter(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y);
const logic_rexpr *logic_diff(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y);
const logic_rexpr *logic_seq(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y);
const logic_rexpr *logic_inv(logic_builder *b, const logic_rexpr *x);
const logic_rexpr *logic_id(logic_builder *b, const logic_rexpr *set);
const logic_rexpr *logic_prod(logic_builder *b, const logic_rexpr *s, const logic_rexpr *t);
/* [S];r;[T] — restrict a relation's domain and range. */
const logic_rexpr *logic_restrict(logic_builder *b, const logic_rexpr *s, const logic_rexpr *r,
                                  const logic_rexpr *t);
/* A relation defined by a formula over free variables x (and y). */
const logic_rexpr *logic_r_formula(logic_builder *b, uint32_t arity, int32_t x, int32_t y,
                                   const logic_formula *body);
/* The formula r(x, y) (or r(x) for sets). */
const logic_formula *logic_apply(logic_builder *b, const logic_rexpr *r, logic_term x, logic_term y);

/* Renders a formula for debugging and --dump-formula. */
struct base_strbuf;
void logic_formula_print(const logic_builder *b, const logic_formula *f, struct base_strbuf *out);

#endif
