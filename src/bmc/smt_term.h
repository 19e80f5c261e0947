/* smt_term: the term layer both back ends of smt.h build on (smt_z3.c,
 * smt_cadical.c) — what a term is apart from any solver.
 *
 * A table of nodes indexed by bmc_smt_term (handle 0: no term), each with
 * its sort (Bool, bit-vector of `width`, array), its constant value when it
 * is a constant of at most 64 bits, its number of leaves when it is an ite
 * tree over constants, and for array stores, constant arrays and ites their
 * operands. Hash-consing: a node is made once per key, a string of ints the
 * back end chooses (Z3: its ast, which Z3 hash-conses; CaDiCaL: operator,
 * operands and literals), so equal keys give equal handles. The rest is
 * what both back ends fold with: the queries smt.h's bmc_smt_is_true/false,
 * bmc_smt_width, bmc_smt_bv_value and bmc_smt_bv_leaves answer from the
 * table alone, word-level constant folding (the SMT-LIB semantics, division
 * by zero included), the splitting of ite trees over constants that
 * operations are distributed over, the memo of selects and the statistics.
 * Only smt.c and the back ends include this header. */
#ifndef RAVEL_BMC_SMT_TERM_H
#define RAVEL_BMC_SMT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "base/vec.h"
#include "bmc/smt.h"

enum { BMC_SMT_K_BOOL, BMC_SMT_K_BV, BMC_SMT_K_ARRAY };
/* Node operators the folding looks through (other terms: NONE). VAR: an
 * array variable of the CaDiCaL back end. */
enum { BMC_SMT_OP_NONE, BMC_SMT_OP_STORE, BMC_SMT_OP_CONSTARR, BMC_SMT_OP_ITE, BMC_SMT_OP_VAR };

/* ite trees over constants (a pointer that may point to one of a few
 * objects) are kept as such: operations with constants are distributed
 * over them (up to this many leaves), so addresses stay resolvable. */
#define BMC_SMT_MAX_LEAVES 16

typedef struct bmc_smt_node {
    uint8_t kind, op;
    bool is_const;
    uint32_t width;       /* BV: bits; ARRAY: element bits */
    uint32_t idx_width;   /* ARRAY */
    uint64_t val;         /* is_const (and at most 64 bits): the value (Bool: 0/1) */
    uint32_t leaves;      /* bit-vectors: 1 for a constant, n for an ite tree over n
                             constants (n <= BMC_SMT_MAX_LEAVES), else 0 */
    bmc_smt_term a, b, c; /* STORE: array, index, value; CONSTARR: element;
                             ITE: condition, then, else; VAR: a serial */
    bmc_smt_term next;    /* the next node whose key has the same hash */
    uint32_t aux;         /* the back end's (CaDiCaL: an array variable's selects) */
    uint32_t nkey;
    size_t key;           /* offset of the key in the table's keys */
} bmc_smt_node;

typedef struct bmc_smt_terms {
    BASE_VEC(bmc_smt_node) nodes;
    BASE_VEC(int) keys;
    base_hashmap by_key;   /* key hash -> the last node made with that hash */
    base_hashmap sel_memo; /* (array << 32 | index) -> the select's term */
    bmc_smt_term t_true, t_false; /* set by the back end */
    size_t nasserts, nselects;    /* counted by the back end */
} bmc_smt_terms;

void bmc_smt_terms_init(bmc_smt_terms *t);
void bmc_smt_terms_free(bmc_smt_terms *t);

/* The node of the key k1 (n1 ints) followed by k2 (n2 ints) — one string
 * of ints however it is split: found, or made (zeroed but for its key;
 * *fresh says so, and the caller fills it in). A
 * pointer into the table stays valid only until the next node is made. */
bmc_smt_term bmc_smt_terms_intern(bmc_smt_terms *t, const int *k1, uint32_t n1, const int *k2,
                                  uint32_t n2, bool *fresh);

static inline bmc_smt_node *bmc_smt_terms_node(const bmc_smt_terms *t, bmc_smt_term h)
{
    return &t->nodes.data[h];
}

static inline const int *bmc_smt_terms_key(const bmc_smt_terms *t, bmc_smt_term h)
{
    return t->keys.data + t->nodes.data[h].key;
}

/* smt.h's queries, from the table alone. */
uint32_t bmc_smt_terms_width(const bmc_smt_terms *t, bmc_smt_term a);
bool bmc_smt_terms_bv_value(const bmc_smt_terms *t, bmc_smt_term a, uint64_t *v);
size_t bmc_smt_terms_bv_leaves(const bmc_smt_terms *t, bmc_smt_term a, uint64_t *out, size_t max);
size_t bmc_smt_terms_count(const bmc_smt_terms *t); /* terms made, handle 0 aside */

/* The leaves of ite(c, a, b): the sum of a's and b's when both are ite
 * trees over constants (or constants) and it is at most
 * BMC_SMT_MAX_LEAVES, else 0. */
uint32_t bmc_smt_terms_ite_leaves(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term b);
/* When one of a, b is an ite tree over constants and the other a constant
 * or such a tree (small enough), splits them on one condition so that an
 * operation can be distributed: op(a, b) = ite(c, op(a1, b1), op(a2, b2)). */
bool bmc_smt_terms_split2(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term b, bmc_smt_term *c,
                          bmc_smt_term *a1, bmc_smt_term *a2, bmc_smt_term *b1, bmc_smt_term *b2);
/* The same for one operand: op(a) = ite(c, op(a1), op(a2)). */
bool bmc_smt_terms_split1(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term *c,
                          bmc_smt_term *a1, bmc_smt_term *a2);

/* The select memo, keyed on (array, index). */
bool bmc_smt_terms_memo_get(const bmc_smt_terms *t, bmc_smt_term arr, bmc_smt_term idx,
                            bmc_smt_term *r);
void bmc_smt_terms_memo_put(bmc_smt_terms *t, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term r);

/* Word-level folding on values of width w <= 64. */
uint64_t bmc_smt_mask(uint32_t w);             /* the w low bits */
int64_t bmc_smt_signed(uint64_t v, uint32_t w); /* v's w bits read as signed */
/* *r = op(a, b) (SMT-LIB's results for a zero divisor and over-wide
 * shifts); false for an op outside bmc_smt_bvop. */
bool bmc_smt_fold_bvop(bmc_smt_bvop op, uint32_t w, uint64_t a, uint64_t b, uint64_t *r);
bool bmc_smt_fold_cmp(bmc_smt_cmp op, uint32_t w, uint64_t a, uint64_t b);
/* op(a, b) when it is one of its operands without computing (x + 0,
 * 0 | x, x << 0, ...), else 0. */
bmc_smt_term bmc_smt_terms_fold_unit(const bmc_smt_terms *t, bmc_smt_bvop op, bmc_smt_term a,
                                     bmc_smt_term b);

#endif
