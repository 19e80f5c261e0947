/* ctype: clang types -> ir types, and C's arithmetic conversions.
 *
 * Sizes, alignments and field offsets come from clang (the target's ABI,
 * so -m32 is right); only the shape is ours. Records are cached by their
 * USR before their fields are filled, so recursive types terminate. The
 * synchronisation types of pthread and C11 (pthread_mutex_t, mtx_t, ...)
 * are recognised by their typedef name and become IR_T_MUTEX, whatever
 * union the C library hides them in. */
#include <stdio.h>
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

static const char *const sync_names[] = {
    "pthread_mutex_t", "pthread_rwlock_t", "pthread_spinlock_t", "pthread_cond_t",
    "pthread_barrier_t", "mtx_t", "cnd_t",
};

const ir_type *cf_int(cf_ctx *c, uint32_t bits, bool is_signed)
{
    return ir_type_int(c->p, bits, is_signed);
}

const ir_type *cf_int_type(cf_ctx *c)
{
    return cf_int(c, 32, true);
}

const ir_type *cf_size_type(cf_ctx *c)
{
    return cf_int(c, c->p->ptr_bytes * 8, false);
}

bool cf_type_is_atomic(CXType t)
{
    for (int guard = 0; guard < 16; guard++) {
        if (t.kind == CXType_Atomic)
            return true;
        if (t.kind == CXType_Elaborated)
            t = clang_Type_getNamedType(t);
        else if (t.kind == CXType_Typedef)
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
        else if (t.kind == CXType_Attributed)
            t = clang_Type_getModifiedType(t);
        else
            return false;
    }
    return false;
}

static uint32_t bits_of(CXType t)
{
    long long s = clang_Type_getSizeOf(t);
    return s > 0 ? (uint32_t)s * 8 : 32;
}

/* Collects field cursors only: nothing that may longjmp runs inside
 * clang's visitor. */
static enum CXVisitorResult visit_field(CXCursor fc, CXClientData data)
{
    cf_cursor_vec *v = data;
    base_vec_push(v, fc);
    return CXVisit_Continue;
}

static ir_field lower_field(cf_ctx *c, CXCursor fc, CXCursor where)
{
    ir_field fld = { 0 };
    CXString n = clang_getCursorSpelling(fc);
    const char *s = clang_getCString(n);
    bool named = s && *s && !clang_Cursor_isAnonymousRecordDecl(fc) && !strchr(s, ' ');
    fld.name = named ? base_intern_cstr(c->p->syms, s) : 0;
    clang_disposeString(n);
    fld.type = cf_type(c, clang_getCursorType(fc), where);
    long long off = clang_Cursor_getOffsetOfField(fc);
    fld.offset = off > 0 ? (uint64_t)off / 8 : 0;
    if (clang_Cursor_isBitField(fc)) {
        fld.bit_width = (uint32_t)clang_getFieldDeclBitWidth(fc);
        fld.bit_offset = off > 0 ? (uint32_t)(off % 8) : 0;
    }
    return fld;
}

/* A struct or union one unit only declares (`struct chan;`) and another
 * defines is one type across the program: the incomplete node, which a
 * global or a function's type may already hold, gets the definition's
 * members, size and alignment. */
static void complete_from(ir_type *inc, const ir_type *def)
{
    inc->fields = def->fields;
    inc->nfields = def->nfields;
    inc->size = def->size;
    inc->align = def->align;
}

static const ir_type *record(cf_ctx *c, CXType t, CXCursor where)
{
    CXCursor decl = clang_getTypeDeclaration(t);
    CXCursor def = clang_getCursorDefinition(decl);
    CXCursor named = clang_Cursor_isNull(def) ? decl : def;
    CXString usr = clang_getCursorUSR(named);
    base_sym key = base_intern_cstr(c->p->syms, clang_getCString(usr));
    clang_disposeString(usr);
    if (key && clang_Cursor_isAnonymous(named)) {
        /* Two anonymous members of one record may share a USR (glibc's
         * struct rusage has two anonymous unions): tell them apart by
         * where they are declared. */
        CXFile file;
        unsigned off;
        clang_getSpellingLocation(clang_getCursorLocation(named), &file, NULL, NULL, &off);
        char buf[1024];
        snprintf(buf, sizeof buf, "%s@%s:%u", base_sym_str(c->p->syms, key),
                 file ? cf_file_name(c, file) : "", off);
        key = base_intern_cstr(c->p->syms, buf);
    }
    uint64_t found;
    if (key && base_hashmap_get(&c->types, key, &found))
        return (const ir_type *)(uintptr_t)found;
    ir_type *r = BASE_ARENA_NEW(&c->p->arena, ir_type);
    r->kind = clang_getCursorKind(decl) == CXCursor_UnionDecl ? IR_T_UNION : IR_T_STRUCT;
    CXString sp = clang_getCursorSpelling(decl);
    const char *name = clang_getCString(sp);
    if (name && *name && !clang_Cursor_isAnonymous(decl) && !strchr(name, ' '))
        r->tag = base_intern_cstr(c->p->syms, name);
    clang_disposeString(sp);
    if (key) {
        base_hashmap_put(&c->types, key, (uint64_t)(uintptr_t)r);
        base_hashmap_put(&c->rec_key, (uint64_t)(uintptr_t)r, key);
    }
    long long size = clang_Type_getSizeOf(t);
    r->size = size > 0 ? (uint64_t)size : 0;
    long long al = clang_Type_getAlignOf(t);
    r->align = al > 0 ? (uint32_t)al : 0;
    if (clang_Cursor_isNull(def)) {
        /* incomplete here: completed in place when a unit defines it */
        uint64_t done;
        if (key && base_hashmap_get(&c->records_done, key, &done))
            complete_from(r, (const ir_type *)(uintptr_t)done);
        else if (key) {
            struct cf_incomplete inc = { key, r };
            base_vec_push(&c->records_incomplete, inc);
        }
        return r;
    }
    cf_cursor_vec fcs = { 0 };
    clang_Type_visitFields(clang_getCursorType(def), visit_field, &fcs);
    size_t n = fcs.len;
    CXCursor *cs = BASE_ARENA_ARRAY(&c->p->arena, CXCursor, n);
    if (n)
        memcpy(cs, fcs.data, n * sizeof *cs);
    base_vec_free(&fcs);
    ir_field *fields = BASE_ARENA_ARRAY(&c->p->arena, ir_field, n);
    for (size_t i = 0; i < n; i++)
        fields[i] = lower_field(c, cs[i], where);
    r->fields = fields;
    r->nfields = (uint32_t)n;
    if (key && !base_hashmap_get(&c->records_done, key, NULL)) {
        base_hashmap_put(&c->records_done, key, (uint64_t)(uintptr_t)r);
        size_t keep = 0;
        for (size_t i = 0; i < c->records_incomplete.len; i++) {
            struct cf_incomplete *inc = &c->records_incomplete.data[i];
            if (inc->key == key)
                complete_from(inc->type, r);
            else
                c->records_incomplete.data[keep++] = *inc;
        }
        c->records_incomplete.len = keep;
    }
    return r;
}

static const ir_type *sync_type(cf_ctx *c, CXType t)
{
    CXString n = clang_getTypedefName(t);
    const char *s = clang_getCString(n);
    const ir_type *r = NULL;
    for (size_t i = 0; s && i < sizeof sync_names / sizeof sync_names[0]; i++) {
        if (strcmp(s, sync_names[i]) == 0) {
            ir_type *m = (ir_type *)ir_type_mutex(c->p);
            m->tag = base_intern_cstr(c->p->syms, s);
            long long size = clang_Type_getSizeOf(t);
            m->size = size > 0 ? (uint64_t)size : 0;
            r = m;
            break;
        }
    }
    clang_disposeString(n);
    return r;
}

/* The struct standing for clang type t (its size and alignment). */
static const ir_type *opaque_struct(cf_ctx *c, CXType t, const char *tag, ir_field *f, uint32_t n)
{
    ir_type *r = BASE_ARENA_NEW(&c->p->arena, ir_type);
    r->kind = IR_T_STRUCT;
    r->tag = base_intern_cstr(c->p->syms, tag);
    r->fields = f;
    r->nfields = n;
    long long size = clang_Type_getSizeOf(t), al = clang_Type_getAlignOf(t);
    r->size = size > 0 ? (uint64_t)size : 0;
    r->align = al > 0 ? (uint32_t)al : 0;
    return r;
}

/* A GCC vector (vector_size) or clang ext_vector: an opaque value that
 * can be stored, copied, passed and indexed. It is a struct tagged
 * `__vector` with one member, the array of its elements, so that v[i]
 * is an ordinary element access; arithmetic on vectors gives any value
 * (cexpr.c). */
static const ir_type *vector_type(cf_ctx *c, CXType t, CXCursor where)
{
    ir_type *a = BASE_ARENA_NEW(&c->p->arena, ir_type);
    a->kind = IR_T_ARRAY;
    a->to = cf_type(c, clang_getElementType(t), where);
    long long n = clang_getNumElements(t);
    a->count = n > 0 ? (uint64_t)n : 0;
    a->size = a->count * a->to->size;
    a->align = a->to->align;
    ir_field *f = BASE_ARENA_NEW(&c->p->arena, ir_field);
    f->name = base_intern_cstr(c->p->syms, "v");
    f->type = a;
    return opaque_struct(c, t, CF_VECTOR_TAG, f, 1);
}

/* _Complex T: a struct tagged `__complex` of two T (real, imaginary), as
 * C lays it out; its arithmetic gives any value, as a vector's does. */
static const ir_type *complex_type(cf_ctx *c, CXType t, CXCursor where)
{
    const ir_type *e = cf_type(c, clang_getElementType(t), where);
    ir_field *f = BASE_ARENA_ARRAY(&c->p->arena, ir_field, 2);
    f[0] = (ir_field){ .name = base_intern_cstr(c->p->syms, "re"), .type = e, .offset = 0 };
    f[1] = (ir_field){ .name = base_intern_cstr(c->p->syms, "im"), .type = e, .offset = e->size };
    return opaque_struct(c, t, CF_COMPLEX_TAG, f, 2);
}

bool cf_type_is_opaque_value(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_Vector || k == CXType_ExtVector || k == CXType_Complex;
}

const ir_type *cf_type(cf_ctx *c, CXType t, CXCursor where)
{
    for (;;) {
        if (t.kind == CXType_Typedef) {
            const ir_type *s = sync_type(c, t);
            if (s)
                return s;
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
        } else if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
        } else if (t.kind == CXType_Attributed) {
            t = clang_Type_getModifiedType(t);
        } else if (t.kind == CXType_Atomic) {
            t = clang_Type_getValueType(t);
        } else {
            break;
        }
    }
    switch (t.kind) {
    case CXType_Void: return ir_type_void(c->p);
    case CXType_Bool: return cf_int(c, 1, false);
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128:
    case CXType_WChar: return cf_int(c, bits_of(t), true);
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_UInt128:
    case CXType_Char16:
    case CXType_Char32: return cf_int(c, bits_of(t), false);
    case CXType_Float:
    case CXType_Double:
    case CXType_Float128:
    case CXType_Half:
    case CXType_Float16: return ir_type_float(c->p, bits_of(t));
    case CXType_LongDouble: return ir_type_float(c->p, 80);
    case CXType_Pointer: return ir_type_ptr(c->p, cf_type(c, clang_getPointeeType(t), where));
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray: {
        ir_type *a = BASE_ARENA_NEW(&c->p->arena, ir_type);
        a->kind = IR_T_ARRAY;
        a->to = cf_type(c, clang_getArrayElementType(t), where);
        long long n = t.kind == CXType_ConstantArray ? clang_getArraySize(t) : 0;
        a->count = n > 0 ? (uint64_t)n : 0;
        a->size = a->count * a->to->size;
        a->align = a->to->align;
        return a;
    }
    case CXType_Record: return record(c, t, where);
    case CXType_Enum:
        return cf_type(c, clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)), where);
    case CXType_FunctionProto:
    case CXType_FunctionNoProto: {
        int n = clang_getNumArgTypes(t);
        const ir_type *ps[64];
        if (n > 64)
            cf_unsupported(c, where, "function type with more than 64 parameters");
        for (int i = 0; i < n; i++) {
            ps[i] = cf_type(c, clang_getArgType(t, (unsigned)i), where);
            if (ps[i]->kind == IR_T_ARRAY) /* C adjusts array and function parameters */
                ps[i] = ir_type_ptr(c->p, ps[i]->to);
            else if (ps[i]->kind == IR_T_FUNC)
                ps[i] = ir_type_ptr(c->p, ps[i]);
        }
        bool variadic = t.kind == CXType_FunctionNoProto || clang_isFunctionTypeVariadic(t);
        return ir_type_func(c->p, cf_type(c, clang_getResultType(t), where), ps,
                            n > 0 ? (uint32_t)n : 0, variadic);
    }
    case CXType_Complex: return complex_type(c, t, where);
    case CXType_Vector:
    case CXType_ExtVector: return vector_type(c, t, where);
    case CXType_BlockPointer: cf_unsupported(c, where, "block pointer type (a clang extension)");
    case CXType_Unexposed:
    case CXType_Auto:
    case CXType_BTFTagAttributed: {
        /* typeof(...), __typeof__, __auto_type and other sugar libclang does
         * not expose: the type they stand for. */
        CXType canon = clang_getCanonicalType(t);
        if (canon.kind != t.kind && canon.kind != CXType_Invalid)
            return cf_type(c, canon, where);
        break;
    }
    default: break;
    }
    CXString sp = clang_getTypeSpelling(t);
    char what[160];
    snprintf(what, sizeof what, "type '%s'", clang_getCString(sp));
    clang_disposeString(sp);
    cf_unsupported(c, where, what);
}

const ir_type *cf_promote(cf_ctx *c, const ir_type *t)
{
    if (t->kind == IR_T_INT && t->bits < 32)
        return cf_int_type(c);
    return t;
}

const ir_type *cf_arith(cf_ctx *c, const ir_type *a, const ir_type *b)
{
    if (a->kind == IR_T_FLOAT || b->kind == IR_T_FLOAT) {
        if (a->kind != IR_T_FLOAT)
            return b;
        if (b->kind != IR_T_FLOAT)
            return a;
        return a->bits >= b->bits ? a : b;
    }
    if (a->kind != IR_T_INT || b->kind != IR_T_INT)
        return a;
    a = cf_promote(c, a);
    b = cf_promote(c, b);
    if (a->is_signed == b->is_signed)
        return a->bits >= b->bits ? a : b;
    const ir_type *u = a->is_signed ? b : a, *s = a->is_signed ? a : b;
    if (u->bits >= s->bits)
        return u;
    return s; /* the signed type is wider, so it holds every value of the unsigned one */
}

const ir_expr *cf_find_field(cf_ctx *c, const ir_expr *agg, base_sym name)
{
    const ir_type *t = agg->type;
    if (!t || (t->kind != IR_T_STRUCT && t->kind != IR_T_UNION))
        return NULL;
    for (uint32_t i = 0; i < t->nfields; i++)
        if (t->fields[i].name == name)
            return ir_member(c->p, agg, i);
    for (uint32_t i = 0; i < t->nfields; i++) {
        if (t->fields[i].name)
            continue;
        const ir_expr *inner = cf_find_field(c, ir_member(c->p, agg, i), name);
        if (inner)
            return inner;
    }
    return NULL;
}
