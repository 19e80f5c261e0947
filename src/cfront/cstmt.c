/* cstmt: C statements -> the goto program of a function.
 *
 * Structured statements become guarded GOTOs: `if (c) A else B` is
 * `if !c goto else; A; goto end; else: B; end:`; loops test at the top and
 * jump back from the bottom; `switch` evaluates its operand once, lowers
 * the body in place and puts the dispatch (one guarded GOTO per case)
 * after it. Jumps to places not emitted yet (break, continue, goto a later
 * label) are recorded as patches and resolved when the place is known;
 * an unresolved goto label is an error. */
#include <stdio.h>
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

static uint32_t here(cf_ctx *c)
{
    return c->f->nstmts;
}

static void patch(cf_ctx *c, cf_patch_vec *v, uint32_t target)
{
    for (size_t i = 0; i < v->len; i++)
        c->f->stmts[v->data[i].stmt].targets[0] = target;
}

static cf_jumpctx *push_jumps(cf_ctx *c, bool is_switch)
{
    cf_jumpctx *j = BASE_ARENA_NEW(&c->scratch, cf_jumpctx);
    j->is_switch = is_switch;
    j->default_at = -1;
    j->cleanups_at = c->cleanups.len;
    base_vec_push(&c->jumps, j);
    return j;
}

static void pop_jumps(cf_ctx *c, cf_jumpctx *j, uint32_t brk, uint32_t cont)
{
    patch(c, &j->breaks, brk);
    patch(c, &j->continues, cont);
    base_vec_free(&j->breaks);
    base_vec_free(&j->continues);
    base_vec_free(&j->cases);
    c->jumps.len--;
}

static void jump_out(cf_ctx *c, CXCursor s, bool is_break)
{
    for (size_t i = c->jumps.len; i-- > 0;) {
        cf_jumpctx *j = c->jumps.data[i];
        if (!is_break && j->is_switch)
            continue;
        cf_scope_unwind(c, j->cleanups_at);
        cf_patch p = { cf_emit_goto(c, NULL, 0), 0 };
        base_vec_push(is_break ? &j->breaks : &j->continues, p);
        return;
    }
    cf_fail(c, s, "'%s' outside a loop%s", is_break ? "break" : "continue",
            is_break ? " or switch" : "");
}

static const ir_expr *cond(cf_ctx *c, CXCursor e)
{
    return cf_rvalue(c, e);
}

static void lower_if(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n < 2)
        cf_unsupported(c, s, "if statement");
    uint32_t to_else = cf_emit_goto(c, cf_not(c, cond(c, k.v[0])), 0);
    cf_stmt(c, k.v[1]);
    if (k.n == 3) {
        uint32_t to_end = cf_emit_goto(c, NULL, 0);
        c->f->stmts[to_else].targets[0] = here(c);
        cf_stmt(c, k.v[2]);
        c->f->stmts[to_end].targets[0] = here(c);
    } else {
        c->f->stmts[to_else].targets[0] = here(c);
    }
}

static void lower_while(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n != 2)
        cf_unsupported(c, s, "while statement");
    uint32_t top = here(c);
    c->loc = cf_loc(c, k.v[0]);
    uint32_t to_end = cf_emit_goto(c, cf_not(c, cond(c, k.v[0])), 0);
    cf_jumpctx *j = push_jumps(c, false);
    cf_stmt(c, k.v[1]);
    c->loc = cf_loc(c, s);
    cf_emit_goto(c, NULL, top);
    c->f->stmts[to_end].targets[0] = here(c);
    pop_jumps(c, j, here(c), top);
}

static void lower_do(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n != 2)
        cf_unsupported(c, s, "do statement");
    uint32_t top = here(c);
    cf_jumpctx *j = push_jumps(c, false);
    cf_stmt(c, k.v[0]);
    uint32_t cont = here(c);
    c->loc = cf_loc(c, k.v[1]);
    cf_emit_goto(c, cond(c, k.v[1]), top);
    pop_jumps(c, j, here(c), cont);
}

/* The slots of a for statement: libclang drops empty ones, so they are
 * told apart by where each child starts relative to the header's two
 * semicolons (found in the tokens). */
typedef struct for_slots {
    CXCursor init, cond, inc, body;
    bool has_init, has_cond, has_inc;
} for_slots;

static unsigned offset_of(CXSourceLocation l)
{
    unsigned off;
    clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
    return off;
}

static bool slots_by_tokens(cf_ctx *c, CXCursor s, cf_cursors k, for_slots *o)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, clang_getCursorExtent(s), &toks, &n);
    unsigned semi[2] = { 0, 0 }, nsemi = 0, rparen = 0;
    bool ok = false;
    if (n > 2) {
        CXString t0 = clang_getTokenSpelling(c->tu, toks[0]);
        bool is_for = strcmp(clang_getCString(t0), "for") == 0;
        clang_disposeString(t0);
        int depth = 0;
        for (unsigned i = 1; is_for && i < n; i++) {
            CXString ts = clang_getTokenSpelling(c->tu, toks[i]);
            const char *t = clang_getCString(ts);
            if (strcmp(t, "(") == 0)
                depth++;
            else if (strcmp(t, ")") == 0 && --depth == 0)
                rparen = offset_of(clang_getTokenLocation(c->tu, toks[i]));
            else if (strcmp(t, ";") == 0 && depth == 1 && nsemi < 2)
                semi[nsemi++] = offset_of(clang_getTokenLocation(c->tu, toks[i]));
            clang_disposeString(ts);
            if (rparen)
                break;
        }
        ok = is_for && nsemi == 2 && rparen;
    }
    clang_disposeTokens(c->tu, toks, n);
    if (!ok)
        return false;
    for (size_t i = 0; i < k.n; i++) {
        unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(k.v[i])));
        if (i + 1 == k.n && off > rparen) {
            o->body = k.v[i];
        } else if (off < semi[0]) {
            o->init = k.v[i];
            o->has_init = true;
        } else if (off < semi[1]) {
            o->cond = k.v[i];
            o->has_cond = true;
        } else if (off < rparen) {
            o->inc = k.v[i];
            o->has_inc = true;
        } else {
            return false;
        }
    }
    return true;
}

/* Without usable tokens (a for statement written by a macro): by shape. A
 * header slot is the condition when it has no side effect; a declaration
 * is the initialisation. */
static bool slots_by_shape(cf_ctx *c, cf_cursors k, for_slots *o)
{
    (void)c;
    if (k.n == 4) {
        *o = (for_slots){ k.v[0], k.v[1], k.v[2], k.v[3], true, true, true };
        return true;
    }
    o->body = k.v[k.n - 1];
    size_t m = k.n - 1;
    if (m == 0)
        return true;
    CXCursor a = k.v[0];
    bool a_decl = clang_getCursorKind(a) == CXCursor_DeclStmt;
    if (m == 1) {
        if (a_decl) {
            o->init = a;
            o->has_init = true;
            return true;
        }
        if (!cf_has_effects(a)) {
            o->cond = a;
            o->has_cond = true;
            return true;
        }
        return false; /* init or increment: cannot tell */
    }
    CXCursor b = k.v[1];
    if (!cf_has_effects(b) || a_decl) {
        o->init = a;
        o->has_init = true;
        if (!cf_has_effects(b)) {
            o->cond = b;
            o->has_cond = true;
        } else {
            o->inc = b;
            o->has_inc = true;
        }
        return true;
    }
    if (!cf_has_effects(a)) {
        o->cond = a;
        o->has_cond = true;
        o->inc = b;
        o->has_inc = true;
        return true;
    }
    o->init = a;
    o->has_init = true;
    o->inc = b;
    o->has_inc = true;
    return true;
}

static void lower_for(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n < 1)
        cf_unsupported(c, s, "for statement without a body");
    for_slots sl = { 0 };
    if (!slots_by_tokens(c, s, k, &sl) && !slots_by_shape(c, k, &sl))
        cf_unsupported(c, s, "for statement written by a macro whose header is ambiguous");
    if (sl.has_init)
        cf_stmt(c, sl.init);
    uint32_t top = here(c);
    uint32_t to_end = UINT32_MAX;
    if (sl.has_cond) {
        c->loc = cf_loc(c, sl.cond);
        to_end = cf_emit_goto(c, cf_not(c, cond(c, sl.cond)), 0);
    }
    cf_jumpctx *j = push_jumps(c, false);
    cf_stmt(c, sl.body);
    uint32_t cont = here(c);
    if (sl.has_inc) {
        c->loc = cf_loc(c, sl.inc);
        cf_effect(c, sl.inc);
    }
    c->loc = cf_loc(c, s);
    cf_emit_goto(c, NULL, top);
    if (to_end != UINT32_MAX)
        c->f->stmts[to_end].targets[0] = here(c);
    pop_jumps(c, j, here(c), cont);
}

static void lower_switch(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n != 2)
        cf_unsupported(c, s, "switch statement");
    const ir_expr *v = cf_rvalue(c, k.v[0]);
    if (v->kind != IR_E_CONST && !(v->kind == IR_E_VAR && v->var->kind != IR_V_GLOBAL))
        v = cf_to_temp(c, v);
    uint32_t to_dispatch = cf_emit_goto(c, NULL, 0);
    cf_jumpctx *j = push_jumps(c, true);
    cf_stmt(c, k.v[1]);
    c->loc = cf_loc(c, s);
    cf_patch p = { cf_emit_goto(c, NULL, 0), 0 }; /* the body's end falls out */
    base_vec_push(&j->breaks, p);
    c->f->stmts[to_dispatch].targets[0] = here(c);
    const ir_type *it = cf_int_type(c);
    for (size_t i = 0; i < j->cases.len; i++) {
        const cf_case *cs = &j->cases.data[i];
        const ir_expr *lo = cf_const_int(c, v->type, cs->value), *g;
        if (cs->hi == cs->value) {
            g = ir_binary(c->p, IR_OP_EQ, it, v, lo);
        } else { /* case lo ... hi: */
            const ir_expr *hi = cf_const_int(c, v->type, cs->hi);
            g = ir_binary(c->p, IR_OP_LAND, it, ir_binary(c->p, IR_OP_GE, it, v, lo),
                          ir_binary(c->p, IR_OP_LE, it, v, hi));
        }
        cf_emit_goto(c, g, cs->at);
    }
    if (j->default_at >= 0) {
        cf_emit_goto(c, NULL, (uint32_t)j->default_at);
    } else {
        cf_patch q = { cf_emit_goto(c, NULL, 0), 0 };
        base_vec_push(&j->breaks, q);
    }
    uint32_t end = here(c);
    cf_patch_vec conts = j->continues; /* continue belongs to an enclosing loop */
    j->continues = (cf_patch_vec){ 0 };
    pop_jumps(c, j, end, end);
    for (size_t i = 0; i < conts.len; i++) {
        cf_jumpctx *outer = NULL;
        for (size_t q = c->jumps.len; q-- > 0 && !outer;)
            if (!c->jumps.data[q]->is_switch)
                outer = c->jumps.data[q];
        if (!outer) {
            base_vec_free(&conts);
            cf_fail(c, s, "'continue' outside a loop");
        }
        base_vec_push(&outer->continues, conts.data[i]);
    }
    base_vec_free(&conts);
}

static cf_jumpctx *innermost_switch(cf_ctx *c, CXCursor s)
{
    for (size_t i = c->jumps.len; i-- > 0;)
        if (c->jumps.data[i]->is_switch)
            return c->jumps.data[i];
    cf_fail(c, s, "case label outside a switch");
}

static void lower_case(cf_ctx *c, CXCursor s, cf_cursors k)
{
    cf_jumpctx *j = innermost_switch(c, s);
    if (k.n < 2)
        cf_unsupported(c, s, "case label");
    if (k.n > 3)
        cf_unsupported(c, s, "case label");
    int64_t v, hi;
    if (!cf_eval_int(k.v[0], &v) || (k.n == 3 && !cf_eval_int(k.v[1], &hi)))
        cf_fail(c, s, "case label is not an integer constant");
    if (k.n < 3)
        hi = v;
    cf_case cs = { v, hi, here(c) };
    base_vec_push(&j->cases, cs);
    cf_stmt(c, k.v[k.n - 1]);
}

/* Stores the size in bytes of the variable-length array v (declared by d)
 * in a fresh local: the product of its variable dimensions, which are
 * d's expression children in order, and its fixed element size. */
static void vla_size(cf_ctx *c, CXCursor d, ir_var *v)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    size_t vdims = 0;
    long long fixed = 1;
    while (t.kind == CXType_VariableArray || t.kind == CXType_ConstantArray) {
        if (t.kind == CXType_VariableArray)
            vdims++;
        else
            fixed *= clang_getArraySize(t);
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    long long elem = clang_Type_getSizeOf(t);
    cf_cursors k = cf_children(c, d);
    if (k.n != vdims || elem <= 0)
        return; /* sizeof of it stays unsupported */
    const ir_type *st = cf_size_type(c);
    const ir_expr *bytes = ir_const(c->p, st, fixed * elem);
    for (size_t i = 0; i < k.n; i++)
        bytes = ir_binary(c->p, IR_OP_MUL, st, bytes, cf_convert(c, cf_rvalue(c, k.v[i]), st));
    const ir_expr *tmp = cf_to_temp(c, bytes);
    base_hashmap_put(&c->vla_bytes, (uint64_t)(uintptr_t)v, (uint64_t)(uintptr_t)tmp->var);
}

static void lower_decl(cf_ctx *c, CXCursor s)
{
    cf_cursors kids = cf_all_children(c, s);
    for (size_t i = 0; i < kids.n; i++) {
        CXCursor d = kids.v[i];
        if (clang_getCursorKind(d) != CXCursor_VarDecl)
            continue; /* typedefs, struct and function declarations */
        c->loc = cf_loc(c, d);
        if (clang_Cursor_hasVarDeclGlobalStorage(d) || clang_Cursor_hasVarDeclExternalStorage(d)) {
            cf_global(c, d); /* a static local (its initialiser runs once, in init) or extern */
            continue;
        }
        /* A variable-length array is an array of unknown count (0); its
         * size in bytes is kept in a local for sizeof. */
        ir_var *v = cf_declare_local(c, d, false);
        if (clang_getCursorType(d).kind == CXType_VariableArray ||
            clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_VariableArray)
            vla_size(c, d, v);
        CXCursor init = clang_Cursor_getVarDeclInitializer(d);
        if (!clang_Cursor_isNull(init))
            cf_init(c, ir_var_ref(c->p, v), init);
        cf_scope_declared(c, d, v);
    }
}

static void lower_return(cf_ctx *c, CXCursor s, cf_cursors k)
{
    const ir_type *rt = c->f->type->to;
    const ir_expr *v = NULL;
    if (k.n) {
        if (rt->kind == IR_T_VOID)
            cf_effect(c, k.v[0]);
        else
            v = cf_convert(c, cf_rvalue(c, k.v[0]), rt);
    }
    (void)s;
    if (c->cleanups.len) { /* the value first, then the cleanups, then return */
        if (v && v->kind != IR_E_CONST)
            v = cf_to_temp(c, v);
        cf_scope_unwind(c, 0);
    }
    uint32_t st = cf_emit(c, IR_S_RETURN);
    c->f->stmts[st].rhs = v;
}

uint64_t cf_label_address(cf_ctx *c, CXCursor label)
{
    CXFile file;
    unsigned off;
    clang_getSpellingLocation(clang_getCursorLocation(label), &file, NULL, NULL, &off);
    char key[1200];
    snprintf(key, sizeof key, "%s:%u:%s", file ? cf_file_name(c, file) : "", off,
             cf_spelling(c, label));
    base_sym k = base_intern_cstr(c->p->syms, key);
    uint64_t id;
    if (!base_hashmap_get(&c->label_ids, k, &id)) {
        id = 16 * (uint64_t)(c->label_ids.count + 1);
        base_hashmap_put(&c->label_ids, k, id);
    }
    return id;
}

/* `goto *v`: v is stored, and a jump goes to the dispatch that
 * cf_function puts after the body (one guarded goto per label whose
 * address is v, then assume(0): a computed goto to no label of the
 * function is undefined). */
static void lower_indirect_goto(cf_ctx *c, CXCursor s, cf_cursors k)
{
    if (k.n != 1)
        cf_unsupported(c, s, "computed goto");
    const ir_expr *v = cf_to_temp(c, cf_rvalue(c, k.v[0]));
    struct cf_indirect ind = { cf_emit_goto(c, NULL, 0), v, c->loc };
    base_vec_push(&c->indirect, ind);
}

static void indirect_dispatch(cf_ctx *c)
{
    for (size_t i = 0; i < c->indirect.len; i++) {
        struct cf_indirect *ind = &c->indirect.data[i];
        c->loc = ind->loc;
        c->f->stmts[ind->stmt].targets[0] = here(c);
        for (size_t l = 0; l < c->addr_labels.len; l++)
            cf_emit_goto(c,
                         ir_binary(c->p, IR_OP_EQ, cf_int_type(c), ind->target,
                                   ir_const(c->p, ind->target->type, (int64_t)c->addr_labels.data[l].id)),
                         c->addr_labels.data[l].at);
        uint32_t a = cf_emit(c, IR_S_ASSUME);
        c->f->stmts[a].rhs = cf_const_int(c, cf_int_type(c), 0);
        c->f->stmts[a].message = "computed goto to no label of this function";
    }
}

void cf_stmt(cf_ctx *c, CXCursor s)
{
    enum CXCursorKind kind = clang_getCursorKind(s);
    c->loc = cf_loc(c, s);
    if (kind == CXCursor_DeclStmt) {
        lower_decl(c, s);
        return;
    }
    cf_cursors k = cf_children(c, s);
    switch (kind) {
    case CXCursor_CompoundStmt:
        cf_scope_enter(c, s);
        for (size_t i = 0; i < k.n; i++)
            cf_stmt(c, k.v[i]);
        cf_scope_leave(c);
        return;
    case CXCursor_IfStmt: lower_if(c, s, k); return;
    case CXCursor_WhileStmt: lower_while(c, s, k); return;
    case CXCursor_DoStmt: lower_do(c, s, k); return;
    case CXCursor_ForStmt: lower_for(c, s, k); return;
    case CXCursor_SwitchStmt: lower_switch(c, s, k); return;
    case CXCursor_CaseStmt: lower_case(c, s, k); return;
    case CXCursor_DefaultStmt: {
        cf_jumpctx *j = innermost_switch(c, s);
        j->default_at = here(c);
        if (k.n)
            cf_stmt(c, k.v[k.n - 1]);
        return;
    }
    case CXCursor_BreakStmt: jump_out(c, s, true); return;
    case CXCursor_ContinueStmt: jump_out(c, s, false); return;
    case CXCursor_GotoStmt: {
        CXCursor label = clang_getCursorReferenced(s);
        cf_scope_unwind_to_label(c, label);
        cf_patch p = { cf_emit_goto(c, NULL, 0), base_intern_cstr(c->p->syms, cf_spelling(c, label)) };
        base_vec_push(&c->gotos, p);
        return;
    }
    case CXCursor_LabelStmt: {
        base_sym name = base_intern_cstr(c->p->syms, cf_spelling(c, s));
        base_hashmap_put(&c->labels, name, here(c));
        struct cf_addr_label al = { cf_label_address(c, s), here(c) };
        base_vec_push(&c->addr_labels, al);
        if (k.n)
            cf_stmt(c, k.v[k.n - 1]);
        return;
    }
    case CXCursor_ReturnStmt: lower_return(c, s, k); return;
    case CXCursor_NullStmt: return;
    case CXCursor_GCCAsmStmt: cf_asm(c, s); return;
    case CXCursor_MSAsmStmt: cf_unsupported(c, s, "Microsoft-style inline assembly (__asm { ... })");
    case CXCursor_UnexposedStmt:
        /* an attributed statement: __attribute__((fallthrough));, [[likely]] s,
         * __attribute__((musttail)) return ...: the statement it wraps */
        for (size_t i = 0; i < k.n; i++)
            cf_stmt(c, k.v[i]);
        return;
    case CXCursor_IndirectGotoStmt: lower_indirect_goto(c, s, k); return;
    default: break;
    }
    if (clang_isExpression(kind)) {
        cf_effect(c, s);
        return;
    }
    CXString ks = clang_getCursorKindSpelling(kind);
    char what[128];
    snprintf(what, sizeof what, "statement of kind %s", clang_getCString(ks));
    clang_disposeString(ks);
    cf_unsupported(c, s, what);
}

void cf_function(cf_ctx *c, CXCursor def, ir_func *f)
{
    f->loc = cf_loc(c, def);
    c->loc = f->loc;
    int n = clang_Cursor_getNumArguments(def);
    for (int i = 0; i < n; i++)
        cf_declare_local(c, clang_Cursor_getArgument(def, (unsigned)i), true);
    cf_cursors kids = cf_children(c, def);
    CXCursor body = clang_getNullCursor();
    for (size_t i = 0; i < kids.n; i++)
        if (clang_getCursorKind(kids.v[i]) == CXCursor_CompoundStmt)
            body = kids.v[i];
    if (clang_Cursor_isNull(body))
        cf_unsupported(c, def, "function definition without a body");
    c->body = body;
    cf_stmt(c, body);
    for (size_t i = 0; i < c->gotos.len; i++) {
        uint64_t at;
        if (!base_hashmap_get(&c->labels, c->gotos.data[i].label, &at))
            cf_fail(c, def, "goto to an undefined label '%s'",
                    base_sym_str(c->p->syms, c->gotos.data[i].label));
        f->stmts[c->gotos.data[i].stmt].targets[0] = (uint32_t)at;
    }
    /* The end of the body: an implicit return (main returns 0). */
    bool ends = f->nstmts && f->stmts[f->nstmts - 1].kind == IR_S_RETURN;
    for (uint32_t i = 0; i < f->nstmts && ends; i++)
        for (uint32_t t = 0; t < f->stmts[i].ntargets; t++)
            if (f->stmts[i].targets[t] == f->nstmts)
                ends = false;
    if (!ends) {
        CXSourceRange r = clang_getCursorExtent(body);
        CXFile file;
        unsigned line, col;
        clang_getExpansionLocation(clang_getRangeEnd(r), &file, &line, &col, NULL);
        if (file)
            c->loc = base_srcloc_make(cf_file_name(c, file), line, col > 1 ? col - 1 : col);
        uint32_t s = cf_emit(c, IR_S_RETURN);
        if (strcmp(base_sym_str(c->p->syms, f->name), "main") == 0 && f->type->to->kind == IR_T_INT)
            f->stmts[s].rhs = ir_const(c->p, f->type->to, 0);
    }
    indirect_dispatch(c);
}
