#include "cat/model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "cat/lower.h"
#include "cat/parse.h"
#include "logic/exec.h"

typedef struct loader {
    cat_model *m;
    const cat_load_options *opt;
    base_diag *diag;
    uint32_t depth;
} loader;

static bool resolve(loader *ld, cat_file *f);

/* Parses a file's text (owned by the caller) into the model's arena. */
static cat_file *load_text(loader *ld, const char *path, const char *text, size_t len)
{
    const char *p = base_arena_strdup(&ld->m->arena, path);
    static const char dv[] = "different-values";
    for (size_t i = 0; i + sizeof dv - 1 <= len && !ld->m->mm.needs_values; i++)
        if (memcmp(text + i, dv, sizeof dv - 1) == 0)
            ld->m->mm.needs_values = true; /* see logic_mm.needs_values */
    cat_file *f = cat_parse_variants(&ld->m->arena, p, text, len, &ld->opt->variants, ld->diag);
    if (f && !resolve(ld, f))
        return NULL;
    return f;
}

static cat_file *load_path(loader *ld, const char *path, base_srcloc from)
{
    size_t len;
    char *text = base_read_file(path, &len);
    if (!text) {
        const char *why = strerror(errno);
        if (from.file)
            base_diag_error(ld->diag, from, "cannot read '%s': %s", path, why);
        else
            base_diag_error(ld->diag, base_srcloc_make(path, 0, 0), "cannot read: %s", why);
        return NULL;
    }
    cat_file *f = load_text(ld, path, text, len);
    free(text);
    return f;
}

static void dir_of(const char *path, base_strbuf *out)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        base_strbuf_put(out, path, (size_t)(slash - path));
    else
        base_strbuf_putc(out, '.');
}

/* Finds name on the search path (see model.h); NULL: take the builtin. */
static char *find_file(loader *ld, const char *name, const char *from_file)
{
    base_strbuf b = { 0 };
    if (name[0] == '/') {
        base_strbuf_puts(&b, name);
        if (access(b.data, R_OK) == 0)
            return b.data;
        base_strbuf_free(&b);
        return NULL;
    }
    for (size_t i = 0; i <= ld->opt->ninclude; i++) {
        base_strbuf_clear(&b);
        if (i < ld->opt->ninclude)
            base_strbuf_puts(&b, ld->opt->include[i]);
        else if (from_file)
            dir_of(from_file, &b);
        else
            continue;
        base_strbuf_printf(&b, "/%s", name);
        if (access(b.data, R_OK) == 0)
            return b.data;
    }
    base_strbuf_free(&b);
    return NULL;
}

static cat_file *load_named(loader *ld, const char *name, const char *from_file, base_srcloc loc)
{
    if (ld->depth >= 32) {
        base_diag_error(ld->diag, loc, "includes nested too deeply (an include cycle?)");
        return NULL;
    }
    ld->depth++;
    cat_file *f = NULL;
    char *path = find_file(ld, name, from_file);
    if (path) {
        f = load_path(ld, path, loc);
        free(path);
    } else if (cat_builtin_file(name)) {
        const char *text = cat_builtin_file(name);
        base_strbuf p = { 0 };
        base_strbuf_printf(&p, "<ravel>/%s", name);
        f = load_text(ld, base_strbuf_cstr(&p), text, strlen(text));
        base_strbuf_free(&p);
    } else {
        base_diag_error(ld->diag, loc, "cannot find included file '%s' (searched the -I "
                        "directories and the including file's directory)", name);
    }
    ld->depth--;
    return f;
}

static bool resolve_list(loader *ld, cat_ins_list *list, const char *file)
{
    for (uint32_t i = 0; i < list->n; i++) {
        cat_ins *ins = list->v[i];
        if (ins->kind == CAT_I_INCLUDE) {
            cat_file *f = load_named(ld, ins->file, file, ins->loc);
            if (!f)
                return false;
            ins->body = f->body;
        } else if (ins->kind == CAT_I_PROC || ins->kind == CAT_I_VARIANT ||
                   ins->kind == CAT_I_FORALL) {
            if (!resolve_list(ld, &ins->body, file) || !resolve_list(ld, &ins->body2, file))
                return false;
        }
    }
    return true;
}

static bool resolve(loader *ld, cat_file *f)
{
    return resolve_list(ld, &f->body, f->path);
}

static const logic_formula *build(const logic_mm *mm, logic_builder *b, const logic_exec *e,
                                  const logic_mm_flag **flags, uint32_t *nflags,
                                  const char **error)
{
    const cat_model *m = mm->ctx;
    base_diag d;
    base_diag_init(&d);
    const logic_formula *f = cat_lower(&m->prog, b, e, flags, nflags, &d);
    if (!f) {
        char msg[512] = "the model could not be lowered";
        if (d.count)
            base_diag_format(&d.msgs[0], msg, sizeof msg);
        *error = base_arena_strdup(&b->arena, msg);
    }
    base_diag_free(&d);
    return f;
}

/* The model or bell file named on the command line: the path itself, else
 * (as herd7 does) the -I directories, else ravel's library. */
static cat_file *load_top(loader *ld, const char *path)
{
    if (access(path, R_OK) == 0 || strchr(path, '/'))
        return load_path(ld, path, base_srcloc_make(NULL, 0, 0));
    char *found = find_file(ld, path, NULL);
    if (found) {
        cat_file *f = load_path(ld, found, base_srcloc_make(NULL, 0, 0));
        free(found);
        return f;
    }
    if (cat_builtin_file(path))
        return load_named(ld, path, NULL, base_srcloc_make(path, 0, 0));
    return load_path(ld, path, base_srcloc_make(NULL, 0, 0));
}

/* Lowers prog once over a one-event structure with no relations. */
static bool check_prog(const cat_ins_list *prog, base_diag *diag)
{
    logic_structure st;
    logic_structure_init(&st, 1);
    logic_builder b;
    logic_builder_init(&b, &st);
    logic_exec e;
    logic_exec_build(&b, &e);
    const logic_mm_flag *flags;
    uint32_t nflags;
    bool ok = cat_lower(prog, &b, &e, &flags, &nflags, diag) != NULL;
    logic_builder_free(&b);
    logic_structure_free(&st);
    return ok;
}

static void concat(cat_model *m, const cat_ins_list *parts, size_t n)
{
    uint32_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += parts[i].n;
    m->prog.v = BASE_ARENA_ARRAY(&m->arena, cat_ins *, total ? total : 1);
    m->prog.n = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < parts[i].n; k++)
            m->prog.v[m->prog.n++] = parts[i].v[k];
}

cat_model *cat_model_load(const cat_load_options *opt, base_diag *diag)
{
    cat_model *m = base_xcalloc(1, sizeof *m);
    base_arena_init(&m->arena);
    loader ld = { .m = m, .opt = opt, .diag = diag };
    cat_ins_list parts[3];
    size_t np = 0;
    cat_file *std = load_named(&ld, "stdlib.cat", opt->model,
                               base_srcloc_make(opt->model, 0, 0));
    cat_file *bell = NULL, *model = NULL;
    if (std) {
        parts[np++] = std->body;
        if (opt->bell) {
            bell = load_top(&ld, opt->bell);
            if (bell)
                parts[np++] = bell->body;
        }
        if (!opt->bell || bell) {
            model = load_top(&ld, opt->model);
            if (model)
                parts[np++] = model->body;
        }
    }
    if (!model) {
        cat_model_free(m);
        return NULL;
    }
    concat(m, parts, np);
    m->title = model->title ? model->title : base_arena_strdup(&m->arena, opt->model);
    if (!check_prog(&m->prog, diag)) {
        cat_model_free(m);
        return NULL;
    }
    m->mm.name = base_arena_strdup(&m->arena, opt->model);
    m->mm.summary = m->title;
    m->mm.build = build;
    m->mm.ctx = m;
    return m;
}

void cat_model_free(cat_model *m)
{
    if (!m)
        return;
    base_arena_free(&m->arena);
    free(m);
}

bool cat_check_text(const char *path, const char *text, size_t len, base_diag *diag)
{
    cat_model *m = base_xcalloc(1, sizeof *m);
    base_arena_init(&m->arena);
    cat_load_options opt = { .model = path };
    loader ld = { .m = m, .opt = &opt, .diag = diag };
    /* includes resolve to the builtin files only (no file system) */
    opt.ninclude = 0;
    cat_file *f = cat_parse(&m->arena, path, text, len, diag);
    bool ok = false;
    if (f) {
        ok = true;
        for (uint32_t i = 0; i < f->body.n && ok; i++) {
            cat_ins *ins = f->body.v[i];
            if (ins->kind == CAT_I_INCLUDE) {
                const char *t = cat_builtin_file(ins->file);
                if (!t) {
                    base_diag_error(diag, ins->loc, "cannot find included file '%s'", ins->file);
                    ok = false;
                    break;
                }
                cat_file *inc = load_text(&ld, ins->file, t, strlen(t));
                ok = inc != NULL;
                if (ok)
                    ins->body = inc->body;
            }
        }
        if (ok)
            ok = check_prog(&f->body, diag);
    }
    cat_model_free(m);
    return ok;
}
