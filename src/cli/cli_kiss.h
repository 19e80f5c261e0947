/* cli_kiss: what `ravel check` and `ravel race` share: their options (the
 * front end's, the KISS bounds, the checker's budget, the output formats),
 * the --timeout watchdog, the original program's statements kept before the
 * translation rewrites them (for traces), and running the checking engines
 * on a translated program. */
#ifndef RAVEL_CLI_CLI_KISS_H
#define RAVEL_CLI_CLI_KISS_H

#include <stdbool.h>
#include <stdint.h>

#include "bmc/bmc.h"
#include "cli/cli_front.h"
#include "ir/ir.h"
#include "kiss/kiss.h"
#include "po/po.h"
#include "report/check_out.h"

typedef struct cli_kiss {
    cli_front fr;
    kiss_opts ko;
    bmc_opts bo;
    bool json;
    bool sarif;            /* race only */
    const char *witness;   /* --witness FILE: an SV-COMP violation witness (GraphML) */
    double explore_s;      /* --explore S: the random exploration's budget; < 0: the
                              default, half of --timeout, or 1 s without one */
    uint64_t seed;         /* --seed N */
    bool explore_only;     /* the explore engine: no bounded check after the exploration */
    bool unwind_given;     /* --unwind was on the command line */
} cli_kiss;

/* The engines of check and race (--engine). */
typedef enum cli_engine { CLI_ENGINE_KISS, CLI_ENGINE_EXPLORE, CLI_ENGINE_PO, CLI_ENGINE_AUTO } cli_engine;

/* Reads --engine's value v for cmd; false after reporting a bad one. */
bool cli_kiss_engine(const char *cmd, const char *v, cli_engine *out);

/* po's options from c's, at unwind with budget seconds (0: none). */
void cli_kiss_po_opts(const cli_kiss *c, uint32_t unwind, double budget, po_opts *po);

void cli_kiss_init(cli_kiss *c);
void cli_kiss_free(cli_kiss *c);
/* Takes argv[*i] when it is a front-end option or one of the shared options
 * (returns 1, *i advanced past its value); 0: not one of them; -1: a bad
 * value, reported for cmd. */
int cli_kiss_arg(cli_kiss *c, int argc, char **argv, int *i, const char *cmd);

/* After the options: the exit code to stop with (no input, an unreadable
 * task, a task without the command's property: reported), or 0. */
int cli_kiss_ready(cli_kiss *c, const char *cmd, bool race);

/* Arms the --timeout watchdog: a twentieth of the budget (at least 1 s)
 * after it, rounded up to a second, the process prints `unknown` (and
 * first the SV-COMP answer when svcomp) and exits 3, whatever the solver
 * is doing. No budget: nothing. */
void cli_kiss_watchdog(const cli_kiss *c, bool svcomp);
/* The part of a budget of total seconds that the engines share out: all
 * but a twentieth (at least 0.5 s, at most a quarter), which
 * is kept for what checks no clock (Z3 overruns its timeout by a few
 * tenths of a second on a large formula; start-up, the answer printed), so
 * that a run ends within its budget. */
double cli_kiss_plan_budget(double total);
/* From now on the watchdog prints `answer` (taken over; left empty) and
 * exits with code: the findings so far, when a search for more runs out of
 * time. */
void cli_kiss_watchdog_answer(base_strbuf *answer, int code);
/* Disarms the watchdog and frees its answers. */
void cli_kiss_watchdog_off(void);

/* The original statements, kept before the translation rewrites them. */
typedef struct cli_orig {
    const ir_program *p;
    check_orig_stmt **stmts; /* [function index][statement index]; ends with text NULL */
    uint32_t nfuncs;
} cli_orig;

void cli_orig_keep(cli_orig *o, const ir_program *p);
/* Statement index of the original f, or NULL (check_report.orig: ctx is a
 * cli_orig). */
const check_orig_stmt *cli_orig_stmt(void *ctx, const ir_func *f, uint32_t index);
void cli_orig_free(cli_orig *o);

/* Writes c->witness for a BUG (race: the no-data-race specification).
 * Returns 0, or 1 after reporting that the file cannot be written. */
int cli_kiss_write_witness(const cli_kiss *c, const check_report *r, bool race);
/* Writes c->witness (when given) as a correctness witness: a proof. */
int cli_kiss_write_correctness_witness(const cli_kiss *c, bool race);

/* Checks the translated program from entry: the random exploration first
 * (a bug it finds is real; its budget is --explore), then bounded model
 * checking with the rest of --timeout (explore_only: UNKNOWN instead).
 * *engine says which answered ("explore" or "bmc"). */
trace_verdict cli_kiss_run(const cli_kiss *c, const ir_program *p, const ir_func *entry,
                           trace_result *r, const char **engine);

#endif
