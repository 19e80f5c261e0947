/* smt_term: the term table and the solver-independent folding shared by
 * smt.h's back ends (smt_term.h). */
#include "bmc/smt_term.h"

#include <string.h>

void bmc_smt_terms_init(bmc_smt_terms *t)
{
    memset(t, 0, sizeof *t);
    base_hashmap_init(&t->by_key);
    base_hashmap_init(&t->sel_memo);
    bmc_smt_node none = { 0 };
    base_vec_push(&t->nodes, none); /* handle 0: no term */
}

void bmc_smt_terms_free(bmc_smt_terms *t)
{
    base_vec_free(&t->nodes);
    base_vec_free(&t->keys);
    base_hashmap_free(&t->by_key);
    base_hashmap_free(&t->sel_memo);
}

/* The hash of the key k1 k2 (how it is split does not matter). */
static uint64_t key_hash(const int *k1, uint32_t n1, const int *k2, uint32_t n2)
{
    uint64_t h = n1 + n2;
    for (uint32_t i = 0; i < n1; i++)
        h = base_hash64(h ^ (uint32_t)k1[i]);
    for (uint32_t i = 0; i < n2; i++)
        h = base_hash64(h ^ (uint32_t)k2[i]);
    return h == BASE_HASHMAP_EMPTY ? 0 : h;
}

bmc_smt_term bmc_smt_terms_intern(bmc_smt_terms *t, const int *k1, uint32_t n1, const int *k2,
                                  uint32_t n2, bool *fresh)
{
    uint64_t h = key_hash(k1, n1, k2, n2), head;
    bmc_smt_term first = 0;
    if (base_hashmap_get(&t->by_key, h, &head)) {
        first = (bmc_smt_term)head;
        for (bmc_smt_term x = first; x; x = t->nodes.data[x].next) {
            const bmc_smt_node *q = &t->nodes.data[x];
            const int *k = t->keys.data + q->key;
            if (q->nkey == n1 + n2 && (!n1 || !memcmp(k, k1, n1 * sizeof(int))) &&
                (!n2 || !memcmp(k + n1, k2, n2 * sizeof(int)))) {
                *fresh = false;
                return x;
            }
        }
    }
    bmc_smt_node p = { .key = t->keys.len, .nkey = n1 + n2, .next = first };
    for (uint32_t i = 0; i < n1; i++)
        base_vec_push(&t->keys, k1[i]);
    for (uint32_t i = 0; i < n2; i++)
        base_vec_push(&t->keys, k2[i]);
    bmc_smt_term id = (bmc_smt_term)t->nodes.len;
    base_vec_push(&t->nodes, p);
    base_hashmap_put(&t->by_key, h, id);
    *fresh = true;
    return id;
}

uint32_t bmc_smt_terms_width(const bmc_smt_terms *t, bmc_smt_term a)
{
    const bmc_smt_node *n = bmc_smt_terms_node(t, a);
    return n->kind == BMC_SMT_K_BV ? n->width : 0;
}

bool bmc_smt_terms_bv_value(const bmc_smt_terms *t, bmc_smt_term a, uint64_t *v)
{
    const bmc_smt_node *n = bmc_smt_terms_node(t, a);
    if (n->kind != BMC_SMT_K_BV || !n->is_const || n->width > 64)
        return false;
    *v = n->val;
    return true;
}

size_t bmc_smt_terms_bv_leaves(const bmc_smt_terms *t, bmc_smt_term a, uint64_t *out, size_t max)
{
    const bmc_smt_node *n = bmc_smt_terms_node(t, a);
    if (n->kind != BMC_SMT_K_BV || !n->leaves || n->leaves > max || n->width > 64)
        return 0;
    if (n->is_const) {
        out[0] = n->val;
        return 1;
    }
    size_t k = bmc_smt_terms_bv_leaves(t, n->b, out, max);
    if (!k)
        return 0;
    size_t m = bmc_smt_terms_bv_leaves(t, n->c, out + k, max - k);
    return m ? k + m : 0;
}

size_t bmc_smt_terms_count(const bmc_smt_terms *t)
{
    return t->nodes.len - 1;
}

uint32_t bmc_smt_terms_ite_leaves(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term b)
{
    uint32_t la = bmc_smt_terms_node(t, a)->leaves, lb = bmc_smt_terms_node(t, b)->leaves;
    uint32_t n = la && lb ? la + lb : 0;
    return n <= BMC_SMT_MAX_LEAVES ? n : 0;
}

bool bmc_smt_terms_split2(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term b, bmc_smt_term *c,
                          bmc_smt_term *a1, bmc_smt_term *a2, bmc_smt_term *b1, bmc_smt_term *b2)
{
    const bmc_smt_node *ta = bmc_smt_terms_node(t, a), *tb = bmc_smt_terms_node(t, b);
    if (ta->kind != BMC_SMT_K_BV || !ta->leaves || !tb->leaves ||
        (ta->leaves < 2 && tb->leaves < 2) || ta->leaves * tb->leaves > BMC_SMT_MAX_LEAVES)
        return false;
    bool ia = ta->leaves > 1, same = ia && tb->leaves > 1 && tb->a == ta->a;
    *c = ia ? ta->a : tb->a;
    *a1 = ia ? ta->b : a;
    *a2 = ia ? ta->c : a;
    *b1 = ia && !same ? b : tb->b;
    *b2 = ia && !same ? b : tb->c;
    return true;
}

bool bmc_smt_terms_split1(const bmc_smt_terms *t, bmc_smt_term a, bmc_smt_term *c,
                          bmc_smt_term *a1, bmc_smt_term *a2)
{
    const bmc_smt_node *ta = bmc_smt_terms_node(t, a);
    if (ta->kind != BMC_SMT_K_BV || ta->leaves < 2)
        return false;
    *c = ta->a;
    *a1 = ta->b;
    *a2 = ta->c;
    return true;
}

bool bmc_smt_terms_memo_get(const bmc_smt_terms *t, bmc_smt_term arr, bmc_smt_term idx,
                            bmc_smt_term *r)
{
    uint64_t v;
    if (!base_hashmap_get(&t->sel_memo, (uint64_t)arr << 32 | idx, &v))
        return false;
    *r = (bmc_smt_term)v;
    return true;
}

void bmc_smt_terms_memo_put(bmc_smt_terms *t, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term r)
{
    base_hashmap_put(&t->sel_memo, (uint64_t)arr << 32 | idx, r);
}

uint64_t bmc_smt_mask(uint32_t w)
{
    return w >= 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
}

int64_t bmc_smt_signed(uint64_t v, uint32_t w)
{
    if (w >= 64)
        return (int64_t)v;
    uint64_t m = (uint64_t)1 << (w - 1);
    return (int64_t)((v ^ m) - m);
}

bool bmc_smt_fold_bvop(bmc_smt_bvop op, uint32_t w, uint64_t a, uint64_t b, uint64_t *r)
{
    uint64_t m = bmc_smt_mask(w);
    int64_t sa = bmc_smt_signed(a, w), sb = bmc_smt_signed(b, w);
    switch (op) {
    case BMC_SMT_BV_ADD: *r = a + b; break;
    case BMC_SMT_BV_SUB: *r = a - b; break;
    case BMC_SMT_BV_MUL: *r = a * b; break;
    case BMC_SMT_BV_UDIV: *r = b ? a / b : m; break;
    case BMC_SMT_BV_UREM: *r = b ? a % b : a; break;
    case BMC_SMT_BV_SDIV:
        if (b == 0)
            *r = sa < 0 ? 1 : m;
        else if (sb == -1)
            *r = (uint64_t)0 - a; /* wraps for the minimum */
        else
            *r = (uint64_t)(sa / sb);
        break;
    case BMC_SMT_BV_SREM:
        if (b == 0)
            *r = a;
        else if (sb == -1)
            *r = 0;
        else
            *r = (uint64_t)(sa % sb);
        break;
    case BMC_SMT_BV_SHL: *r = b >= w ? 0 : a << b; break;
    case BMC_SMT_BV_LSHR: *r = b >= w ? 0 : a >> b; break;
    case BMC_SMT_BV_ASHR:
        if (b >= w)
            *r = sa < 0 ? m : 0;
        else
            *r = sa < 0 ? ~(~(uint64_t)sa >> b) : (uint64_t)sa >> b;
        break;
    case BMC_SMT_BV_AND: *r = a & b; break;
    case BMC_SMT_BV_OR: *r = a | b; break;
    case BMC_SMT_BV_XOR: *r = a ^ b; break;
    default: return false;
    }
    *r &= m;
    return true;
}

bool bmc_smt_fold_cmp(bmc_smt_cmp op, uint32_t w, uint64_t a, uint64_t b)
{
    switch (op) {
    case BMC_SMT_ULT: return a < b;
    case BMC_SMT_ULE: return a <= b;
    case BMC_SMT_SLT: return bmc_smt_signed(a, w) < bmc_smt_signed(b, w);
    default: return bmc_smt_signed(a, w) <= bmc_smt_signed(b, w);
    }
}

static bool is_zero(const bmc_smt_node *n)
{
    return n->is_const && n->val == 0 && n->width <= 64;
}

bmc_smt_term bmc_smt_terms_fold_unit(const bmc_smt_terms *t, bmc_smt_bvop op, bmc_smt_term a,
                                     bmc_smt_term b)
{
    bool sym = op == BMC_SMT_BV_ADD || op == BMC_SMT_BV_OR || op == BMC_SMT_BV_XOR;
    if (is_zero(bmc_smt_terms_node(t, b)) &&
        (sym || op == BMC_SMT_BV_SUB || op == BMC_SMT_BV_SHL || op == BMC_SMT_BV_LSHR ||
         op == BMC_SMT_BV_ASHR))
        return a;
    if (is_zero(bmc_smt_terms_node(t, a)) && sym)
        return b;
    return 0;
}
