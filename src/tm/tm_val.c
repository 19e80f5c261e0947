/* tm_val: intervals and pointer target sets, see tm_val.h. */
#include "tm/tm_val.h"

#include <string.h>

tm_val tm_val_bot(void)
{
    tm_val v;
    memset(&v, 0, sizeof v);
    v.bot = true;
    return v;
}

static bool is_ptr_type(const ir_type *ty)
{
    return ty && ty->kind == IR_T_PTR;
}

static bool is_int_type(const ir_type *ty)
{
    return ty && ty->kind == IR_T_INT && ty->bits >= 1 && ty->bits <= 64;
}

bool tm_type_range(const ir_type *ty, int64_t *lo, int64_t *hi)
{
    if (!is_int_type(ty))
        return false;
    uint32_t b = ty->bits;
    if (ty->is_signed) {
        *lo = b == 64 ? INT64_MIN : -((int64_t)1 << (b - 1));
        *hi = b == 64 ? INT64_MAX : ((int64_t)1 << (b - 1)) - 1;
        return true;
    }
    if (b == 64)
        return false;
    *lo = 0;
    *hi = (int64_t)(((uint64_t)1 << b) - 1);
    return true;
}

tm_val tm_val_top(const ir_type *ty)
{
    tm_val v;
    memset(&v, 0, sizeof v);
    if (is_ptr_type(ty)) {
        v.ptr = true;
        v.null = true;
        v.unknown = true;
        return v;
    }
    int64_t lo, hi;
    if (tm_type_range(ty, &lo, &hi)) {
        v.lo = lo;
        v.hi = hi;
    } else {
        v.top = true;
    }
    return v;
}

tm_val tm_val_const(int64_t c)
{
    tm_val v;
    memset(&v, 0, sizeof v);
    v.lo = v.hi = c;
    return v;
}

tm_val tm_val_range(const ir_type *ty, int64_t lo, int64_t hi)
{
    int64_t tl, th;
    if (lo > hi)
        return tm_val_bot();
    if (!tm_type_range(ty, &tl, &th)) {
        if (ty && ty->kind == IR_T_INT && !ty->is_signed && lo >= 0) {
            tm_val v = tm_val_const(lo);
            v.hi = hi;
            return v;
        }
        return tm_val_top(ty);
    }
    if (lo < tl || hi > th)
        return tm_val_top(ty);
    tm_val v = tm_val_const(lo);
    v.hi = hi;
    return v;
}

tm_val tm_val_null(void)
{
    tm_val v;
    memset(&v, 0, sizeof v);
    v.ptr = true;
    v.null = true;
    return v;
}

tm_val tm_val_addr(uint32_t global)
{
    tm_val v;
    memset(&v, 0, sizeof v);
    v.ptr = true;
    v.nt = 1;
    v.t[0] = global;
    return v;
}

tm_val tm_val_zero(const ir_type *ty)
{
    if (is_ptr_type(ty))
        return tm_val_null();
    if (is_int_type(ty))
        return tm_val_const(0);
    return tm_val_top(ty);
}

static tm_val ptr_join(tm_val a, tm_val b)
{
    tm_val v = a;
    v.null = a.null || b.null;
    v.unknown = a.unknown || b.unknown;
    for (uint32_t i = 0; i < b.nt && !v.unknown; i++) {
        bool have = false;
        for (uint32_t j = 0; j < v.nt; j++)
            have = have || v.t[j] == b.t[i];
        if (have)
            continue;
        if (v.nt == TM_VAL_TARGETS) {
            v.unknown = true;
            break;
        }
        uint32_t k = v.nt++;
        while (k > 0 && v.t[k - 1] > b.t[i]) {
            v.t[k] = v.t[k - 1];
            k--;
        }
        v.t[k] = b.t[i];
    }
    if (v.unknown)
        v.nt = 0;
    return v;
}

tm_val tm_val_join(tm_val a, tm_val b)
{
    if (a.bot)
        return b;
    if (b.bot)
        return a;
    if (a.ptr || b.ptr) {
        if (!a.ptr || !b.ptr) { /* an integer met a pointer: anything */
            tm_val v = tm_val_null();
            v.unknown = true;
            return v;
        }
        return ptr_join(a, b);
    }
    if (a.top || b.top) {
        tm_val v = a.top ? a : b;
        return v;
    }
    tm_val v = a;
    v.lo = a.lo < b.lo ? a.lo : b.lo;
    v.hi = a.hi > b.hi ? a.hi : b.hi;
    return v;
}

tm_val tm_val_widen(const ir_type *ty, tm_val a, tm_val b)
{
    tm_val j = tm_val_join(a, b);
    if (a.bot || j.ptr || j.top)
        return j;
    int64_t tl, th;
    if (!tm_type_range(ty, &tl, &th)) {
        if (j.lo < a.lo || j.hi > a.hi)
            return tm_val_top(ty);
        return j;
    }
    if (j.lo < a.lo)
        j.lo = tl;
    if (j.hi > a.hi)
        j.hi = th;
    return j;
}

bool tm_val_eq(tm_val a, tm_val b)
{
    return tm_val_leq(a, b) && tm_val_leq(b, a);
}

bool tm_val_leq(tm_val a, tm_val b)
{
    if (a.bot)
        return true;
    if (b.bot)
        return false;
    if (a.ptr != b.ptr)
        return false;
    if (a.ptr) {
        if ((a.null && !b.null) || (a.unknown && !b.unknown))
            return false;
        if (b.unknown)
            return true;
        for (uint32_t i = 0; i < a.nt; i++) {
            bool have = false;
            for (uint32_t j = 0; j < b.nt; j++)
                have = have || a.t[i] == b.t[j];
            if (!have)
                return false;
        }
        return true;
    }
    if (b.top)
        return true;
    if (a.top)
        return false;
    return b.lo <= a.lo && a.hi <= b.hi;
}

bool tm_val_may_zero(tm_val a)
{
    if (a.bot)
        return false;
    if (a.ptr)
        return a.null || a.unknown;
    return a.top || (a.lo <= 0 && 0 <= a.hi);
}

bool tm_val_may_nonzero(tm_val a)
{
    if (a.bot)
        return false;
    if (a.ptr)
        return a.nt > 0 || a.unknown;
    return a.top || a.lo != 0 || a.hi != 0;
}

static bool is_const(tm_val a, int64_t *c)
{
    if (a.bot || a.ptr || a.top || a.lo != a.hi)
        return false;
    *c = a.lo;
    return true;
}

/* A boolean result: [0,1] narrowed by what is certain. */
static tm_val boolean(bool may_true, bool may_false)
{
    tm_val v = tm_val_const(may_true ? 1 : 0);
    if (may_true && may_false)
        v.lo = 0;
    return v;
}

tm_val tm_val_unary(ir_op op, const ir_type *ty, tm_val a)
{
    if (a.bot)
        return a;
    if (op == IR_OP_LNOT)
        return boolean(tm_val_may_zero(a), tm_val_may_nonzero(a));
    if (a.ptr || a.top)
        return tm_val_top(ty);
    if (op == IR_OP_NEG) {
        if (a.lo == INT64_MIN)
            return tm_val_top(ty);
        return tm_val_range(ty, -a.hi, -a.lo);
    }
    if (op == IR_OP_BITNOT && ty && ty->is_signed)
        return tm_val_range(ty, ~a.hi, ~a.lo);
    int64_t c;
    if (op == IR_OP_BITNOT && is_const(a, &c) && ty && ty->kind == IR_T_INT) {
        uint64_t m = ty->bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << ty->bits) - 1);
        uint64_t r = ~(uint64_t)c & m;
        if (r > (uint64_t)INT64_MAX)
            return tm_val_top(ty);
        return tm_val_const((int64_t)r);
    }
    return tm_val_top(ty);
}

/* Comparison of two integer intervals. */
static tm_val compare(ir_op op, tm_val a, tm_val b)
{
    if (a.top || b.top)
        return boolean(true, true);
    bool t = true, f = true; /* may be true, may be false */
    switch (op) {
    case IR_OP_EQ:
        t = !(a.hi < b.lo || b.hi < a.lo);
        f = !(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
        break;
    case IR_OP_NE:
        f = !(a.hi < b.lo || b.hi < a.lo);
        t = !(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
        break;
    case IR_OP_LT:
        t = a.lo < b.hi;
        f = a.hi >= b.lo;
        break;
    case IR_OP_LE:
        t = a.lo <= b.hi;
        f = a.hi > b.lo;
        break;
    case IR_OP_GT:
        t = a.hi > b.lo;
        f = a.lo <= b.hi;
        break;
    case IR_OP_GE:
        t = a.hi >= b.lo;
        f = a.lo < b.hi;
        break;
    default:
        break;
    }
    return boolean(t, f);
}

static tm_val ptr_compare(ir_op op, tm_val a, tm_val b)
{
    if (op != IR_OP_EQ && op != IR_OP_NE)
        return boolean(true, true);
    /* definitely equal: both NULL only */
    bool a_null_only = a.ptr && a.null && !a.unknown && a.nt == 0;
    bool b_null_only = b.ptr && b.null && !b.unknown && b.nt == 0;
    bool eq_may = true, eq_sure = a_null_only && b_null_only;
    if (a_null_only && b.ptr && !b.null && !b.unknown)
        eq_may = false;
    if (b_null_only && a.ptr && !a.null && !a.unknown)
        eq_may = false;
    return op == IR_OP_EQ ? boolean(eq_may, !eq_sure) : boolean(!eq_sure, eq_may);
}

/* [lo, hi] (exact results) at type ty: an unsigned type below 64 bits
 * wraps modulo 2^bits, which keeps the interval when all of it wraps by
 * the same multiple; anything else outside the range is the whole range
 * (signed overflow). */
static tm_val wrap_range(const ir_type *ty, int64_t lo, int64_t hi)
{
    if (ty && ty->kind == IR_T_INT && !ty->is_signed && ty->bits >= 1 && ty->bits < 64 &&
        lo <= hi) {
        int64_t m = (int64_t)1 << ty->bits;
        int64_t qlo = lo >= 0 ? lo / m : -((-lo + m - 1) / m);
        int64_t qhi = hi >= 0 ? hi / m : -((-hi + m - 1) / m);
        if (qlo == qhi && qlo != 0)
            return tm_val_range(ty, lo - qlo * m, hi - qlo * m);
    }
    return tm_val_range(ty, lo, hi);
}

tm_val tm_val_binary(ir_op op, const ir_type *ty, tm_val a, tm_val b)
{
    if (a.bot || b.bot)
        return tm_val_bot();
    switch (op) {
    case IR_OP_LAND: {
        bool t = tm_val_may_nonzero(a) && tm_val_may_nonzero(b);
        bool f = tm_val_may_zero(a) || tm_val_may_zero(b);
        return boolean(t, f);
    }
    case IR_OP_LOR: {
        bool t = tm_val_may_nonzero(a) || tm_val_may_nonzero(b);
        bool f = tm_val_may_zero(a) && tm_val_may_zero(b);
        return boolean(t, f);
    }
    case IR_OP_EQ: case IR_OP_NE: case IR_OP_LT: case IR_OP_LE: case IR_OP_GT: case IR_OP_GE:
        if (a.ptr || b.ptr) {
            /* an integer constant 0 compared with a pointer is NULL */
            int64_t c;
            if (!a.ptr && is_const(a, &c) && c == 0)
                a = tm_val_null();
            if (!b.ptr && is_const(b, &c) && c == 0)
                b = tm_val_null();
            if (a.ptr && b.ptr)
                return ptr_compare(op, a, b);
            return boolean(true, true);
        }
        return compare(op, a, b);
    case IR_OP_PTR_ADD: {
        int64_t c;
        if (a.ptr && is_const(b, &c) && c == 0)
            return a;
        return tm_val_top(ty);
    }
    default:
        break;
    }
    if (a.ptr || b.ptr || a.top || b.top)
        return tm_val_top(ty);
    int64_t lo = 0, hi = 0, c1, c2;
    switch (op) {
    case IR_OP_ADD:
        if (__builtin_add_overflow(a.lo, b.lo, &lo) || __builtin_add_overflow(a.hi, b.hi, &hi))
            return tm_val_top(ty);
        return wrap_range(ty, lo, hi);
    case IR_OP_SUB:
        if (__builtin_sub_overflow(a.lo, b.hi, &lo) || __builtin_sub_overflow(a.hi, b.lo, &hi))
            return tm_val_top(ty);
        return wrap_range(ty, lo, hi);
    case IR_OP_MUL: {
        int64_t xs[2] = { a.lo, a.hi }, ys[2] = { b.lo, b.hi };
        bool first = true;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                int64_t r;
                if (__builtin_mul_overflow(xs[i], ys[j], &r))
                    return tm_val_top(ty);
                if (first || r < lo)
                    lo = r;
                if (first || r > hi)
                    hi = r;
                first = false;
            }
        return wrap_range(ty, lo, hi);
    }
    case IR_OP_DIV:
    case IR_OP_MOD:
        if (is_const(a, &c1) && is_const(b, &c2) && c2 != 0 && !(c1 == INT64_MIN && c2 == -1))
            return tm_val_range(ty, op == IR_OP_DIV ? c1 / c2 : c1 % c2,
                                op == IR_OP_DIV ? c1 / c2 : c1 % c2);
        return tm_val_top(ty);
    case IR_OP_AND:
        if (is_const(a, &c1) && is_const(b, &c2))
            return tm_val_range(ty, c1 & c2, c1 & c2);
        if (a.lo >= 0 && b.lo >= 0)
            return tm_val_range(ty, 0, a.hi < b.hi ? a.hi : b.hi);
        return tm_val_top(ty);
    case IR_OP_OR:
    case IR_OP_XOR:
        if (is_const(a, &c1) && is_const(b, &c2))
            return tm_val_range(ty, op == IR_OP_OR ? (c1 | c2) : (c1 ^ c2),
                                op == IR_OP_OR ? (c1 | c2) : (c1 ^ c2));
        return tm_val_top(ty);
    default:
        return tm_val_top(ty);
    }
}

tm_val tm_val_cast(const ir_type *to, tm_val a)
{
    if (a.bot)
        return a;
    if (is_ptr_type(to)) {
        if (a.ptr)
            return a;
        int64_t c;
        if (is_const(a, &c) && c == 0)
            return tm_val_null();
        return tm_val_top(to);
    }
    if (!is_int_type(to) || a.ptr || a.top)
        return tm_val_top(to);
    if (to->bits == 1) /* _Bool: both x != 0 and truncation give 0 for 0, 1 for 1 */
        return (a.lo == 0 && a.hi == 0) ? a : (a.lo == 1 && a.hi == 1) ? a : boolean(true, true);
    return tm_val_range(to, a.lo, a.hi);
}

tm_val tm_val_refine(ir_op op, tm_val a, tm_val b)
{
    if (a.bot || b.bot)
        return tm_val_bot();
    if (a.ptr || b.ptr || a.top || b.top)
        return a;
    tm_val r = a;
    switch (op) {
    case IR_OP_EQ:
        if (b.lo > r.lo)
            r.lo = b.lo;
        if (b.hi < r.hi)
            r.hi = b.hi;
        break;
    case IR_OP_NE:
        if (b.lo == b.hi) {
            if (r.lo == b.lo && r.lo < INT64_MAX)
                r.lo++;
            else if (r.hi == b.lo && r.hi > INT64_MIN)
                r.hi--;
        }
        break;
    case IR_OP_LT:
        if (b.hi == INT64_MIN)
            return tm_val_bot();
        if (b.hi - 1 < r.hi)
            r.hi = b.hi - 1;
        break;
    case IR_OP_LE:
        if (b.hi < r.hi)
            r.hi = b.hi;
        break;
    case IR_OP_GT:
        if (b.lo == INT64_MAX)
            return tm_val_bot();
        if (b.lo + 1 > r.lo)
            r.lo = b.lo + 1;
        break;
    case IR_OP_GE:
        if (b.lo > r.lo)
            r.lo = b.lo;
        break;
    default:
        break;
    }
    if (r.lo > r.hi)
        return tm_val_bot();
    return r;
}
