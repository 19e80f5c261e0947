/* cfront: parsing with libclang, clang's diagnostics, declarations and the
 * lowering driver (see cfront.h and lower.h). */
#define _DEFAULT_SOURCE /* realpath */
#include "cfront/cfront.h"

#include <clang-c/CXCompilationDatabase.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/cpch.h"
#include "cfront/cucache.h"
#include "cfront/cunit.h"
#include "cfront/lower.h"
#include "ir/ir_check.h"

/* Flags every parse gets before the user's: accept what gcc 12 accepts
 * (clang 16+ made these warnings errors), and keep the error count sane. */
static const char *const default_args[] = {
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=return-type",
    "-ferror-limit=50",
    "-Wno-unknown-warning-option", /* gcc's -W options: clang need not know them */
};

#define TAG_VAR 1u

/* --- locations and errors --- */

const char *cf_file_name(cf_ctx *c, CXFile f)
{
    CXString s = clang_getFileName(f);
    const char *n = clang_getCString(s);
    if (n && c->pch_names) /* a PCH names its files by absolute paths */
        n = cf_pch_plain_name(c->pch_names, n);
    const char *r = base_sym_str(c->p->syms, base_intern_cstr(c->p->syms, n ? n : "<unknown>"));
    clang_disposeString(s);
    return r;
}

static base_srcloc loc_of(cf_ctx *c, CXSourceLocation l)
{
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(l, &f, &line, &col, NULL);
    if (!f)
        return base_srcloc_make("<built-in>", 0, 0);
    return base_srcloc_make(cf_file_name(c, f), line, col);
}

base_srcloc cf_loc(cf_ctx *c, CXCursor cur)
{
    return loc_of(c, clang_getCursorLocation(cur));
}

_Noreturn void cf_fail(cf_ctx *c, CXCursor cur, const char *fmt, ...)
{
    if (c->unit_errors++ == 0) { /* a unit is reported with its first error */
        va_list ap;
        va_start(ap, fmt);
        base_diag_vreport(c->d, BASE_SEV_ERROR, cf_loc(c, cur), fmt, ap);
        va_end(ap);
    }
    c->errors++;
    longjmp(c->fail, 1);
}

_Noreturn void cf_unsupported(cf_ctx *c, CXCursor cur, const char *what)
{
    cf_fail(c, cur, "unsupported construct: %s", what);
}

char *cf_spelling(cf_ctx *c, CXCursor cur)
{
    CXString s = clang_getCursorSpelling(cur);
    char *r = base_arena_strdup(&c->p->arena, clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* A name for a new function or global: its C name, with `@file` appended
 * when another object already has it (two statics in two files). */
static const char *unique_name(cf_ctx *c, CXCursor decl, const char *name)
{
    base_sym s = base_intern_cstr(c->p->syms, name);
    uint64_t seen;
    if (!base_hashmap_get(&c->names, s, &seen)) {
        base_hashmap_put(&c->names, s, 1);
        return name;
    }
    base_srcloc l = cf_loc(c, decl);
    const char *file = strrchr(l.file, '/') ? strrchr(l.file, '/') + 1 : l.file;
    size_t n = strlen(name) + strlen(file) + 16;
    char *r = base_arena_alloc(&c->p->arena, n);
    snprintf(r, n, "%s@%s", name, file);
    base_hashmap_put(&c->names, base_intern_cstr(c->p->syms, r), 1);
    return r;
}

static bool is_main_decl(CXCursor cur)
{
    if (clang_getCursorKind(cur) != CXCursor_FunctionDecl ||
        clang_getCursorLinkage(cur) != CXLinkage_External)
        return false;
    CXString s = clang_getCursorSpelling(cur);
    bool r = clang_getCString(s) && strcmp(clang_getCString(s), "main") == 0;
    clang_disposeString(s);
    return r;
}

/* The unit being lowered: its main file's path. */
static const char *unit_path(cf_ctx *c)
{
    CXString s = clang_getTranslationUnitSpelling(c->tu);
    const char *r = base_sym_str(c->p->syms, base_intern_cstr(c->p->syms, clang_getCString(s)));
    clang_disposeString(s);
    return r;
}

/* The identity that links declarations across units: clang's USR, except
 * for main, which is each unit's own (a database may hold several
 * programs, each with its main; see cf_func_decl). */
static base_sym usr_of(cf_ctx *c, CXCursor cur)
{
    CXString s = clang_getCursorUSR(cur);
    base_sym r = base_intern_cstr(c->p->syms, clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    if (r && c->tu && is_main_decl(cur)) {
        char buf[4200];
        snprintf(buf, sizeof buf, "%s@%s", base_sym_str(c->p->syms, r), unit_path(c));
        r = base_intern_cstr(c->p->syms, buf);
    }
    return r;
}

/* Does path name the same file as the unit option --main gave? */
static bool is_chosen_unit(const char *want, const char *path)
{
    char *a = realpath(want, NULL), *b = realpath(path, NULL);
    bool same = a && b ? strcmp(a, b) == 0 : strcmp(want, path) == 0;
    free(a);
    free(b);
    return same;
}

/* The IR name of a unit's main: `main` for the program's (the first
 * unit's, or the one --main names), `main@file.c` for the others. */
static const char *main_name(cf_ctx *c, CXCursor decl)
{
    const char *path = unit_path(c);
    bool take = c->opts->main_unit ? is_chosen_unit(c->opts->main_unit, path) : !c->main_taken;
    if (take && !c->main_taken) {
        c->main_taken = true;
        return "main";
    }
    base_srcloc l = cf_loc(c, decl);
    const char *file = strrchr(l.file, '/') ? strrchr(l.file, '/') + 1 : l.file;
    size_t n = strlen(file) + 16;
    char *r = base_arena_alloc(&c->p->arena, n);
    snprintf(r, n, "main@%s", file);
    return unique_name(c, decl, r);
}

/* --- declarations --- */

static bool is_atomic_name(const char *n)
{
    return strncmp(n, "__VERIFIER_atomic_", 18) == 0 && strcmp(n, "__VERIFIER_atomic_begin") != 0 &&
           strcmp(n, "__VERIFIER_atomic_end") != 0;
}

ir_func *cf_func_decl(cf_ctx *c, CXCursor decl)
{
    base_sym usr = usr_of(c, decl);
    uint64_t found;
    ir_func *f;
    if (usr && base_hashmap_get(&c->by_usr, usr, &found)) {
        f = (ir_func *)(uintptr_t)found;
    } else {
        char *name = cf_spelling(c, decl);
        bool is_main = is_main_decl(decl);
        f = ir_add_func(c->p, is_main ? main_name(c, decl) : unique_name(c, decl, name),
                        cf_type(c, clang_getCursorType(decl), decl), cf_loc(c, decl));
        f->external_linkage = clang_getCursorLinkage(decl) == CXLinkage_External;
        /* with --main, only the chosen unit's main is a program's entry */
        f->is_main = is_main && (!c->opts->main_unit ||
                                 strcmp(base_sym_str(c->p->syms, f->name), "main") == 0);
        if (is_main && strcmp(base_sym_str(c->p->syms, f->name), "main") != 0)
            f->external_linkage = false; /* another program's main: no entry of this one */
        f->is_atomic = is_atomic_name(name);
        if (usr) {
            base_hashmap_put(&c->by_usr, usr, (uint64_t)(uintptr_t)f);
            base_hashmap_put(&c->obj_usr, (uint64_t)(uintptr_t)f, usr);
        }
    }
    CXCursor def = clang_getCursorDefinition(decl);
    if (!f->has_body && !f->not_lowered && !clang_Cursor_isNull(def) &&
        clang_getCursorKind(def) == CXCursor_FunctionDecl) {
        uint64_t queued;
        if (!base_hashmap_get(&c->queued, usr, &queued)) {
            base_hashmap_put(&c->queued, usr, 1);
            base_vec_push(&c->work, def);
        }
    }
    return f;
}

ir_var *cf_global(cf_ctx *c, CXCursor decl)
{
    base_sym usr = usr_of(c, decl);
    uint64_t found;
    if (usr && base_hashmap_get(&c->by_usr, usr, &found))
        return (ir_var *)(uintptr_t)(found & ~(uint64_t)TAG_VAR);
    CXCursor def = clang_getCursorDefinition(decl);
    CXCursor use = clang_Cursor_isNull(def) ? decl : def;
    char *name = cf_spelling(c, use);
    if (clang_getCursorSemanticParent(use).kind == CXCursor_FunctionDecl && c->f) {
        /* a function's static local: a global named f.x */
        size_t n = strlen(name) + 64;
        char *q = base_arena_alloc(&c->p->arena, n);
        snprintf(q, n, "%s.%s", base_sym_str(c->p->syms, c->f->name), name);
        name = q;
    }
    ir_var *v = ir_add_global(c->p, unique_name(c, use, name),
                              cf_type(c, clang_getCursorType(use), use), cf_loc(c, use));
    v->is_static = clang_getCursorLinkage(use) != CXLinkage_External;
    v->is_thread_local = clang_getCursorTLSKind(use) != CXTLS_None;
    if (usr) {
        base_hashmap_put(&c->by_usr, usr, (uint64_t)(uintptr_t)v | TAG_VAR);
        base_hashmap_put(&c->obj_usr, (uint64_t)(uintptr_t)v, usr);
    }
    if (!clang_Cursor_isNull(def))
        base_vec_push(&c->ginit, def);
    return v;
}

ir_var *cf_local_lookup(cf_ctx *c, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    uint64_t idx;
    if (base_hashmap_get(&c->local_index, h, &idx) && clang_equalCursors(c->locals.data[idx - 1].decl, decl))
        return c->locals.data[idx - 1].var;
    for (size_t i = 0; i < c->locals.len; i++) /* a hash collision: rare */
        if (clang_equalCursors(c->locals.data[i].decl, decl))
            return c->locals.data[i].var;
    return NULL;
}

static void local_register(cf_ctx *c, CXCursor decl, ir_var *v)
{
    cf_local l = { decl, v };
    base_vec_push(&c->locals, l);
    unsigned h = clang_hashCursor(decl);
    uint64_t idx;
    if (!base_hashmap_get(&c->local_index, h, &idx))
        base_hashmap_put(&c->local_index, h, c->locals.len);
}

/* A local name not used yet in the function: C's name, or name.N when an
 * inner scope shadows an outer one. */
static const char *fresh_local_name(cf_ctx *c, const char *name)
{
    for (unsigned k = 0;; k++) {
        char buf[256];
        if (k == 0)
            snprintf(buf, sizeof buf, "%s", name);
        else
            snprintf(buf, sizeof buf, "%s.%u", name, k);
        base_sym s = base_intern_cstr(c->p->syms, buf);
        bool used = false;
        for (uint32_t i = 0; i < c->f->nlocals && !used; i++)
            used = c->f->locals[i]->name == s;
        for (uint32_t i = 0; i < c->f->nparams && !used; i++)
            used = c->f->params[i]->name == s;
        if (!used)
            return base_sym_str(c->p->syms, s);
    }
}

ir_var *cf_new_local(cf_ctx *c, const char *name, const ir_type *t)
{
    return ir_add_local(c->p, c->f, fresh_local_name(c, name), t, c->loc);
}

ir_var *cf_temp(cf_ctx *c, const ir_type *t)
{
    char buf[32];
    snprintf(buf, sizeof buf, "t.%u", ++c->ntemps);
    return ir_add_local(c->p, c->f, buf, t, c->loc);
}

/* Declares a local variable for a VarDecl or ParmDecl of the function. */
ir_var *cf_declare_local(cf_ctx *c, CXCursor decl, bool param)
{
    char *name = cf_spelling(c, decl);
    char buf[32];
    if (!*name) {
        snprintf(buf, sizeof buf, "p%u", c->f->nparams);
        name = buf;
    }
    const ir_type *t = cf_type(c, clang_getCursorType(decl), decl);
    if (param && t->kind == IR_T_ARRAY) /* an array parameter is a pointer */
        t = ir_type_ptr(c->p, t->to);
    if (param && t->kind == IR_T_FUNC)
        t = ir_type_ptr(c->p, t);
    ir_var *v = param ? ir_add_param(c->p, c->f, fresh_local_name(c, name), t, cf_loc(c, decl))
                      : ir_add_local(c->p, c->f, fresh_local_name(c, name), t, cf_loc(c, decl));
    local_register(c, decl, v);
    return v;
}

/* --- the driver --- */

static void reset_function_state(cf_ctx *c)
{
    for (size_t i = 0; i < c->jumps.len; i++) { /* left by an abandoned function */
        base_vec_free(&c->jumps.data[i]->breaks);
        base_vec_free(&c->jumps.data[i]->continues);
        base_vec_free(&c->jumps.data[i]->cases);
    }
    base_arena_free(&c->scratch);
    base_arena_init(&c->scratch);
    base_vec_clear(&c->locals);
    base_hashmap_clear(&c->local_index);
    base_hashmap_clear(&c->labels);
    base_hashmap_clear(&c->attr_kinds);
    base_hashmap_clear(&c->vla_bytes);
    base_vec_clear(&c->gotos);
    base_vec_clear(&c->jumps);
    base_vec_clear(&c->addr_labels);
    base_vec_clear(&c->indirect);
    base_vec_clear(&c->cleanups);
    base_vec_clear(&c->scopes);
    c->ntemps = 0;
    c->f = NULL;
}

/* Lowers one global's initialiser into init. */
static void lower_global_init(cf_ctx *c, CXCursor def)
{
    ir_var *v = cf_global(c, def);
    CXCursor init = clang_Cursor_getVarDeclInitializer(def);
    if (clang_Cursor_isNull(init))
        return; /* zero, as every global starts */
    reset_function_state(c);
    c->f = c->p->init;
    c->loc = cf_loc(c, def);
    uint32_t mark = c->f->nstmts;
    if (setjmp(c->fail) == 0) {
        cf_init(c, ir_var_ref(c->p, v), init);
        cf_init_range r = { v, mark, c->f->nstmts };
        base_vec_push(&c->init_ranges, r);
    } else
        c->p->init->nstmts = mark; /* drop the partial initialiser; the error says why */
    reset_function_state(c);
}

/* Lowers the initialisers of the queued global definitions, in source
 * order (the queue may grow while it is worked off). */
static void lower_global_inits(cf_ctx *c)
{
    for (size_t gi = 0; gi < c->ginit.len; gi++)
        lower_global_init(c, c->ginit.data[gi]);
    base_vec_clear(&c->ginit);
}

static void lower_worklist(cf_ctx *c)
{
    for (;;) {
        lower_global_inits(c);
        if (c->work_next == c->work.len) {
            c->work.len = c->work_next = 0;
            break;
        }
        CXCursor def = c->work.data[c->work_next++];
        ir_func *f = cf_func_decl(c, def);
        if (f->has_body || f->not_lowered)
            continue;
        reset_function_state(c);
        c->f = f;
        if (setjmp(c->fail) == 0) {
            cf_function(c, def, f);
        } else {
            f->nstmts = 0;
            f->has_body = false;
            f->not_lowered = true;
        }
        reset_function_state(c);
    }
}

typedef struct tu_walk {
    cf_ctx *c;
    CXFile main;
} tu_walk;

/* Queues the main file's definitions (functions and globals). */
static enum CXChildVisitResult visit_top(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    tu_walk *w = data;
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, NULL);
    if (!f || !clang_File_isEqual(f, w->main))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    cf_ctx *c = w->c;
    if (setjmp(c->fail) != 0)
        return CXChildVisit_Continue; /* a type we cannot lower; reported */
    if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(cur))
        cf_func_decl(c, cur);
    else if (k == CXCursor_VarDecl && !clang_Cursor_hasVarDeclExternalStorage(cur))
        cf_global(c, cur); /* definitions and tentative definitions */
    return CXChildVisit_Continue;
}

static size_t report_clang_diags(cf_ctx *c, CXTranslationUnit tu)
{
    size_t errors = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev >= CXDiagnostic_Error && errors++ == 0) {
            CXString s = clang_getDiagnosticSpelling(dg);
            const char *t = clang_getCString(s);
            /* clang has no nested functions; say what gcc's code meant */
            bool nested = t && strcmp(t, "function definition is not allowed here") == 0;
            base_diag_error(c->d, loc_of(c, clang_getDiagnosticLocation(dg)), "%s%s", t,
                            nested ? " (a nested function, a GCC extension that clang and "
                                     "ravel do not support)" : "");
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(dg);
    }
    return errors;
}

/* The end of a unit: counts it, and says how many of its errors were not
 * shown (only the first is). left_out: none of it was lowered. */
static void unit_done(cf_ctx *c, const char *file, bool left_out)
{
    cfront_stats *st = &c->stats;
    st->units++;
    if (c->unit_errors) {
        if (left_out)
            st->units_left_out++;
        else
            st->units_partial++;
    }
    if (c->unit_errors > 1)
        base_diag_report(c->d, BASE_SEV_NOTE, base_srcloc_make(file, 0, 0),
                         "%zu more error%s in this translation unit not shown", c->unit_errors - 1,
                         c->unit_errors == 2 ? "" : "s");
    c->unit_errors = 0;
}

static void lower_tu(cf_ctx *c, CXTranslationUnit tu, const char *file)
{
    c->tu = tu;
    /* Records are per translation unit: a tag may be incomplete in one and
     * defined in another, or defined differently in two. */
    base_hashmap_clear(&c->types);
    base_hashmap_clear(&c->tu_funcs);
    base_vec_clear(&c->tu_func_decls);
    c->unit_errors = 0;
    size_t errs = report_clang_diags(c, tu);
    if (errs) {
        c->errors += errs;
        c->unit_errors = errs;
        unit_done(c, file, true);
        return;
    }
    tu_walk w = { .c = c, .main = clang_getFile(tu, file) };
    if (!w.main) {
        base_diag_error(c->d, base_srcloc_make(file, 0, 0), "clang did not read the file");
        c->errors++;
        c->unit_errors = 1;
        unit_done(c, file, true);
        return;
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &w);
    lower_worklist(c);
    unit_done(c, file, false);
    c->tu = NULL;
}

/* Is argument a one that clang said it does not know (a gcc-only flag)? */
static bool flag_is_bad(cf_flagset *bad, const char *a)
{
    bool r = false;
    pthread_mutex_lock(&bad->mu);
    for (size_t i = 0; i < bad->flags.len && !r; i++)
        r = strcmp(bad->flags.data[i].flag, a) == 0;
    pthread_mutex_unlock(&bad->mu);
    return r;
}

/* Records the flags clang's diagnostics of tu call unknown ("unknown
 * argument: '-fipa-pta'"); returns how many were new. */
size_t cf_learn_bad_flags(cf_flagset *bad, CXTranslationUnit tu)
{
    size_t added = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        CXString s = clang_getDiagnosticSpelling(dg);
        const char *t = clang_getCString(s);
        const char *q = t ? strstr(t, "unknown argument: '") : NULL;
        if (q) {
            q += strlen("unknown argument: '");
            const char *e = strchr(q, '\'');
            if (e && e > q) {
                char *flag = base_xstrndup(q, (size_t)(e - q));
                if (!flag_is_bad(bad, flag)) {
                    pthread_mutex_lock(&bad->mu);
                    cf_bad_flag bf = { flag, 0 };
                    base_vec_push(&bad->flags, bf);
                    pthread_mutex_unlock(&bad->mu);
                    added++;
                } else {
                    free(flag);
                }
            }
        }
        clang_disposeString(s);
        clang_disposeDiagnostic(dg);
    }
    return added;
}

static void note_dropped(cf_job *j, const char *a)
{
    for (size_t i = 0; i < j->dropped.len; i++)
        if (strcmp(j->dropped.data[i], a) == 0)
            return;
    base_vec_push(&j->dropped, base_xstrdup(a));
}

void cf_parse_once(const cfront_opts *o, CXIndex idx, cf_job *j, cf_flagset *bad,
                   const cf_parse_with *with)
{
    size_t nu = o->nunsaved;
    struct CXUnsavedFile *un = base_xmalloc((nu + 1) * sizeof *un);
    for (size_t i = 0; i < nu; i++) {
        un[i].Filename = o->unsaved[i].name;
        un[i].Contents = o->unsaved[i].contents;
        un[i].Length = (unsigned long)o->unsaved[i].len;
    }
    if (with && with->unsaved)
        un[nu++] = *with->unsaved;
    /* the job's flags less those clang does not know */
    int extra = with ? with->nargs : 0;
    const char **args = base_xmalloc((size_t)(j->nargs + extra + 1) * sizeof *args);
    int m = 0;
    for (int i = 0; i < j->nargs; i++) {
        if (bad && i > 0 && flag_is_bad(bad, j->args[i])) {
            note_dropped(j, j->args[i]);
            continue;
        }
        args[m++] = j->args[i];
    }
    for (int i = 0; i < extra; i++)
        args[m++] = with->args[i];
    unsigned flags = with && with->flags ? with->flags : CXTranslationUnit_KeepGoing;
    enum CXErrorCode err = j->full_argv
        ? clang_parseTranslationUnit2FullArgv(idx, NULL, args, m, un, (unsigned)nu, flags, &j->tu)
        : clang_parseTranslationUnit2(idx, j->path, args, m, un, (unsigned)nu, flags, &j->tu);
    free(args);
    free(un);
    j->err = err != CXError_Success || !j->tu ? (int)err : 0;
    if (j->err && j->tu) {
        clang_disposeTranslationUnit(j->tu);
        j->tu = NULL;
    }
}

/* Parses a job. Thread-safe given its own index: touches only the job and
 * (under its lock) the set of flags clang does not know. A unit whose
 * flags include one clang does not know (gcc's -fipa-pta, say) is parsed
 * again without it; later units drop it from the start. */
static void parse_job(const cfront_opts *o, CXIndex idx, cf_job *j, cf_flagset *bad, cf_pch *pch,
                      CXIndex *pidx)
{
    double t0 = base_now();
    if (!pch || !cf_pch_parse(pch, o, pidx, j, bad)) {
        cf_parse_once(o, idx, j, bad, NULL);
        if (j->tu && bad && cf_learn_bad_flags(bad, j->tu)) {
            clang_disposeTranslationUnit(j->tu);
            j->tu = NULL;
            cf_parse_once(o, idx, j, bad, NULL);
        }
    }
    j->parse_seconds = base_now() - t0;
}

static void ctx_init(cf_ctx *c, ir_program *p, base_diag *d, const cfront_opts *o)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->d = d;
    c->opts = o;
    base_hashmap_init(&c->by_usr);
    base_hashmap_init(&c->obj_usr);
    base_hashmap_init(&c->inited);
    base_hashmap_init(&c->rec_key);
    base_hashmap_init(&c->types);
    base_hashmap_init(&c->records_done);
    base_hashmap_init(&c->names);
    base_hashmap_init(&c->queued);
    base_hashmap_init(&c->local_index);
    base_hashmap_init(&c->labels);
    base_hashmap_init(&c->attr_kinds);
    base_hashmap_init(&c->label_ids);
    base_hashmap_init(&c->vla_bytes);
    base_hashmap_init(&c->tu_funcs);
    pthread_mutex_init(&c->bad_flags.mu, NULL);
    base_arena_init(&c->scratch);
    p->ptr_bytes = o->m32 ? 4 : 8;
    p->init = ir_add_func(p, "__ravel_init", ir_type_func(p, ir_type_void(p), NULL, 0, false),
                          base_srcloc_make("<built-in>", 0, 0));
    p->init->has_body = true;
    p->init->external_linkage = false;
}

static void ctx_free(cf_ctx *c);

/* Lowers the parsed job j into a unit of its own (j->unit), with what
 * linking needs (cunit.h). Thread-safe: touches only the job. */
static void lower_unit(const cfront_opts *o, cf_job *j)
{
    double t0 = base_now();
    cf_unit *u = base_xmalloc(sizeof *u);
    cf_unit_init(u, j->path);
    base_diag ud;
    base_diag_init(&ud);
    cfront_opts uo = *o;
    uo.main_unit = NULL; /* the link chooses the program's main */
    uo.progress = NULL;
    uo.stats = NULL;
    cf_ctx c;
    ctx_init(&c, &u->p, &ud, &uo);
    if (j->err) {
        base_diag_error(&ud, base_srcloc_make(j->path, 0, 0),
                        "clang could not parse the file (libclang error %d)", j->err);
        c.errors++;
    } else {
        c.tu_pch = j->pch_header != NULL;
        c.pch_names = c.tu_pch ? j->pch_names : NULL;
        lower_tu(&c, j->tu, j->path);
        j->pch_retry = c.pch_miss;
    }
    ir_program *p = &u->p;
    u->errors = c.errors;
    u->stats = c.stats;
    u->func_usr = base_xcalloc(p->nfuncs + 1, sizeof *u->func_usr);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        uint64_t usr = 0;
        if (!base_hashmap_get(&c.obj_usr, (uint64_t)(uintptr_t)p->funcs[i], &usr) &&
            p->funcs[i] != p->init) { /* the front end's own (__ravel_asm): one per program */
            char buf[300];
            snprintf(buf, sizeof buf, "ravel:%s", base_sym_str(p->syms, p->funcs[i]->name));
            usr = base_intern_cstr(p->syms, buf);
        }
        u->func_usr[i] = (base_sym)usr;
    }
    u->global_usr = base_xcalloc(p->nglobals + 1, sizeof *u->global_usr);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        uint64_t usr = 0;
        base_hashmap_get(&c.obj_usr, (uint64_t)(uintptr_t)p->globals[i], &usr);
        u->global_usr[i] = (base_sym)usr;
    }
    base_hashmap_free(&u->rec_key);
    u->rec_key = c.rec_key;
    base_hashmap_init(&c.rec_key);
    for (size_t i = 0; i < c.records_incomplete.len; i++)
        base_hashmap_put(&u->rec_open, (uint64_t)(uintptr_t)c.records_incomplete.data[i].type, 1);
    for (size_t i = 0; i < ud.count; i++) {
        cf_unit_diag dg = { ud.msgs[i].sev, ud.msgs[i].loc, NULL };
        dg.loc.file = base_sym_str(p->syms, base_intern_cstr(p->syms, ud.msgs[i].file ? ud.msgs[i].file : ""));
        dg.text = base_arena_strdup(&p->arena, ud.msgs[i].text);
        base_vec_push(&u->diags, dg);
    }
    for (size_t i = 0; i < c.init_ranges.len; i++) {
        cf_unit_init_range r = { c.init_ranges.data[i].global->id, c.init_ranges.data[i].from,
                                 c.init_ranges.data[i].to };
        base_vec_push(&u->inits, r);
    }
    for (size_t i = 0; i < j->dropped.len; i++)
        base_vec_push(&u->dropped, base_arena_strdup(&p->arena, j->dropped.data[i]));
    ctx_free(&c);
    base_diag_free(&ud);
    j->unit = u;
    j->lower_seconds = base_now() - t0;
}

/* Everything one job needs, in whichever thread runs it: the cache's unit
 * when its key is unchanged, else a parse and the lowering (kept in the
 * cache when there is one). */
static void run_job(const cfront_opts *o, CXIndex idx, cf_job *j, cf_flagset *bad, cf_ucache *uc,
                    cf_pch *pch, CXIndex *pidx)
{
    if (uc && cf_ucache_lookup(uc, j)) {
        j->from_cache = true;
        return;
    }
    parse_job(o, idx, j, bad, pch, pidx);
    free(j->pch_text); /* read again for no other parse */
    j->pch_text = NULL;
    lower_unit(o, j);
    if (j->pch_retry) { /* the lowering needed what a unit with a PCH does not list */
        cf_pch_retried(pch);
        cf_unit_free(j->unit);
        free(j->unit);
        j->unit = NULL;
        clang_disposeTranslationUnit(j->tu);
        j->tu = NULL;
        j->pch_header = NULL;
        j->pch_names = NULL;
        j->pch_retry = false;
        parse_job(o, idx, j, bad, NULL, NULL);
        lower_unit(o, j);
    }
    if (uc)
        cf_ucache_store(uc, j, j->tu);
    if (j->tu)
        clang_disposeTranslationUnit(j->tu);
    j->tu = NULL;
}

static void link_job(cf_ctx *c, cf_job *j)
{
    c->stats.parse_seconds += j->parse_seconds;
    c->stats.lower_seconds += j->lower_seconds;
    if (j->from_cache)
        c->stats.units_cached++;
    else
        c->stats.units_parsed++;
    double t0 = base_now();
    if (j->unit) {
        cf_unit_link(c, j->unit);
        cf_unit_free(j->unit);
        free(j->unit);
        j->unit = NULL;
    }
    c->stats.link_seconds += base_now() - t0;
}

/* --- in parallel: workers parse and lower ahead, the caller links in order --- */

typedef struct cf_pool {
    const cfront_opts *opts;
    cf_flagset *bad;
    cf_ucache *uc;
    cf_pch *pch;
    cf_job *jobs;
    size_t njobs;
    size_t next;    /* the next job a worker takes */
    size_t next_pch; /* the next group whose PCH a worker builds, before any job */
    size_t linked;  /* jobs the linking thread is done with */
    size_t window;  /* at most this many lowered and not yet linked */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} cf_pool;

static void *worker(void *arg)
{
    cf_pool *pool = arg;
    CXIndex idx = clang_createIndex(0, 0), pidx = NULL;
    for (;;) {
        pthread_mutex_lock(&pool->mu);
        if (pool->next_pch < cf_pch_groups(pool->pch)) { /* the PCHs first, in parallel */
            size_t g = pool->next_pch++;
            pthread_mutex_unlock(&pool->mu);
            cf_pch_prebuild(pool->pch, pool->opts, &pidx, g, pool->bad);
            continue;
        }
        while (pool->next < pool->njobs && pool->next >= pool->linked + pool->window)
            pthread_cond_wait(&pool->cv, &pool->mu);
        if (pool->next >= pool->njobs) {
            pthread_mutex_unlock(&pool->mu);
            break;
        }
        cf_job *j = &pool->jobs[pool->next++];
        j->started = base_now();
        pthread_mutex_unlock(&pool->mu);
        run_job(pool->opts, idx, j, pool->bad, pool->uc, pool->pch, &pidx);
        pthread_mutex_lock(&pool->mu);
        j->parsed = true;
        pthread_cond_broadcast(&pool->cv);
        pthread_mutex_unlock(&pool->mu);
    }
    clang_disposeIndex(idx);
    if (pidx)
        clang_disposeIndex(pidx);
    return NULL;
}

/* The progress callback while job i is awaited: names the oldest unit
 * still being worked on (the slow one). */
static void waiting(const cfront_opts *o, cf_job *jobs, size_t i, size_t n)
{
    if (o->progress)
        o->progress(o->progress_ctx, i, n, jobs[i].path);
}

static void run_jobs(cf_ctx *c, cf_job *jobs, size_t n, cf_ucache *uc, cf_pch *pch)
{
    const cfront_opts *o = c->opts;
    unsigned nw = o->jobs > 1 ? o->jobs : 1;
    if (nw > n)
        nw = (unsigned)n;
    if (nw <= 1) {
        CXIndex idx = clang_createIndex(0, 0), pidx = NULL;
        for (size_t i = 0; i < n; i++) {
            waiting(o, jobs, i, n);
            run_job(o, idx, &jobs[i], &c->bad_flags, uc, pch, &pidx);
            link_job(c, &jobs[i]);
        }
        clang_disposeIndex(idx);
        if (pidx)
            clang_disposeIndex(pidx);
        return;
    }
    cf_pool pool = { .opts = o, .bad = &c->bad_flags, .uc = uc, .pch = pch, .jobs = jobs, .njobs = n,
                     .window = 8 * (size_t)nw };
    pthread_mutex_init(&pool.mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&pool.cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t *ts = base_xmalloc(nw * sizeof *ts);
    unsigned started = 0;
    for (unsigned w = 0; w < nw; w++)
        if (pthread_create(&ts[w], NULL, worker, &pool) == 0)
            started++;
        else
            break;
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&pool.mu);
        if (!started && !jobs[i].parsed) { /* no worker could start: work here */
            pthread_mutex_unlock(&pool.mu);
            CXIndex idx = clang_createIndex(0, 0);
            run_job(o, idx, &jobs[i], &c->bad_flags, uc, NULL, NULL);
            clang_disposeIndex(idx);
        } else {
            while (!jobs[i].parsed) { /* the progress line moves while a unit is slow */
                struct timespec ts_;
                clock_gettime(CLOCK_MONOTONIC, &ts_);
                ts_.tv_nsec += 250000000L;
                if (ts_.tv_nsec >= 1000000000L) {
                    ts_.tv_sec++;
                    ts_.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&pool.cv, &pool.mu, &ts_);
                if (!jobs[i].parsed) {
                    pthread_mutex_unlock(&pool.mu);
                    waiting(o, jobs, i, n);
                    pthread_mutex_lock(&pool.mu);
                }
            }
            pthread_mutex_unlock(&pool.mu);
        }
        waiting(o, jobs, i, n);
        link_job(c, &jobs[i]);
        pthread_mutex_lock(&pool.mu);
        pool.linked = i + 1;
        pthread_cond_broadcast(&pool.cv);
        pthread_mutex_unlock(&pool.mu);
    }
    for (unsigned w = 0; w < started; w++)
        pthread_join(ts[w], NULL);
    free(ts);
    pthread_cond_destroy(&pool.cv);
    pthread_mutex_destroy(&pool.mu);
}

void cf_add_job(cf_job_vec *v, const char *path, const char *const *args, int nargs,
                    bool full_argv)
{
    cf_job j = { .path = base_xstrdup(path), .nargs = nargs, .full_argv = full_argv,
                 .pch_group = -1, .src_arg = -1 };
    j.args = base_xmalloc((size_t)(nargs ? nargs : 1) * sizeof *j.args);
    for (int i = 0; i < nargs; i++)
        j.args[i] = base_xstrdup(args[i]);
    base_vec_push(v, j);
}

static void free_jobs(cf_job_vec *v)
{
    for (size_t i = 0; i < v->len; i++) {
        for (int a = 0; a < v->data[i].nargs; a++)
            free(v->data[i].args[a]);
        free(v->data[i].args);
        free(v->data[i].path);
        free(v->data[i].pch_text);
        for (size_t k = 0; k < v->data[i].dropped.len; k++)
            free(v->data[i].dropped.data[k]);
        base_vec_free(&v->data[i].dropped);
        if (v->data[i].unit) {
            cf_unit_free(v->data[i].unit);
            free(v->data[i].unit);
        }
    }
    base_vec_free(v);
}

static void ctx_free(cf_ctx *c)
{
    base_hashmap_free(&c->by_usr);
    base_hashmap_free(&c->obj_usr);
    base_hashmap_free(&c->inited);
    base_vec_free(&c->init_ranges);
    base_hashmap_free(&c->rec_key);
    base_hashmap_free(&c->types);
    base_hashmap_free(&c->records_done);
    base_vec_free(&c->records_incomplete);
    base_hashmap_free(&c->names);
    base_hashmap_free(&c->queued);
    base_hashmap_free(&c->local_index);
    base_hashmap_free(&c->labels);
    base_hashmap_free(&c->attr_kinds);
    base_vec_free(&c->work);
    base_vec_free(&c->ginit);
    base_vec_free(&c->locals);
    base_vec_free(&c->gotos);
    base_vec_free(&c->jumps);
    base_vec_free(&c->addr_labels);
    base_vec_free(&c->indirect);
    base_vec_free(&c->cleanups);
    base_vec_free(&c->scopes);
    base_vec_free(&c->tu_func_decls);
    base_hashmap_free(&c->tu_funcs);
    for (size_t i = 0; i < c->bad_flags.flags.len; i++)
        free(c->bad_flags.flags.data[i].flag);
    base_vec_free(&c->bad_flags.flags);
    pthread_mutex_destroy(&c->bad_flags.mu);
    base_hashmap_free(&c->label_ids);
    base_hashmap_free(&c->vla_bytes);
    base_arena_free(&c->scratch);
}

/* Several units defining main: say how they are taken (never silently
 * the first). --main naming no such unit is an error. */
static void report_mains(cf_ctx *c, const char *where)
{
    base_strbuf names = { 0 };
    size_t n = 0;
    const char *chosen = NULL, *chosen_path = NULL;
    for (uint32_t i = 0; i < c->p->nfuncs; i++) {
        const ir_func *f = c->p->funcs[i];
        bool a_main = f->is_main || strncmp(base_sym_str(c->p->syms, f->name), "main@", 5) == 0;
        if (!a_main || (!f->has_body && !f->not_lowered))
            continue;
        const char *file = strrchr(f->loc.file, '/') ? strrchr(f->loc.file, '/') + 1 : f->loc.file;
        if (strcmp(base_sym_str(c->p->syms, f->name), "main") == 0) {
            chosen = file;
            chosen_path = f->loc.file;
        }
        if (n < 8)
            base_strbuf_printf(&names, "%s%s", n ? ", " : "", file);
        n++;
    }
    if (n > 8)
        base_strbuf_printf(&names, ", and %zu more", n - 8);
    if (c->opts->main_unit && !chosen) {
        base_diag_error(c->d, base_srcloc_make(c->opts->main_unit, 0, 0),
                        "--main: no unit of the input with this path defines main");
        if (n)
            base_diag_report(c->d, BASE_SEV_NOTE, base_srcloc_make(c->opts->main_unit, 0, 0),
                             "the units that define main: %s", names.data);
        c->errors++;
    } else if (n > 1 && !c->opts->main_unit) {
        if (!c->opts->compdb_dir)
            where = chosen_path ? chosen_path : where;
        base_diag_report(c->d, BASE_SEV_NOTE, base_srcloc_make(where, 0, 0),
                         "%zu units define main (%s): with no link commands to say which "
                         "units make up which program, each main is taken as a program of its "
                         "own together with the units that define no main; `main` is %s's "
                         "(--main FILE analyses one program)",
                         n, names.data, chosen ? chosen : "?");
    }
    base_strbuf_free(&names);
}

/* After the last unit: the notes on mains and flags, calls through
 * pointers, the check; returns the errors. */
static size_t finish(cf_ctx *c, const char *where)
{
    const cfront_opts *o = c->opts;
    ir_program *p = c->p;
    base_diag *d = c->d;
    report_mains(c, where);
    for (size_t i = 0; i < c->bad_flags.flags.len; i++) { /* once per distinct flag */
        cf_bad_flag *bf = &c->bad_flags.flags.data[i];
        base_diag_report(d, BASE_SEV_NOTE, base_srcloc_make(where, 0, 0),
                         "clang does not know the flag '%s' (a gcc option?); it was left out of "
                         "the %zu translation unit%s that had it",
                         bf->flag, bf->units, bf->units == 1 ? "" : "s");
    }
    double tl = base_now();
    cf_resolve_indirect_calls(c);
    if (c->errors == 0) {
        unsigned bad = ir_check(p, d);
        c->errors += bad;
    }
    c->stats.link_seconds += base_now() - tl;
    if (o->stats)
        *o->stats = c->stats;
    return c->errors;
}

size_t cfront_lower(ir_program *p, const char *const *files, size_t nfiles, const cfront_opts *o,
                    base_diag *d)
{
    static const cfront_opts none = { 0 };
    if (!o)
        o = &none;
    cf_ctx c;
    ctx_init(&c, p, d, o);

    cf_job_vec jobs = { 0 };
    size_t ndefault = sizeof default_args / sizeof default_args[0];
    if (o->compdb_dir) {
        cf_compdb_jobs(&c, o->compdb_dir, files, nfiles, default_args, ndefault, &jobs);
    } else {
        size_t na = ndefault + o->nclang_args + 2;
        const char **args = base_xmalloc(na * sizeof *args);
        int m = 0;
        for (size_t q = 0; q < ndefault; q++)
            args[m++] = default_args[q];
        if (o->m32)
            args[m++] = "-m32";
        for (size_t q = 0; q < o->nclang_args; q++)
            args[m++] = o->clang_args[q];
        args[m++] = "-Wno-error"; /* a -Werror among the flags: clang warns of more than gcc */
        for (size_t i = 0; i < nfiles; i++) {
            bool in_memory = false;
            for (size_t u = 0; u < o->nunsaved && !in_memory; u++)
                in_memory = strcmp(o->unsaved[u].name, files[i]) == 0;
            FILE *probe = in_memory ? NULL : fopen(files[i], "r");
            if (!probe && !in_memory) {
                base_diag_error(d, base_srcloc_make(files[i], 0, 0), "cannot open the file");
                c.errors++;
                continue;
            }
            if (probe)
                fclose(probe);
            cf_add_job(&jobs, files[i], args, m, false);
        }
        free(args);
    }
    cf_ucache *uc = o->unit_cache_dir && !o->nunsaved ? cf_ucache_open(o->unit_cache_dir, o, false) : NULL;
    for (size_t i = 0; uc && i < jobs.len; i++)
        cf_ucache_probe(uc, &jobs.data[i]); /* a unit the cache has needs no PCH */
    cf_pch *pch = o->no_pch || o->nunsaved ? NULL : cf_pch_plan(o, jobs.data, jobs.len);
    run_jobs(&c, jobs.data, jobs.len, uc, pch);
    if (pch)
        cf_pch_free(pch, &c.stats);
    if (uc)
        c.stats.cache_write_errors = cf_ucache_close(uc);
    free_jobs(&jobs);
    char where[4200];
    snprintf(where, sizeof where, "%s%s", o->compdb_dir ? o->compdb_dir : "clang",
             o->compdb_dir ? "/compile_commands.json" : "");
    size_t errors = finish(&c, where);
    ctx_free(&c);
    return errors;
}

/* --- capture (one compiler command) and linking a capture directory --- */

bool cf_takes_value(const char *a)
{
    static const char *const opts[] = { "-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-x",
                                         "-I", "-D", "-U", "-isystem", "-idirafter", "-iquote",
                                         "-Xclang", "-Xpreprocessor", "-Xlinker", "-L", "-l",
                                         "--param", "-aux-info", "-arch", "-target" };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(a, opts[i]) == 0)
            return true;
    return false;
}

size_t cf_dep_output_args(const char *a)
{
    static const char *const with_value[] = { "-MF", "-MT", "-MQ", "-MJ" };
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++) {
        size_t n = strlen(with_value[i]);
        if (strncmp(a, with_value[i], n) == 0)
            return a[n] ? 1 : 2;
    }
    if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0 ||
        strcmp(a, "-MG") == 0 || strncmp(a, "-Wp,-MD,", 8) == 0 || strncmp(a, "-Wp,-MMD,", 9) == 0)
        return 1;
    return 0;
}

static bool is_c_source(const char *a)
{
    size_t n = strlen(a);
    return n > 2 && strcmp(a + n - 2, ".c") == 0 && a[0] != '-';
}

size_t cfront_capture(const char *dir, const char *const *argv, size_t argc, const cfront_opts *o,
                      size_t *nsources)
{
    *nsources = 0;
    for (size_t i = 1; i < argc; i++)
        if (strcmp(argv[i], "-E") == 0 || strcmp(argv[i], "-M") == 0 || strcmp(argv[i], "-MM") == 0)
            return 0; /* preprocessing only: no unit */
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    size_t ndefault = sizeof default_args / sizeof default_args[0];
    cf_job_vec jobs = { 0 };
    for (size_t i = 1; i < argc; i++) {
        if (cf_takes_value(argv[i])) {
            i++;
            continue;
        }
        if (!is_c_source(argv[i]))
            continue;
        const char **args = base_xmalloc((argc + ndefault + 4) * sizeof *args);
        int m = 0;
        args[m++] = argv[0];
        for (size_t q = 0; q < ndefault; q++)
            args[m++] = default_args[q];
        for (size_t k = 1; k < argc; k++) {
            size_t dep = cf_dep_output_args(argv[k]);
            if (dep) {
                k += dep - 1;
                continue;
            }
            if (cf_takes_value(argv[k]) && k + 1 < argc) {
                args[m++] = argv[k++];
                args[m++] = argv[k];
                continue;
            }
            if (k != i && is_c_source(argv[k]))
                continue; /* the command's other sources are units of their own */
            args[m++] = argv[k];
        }
        char wd[4200];
        snprintf(wd, sizeof wd, "-working-directory=%s", cwd);
        args[m++] = wd;
        args[m++] = "-Wno-error";
        char path[8300];
        if (argv[i][0] == '/')
            snprintf(path, sizeof path, "%s", argv[i]);
        else
            snprintf(path, sizeof path, "%s/%s", cwd, argv[i]);
        cf_add_job(&jobs, path, args, m, true);
        free(args);
    }
    *nsources = jobs.len;
    cfront_opts co = *o;
    cf_ucache *uc = cf_ucache_open(dir, &co, true);
    cf_flagset bad;
    memset(&bad, 0, sizeof bad);
    pthread_mutex_init(&bad.mu, NULL);
    CXIndex idx = clang_createIndex(0, 0), pidx = NULL;
    /* a PCH shared with the build's other wrappers (cpch.h), when asked */
    const char *pc = o->no_pch ? NULL : getenv("RAVEL_PCH_CACHE");
    cfront_stats st = { 0 };
    for (size_t i = 0; i < jobs.len; i++) {
        cf_job *j = &jobs.data[i];
        cf_pch *pch = pc && *pc && !cf_ucache_probe(uc, j) ? cf_pch_shared(&co, j, pc) : NULL;
        run_job(&co, idx, j, &bad, uc, pch, &pidx);
        if (pch)
            cf_pch_free(pch, &st);
    }
    clang_disposeIndex(idx);
    if (pidx)
        clang_disposeIndex(pidx);
    if (pc && *pc && getenv("RAVEL_TIMES"))
        fprintf(stderr, "ravel deadlock: capture: %zu unit%s, %zu parsed with a shared PCH (%zu built)\n",
                jobs.len, jobs.len == 1 ? "" : "s", st.units_pch, st.pch_built);
    for (size_t i = 0; i < bad.flags.len; i++)
        free(bad.flags.data[i].flag);
    base_vec_free(&bad.flags);
    pthread_mutex_destroy(&bad.mu);
    free_jobs(&jobs);
    return cf_ucache_close(uc);
}

typedef struct captured {
    char *path;
    char key[65];
    char *manifest;
    double mtime;
} captured;

static int cmp_captured(const void *a, const void *b)
{
    const captured *x = a, *y = b;
    int r = strcmp(x->path, y->path);
    if (r)
        return r;
    if (x->mtime != y->mtime)
        return x->mtime > y->mtime ? -1 : 1; /* the newest first */
    return strcmp(x->manifest, y->manifest);
}

size_t cfront_link_dir(ir_program *p, const char *dir, const cfront_opts *o, base_diag *d)
{
    cf_ctx c;
    ctx_init(&c, p, d, o);
    BASE_VEC(captured) units = { 0 };
    DIR *dh = opendir(dir);
    if (!dh) {
        base_diag_error(d, base_srcloc_make(dir, 0, 0), "cannot read the capture directory");
        c.errors++;
    } else {
        struct dirent *e;
        while ((e = readdir(dh))) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".rtm") != 0)
                continue;
            captured cu = { 0 };
            size_t mn = strlen(dir) + n + 2;
            cu.manifest = base_xmalloc(mn);
            snprintf(cu.manifest, mn, "%s/%s", dir, e->d_name);
            struct stat st;
            if (stat(cu.manifest, &st) == 0)
                cu.mtime = (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
            if (!cf_ucache_read_manifest(cu.manifest, &cu.path, cu.key)) {
                base_diag_report(d, BASE_SEV_WARNING, base_srcloc_make(cu.manifest, 0, 0),
                                 "not a manifest ravel can read: skipped");
                free(cu.manifest);
                continue;
            }
            base_vec_push(&units, cu);
        }
        closedir(dh);
    }
    if (units.len)
        qsort(units.data, units.len, sizeof *units.data, cmp_captured);
    size_t older = 0;
    for (size_t i = 0; i < units.len; i++) {
        captured *cu = &units.data[i];
        if (i > 0 && strcmp(cu->path, units.data[i - 1].path) == 0) {
            older++; /* an earlier capture of the same source */
            continue;
        }
        size_t n = strlen(dir) + 80;
        char *uf = base_xmalloc(n);
        snprintf(uf, n, "%s/%s.rtu", dir, cu->key);
        size_t len;
        char *data = base_read_file(uf, &len);
        cf_unit u;
        if (!data || !cf_unit_read(&u, data, len)) {
            base_diag_error(d, base_srcloc_make(uf, 0, 0),
                            "the captured unit of %s is missing or not one ravel %s can read "
                            "(capture it again)",
                            cu->path, o->tool_version ? o->tool_version : "");
            c.errors++;
        } else {
            double t0 = base_now();
            cf_unit_link(&c, &u);
            cf_unit_free(&u);
            c.stats.units_cached++;
            c.stats.link_seconds += base_now() - t0;
        }
        free(data);
        free(uf);
    }
    if (older) {
        base_diag_report(d, BASE_SEV_NOTE, base_srcloc_make(dir, 0, 0),
                         "%zu older capture%s of a source captured again (other flags): only the "
                         "newest of each source is linked",
                         older, older == 1 ? "" : "s");
    }
    if (!units.len && dh) {
        base_diag_error(d, base_srcloc_make(dir, 0, 0),
                        "no captured unit in this directory (see ravel deadlock --capture)");
        c.errors++;
    }
    for (size_t i = 0; i < units.len; i++) {
        free(units.data[i].path);
        free(units.data[i].manifest);
    }
    base_vec_free(&units);
    size_t errors = finish(&c, dir);
    ctx_free(&c);
    return errors;
}
