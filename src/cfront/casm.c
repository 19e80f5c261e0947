/* casm: GCC inline assembly -> an opaque call.
 *
 * `asm [volatile] ("template" : outputs : inputs : clobbers)` becomes
 *
 *   - a SKIP (with a message), when it cannot change what C sees: no
 *     outputs and no "memory" clobber (`pause`), an empty template
 *     (`asm("" ::: "memory")`, a compiler barrier), or fence instructions
 *     alone (`mfence`, `dmb ish`, `fence rw,rw`). The engines are
 *     sequentially consistent, where a fence orders nothing new;
 *   - otherwise a CALL of the program's one `__ravel_asm` function (no body,
 *     cf_ctx.asm_func) whose arguments are the addresses of the output
 *     operands, with the template as the statement's message. A function
 *     without a body may write through its pointer arguments, so every
 *     engine treats the outputs as written with unknown values; with a
 *     "memory" clobber the call is to `__ravel_asm_memory` instead, whose
 *     ir_func has writes_memory set: it may write anything the program can
 *     reach, and an engine that cannot model that says so.
 *
 * libclang gives the operands as children (outputs, then inputs) but not
 * the template, the clobbers or where outputs end: those come from the
 * tokens. For an asm written by a macro the tokens are read at the
 * macro's definition (the spelling location). When the tokens cannot be
 * read, the asm is taken to clobber memory and every operand that is an
 * lvalue to be an output, which over-approximates what it writes. */
#include <string.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/lower.h"

typedef struct asm_shape {
    bool known;          /* the tokens were read */
    bool empty_template; /* the template is "" (or a run of "") */
    bool clobbers_memory;
    bool fence;          /* the template is fence instructions only */
    uint32_t noutputs;
    char *text;          /* the template as written, in the scratch arena */
} asm_shape;

/* The tokens of cur's source text; for text a macro wrote, those of the
 * macro's body. */
static CXSourceRange asm_range(CXCursor cur)
{
    CXSourceRange r = clang_getCursorExtent(cur);
    CXSourceLocation a = clang_getRangeStart(r), b = clang_getRangeEnd(r);
    CXFile fa, fe, fb;
    unsigned oa, oe, ob;
    clang_getExpansionLocation(a, &fe, NULL, NULL, &oe);
    clang_getSpellingLocation(a, &fa, NULL, NULL, &oa);
    clang_getSpellingLocation(b, &fb, NULL, NULL, &ob);
    if (fa && fb && clang_File_isEqual(fa, fb) && (!clang_File_isEqual(fa, fe) || oa != oe) && ob > oa)
        return clang_getRange(a, b);
    return r;
}

/* Is the template nothing but fence instructions (mfence, dmb ish,
 * fence rw,rw, sync, ...)? Such an asm writes no memory. */
static bool pure_fence(const char *t)
{
    static const char *const words[] = {
        "mfence", "lfence", "sfence", "dmb", "dsb", "isb", "fence", "sync", "lwsync", "hwsync",
        "ish", "ishld", "ishst", "sy", "ld", "st", "osh", "oshld", "oshst", "nsh",
        "rw,rw", "r,r", "w,w", "r,rw", "rw,r", "rw,w", "w,rw", "iorw,iorw", "tso",
    };
    char word[32];
    size_t nwords = 0;
    for (const char *p = t; *p;) {
        /* separators: blanks, ';' and the escapes \n \t as the source spells them */
        while (*p == ' ' || *p == '\t' || *p == ';' || *p == '\n' || *p == '\\') {
            if (*p == '\\' && p[1])
                p++;
            p++;
        }
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != ';' && *p != '\n' && *p != '\\') {
            if (n + 1 >= sizeof word)
                return false;
            word[n++] = *p++;
        }
        if (!n)
            continue;
        word[n] = 0;
        bool ok = false;
        for (size_t i = 0; i < sizeof words / sizeof *words && !ok; i++)
            ok = strcmp(word, words[i]) == 0;
        if (!ok)
            return false;
        nwords++;
    }
    return nwords > 0;
}

static asm_shape read_shape(cf_ctx *c, CXCursor s)
{
    asm_shape sh = { 0 };
    CXToken *toks = NULL;
    unsigned n = 0;
    CXSourceRange r = asm_range(s);
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(s);
    clang_tokenize(tu, r, &toks, &n);
    base_strbuf text = { 0 };
    int depth = 0, section = -1;
    uint32_t items = 0;
    bool item_open = false, only_empty_strings = true, saw_open = false;
    for (unsigned i = 0; i < n; i++) {
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        CXTokenKind kind = clang_getTokenKind(toks[i]);
        if (strcmp(t, "(") == 0) {
            if (depth++ == 0 && !saw_open) {
                saw_open = true;
                section = 0;
                clang_disposeString(sp);
                continue;
            }
        } else if (strcmp(t, ")") == 0) {
            if (--depth == 0 && section >= 0) {
                if (section == 1 && item_open)
                    items++;
                section = -2; /* done */
            }
        } else if (depth == 1 && section >= 0 && (strcmp(t, ":") == 0 || strcmp(t, "::") == 0)) {
            if (section == 1 && item_open)
                items++;
            section += strcmp(t, "::") == 0 ? 2 : 1;
            item_open = false;
            clang_disposeString(sp);
            continue;
        } else if (depth == 1 && section == 1 && strcmp(t, ",") == 0) {
            if (item_open)
                items++;
            item_open = false;
            clang_disposeString(sp);
            continue;
        }
        if (section == 0) {
            if (kind == CXToken_Literal && t[0] == '"') {
                if (strcmp(t, "\"\"") != 0)
                    only_empty_strings = false;
                size_t len = strlen(t);
                if (len >= 2)
                    base_strbuf_put(&text, t + 1, len - 2);
            } else {
                only_empty_strings = false; /* a macro or a concatenation we cannot see */
                base_strbuf_printf(&text, "%s", t);
            }
        } else if (section == 1) {
            item_open = true;
        } else if (section == 3 && kind == CXToken_Literal && strcmp(t, "\"memory\"") == 0) {
            sh.clobbers_memory = true;
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, toks, n);
    sh.known = section == -2;
    sh.noutputs = items;
    sh.empty_template = sh.known && only_empty_strings;
    sh.text = base_arena_strdup(&c->scratch, text.data ? text.data : "");
    base_strbuf_free(&text);
    sh.fence = sh.known && pure_fence(sh.text);
    if (!sh.known)
        sh.clobbers_memory = true;
    return sh;
}

/* An operand written as an lvalue (an output, or an "m" input), not
 * converted to a value. */
static bool lvalue_shaped(CXCursor e)
{
    switch (clang_getCursorKind(e)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_ParenExpr: return true;
    case CXCursor_UnaryOperator: return clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref;
    default: return false;
    }
}

static ir_func *asm_function(cf_ctx *c, bool memory)
{
    ir_func **slot = memory ? &c->asm_memory_func : &c->asm_func;
    if (!*slot) {
        const ir_type *ft = ir_type_func(c->p, ir_type_void(c->p), NULL, 0, true);
        *slot = ir_add_func(c->p, memory ? "__ravel_asm_memory" : "__ravel_asm", ft, c->loc);
        (*slot)->writes_memory = memory;
    }
    return *slot;
}

void cf_asm(cf_ctx *c, CXCursor s)
{
    asm_shape sh = read_shape(c, s);
    cf_cursors ops = cf_children(c, s);
    uint32_t nout = sh.known ? sh.noutputs : 0;
    if (nout > ops.n)
        nout = (uint32_t)ops.n;
    const ir_expr **args = BASE_ARENA_ARRAY(&c->p->arena, const ir_expr *, ops.n ? ops.n : 1);
    uint32_t nargs = 0;
    for (size_t i = 0; i < ops.n; i++) {
        bool out = sh.known ? i < nout : lvalue_shaped(ops.v[i]);
        if (out) {
            const ir_expr *lv = cf_lvalue(c, ops.v[i]);
            args[nargs++] = lv->kind == IR_E_DEREF ? lv->a : ir_addr(c->p, lv);
        }
        else
            cf_effect(c, ops.v[i]);
    }
    c->asm_blocks++;
    if (!nargs && (!sh.clobbers_memory || sh.empty_template || sh.fence)) {
        uint32_t k = cf_emit(c, IR_S_SKIP);
        c->f->stmts[k].message = sh.empty_template ? "asm: compiler barrier"
                                 : sh.fence        ? "asm: fence"
                                                   : "asm: no outputs";
        return;
    }
    bool memory = sh.clobbers_memory && !sh.empty_template;
    ir_func *g = asm_function(c, memory);
    uint32_t k = cf_emit(c, IR_S_CALL);
    ir_stmt *st = &c->f->stmts[k];
    st->callee = ir_func_ref(c->p, g);
    st->args = args;
    st->nargs = nargs;
    st->message = base_arena_strdup(&c->p->arena, sh.text);
}
