/* cli_front: the options every command that reads C shares (files, -p DIR,
 * --m32, -q, `-- CLANG-FLAGS`) and running the front end with a progress
 * line on a terminal. */
#ifndef RAVEL_CLI_CLI_FRONT_H
#define RAVEL_CLI_CLI_FRONT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/vec.h"
#include "cfront/cfront.h"
#include "task/svtask.h"

typedef struct cli_front {
    BASE_VEC(const char *) files;
    cfront_opts opts;
    bool quiet;
    BASE_VEC(svtask) tasks; /* SV-COMP task files given as input */
    BASE_VEC(const char *) task_paths; /* their paths, in the same order */
    bool bad_task;          /* a task file could not be read (reported) */
    bool diagnosed;         /* the input's diagnostics were printed (lowering it
                               again prints them no more) */
    cfront_stats stats;     /* of the last lowering */
} cli_front;

/* Looks at argv[*i]: a file or a front-end option is taken (returns 1,
 * *i advanced past its value; an SV-COMP task file, *.yml, contributes its
 * input files and its data model);
 * *i advanced past its value); `--` takes the rest as clang's flags
 * (returns 1, *i = argc); anything else returns 0; a missing value
 * prints an error for cmd and returns -1. */
int cli_front_arg(cli_front *f, int argc, char **argv, int *i, const char *cmd);
/* An option's numeric value v in [lo, hi] (whole: no fraction). On a bad
 * value prints `ravel CMD: error: OPT needs ...` and returns false. */
bool cli_number(const char *cmd, const char *opt, const char *v, double lo, double hi, bool whole,
                double *out);
/* After the options: 0 when there is input, else the exit code (an
 * unreadable task file: CLI_EXIT_INPUT, already reported; no input at all:
 * an error for cmd and CLI_EXIT_USAGE). */
int cli_front_ready(cli_front *f, const char *cmd);
/* Lowers the input; prints clang's and the front end's diagnostics on
 * stderr (the first time only). Returns the number of errors. */
size_t cli_front_lower(cli_front *f, ir_program *p, base_diag *d);
void cli_front_free(cli_front *f);

/* A lowered program with what it needs alive: the symbols and the
 * diagnostics. */
typedef struct cli_program {
    base_intern_pool syms;
    ir_program prog;
    base_diag diag;
} cli_program;

/* Initialises cp and lowers f's input into it (cli_front_lower). */
size_t cli_program_load(cli_program *cp, cli_front *f);
void cli_program_free(cli_program *cp);
/* Initialises cp and links the units captured in dir into it
 * (cfront_link_dir), printing the diagnostics as cli_front_lower does. */
size_t cli_program_link_dir(cli_program *cp, cli_front *f, const char *dir);

/* Source lines for the IR printer (ir_print_opts.source_line): each file
 * is read once, lines come back trimmed. */
typedef struct cli_source_lines {
    const char *file;
    char *text;
    BASE_VEC(char *) lines;
    char buf[512];
} cli_source_lines;

const char *cli_source_line(void *ctx, const char *file, uint32_t line);
void cli_source_lines_free(cli_source_lines *lc);

#endif
