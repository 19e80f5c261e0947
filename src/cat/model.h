/* model: loading a cat model (herd7's -model, -bell, -I) and giving it to
 * the SAT path as a logic_mm.
 *
 * The program is herd's: stdlib.cat (read implicitly, as herd7 does), then
 * the bell file if any, then the model. An include is looked for in the -I
 * directories in order, then in the directory of the file that includes
 * it, then among ravel's own library files (stdlib.cat and cos.cat,
 * written for ravel: builtin.c), so a model that names herd's library
 * needs no herd installation. Loading also lowers the program once over
 * an empty structure, so that an unsupported construct or an unbound name
 * is reported before any test runs. */
#ifndef RAVEL_CAT_MODEL_H
#define RAVEL_CAT_MODEL_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "cat/ast.h"
#include "cat/variant.h"
#include "logic/mm.h"

typedef struct cat_model {
    base_arena arena;
    cat_ins_list prog; /* stdlib, bell, model; includes resolved */
    const char *title; /* the model's name line, or its file name */
    logic_mm mm;       /* .build lowers prog (cat/lower.h) */
} cat_model;

typedef struct cat_load_options {
    const char *model;             /* path of the .cat file */
    const char *bell;              /* path of a .bell file, or NULL */
    const char *const *include;    /* -I directories */
    size_t ninclude;
    cat_variants variants;         /* -variant names (cat/variant.h: supported ones) */
} cat_load_options;

/* NULL after reporting to diag (file:line:col: error: ...). */
cat_model *cat_model_load(const cat_load_options *opt, base_diag *diag);
void cat_model_free(cat_model *m);

/* ravel's own library files, by name (NULL if none): builtin.c. */
const char *cat_builtin_file(const char *name);

/* Parses and lowers text as a model over a small empty structure; the
 * fuzz harness's entry point. Returns whether it was accepted. */
bool cat_check_text(const char *path, const char *text, size_t len, base_diag *diag);

#endif
