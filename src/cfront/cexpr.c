/* cexpr: C expressions -> side-effect-free IR expressions plus the
 * statements that carry their side effects.
 *
 * cf_rvalue returns an expression whose evaluation has no side effect; any
 * call, assignment, increment or statement expression inside is emitted as
 * statements first, in C's evaluation order where C fixes one (&&, ||, ?:,
 * comma) and left to right elsewhere. Short-circuit operators whose right
 * operand has no side effect stay operators (IR_OP_LAND/LOR, IR_E_ITE);
 * otherwise they become branches. libclang hides implicit casts as
 * UnexposedExpr: a one-child UnexposedExpr whose extent is its child's is a
 * conversion (array and function decay, lvalue-to-rvalue, arithmetic), and
 * the conversion is read off the two types. */
#include <stdio.h>
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

/* --- children --- */

static enum CXChildVisitResult collect(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    cf_cursor_vec *v = data;
    base_vec_push(v, cur);
    return CXChildVisit_Continue;
}

static cf_cursors to_scratch(cf_ctx *c, cf_cursor_vec *v)
{
    cf_cursors r = { BASE_ARENA_ARRAY(&c->scratch, CXCursor, v->len), v->len };
    if (v->len)
        memcpy(r.v, v->data, v->len * sizeof *r.v);
    base_vec_free(v);
    return r;
}

cf_cursors cf_all_children(cf_ctx *c, CXCursor cur)
{
    cf_cursor_vec v = { 0 };
    clang_visitChildren(cur, collect, &v);
    return to_scratch(c, &v);
}

static bool is_expr_or_stmt(enum CXCursorKind k)
{
    return clang_isExpression(k) || clang_isStatement(k);
}

cf_cursors cf_children(cf_ctx *c, CXCursor cur)
{
    cf_cursor_vec v = { 0 };
    clang_visitChildren(cur, collect, &v);
    size_t m = 0;
    for (size_t i = 0; i < v.len; i++)
        if (is_expr_or_stmt(clang_getCursorKind(v.data[i])))
            v.data[m++] = v.data[i];
    v.len = m;
    return to_scratch(c, &v);
}

static CXCursor only_child(cf_ctx *c, CXCursor e)
{
    cf_cursors k = cf_children(c, e);
    if (k.n < 1)
        cf_unsupported(c, e, "expression without an operand");
    return k.v[k.n - 1];
}

static CXCursor skip_parens(cf_ctx *c, CXCursor e)
{
    while (clang_getCursorKind(e) == CXCursor_ParenExpr)
        e = only_child(c, e);
    return e;
}

/* --- small builders --- */

uint32_t cf_emit(cf_ctx *c, ir_stmt_kind k)
{
    uint32_t s = ir_emit(c->p, c->f, k, c->loc);
    if (k == IR_S_ATOMIC_BEGIN) {
        c->f->stmts[s].mo = c->mo;
        c->mo = IR_MO_NONE;
    }
    return s;
}

uint32_t cf_emit_goto(cf_ctx *c, const ir_expr *guard, uint32_t target)
{
    uint32_t s = cf_emit(c, IR_S_GOTO);
    uint32_t *t = BASE_ARENA_NEW(&c->p->arena, uint32_t);
    *t = target;
    c->f->stmts[s].targets = t;
    c->f->stmts[s].ntargets = 1;
    c->f->stmts[s].rhs = guard;
    return s;
}

static void set_target(cf_ctx *c, uint32_t s, uint32_t target)
{
    c->f->stmts[s].targets[0] = target;
}

const ir_expr *cf_const_int(cf_ctx *c, const ir_type *t, int64_t v)
{
    if (t->kind == IR_T_FLOAT) {
        ir_expr *e = (ir_expr *)ir_const(c->p, t, 0);
        e->fvalue = (double)v;
        return e;
    }
    return ir_const(c->p, t, v);
}

static int64_t truncate_to(const ir_type *t, uint32_t ptr_bits, int64_t v)
{
    uint32_t bits = t->kind == IR_T_PTR ? ptr_bits : t->bits;
    if (t->kind == IR_T_INT && bits == 1)
        return v != 0;
    if (bits >= 64)
        return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)v & mask;
    if (t->kind == IR_T_INT && t->is_signed && (u >> (bits - 1)) & 1)
        u |= ~mask;
    return (int64_t)u;
}

const ir_expr *cf_convert(cf_ctx *c, const ir_expr *e, const ir_type *to)
{
    if (!e || !to || to->kind == IR_T_VOID || ir_type_eq(e->type, to))
        return e;
    const ir_type *from = e->type;
    if (e->kind == IR_E_CONST && from && (from->kind == IR_T_INT || from->kind == IR_T_PTR)) {
        if (to->kind == IR_T_INT || to->kind == IR_T_PTR)
            return ir_const(c->p, to, truncate_to(to, c->p->ptr_bytes * 8, e->value));
        if (to->kind == IR_T_FLOAT) {
            ir_expr *f = (ir_expr *)ir_const(c->p, to, 0);
            f->fvalue = from->kind == IR_T_INT && !from->is_signed ? (double)(uint64_t)e->value
                                                                   : (double)e->value;
            return f;
        }
    }
    return ir_cast(c->p, to, e);
}

const ir_expr *cf_not(cf_ctx *c, const ir_expr *cond)
{
    if (cond->kind == IR_E_UNARY && cond->op == IR_OP_LNOT)
        return cond->a;
    if (cond->kind == IR_E_CONST && cond->type->kind != IR_T_FLOAT)
        return ir_const(c->p, cf_int_type(c), cond->value == 0);
    return ir_unary(c->p, IR_OP_LNOT, cf_int_type(c), cond);
}

void cf_assign(cf_ctx *c, const ir_expr *lhs, const ir_expr *rhs)
{
    uint32_t s = cf_emit(c, IR_S_ASSIGN);
    c->f->stmts[s].lhs = lhs;
    c->f->stmts[s].rhs = cf_convert(c, rhs, lhs->type);
}

const ir_expr *cf_to_temp(cf_ctx *c, const ir_expr *rhs)
{
    const ir_expr *t = ir_var_ref(c->p, cf_temp(c, rhs->type));
    cf_assign(c, t, rhs);
    return t;
}

/* A value that reading again yields the same: a constant, or a local that
 * no other thread can see. */
static bool stable(const ir_expr *e)
{
    if (e->kind == IR_E_CONST || e->kind == IR_E_FUNC || e->kind == IR_E_STRING)
        return true;
    return e->kind == IR_E_VAR && e->var->kind != IR_V_GLOBAL && !e->var->address_taken;
}

static const ir_type *type_of(cf_ctx *c, CXCursor e)
{
    return cf_type(c, clang_getCursorType(e), e);
}

bool cf_eval_int(CXCursor e, int64_t *out)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    if (!(t.kind >= CXType_Bool && t.kind <= CXType_Int128) && t.kind != CXType_Enum)
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *out = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                 : clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}

static bool is_array_kind(enum CXTypeKind k)
{
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
           k == CXType_DependentSizedArray;
}

static enum CXTypeKind canon_kind(CXCursor e)
{
    return clang_getCanonicalType(clang_getCursorType(e)).kind;
}

/* --- side effects --- */

static enum CXChildVisitResult find_effect(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    bool *found = data;
    if (cf_has_effects(cur)) {
        *found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

bool cf_has_effects(CXCursor e)
{
    switch (clang_getCursorKind(e)) {
    case CXCursor_CallExpr:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_StmtExpr:
    case CXCursor_CompoundLiteralExpr:
        return true;
    case CXCursor_BinaryOperator:
        if (clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Assign)
            return true;
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(e);
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
            k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)
            return true;
        break;
    }
    case CXCursor_UnaryExpr:
        return false; /* sizeof does not evaluate its operand */
    default:
        break;
    }
    bool found = false;
    clang_visitChildren(e, find_effect, &found);
    return found;
}

/* --- the first token of an expression (for what libclang does not expose) --- */

/* The first token at loc, in the scratch arena ("" if none). */
static char *token_at(cf_ctx *c, CXFile file, unsigned line, unsigned col)
{
    char *r = NULL;
    if (file) {
        CXSourceRange range = clang_getRange(clang_getLocation(c->tu, file, line, col),
                                             clang_getLocation(c->tu, file, line, col + 1));
        CXToken *toks = NULL;
        unsigned n = 0;
        clang_tokenize(c->tu, range, &toks, &n);
        if (n) {
            CXString s = clang_getTokenSpelling(c->tu, toks[0]);
            r = base_arena_strdup(&c->scratch, clang_getCString(s));
            clang_disposeString(s);
        }
        clang_disposeTokens(c->tu, toks, n);
    }
    return r ? r : base_arena_strdup(&c->scratch, "");
}

char *cf_first_token(cf_ctx *c, CXCursor e)
{
    /* The token where the expression's expansion starts: for an expression
     * written by a macro, the macro's name (atomic_store, assert, ...). */
    CXFile file;
    unsigned line, col;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(e)), &file, &line, &col, NULL);
    return token_at(c, file, line, col);
}

char *cf_spelled_token(cf_ctx *c, CXCursor e)
{
    /* The token where the expression is spelled: inside a macro's body for
     * an expression a macro wrote (stdatomic.h's __c11_atomic_load behind
     * atomic_load_explicit behind a program's own load_acquire). */
    CXFile file;
    unsigned line, col;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(e)), &file, &line, &col, NULL);
    return token_at(c, file, line, col);
}

bool cf_is_atomic_expr(cf_ctx *c, CXCursor e, const char *first)
{
    const char *sp = cf_spelled_token(c, e);
    if (strncmp(sp, "__c11_atomic_", 13) == 0 || strncmp(sp, "__atomic_", 9) == 0)
        return true;
    return strstr(first, "atomic") || strncmp(first, "__c11", 5) == 0;
}

static bool same_start(CXCursor a, CXCursor b)
{
    return clang_equalLocations(clang_getRangeStart(clang_getCursorExtent(a)),
                                clang_getRangeStart(clang_getCursorExtent(b)));
}

/* --- expressions --- */

static const ir_expr *value(cf_ctx *c, CXCursor e, bool want);

static const ir_expr *var_of(cf_ctx *c, CXCursor ref, CXCursor decl)
{
    if (clang_getCursorKind(decl) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(decl))
        return ir_var_ref(c->p, cf_global(c, decl));
    ir_var *v = cf_local_lookup(c, decl);
    if (!v)
        cf_fail(c, ref, "internal: variable '%s' is used before its declaration was lowered",
                cf_spelling(c, decl));
    return ir_var_ref(c->p, v);
}

static const ir_expr *func_value(cf_ctx *c, CXCursor decl)
{
    ir_func *f = cf_func_decl(c, decl);
    f->address_taken = true;
    return ir_func_ref(c->p, f);
}

/* The value of a function designator or a pointer to a function, as a
 * function pointer (f, &f, *fp, fp all mean the same). */
static const ir_expr *function_pointer(cf_ctx *c, CXCursor e)
{
    e = skip_parens(c, e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
            return func_value(c, d);
    }
    if (k == CXCursor_UnaryOperator &&
        (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref ||
         clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf))
        return function_pointer(c, only_child(c, e));
    if (k == CXCursor_UnexposedExpr && cf_children(c, e).n == 1 && same_start(e, only_child(c, e)))
        return function_pointer(c, only_child(c, e));
    return value(c, e, true);
}

const char *cf_string_value(cf_ctx *c, CXCursor lit)
{
    char *sp = cf_spelling(c, lit);
    size_t n = strlen(sp);
    char *out = base_arena_alloc(&c->p->arena, n + 1), *o = out;
    bool in = false;
    for (const char *p = sp; *p; p++) {
        if (!in) {
            in = *p == '"';
            continue;
        }
        if (*p == '"') {
            in = false;
            continue;
        }
        if (*p != '\\' || !p[1]) {
            *o++ = *p;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'a': *o++ = '\a'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'v': *o++ = '\v'; break;
        case 'x': {
            unsigned v = 0;
            while (p[1] && strchr("0123456789abcdefABCDEF", p[1])) {
                p++;
                v = v * 16 + (unsigned)(*p <= '9' ? *p - '0' : (*p | 32) - 'a' + 10);
            }
            *o++ = (char)v;
            break;
        }
        default:
            if (*p >= '0' && *p <= '7') {
                unsigned v = (unsigned)(*p - '0');
                for (int k = 0; k < 2 && p[1] >= '0' && p[1] <= '7'; k++)
                    v = v * 8 + (unsigned)(*++p - '0');
                *o++ = (char)v;
            } else {
                *o++ = *p; /* \\ \" \' \? */
            }
        }
    }
    *o = 0;
    return out;
}

/* Array-to-pointer decay of the array expression e: &a[0], or the string. */
static const ir_expr *decay(cf_ctx *c, CXCursor e, const ir_type *ptr)
{
    CXCursor inner = skip_parens(c, e);
    if (clang_getCursorKind(inner) == CXCursor_StringLiteral) {
        return ir_string(c->p, ptr, cf_string_value(c, inner));
    }
    const ir_expr *arr = cf_lvalue(c, e);
    if (arr->type->kind == IR_T_PTR) /* an array parameter, a pointer already */
        return cf_convert(c, arr, ptr);
    if (arr->type->kind != IR_T_ARRAY)
        cf_fail(c, e, "internal: decay of a non-array");
    const ir_expr *first = ir_index(c->p, arr, ir_const(c->p, cf_size_type(c), 0));
    return cf_convert(c, ir_addr(c->p, first), ptr);
}

static const ir_expr *member(cf_ctx *c, CXCursor e)
{
    cf_cursors k = cf_children(c, e);
    if (k.n != 1)
        cf_unsupported(c, e, "member expression without a base");
    CXCursor base = k.v[0];
    /* An implicit member expression naming an anonymous struct or union:
     * skip it; cf_find_field searches anonymous members. */
    while (clang_getCursorKind(base) == CXCursor_MemberRefExpr) {
        char *n = cf_spelling(c, base);
        if (*n && !strstr(n, "(anonymous") && !strstr(n, "(unnamed"))
            break;
        cf_cursors kk = cf_children(c, base);
        if (kk.n != 1)
            break;
        base = kk.v[0];
    }
    const ir_expr *agg;
    if (canon_kind(base) == CXType_Pointer)
        agg = ir_deref(c->p, value(c, base, true));
    else
        agg = cf_lvalue(c, base);
    if (agg->type->kind == IR_T_PTR) /* p->m on an array parameter (struct s p[1]): a pointer */
        agg = ir_deref(c->p, agg);
    char *name = cf_spelling(c, e);
    const ir_expr *r = cf_find_field(c, agg, base_intern_cstr(c->p->syms, name));
    if (!r)
        cf_fail(c, e, "internal: no field '%s' in this struct or union", name);
    return r;
}

static const ir_expr *subscript(cf_ctx *c, CXCursor e)
{
    cf_cursors k = cf_children(c, e);
    if (k.n != 2)
        cf_unsupported(c, e, "array subscript");
    CXCursor base = k.v[0], idx = k.v[1];
    if (canon_kind(base) == CXType_Vector || canon_kind(base) == CXType_ExtVector) {
        /* v[i] on a vector: an element of its one member, the array */
        const ir_expr *vec = cf_lvalue(c, base);
        return ir_index(c->p, ir_member(c->p, vec, 0), value(c, idx, true));
    }
    if (canon_kind(base) != CXType_Pointer && !is_array_kind(canon_kind(base))) {
        base = k.v[1]; /* i[a] */
        idx = k.v[0];
    }
    const ir_expr *b = value(c, base, true);
    const ir_expr *i = value(c, idx, true);
    if (b->kind == IR_E_ADDR && b->a->kind == IR_E_INDEX && b->a->b->kind == IR_E_CONST &&
        b->a->b->value == 0)
        return ir_index(c->p, b->a->a, i); /* a[i] on an array a */
    if (b->type->kind != IR_T_PTR)
        cf_fail(c, e, "internal: subscript of a non-pointer");
    return ir_deref(c->p, ir_binary(c->p, IR_OP_PTR_ADD, b->type, b, i));
}

const ir_expr *cf_lvalue(cf_ctx *c, CXCursor e)
{
    switch (clang_getCursorKind(e)) {
    case CXCursor_ParenExpr: return cf_lvalue(c, only_child(c, e));
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl)
            return var_of(c, e, d);
        break;
    }
    case CXCursor_MemberRefExpr: return member(c, e);
    case CXCursor_ArraySubscriptExpr: return subscript(c, e);
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref) {
            const ir_expr *ptr = value(c, only_child(c, e), true);
            if (ptr->type->kind != IR_T_PTR)
                cf_fail(c, e, "internal: dereference of a non-pointer");
            return ir_deref(c->p, ptr);
        }
        if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Extension)
            return cf_lvalue(c, only_child(c, e));
        break;
    case CXCursor_UnexposedExpr: {
        cf_cursors k = cf_children(c, e);
        if (k.n == 1 && same_start(e, k.v[0]) && ir_type_eq(type_of(c, e), type_of(c, k.v[0])))
            return cf_lvalue(c, k.v[0]); /* a no-op wrapper */
        break;
    }
    case CXCursor_CompoundLiteralExpr: {
        cf_cursors k = cf_children(c, e);
        const ir_expr *t;
        if (c->f == c->p->init) { /* at file scope: an object of static storage */
            char name[64];
            snprintf(name, sizeof name, "compound.%u", c->p->nglobals);
            ir_var *g = ir_add_global(c->p, name, type_of(c, e), cf_loc(c, e));
            g->is_static = true;
            t = ir_var_ref(c->p, g);
        } else {
            t = ir_var_ref(c->p, cf_temp(c, type_of(c, e)));
        }
        if (k.n)
            cf_init(c, t, k.v[k.n - 1]);
        return t;
    }
    default:
        break;
    }
    const ir_expr *v = value(c, e, true);
    if (!v)
        cf_fail(c, e, "internal: a void expression used as an object");
    if (ir_is_lvalue(v))
        return v;
    return cf_to_temp(c, v); /* e.g. a struct returned by a call */
}

static ir_op arith_op(enum CXBinaryOperatorKind k)
{
    switch (k) {
    case CXBinaryOperator_Mul: case CXBinaryOperator_MulAssign: return IR_OP_MUL;
    case CXBinaryOperator_Div: case CXBinaryOperator_DivAssign: return IR_OP_DIV;
    case CXBinaryOperator_Rem: case CXBinaryOperator_RemAssign: return IR_OP_MOD;
    case CXBinaryOperator_Add: case CXBinaryOperator_AddAssign: return IR_OP_ADD;
    case CXBinaryOperator_Sub: case CXBinaryOperator_SubAssign: return IR_OP_SUB;
    case CXBinaryOperator_Shl: case CXBinaryOperator_ShlAssign: return IR_OP_SHL;
    case CXBinaryOperator_Shr: case CXBinaryOperator_ShrAssign: return IR_OP_SHR;
    case CXBinaryOperator_And: case CXBinaryOperator_AndAssign: return IR_OP_AND;
    case CXBinaryOperator_Xor: case CXBinaryOperator_XorAssign: return IR_OP_XOR;
    case CXBinaryOperator_Or: case CXBinaryOperator_OrAssign: return IR_OP_OR;
    case CXBinaryOperator_LT: return IR_OP_LT;
    case CXBinaryOperator_GT: return IR_OP_GT;
    case CXBinaryOperator_LE: return IR_OP_LE;
    case CXBinaryOperator_GE: return IR_OP_GE;
    case CXBinaryOperator_EQ: return IR_OP_EQ;
    case CXBinaryOperator_NE: return IR_OP_NE;
    case CXBinaryOperator_LAnd: return IR_OP_LAND;
    case CXBinaryOperator_LOr: return IR_OP_LOR;
    default: return IR_OP_ADD;
    }
}

/* a op b at type t, with pointer arithmetic made explicit. */
static const ir_expr *arith(cf_ctx *c, CXCursor e, ir_op op, const ir_type *t, const ir_expr *a,
                            const ir_expr *b)
{
    bool pa = a->type->kind == IR_T_PTR, pb = b->type->kind == IR_T_PTR;
    if ((op == IR_OP_ADD || op == IR_OP_SUB) && (pa || pb)) {
        if (pa && pb) {
            if (op != IR_OP_SUB)
                cf_fail(c, e, "internal: sum of two pointers");
            return ir_binary(c->p, IR_OP_PTR_DIFF, t, a, b);
        }
        if (pb) { /* i + p */
            const ir_expr *x = a;
            a = b;
            b = x;
        }
        if (op == IR_OP_SUB)
            b = b->kind == IR_E_CONST ? ir_const(c->p, b->type, -b->value)
                                      : ir_unary(c->p, IR_OP_NEG, b->type, b);
        return ir_binary(c->p, IR_OP_PTR_ADD, a->type, a, b);
    }
    if (op >= IR_OP_EQ && op <= IR_OP_GE)
        return ir_binary(c->p, op, t, a, b);
    if (op == IR_OP_SHL || op == IR_OP_SHR)
        return ir_binary(c->p, op, t, cf_convert(c, a, t), b);
    return ir_binary(c->p, op, t, cf_convert(c, a, t), cf_convert(c, b, t));
}

static const ir_expr *one_of(cf_ctx *c, const ir_type *t)
{
    if (t->kind == IR_T_PTR)
        return ir_const(c->p, cf_int(c, c->p->ptr_bytes * 8, true), 1);
    return cf_const_int(c, t, 1);
}

/* An operation on an _Atomic object (++, +=): a seq_cst read-modify-write. */
static void atomic_if(cf_ctx *c, bool atomic, ir_stmt_kind k)
{
    if (!atomic)
        return;
    c->mo = IR_MO_SEQ_CST;
    cf_emit(c, k);
}

static const ir_expr *incdec(cf_ctx *c, CXCursor e, enum CXUnaryOperatorKind k, bool want)
{
    CXCursor arg = only_child(c, e);
    bool atomic = cf_type_is_atomic(clang_getCursorType(arg));
    const ir_expr *l = cf_lvalue(c, arg);
    bool inc = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc;
    bool post = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec;
    const ir_type *t = l->type;
    const ir_type *ct = t->kind == IR_T_PTR ? t : cf_promote(c, t);
    atomic_if(c, atomic, IR_S_ATOMIC_BEGIN);
    const ir_expr *r = NULL;
    if (!want) {
        cf_assign(c, l, arith(c, e, inc ? IR_OP_ADD : IR_OP_SUB, ct, l, one_of(c, t)));
    } else if (post) {
        r = cf_to_temp(c, l);
        cf_assign(c, l, arith(c, e, inc ? IR_OP_ADD : IR_OP_SUB, ct, r, one_of(c, t)));
    } else {
        r = cf_to_temp(c, cf_convert(c, arith(c, e, inc ? IR_OP_ADD : IR_OP_SUB, ct, l, one_of(c, t)), t));
        cf_assign(c, l, r);
    }
    atomic_if(c, atomic, IR_S_ATOMIC_END);
    return r;
}

/* An operation on vector or _Complex values (cf_type_is_opaque_value):
 * the operands are evaluated for their effects, an operand that is
 * assigned (++, --, +=, ...) gets any value, and so does the result. */
static const ir_expr *opaque_op(cf_ctx *c, CXCursor e, bool assigns, bool want)
{
    cf_cursors k = cf_children(c, e);
    const ir_type *t = type_of(c, e);
    for (size_t i = 0; i < k.n; i++) {
        if (i == 0 && assigns) {
            const ir_expr *lv = cf_lvalue(c, k.v[0]);
            cf_assign(c, lv, ir_nondet(c->p, lv->type));
        } else {
            value(c, k.v[i], false);
        }
    }
    return want && t->kind != IR_T_VOID ? cf_to_temp(c, ir_nondet(c->p, t)) : NULL;
}

static bool opaque_operands(cf_ctx *c, CXCursor e)
{
    if (cf_type_is_opaque_value(clang_getCursorType(e)))
        return true;
    cf_cursors k = cf_children(c, e);
    for (size_t i = 0; i < k.n; i++)
        if (cf_type_is_opaque_value(clang_getCursorType(k.v[i])))
            return true;
    return false;
}

static const ir_expr *unary(cf_ctx *c, CXCursor e, bool want)
{
    enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(e);
    const ir_type *t = type_of(c, e);
    CXCursor arg = only_child(c, e);
    if (k != CXUnaryOperator_AddrOf && k != CXUnaryOperator_Deref &&
        k != CXUnaryOperator_Extension && opaque_operands(c, e))
        return opaque_op(c, e,
                         k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
                             k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec,
                         want);
    switch (k) {
    case CXUnaryOperator_PostInc:
    case CXUnaryOperator_PostDec:
    case CXUnaryOperator_PreInc:
    case CXUnaryOperator_PreDec: return incdec(c, e, k, want);
    case CXUnaryOperator_AddrOf: {
        CXCursor in = skip_parens(c, arg);
        if (clang_getCursorKind(in) == CXCursor_DeclRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(in)) == CXCursor_FunctionDecl)
            return func_value(c, clang_getCursorReferenced(in));
        if (clang_getCursorKind(in) == CXCursor_UnaryOperator &&
            clang_getCursorUnaryOperatorKind(in) == CXUnaryOperator_Deref)
            return cf_convert(c, value(c, only_child(c, in), true), t); /* &*p is p */
        return cf_convert(c, ir_addr(c->p, cf_lvalue(c, arg)), t);
    }
    case CXUnaryOperator_Deref: {
        CXType pt = clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(arg)));
        if (pt.kind == CXType_FunctionProto || pt.kind == CXType_FunctionNoProto)
            return function_pointer(c, arg);
        return cf_lvalue(c, e);
    }
    case CXUnaryOperator_Plus: return cf_convert(c, value(c, arg, true), t);
    case CXUnaryOperator_Minus: {
        const ir_expr *a = cf_convert(c, value(c, arg, true), t);
        if (a->kind == IR_E_CONST && t->kind == IR_T_INT)
            return cf_convert(c, ir_const(c->p, t, -a->value), t);
        return ir_unary(c->p, IR_OP_NEG, t, a);
    }
    case CXUnaryOperator_Not:
        return ir_unary(c->p, IR_OP_BITNOT, t, cf_convert(c, value(c, arg, true), t));
    case CXUnaryOperator_LNot: return ir_unary(c->p, IR_OP_LNOT, t, value(c, arg, true));
    case CXUnaryOperator_Extension: return value(c, arg, want);
    default: cf_unsupported(c, e, "unary operator (__real__/__imag__/co_await)");
    }
}

/* Short-circuit && and || whose right operand has side effects. */
static const ir_expr *logic_branch(cf_ctx *c, bool is_and, CXCursor a, CXCursor b)
{
    const ir_type *it = cf_int_type(c);
    const ir_expr *t = ir_var_ref(c->p, cf_temp(c, it));
    const ir_expr *av = value(c, a, true);
    cf_assign(c, t, ir_binary(c->p, IR_OP_NE, it, av, cf_convert(c, ir_const(c->p, it, 0), av->type)));
    uint32_t skip = cf_emit_goto(c, is_and ? cf_not(c, t) : t, 0);
    const ir_expr *bv = value(c, b, true);
    cf_assign(c, t, ir_binary(c->p, IR_OP_NE, it, bv, cf_convert(c, ir_const(c->p, it, 0), bv->type)));
    set_target(c, skip, c->f->nstmts);
    return t;
}

static const ir_expr *assign_result(cf_ctx *c, const ir_expr *l, const ir_expr *r, bool want)
{
    r = cf_convert(c, r, l->type);
    if (!want) {
        cf_assign(c, l, r);
        return NULL;
    }
    if (!stable(r))
        r = cf_to_temp(c, r);
    cf_assign(c, l, r);
    return r;
}

static const ir_expr *binary(cf_ctx *c, CXCursor e, bool want)
{
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(e);
    cf_cursors kids = cf_children(c, e);
    if (kids.n != 2)
        cf_unsupported(c, e, "binary operator without two operands");
    CXCursor a = kids.v[0], b = kids.v[1];
    const ir_type *t = type_of(c, e);
    if (k != CXBinaryOperator_Assign && k != CXBinaryOperator_Comma && opaque_operands(c, e))
        return opaque_op(c, e, clang_getCursorKind(e) == CXCursor_CompoundAssignOperator, want);
    switch (k) {
    case CXBinaryOperator_Assign: {
        /* A plain store to an _Atomic object is a seq_cst atomic store (C17
         * 6.5.16.1 with 7.17.7.1): the value is computed first, the store
         * alone is the atomic operation. */
        bool atomic = cf_type_is_atomic(clang_getCursorType(a));
        const ir_expr *l = cf_lvalue(c, a);
        const ir_expr *r = value(c, b, true);
        if (!r)
            cf_fail(c, e, "internal: assignment of a void value");
        if (!atomic)
            return assign_result(c, l, r, want);
        r = cf_to_temp(c, cf_convert(c, r, l->type));
        atomic_if(c, true, IR_S_ATOMIC_BEGIN);
        cf_assign(c, l, r);
        atomic_if(c, true, IR_S_ATOMIC_END);
        return want ? r : NULL;
    }
    case CXBinaryOperator_Comma:
        value(c, a, false);
        return value(c, b, want);
    case CXBinaryOperator_LAnd:
    case CXBinaryOperator_LOr:
        if (cf_has_effects(b))
            return logic_branch(c, k == CXBinaryOperator_LAnd, a, b);
        {
            const ir_expr *av = value(c, a, true);
            return ir_binary(c->p, arith_op(k), t, av, value(c, b, true));
        }
    case CXBinaryOperator_MulAssign:
    case CXBinaryOperator_DivAssign:
    case CXBinaryOperator_RemAssign:
    case CXBinaryOperator_AddAssign:
    case CXBinaryOperator_SubAssign:
    case CXBinaryOperator_ShlAssign:
    case CXBinaryOperator_ShrAssign:
    case CXBinaryOperator_AndAssign:
    case CXBinaryOperator_XorAssign:
    case CXBinaryOperator_OrAssign: {
        bool atomic = cf_type_is_atomic(clang_getCursorType(a));
        const ir_expr *l = cf_lvalue(c, a);
        const ir_expr *r = value(c, b, true);
        ir_op op = arith_op(k);
        const ir_type *ct;
        if (l->type->kind == IR_T_PTR)
            ct = l->type;
        else if (op == IR_OP_SHL || op == IR_OP_SHR)
            ct = cf_promote(c, l->type);
        else
            ct = cf_arith(c, cf_promote(c, l->type), r->type);
        atomic_if(c, atomic, IR_S_ATOMIC_BEGIN);
        const ir_expr *res = assign_result(c, l, cf_convert(c, arith(c, e, op, ct, l, r), l->type), want);
        atomic_if(c, atomic, IR_S_ATOMIC_END);
        return res;
    }
    case CXBinaryOperator_PtrMemD:
    case CXBinaryOperator_PtrMemI:
    case CXBinaryOperator_Cmp:
    case CXBinaryOperator_Invalid: cf_unsupported(c, e, "C++ binary operator");
    default: {
        const ir_expr *av = value(c, a, true);
        const ir_expr *bv = value(c, b, true);
        if (!av || !bv)
            cf_fail(c, e, "internal: void operand");
        return arith(c, e, arith_op(k), t, av, bv);
    }
    }
}

static const ir_expr *conditional(cf_ctx *c, CXCursor e, bool want)
{
    cf_cursors k = cf_children(c, e);
    if (k.n != 3)
        cf_unsupported(c, e, "conditional operator");
    const ir_type *t = type_of(c, e);
    bool is_void = t->kind == IR_T_VOID;
    if (!is_void && !cf_has_effects(k.v[1]) && !cf_has_effects(k.v[2])) {
        const ir_expr *cv = value(c, k.v[0], true);
        const ir_expr *av = cf_convert(c, value(c, k.v[1], true), t);
        const ir_expr *bv = cf_convert(c, value(c, k.v[2], true), t);
        return ir_ite(c->p, t, cv, av, bv);
    }
    const ir_expr *tmp = is_void || !want ? NULL : ir_var_ref(c->p, cf_temp(c, t));
    const ir_expr *cv = value(c, k.v[0], true);
    uint32_t to_else = cf_emit_goto(c, cf_not(c, cv), 0);
    const ir_expr *av = value(c, k.v[1], tmp != NULL);
    if (tmp)
        cf_assign(c, tmp, av);
    uint32_t to_end = cf_emit_goto(c, NULL, 0);
    set_target(c, to_else, c->f->nstmts);
    const ir_expr *bv = value(c, k.v[2], tmp != NULL);
    if (tmp)
        cf_assign(c, tmp, bv);
    set_target(c, to_end, c->f->nstmts);
    return tmp;
}

/* A conversion from the child's type to e's type. */
static const ir_expr *conversion(cf_ctx *c, CXCursor e, CXCursor child, bool want)
{
    const ir_type *t = type_of(c, e);
    enum CXTypeKind from = canon_kind(child), to = clang_getCanonicalType(clang_getCursorType(e)).kind;
    if (t->kind == IR_T_VOID) {
        value(c, child, false);
        return NULL;
    }
    if ((cf_type_is_opaque_value(clang_getCursorType(e)) ||
         cf_type_is_opaque_value(clang_getCursorType(child))) &&
        !ir_type_eq(t, type_of(c, child))) {
        value(c, child, false); /* a vector or complex conversion: any value */
        return want ? cf_to_temp(c, ir_nondet(c->p, t)) : NULL;
    }
    if (is_array_kind(from) && to == CXType_Pointer)
        return decay(c, child, t);
    if ((from == CXType_FunctionProto || from == CXType_FunctionNoProto) && to == CXType_Pointer)
        return cf_convert(c, function_pointer(c, child), t);
    if (from == CXType_Atomic && to != CXType_Atomic && want) {
        /* The value of an _Atomic object (lvalue conversion, C17 6.3.2.1):
         * a seq_cst atomic load, read into a temporary inside the section. */
        const ir_expr *l = cf_lvalue(c, child);
        atomic_if(c, true, IR_S_ATOMIC_BEGIN);
        const ir_expr *r = cf_to_temp(c, l);
        atomic_if(c, true, IR_S_ATOMIC_END);
        return cf_convert(c, r, t);
    }
    const ir_expr *v = value(c, child, want || t->kind != IR_T_VOID);
    if (!v)
        cf_fail(c, e, "internal: conversion of a void value");
    if (is_array_kind(to) && v->type->kind == IR_T_PTR)
        return v; /* libclang types an array parameter as its array type */
    return cf_convert(c, v, t);
}

static bool same_extent(CXCursor a, CXCursor b)
{
    return clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

/* GNU `a ?: b` (BinaryConditionalOperator): libclang gives the common
 * operand three times (as itself, the condition and the true value), then
 * b. a is evaluated once: the result is a when it is nonzero, else b. */
static const ir_expr *elvis(cf_ctx *c, CXCursor e, cf_cursors k, bool want)
{
    const ir_type *t = type_of(c, e);
    const ir_expr *a = cf_to_temp(c, value(c, k.v[0], true));
    if (!cf_has_effects(k.v[3])) {
        const ir_expr *b = cf_convert(c, value(c, k.v[3], true), t);
        return ir_ite(c->p, t, a, cf_convert(c, a, t), b);
    }
    const ir_expr *tmp = want ? ir_var_ref(c->p, cf_temp(c, t)) : NULL;
    if (tmp)
        cf_assign(c, tmp, a);
    uint32_t to_end = cf_emit_goto(c, a, 0);
    const ir_expr *b = value(c, k.v[3], tmp != NULL);
    if (tmp)
        cf_assign(c, tmp, b);
    set_target(c, to_end, c->f->nstmts);
    return tmp;
}

static const ir_expr *unexposed(cf_ctx *c, CXCursor e, bool want)
{
    cf_cursors k = cf_children(c, e);
    const ir_type *t = type_of(c, e);
    if (k.n == 1 && same_start(e, k.v[0]))
        return conversion(c, e, k.v[0], want);
    char *tok = cf_first_token(c, e);
    if (strcmp(tok, "va_arg") == 0 || strcmp(tok, "__builtin_va_arg") == 0) {
        /* The next variadic argument: any value of the type (the caller's
         * arguments are not tracked through va_list). */
        if (k.n)
            value(c, k.v[0], false);
        return cf_to_temp(c, ir_nondet(c->p, t));
    }
    if (cf_is_atomic_expr(c, e, tok))
        return cf_atomic_expr(c, e, want);
    if (k.n == 4 && same_extent(k.v[0], k.v[1]) && same_extent(k.v[0], k.v[2]))
        return elvis(c, e, k, want);
    if (strcmp(tok, "__builtin_choose_expr") == 0 && k.n == 3) {
        int64_t which;
        if (!cf_eval_int(k.v[0], &which))
            cf_fail(c, e, "__builtin_choose_expr needs a constant condition");
        return value(c, k.v[which ? 1 : 2], want);
    }
    if (k.n == 0) {
        int64_t v;
        if (strcmp(tok, "__func__") == 0 || strcmp(tok, "__FUNCTION__") == 0 ||
            strcmp(tok, "__PRETTY_FUNCTION__") == 0)
            return ir_string(c->p, ir_type_ptr(c->p, cf_int(c, 8, true)),
                             base_sym_str(c->p->syms, c->f->name));
        if (cf_eval_int(e, &v))
            return cf_const_int(c, t, v);
        return cf_const_int(c, t, 0); /* an implicit value initialisation: zero */
    }
    int64_t cv;
    if (cf_eval_int(e, &cv))
        return cf_const_int(c, t, cv); /* offsetof(struct s, a[2]), a folded builtin */
    if (strcmp(tok, "offsetof") == 0 || strcmp(tok, "__builtin_offsetof") == 0)
        cf_unsupported(c, e, "offsetof with an index that is not constant");
    if (k.n == 1)
        return conversion(c, e, k.v[0], want); /* a wrapper: full expression, constant */
    char what[128];
    snprintf(what, sizeof what, "expression starting with '%s'", tok);
    cf_unsupported(c, e, what);
}

static const ir_expr *stmt_expr(cf_ctx *c, CXCursor e, bool want)
{
    cf_cursors k = cf_children(c, e);
    if (k.n != 1 || clang_getCursorKind(k.v[0]) != CXCursor_CompoundStmt)
        cf_unsupported(c, e, "statement expression");
    cf_cursors body = cf_children(c, k.v[0]);
    for (size_t i = 0; i + 1 < body.n; i++)
        cf_stmt(c, body.v[i]);
    if (!body.n)
        return NULL;
    CXCursor last = body.v[body.n - 1];
    if (clang_isExpression(clang_getCursorKind(last)))
        return value(c, last, want);
    cf_stmt(c, last);
    return NULL;
}

/* _Generic(x, T1: e1, T2: e2, default: e3): libclang gives the
 * controlling expression and the associated expressions but not which one
 * was chosen. The chosen one has the selection's type; when several have
 * it, a constant selection is its value, and otherwise ravel cannot tell. */
static const ir_expr *generic_selection(cf_ctx *c, CXCursor e, bool want)
{
    cf_cursors k = cf_children(c, e);
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    size_t found = 0, at = 0;
    for (size_t i = 1; i < k.n; i++)
        if (clang_equalTypes(clang_getCanonicalType(clang_getCursorType(k.v[i])), t)) {
            found++;
            at = i;
        }
    if (found == 1)
        return value(c, k.v[at], want);
    int64_t v;
    if (found > 1 && cf_eval_int(e, &v))
        return cf_const_int(c, type_of(c, e), v);
    cf_unsupported(c, e, "_Generic selection whose associations have the same type and "
                         "are not constants (ravel cannot tell which one is chosen)");
}

static const ir_expr *literal(cf_ctx *c, CXCursor e)
{
    const ir_type *t = type_of(c, e);
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        cf_unsupported(c, e, "literal that clang cannot evaluate");
    const ir_expr *v;
    if (clang_EvalResult_getKind(r) == CXEval_Float) {
        ir_expr *f = (ir_expr *)ir_const(c->p, t, 0);
        f->fvalue = clang_EvalResult_getAsDouble(r);
        v = f;
    } else if (clang_EvalResult_getKind(r) == CXEval_Int) {
        int64_t x = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                      : clang_EvalResult_getAsLongLong(r);
        v = cf_const_int(c, t, x);
    } else {
        clang_EvalResult_dispose(r);
        cf_unsupported(c, e, "literal of this kind");
    }
    clang_EvalResult_dispose(r);
    return v;
}

static const ir_expr *value(cf_ctx *c, CXCursor e, bool want)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_FloatingLiteral: return literal(c, e);
    case CXCursor_StringLiteral: return decay(c, e, ir_type_ptr(c->p, cf_int(c, 8, true)));
    case CXCursor_ParenExpr: return value(c, only_child(c, e), want);
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        switch (clang_getCursorKind(d)) {
        case CXCursor_VarDecl:
        case CXCursor_ParmDecl: return var_of(c, e, d);
        case CXCursor_EnumConstantDecl:
            return cf_const_int(c, type_of(c, e), clang_getEnumConstantDeclValue(d));
        case CXCursor_FunctionDecl: return func_value(c, d);
        default: cf_unsupported(c, e, "reference to this kind of declaration");
        }
    }
    case CXCursor_UnexposedExpr: return unexposed(c, e, want);
    case CXCursor_UnaryOperator: return unary(c, e, want);
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: return binary(c, e, want);
    case CXCursor_ConditionalOperator: return conditional(c, e, want);
    case CXCursor_CStyleCastExpr: {
        cf_cursors kids = cf_children(c, e);
        if (!kids.n)
            cf_unsupported(c, e, "cast without an operand");
        return conversion(c, e, kids.v[kids.n - 1], want);
    }
    case CXCursor_CallExpr: {
        base_srcloc saved = c->loc;
        c->loc = cf_loc(c, e);
        const ir_expr *r = cf_call(c, e, want);
        c->loc = saved;
        return r;
    }
    case CXCursor_MemberRefExpr: return member(c, e);
    case CXCursor_ArraySubscriptExpr: return subscript(c, e);
    case CXCursor_InitListExpr: {
        const ir_expr *t = ir_var_ref(c->p, cf_temp(c, type_of(c, e)));
        cf_init(c, t, e);
        return t;
    }
    case CXCursor_CompoundLiteralExpr: return cf_lvalue(c, e);
    case CXCursor_StmtExpr: return stmt_expr(c, e, want);
    case CXCursor_UnaryExpr: {
        int64_t v;
        if (cf_eval_int(e, &v))
            return cf_const_int(c, type_of(c, e), v);
        cf_cursors ops = cf_children(c, e);
        if (ops.n == 1) { /* sizeof vla: the size kept at its declaration */
            CXCursor in = skip_parens(c, ops.v[0]);
            CXCursor d = clang_getCursorReferenced(in);
            ir_var *lv = clang_getCursorKind(in) == CXCursor_DeclRefExpr ? cf_local_lookup(c, d) : NULL;
            uint64_t tmp;
            if (lv && base_hashmap_get(&c->vla_bytes, (uint64_t)(uintptr_t)lv, &tmp))
                return cf_convert(c, ir_var_ref(c->p, (ir_var *)(uintptr_t)tmp), type_of(c, e));
        }
        cf_unsupported(c, e, "sizeof of a variable-length array type");
    }
    case CXCursor_GNUNullExpr: return cf_const_int(c, type_of(c, e), 0);
    case CXCursor_AddrLabelExpr: { /* &&label: its LabelRef child names the label */
        cf_cursors refs = cf_all_children(c, e);
        for (size_t i = 0; i < refs.n; i++)
            if (clang_getCursorKind(refs.v[i]) == CXCursor_LabelRef)
                return ir_const(c->p, type_of(c, e),
                                (int64_t)cf_label_address(c, clang_getCursorReferenced(refs.v[i])));
        cf_unsupported(c, e, "address of a label that libclang does not name");
    }
    case CXCursor_GenericSelectionExpr: return generic_selection(c, e, want);
    default: break;
    }
    CXString ks = clang_getCursorKindSpelling(k);
    char what[128];
    snprintf(what, sizeof what, "expression of kind %s", clang_getCString(ks));
    clang_disposeString(ks);
    cf_unsupported(c, e, what);
}

const ir_expr *cf_rvalue(cf_ctx *c, CXCursor e)
{
    const ir_expr *v = value(c, e, true);
    if (!v)
        cf_fail(c, e, "a void expression is used as a value");
    return v;
}

void cf_effect(cf_ctx *c, CXCursor e)
{
    value(c, e, false);
}

/* Exported for capi.c: a function-pointer value of a callee expression. */
const ir_expr *cf_callee_value(cf_ctx *c, CXCursor e);
const ir_expr *cf_callee_value(cf_ctx *c, CXCursor e)
{
    return function_pointer(c, e);
}
