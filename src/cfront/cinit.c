/* cinit: initialisers -> assignments.
 *
 * libclang shows initialiser lists in their syntactic form, so designators
 * (`.f = v`, `[3] = v`, nested `.a.b[2] = v`) are read here: a designated
 * element is an UnexposedExpr whose first token is `.` or `[`, whose
 * children are the designators (MemberRef for a field, an expression for
 * an index) followed by the value. An object initialised by a list is
 * first set to all-zero (C's rule for members not named), except in
 * __ravel_init, where globals already are zero.
 *
 * A synchronisation object with an initialiser (PTHREAD_MUTEX_INITIALIZER
 * and its recursive and errorcheck variants) becomes LOCK_INIT of the kind
 * the initialiser sets: by the macro's name when it is visible, else by
 * the value of glibc's `__kind` member inside the list. */
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

static bool zeroed_already(cf_ctx *c)
{
    return c->f == c->p->init;
}

static bool is_zero_const(const ir_expr *e)
{
    return e->kind == IR_E_CONST && e->value == 0 && e->fvalue == 0;
}

/* Finds the value of member `name` inside a (nested) initialiser list. */
static bool find_member_value(cf_ctx *c, CXCursor list, const char *name, int64_t *out, int depth)
{
    if (depth > 6 || clang_getCursorKind(list) != CXCursor_InitListExpr)
        return false;
    CXType t = clang_getCanonicalType(clang_getCursorType(list));
    CXCursor decl = clang_getTypeDeclaration(t);
    cf_cursors kids = cf_children(c, list);
    if (clang_getCursorKind(decl) == CXCursor_StructDecl) {
        cf_cursors fields = cf_all_children(c, decl);
        size_t fi = 0;
        for (size_t i = 0; i < fields.n; i++) {
            if (clang_getCursorKind(fields.v[i]) != CXCursor_FieldDecl)
                continue;
            if (fi < kids.n) {
                char *fn = cf_spelling(c, fields.v[i]);
                if (strcmp(fn, name) == 0)
                    return cf_eval_int(kids.v[fi], out);
                if (find_member_value(c, kids.v[fi], name, out, depth + 1))
                    return true;
            }
            fi++;
        }
        return false;
    }
    for (size_t i = 0; i < kids.n; i++)
        if (find_member_value(c, kids.v[i], name, out, depth + 1))
            return true;
    return false;
}

static void sync_init(cf_ctx *c, const ir_expr *lv, CXCursor init)
{
    const char *tag = base_sym_str(c->p->syms, lv->type->tag);
    ir_lock_kind kind;
    if (strcmp(tag, "pthread_mutex_t") == 0)
        kind = IR_LOCK_MUTEX;
    else if (strcmp(tag, "pthread_rwlock_t") == 0)
        kind = IR_LOCK_RW;
    else
        return; /* a condition or barrier: nothing to record */
    if (kind == IR_LOCK_MUTEX) {
        char *tok = cf_first_token(c, init);
        int64_t k = 0;
        if (strstr(tok, "RECURSIVE"))
            kind = IR_LOCK_MUTEX_RECURSIVE;
        else if (strstr(tok, "ERRORCHECK"))
            kind = IR_LOCK_MUTEX_ERRORCHECK;
        else if (find_member_value(c, init, "__kind", &k, 0))
            kind = k == 1 ? IR_LOCK_MUTEX_RECURSIVE : k == 2 ? IR_LOCK_MUTEX_ERRORCHECK : IR_LOCK_MUTEX;
    }
    uint32_t s = cf_emit(c, IR_S_LOCK_INIT);
    c->f->stmts[s].rhs = ir_addr(c->p, lv);
    c->f->stmts[s].lock_kind = kind;
}

static void init_at(cf_ctx *c, const ir_expr *lv, CXCursor init, bool zero);

/* Is this element of a list a designated one (`.f = v`, `[i] = v`)?
 * libclang shows it as an UnexposedExpr whose children are the
 * designators (MemberRef for a field, an expression for an index) and
 * then the value; a conversion, the other UnexposedExpr of a list, has one
 * child. The first token says `.` or `[`, except where a macro wrote the
 * list (`#define S { .id = 3 }`): then the shape decides. */
static bool designated(cf_ctx *c, CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_UnexposedExpr)
        return false;
    char *t = cf_first_token(c, e);
    if (strcmp(t, ".") == 0 || strcmp(t, "[") == 0)
        return true;
    cf_cursors parts = cf_all_children(c, e);
    return parts.n >= 2 && (clang_getCursorKind(parts.v[0]) == CXCursor_MemberRef ||
                            clang_getCursorKind(parts.v[0]) == CXCursor_IntegerLiteral);
}

/* The sub-object of agg at position pos (a field index or an element). */
static const ir_expr *element(cf_ctx *c, const ir_expr *agg, uint64_t pos)
{
    if (agg->type->kind == IR_T_ARRAY)
        return ir_index(c->p, agg, ir_const(c->p, cf_size_type(c), (int64_t)pos));
    return ir_member(c->p, agg, (uint32_t)pos);
}

/* How many positions an aggregate has (a union: one per member, of which
 * a list fills one). */
static uint64_t npositions(const ir_type *t)
{
    if (t->kind == IR_T_ARRAY)
        return t->count ? t->count : UINT64_MAX;
    return t->nfields;
}

static bool is_aggregate(const ir_type *t)
{
    return t->kind == IR_T_STRUCT || t->kind == IR_T_UNION || t->kind == IR_T_ARRAY;
}

/* The path from agg to member `name`, which may sit inside anonymous
 * members: fills idx[0..] with field indices and returns their number
 * (0: no such member). */
static size_t field_path(cf_ctx *c, const ir_type *t, base_sym name, uint32_t *idx, size_t max)
{
    if (!max || (t->kind != IR_T_STRUCT && t->kind != IR_T_UNION))
        return 0;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (t->fields[i].name == name) {
            idx[0] = i;
            return 1;
        }
    for (uint32_t i = 0; i < t->nfields; i++) {
        if (t->fields[i].name)
            continue;
        size_t n = field_path(c, t->fields[i].type, name, idx + 1, max - 1);
        if (n) {
            idx[0] = i;
            return n + 1;
        }
    }
    return 0;
}

/* The current object of a brace-enclosed list (C11 6.7.9 p17-20): the
 * levels from the object the list initialises down to the sub-aggregate
 * the next element goes into. A scalar where a sub-aggregate is expected
 * opens a level (brace elision); a level whose positions are used up
 * closes, and the next element goes to the enclosing one; a designator
 * sets the whole path. */
#define INIT_DEPTH 64

typedef struct init_level {
    const ir_expr *agg;
    uint64_t pos;
} init_level;

typedef struct init_cursor {
    init_level lv[INIT_DEPTH];
    size_t depth;
} init_cursor;

static void open_level(cf_ctx *c, init_cursor *ic, CXCursor where, const ir_expr *agg, uint64_t pos)
{
    if (ic->depth == INIT_DEPTH)
        cf_unsupported(c, where, "initialiser nested more than 64 levels deep");
    ic->lv[ic->depth++] = (init_level){ agg, pos };
}

/* Does element e initialise target as a whole, or (brace elision) only
 * target's first scalar? */
static bool fills_whole(cf_ctx *c, const ir_expr *target, CXCursor e)
{
    const ir_type *tt = target->type;
    if (!is_aggregate(tt))
        return true;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_InitListExpr)
        return true;
    if (k == CXCursor_StringLiteral)
        return tt->kind == IR_T_ARRAY; /* char s[4] = "abc" */
    return ir_type_eq(tt, cf_type(c, clang_getCursorType(e), e));
}

/* Puts element e at the cursor's position, opening and closing levels as
 * brace elision needs, and moves past it. */
static void place(cf_ctx *c, init_cursor *ic, CXCursor e)
{
    for (;;) {
        init_level *top = &ic->lv[ic->depth - 1];
        const ir_type *t = top->agg->type;
        if (top->pos >= npositions(t)) {
            if (ic->depth == 1)
                cf_fail(c, e, "excess elements in an initialiser");
            ic->depth--;
            ic->lv[ic->depth - 1].pos++;
            continue;
        }
        const ir_expr *target = element(c, top->agg, top->pos);
        if (t->kind == IR_T_UNION && top->pos == 0) {
            /* the first member, unless the value's type picks another */
            const ir_type *vt = cf_type(c, clang_getCursorType(e), e);
            for (uint32_t f = 0; f < t->nfields; f++)
                if (ir_type_eq(t->fields[f].type, vt)) {
                    target = ir_member(c->p, top->agg, f);
                    break;
                }
        }
        if (!fills_whole(c, target, e)) {
            open_level(c, ic, e, target, 0);
            continue;
        }
        init_at(c, target, e, true);
        top->pos = t->kind == IR_T_UNION ? t->nfields : top->pos + 1;
        return;
    }
}

/* Sets the cursor to the path a designated element names and returns its
 * value. */
static CXCursor designate(cf_ctx *c, init_cursor *ic, CXCursor e)
{
    cf_cursors parts = cf_all_children(c, e);
    if (parts.n < 2)
        cf_unsupported(c, e, "designated initialiser");
    ic->depth = 1;
    const ir_expr *cur = ic->lv[0].agg;
    for (size_t d = 0; d + 1 < parts.n; d++) {
        CXCursor dc = parts.v[d];
        if (d > 0)
            open_level(c, ic, dc, cur, 0);
        init_level *top = &ic->lv[ic->depth - 1];
        if (clang_getCursorKind(dc) == CXCursor_MemberRef) {
            if (cur->type->kind != IR_T_STRUCT && cur->type->kind != IR_T_UNION)
                cf_unsupported(c, dc, "field designator on a non-struct");
            uint32_t path[INIT_DEPTH];
            base_sym name = base_intern_cstr(c->p->syms, cf_spelling(c, dc));
            size_t n = field_path(c, cur->type, name, path, INIT_DEPTH);
            if (!n)
                cf_fail(c, dc, "no member named '%s' in this struct or union",
                        base_sym_str(c->p->syms, name));
            /* .x naming a member of an anonymous member: a level each */
            for (size_t j = 0; j < n; j++) {
                if (j > 0) {
                    open_level(c, ic, dc, cur, 0);
                    top = &ic->lv[ic->depth - 1];
                }
                top->pos = path[j];
                cur = ir_member(c->p, cur, path[j]);
            }
        } else {
            int64_t idx;
            if (cur->type->kind != IR_T_ARRAY || !cf_eval_int(dc, &idx) || idx < 0)
                cf_unsupported(c, dc, "array designator that is not a constant index");
            top->pos = (uint64_t)idx;
            cur = element(c, cur, (uint64_t)idx);
        }
    }
    return parts.v[parts.n - 1];
}

static void init_list(cf_ctx *c, const ir_expr *lv, CXCursor list, bool zero)
{
    const ir_type *t = lv->type;
    if (!is_aggregate(t)) {
        cf_cursors k = cf_children(c, list);
        if (k.n)
            init_at(c, lv, k.v[0], zero); /* int x = { 3 }; */
        return;
    }
    if (!zero)
        cf_assign(c, lv, ir_const(c->p, t, 0));
    cf_cursors kids = cf_children(c, list);
    init_cursor ic = { .depth = 1 };
    ic.lv[0] = (init_level){ lv, 0 };
    for (size_t i = 0; i < kids.n; i++) {
        CXCursor e = kids.v[i];
        if (designated(c, e))
            e = designate(c, &ic, e);
        place(c, &ic, e);
    }
}

static void init_string(cf_ctx *c, const ir_expr *lv, CXCursor lit, bool zero)
{
    const char *s = cf_string_value(c, lit);
    size_t n = strlen(s);
    uint64_t count = lv->type->count ? lv->type->count : n + 1;
    if (!zero)
        cf_assign(c, lv, ir_const(c->p, lv->type, 0));
    for (size_t i = 0; i < n && i < count; i++)
        cf_assign(c, element(c, lv, i), cf_const_int(c, lv->type->to, (unsigned char)s[i]));
}

static CXCursor strip_parens(cf_ctx *c, CXCursor e)
{
    while (clang_getCursorKind(e) == CXCursor_ParenExpr) {
        cf_cursors k = cf_children(c, e);
        if (k.n != 1)
            break;
        e = k.v[0];
    }
    return e;
}

/* zero: the object is all-zero already. */
static void init_at(cf_ctx *c, const ir_expr *lv, CXCursor init, bool zero)
{
    init = strip_parens(c, init);
    enum CXCursorKind k = clang_getCursorKind(init);
    if (lv->type->kind == IR_T_MUTEX) {
        sync_init(c, lv, init);
        return;
    }
    if (k == CXCursor_InitListExpr) {
        init_list(c, lv, init, zero);
        return;
    }
    if (k == CXCursor_StringLiteral && lv->type->kind == IR_T_ARRAY) {
        init_string(c, lv, init, zero);
        return;
    }
    if (k == CXCursor_UnexposedExpr && cf_children(c, init).n == 0 && zero)
        return; /* an implicit value initialisation of an already zero object */
    const ir_expr *v = cf_rvalue(c, init);
    if (zero && is_zero_const(v))
        return;
    cf_assign(c, lv, v);
}

void cf_init(cf_ctx *c, const ir_expr *lv, CXCursor init)
{
    init_at(c, lv, init, zeroed_already(c));
}
