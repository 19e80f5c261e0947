/* cscope: blocks and GCC's __attribute__((cleanup(fn))).
 *
 * A variable declared with cleanup(fn) has fn(&var) called whenever
 * control leaves its block: at the block's end, and before a return, a
 * break or continue out of it, or a goto to a label outside it. This is
 * the scoped-unlock idiom (`pthread_mutex_t *m __attribute__((cleanup(
 * unlock_it))) = &mu;`), so the deadlock and race analyses must see the
 * call where C makes it.
 *
 * Invariants: c->scopes holds the blocks being lowered, outermost first;
 * c->cleanups the registered variables, in declaration order, each with
 * the index of its block in c->scopes. A block's entries are removed when
 * it is left. The calls for one exit are emitted innermost first, as C
 * runs them. */
#include <string.h>

#include "base/intern.h"
#include "cfront/lower.h"

void cf_scope_enter(cf_ctx *c, CXCursor block)
{
    base_vec_push(&c->scopes, block);
}

static void emit_cleanup(cf_ctx *c, const struct cf_cleanup *cl)
{
    const ir_expr **args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, 1);
    args[0] = ir_addr(c->p, ir_var_ref(c->p, cl->var));
    uint32_t s = cf_emit(c, IR_S_CALL);
    c->f->stmts[s].callee = ir_func_ref(c->p, cl->fn);
    c->f->stmts[s].args = args;
    c->f->stmts[s].nargs = 1;
}

void cf_scope_unwind(cf_ctx *c, size_t keep)
{
    for (size_t i = c->cleanups.len; i-- > keep;)
        emit_cleanup(c, &c->cleanups.data[i]);
}

void cf_scope_leave(cf_ctx *c)
{
    size_t scope = c->scopes.len - 1, keep = c->cleanups.len;
    while (keep > 0 && c->cleanups.data[keep - 1].scope == scope)
        keep--;
    cf_scope_unwind(c, keep); /* unreachable when the block ends in a jump: harmless */
    c->cleanups.len = keep;
    c->scopes.len--;
}

/* The function named `name` declared in the current unit. */
static CXCursor unit_function(cf_ctx *c, const char *name)
{
    if (!c->tu_func_decls.len) {
        cf_cursors top = cf_all_children(c, clang_getTranslationUnitCursor(c->tu));
        for (size_t i = 0; i < top.n; i++)
            if (clang_getCursorKind(top.v[i]) == CXCursor_FunctionDecl) {
                base_vec_push(&c->tu_func_decls, top.v[i]);
                base_hashmap_put(&c->tu_funcs,
                                 base_intern_cstr(c->p->syms, cf_spelling(c, top.v[i])),
                                 c->tu_func_decls.len);
            }
    }
    uint64_t at;
    if (!base_hashmap_get(&c->tu_funcs, base_intern_cstr(c->p->syms, name), &at)) {
        c->pch_miss |= c->tu_pch; /* it may be among the PCH's declarations */
        return clang_getNullCursor();
    }
    return c->tu_func_decls.data[at - 1];
}

/* The name inside cleanup( ) of an attribute, from its tokens ("" if it
 * is not a cleanup attribute). Where a macro wrote the attribute
 * (`_cleanup_(unlockp)`), the tokens are the macro's call, whose last
 * identifier before `)` is the function. */
static const char *cleanup_name(cf_ctx *c, CXCursor attr)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, clang_getCursorExtent(attr), &toks, &n);
    const char *r = "";
    bool is_cleanup = false;
    for (unsigned i = 0; i < n; i++) {
        CXString sp = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(sp);
        if (strcmp(t, "cleanup") == 0 || strcmp(t, "__cleanup__") == 0 || strstr(t, "cleanup"))
            is_cleanup = true;
        if (clang_getTokenKind(toks[i]) == CXToken_Identifier && i + 1 < n) {
            CXString nx = clang_getTokenSpelling(c->tu, toks[i + 1]);
            if (strcmp(clang_getCString(nx), ")") == 0)
                r = base_arena_strdup(&c->scratch, t);
            clang_disposeString(nx);
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(c->tu, toks, n);
    return is_cleanup ? r : "";
}

void cf_scope_declared(cf_ctx *c, CXCursor decl, ir_var *var)
{
    cf_cursors k = cf_all_children(c, decl);
    for (size_t i = 0; i < k.n; i++) {
        if (clang_getCursorKind(k.v[i]) != CXCursor_UnexposedAttr)
            continue;
        const char *name = cleanup_name(c, k.v[i]);
        if (!*name)
            continue;
        CXCursor fd = unit_function(c, name);
        if (clang_Cursor_isNull(fd))
            cf_fail(c, k.v[i], "the cleanup function '%s' is not declared in this unit", name);
        if (!c->scopes.len)
            cf_fail(c, decl, "internal: a cleanup variable outside any block");
        struct cf_cleanup cl = { var, cf_func_decl(c, fd), c->scopes.len - 1 };
        base_vec_push(&c->cleanups, cl);
    }
}

/* Collects the blocks enclosing `label` inside the function body. */
typedef struct label_search {
    CXCursor label;
    cf_cursor_vec path;
    bool found;
} label_search;

static enum CXChildVisitResult find_label(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    label_search *ls = data;
    if (clang_equalCursors(cur, ls->label)) {
        ls->found = true;
        return CXChildVisit_Break;
    }
    bool block = clang_getCursorKind(cur) == CXCursor_CompoundStmt;
    if (block)
        base_vec_push(&ls->path, cur);
    clang_visitChildren(cur, find_label, ls);
    if (ls->found)
        return CXChildVisit_Break;
    if (block)
        ls->path.len--;
    return CXChildVisit_Continue;
}

void cf_scope_unwind_to_label(cf_ctx *c, CXCursor label)
{
    if (!c->cleanups.len)
        return;
    label_search ls = { .label = label };
    base_vec_push(&ls.path, c->body);
    clang_visitChildren(c->body, find_label, &ls);
    /* the blocks of c->scopes that also enclose the label: a common prefix */
    size_t common = 0;
    while (ls.found && common < c->scopes.len && common < ls.path.len &&
           clang_equalCursors(c->scopes.data[common], ls.path.data[common]))
        common++;
    base_vec_free(&ls.path);
    size_t keep = c->cleanups.len;
    while (keep > 0 && c->cleanups.data[keep - 1].scope >= common)
        keep--;
    cf_scope_unwind(c, keep);
}
