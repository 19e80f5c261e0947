#include "cli/cli_kiss.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "base/clock.h"
#include "base/sha256.h"
#include "bmc/smt.h"
#include "explore/explore.h"
#include "ir/ir_print.h"
#include "report/witness.h"

bool cli_kiss_engine(const char *cmd, const char *v, cli_engine *out)
{
    static const char *const names[] = { "kiss", "explore", "po", "auto" };
    for (int k = 0; k < 4; k++)
        if (v && strcmp(v, names[k]) == 0) {
            *out = (cli_engine)k;
            return true;
        }
    fprintf(stderr, "ravel %s: error: --engine needs one of kiss, explore, po, auto%s%s%s\n", cmd,
            v ? " (not '" : "", v ? v : "", v ? "')" : "");
    return false;
}

void cli_kiss_po_opts(const cli_kiss *c, uint32_t unwind, double budget, po_opts *po)
{
    po_opts_init(po);
    po->bo = c->bo;
    po->bo.unwind = unwind;
    po->bo.timeout_s = budget;
    po->bo.budget_s = c->bo.timeout_s > 0 ? c->bo.timeout_s : budget; /* a timeout names the
                                                                        * whole budget */
    po->max_threads = c->ko.max_threads;
}

void cli_kiss_init(cli_kiss *c)
{
    memset(c, 0, sizeof *c);
    c->ko.pending = 2;
    c->ko.max_threads = 64;
    bmc_opts_init(&c->bo);
    c->explore_s = -1;
    c->seed = 1;
}

void cli_kiss_free(cli_kiss *c)
{
    cli_front_free(&c->fr);
}

int cli_kiss_arg(cli_kiss *c, int argc, char **argv, int *i, const char *cmd)
{
    int r = cli_front_arg(&c->fr, argc, argv, i, cmd);
    if (r)
        return r;
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    double x = 0;
    bool ok = true;
    if (strcmp(a, "--json") == 0) {
        c->json = true;
        return 1;
    } else if (strcmp(a, "--unwind") == 0) {
        ok = cli_number(cmd, a, v, 1, 1000, true, &x);
        c->bo.unwind = (uint32_t)x;
        c->unwind_given = true;
    } else if (strcmp(a, "--pending") == 0) {
        ok = cli_number(cmd, a, v, 0, 64, true, &x);
        c->ko.pending = (uint32_t)x;
    } else if (strcmp(a, "--max-threads") == 0) {
        ok = cli_number(cmd, a, v, 1, 4096, true, &x);
        c->ko.max_threads = (uint32_t)x;
    } else if (strcmp(a, "--timeout") == 0) {
        ok = cli_number(cmd, a, v, 0.001, 1e7, false, &x);
        c->bo.timeout_s = x;
    } else if (strcmp(a, "--explore") == 0) {
        ok = cli_number(cmd, a, v, 0, 1e7, false, &x);
        c->explore_s = x;
    } else if (strcmp(a, "--seed") == 0) {
        ok = cli_number(cmd, a, v, 0, 4294967295.0, true, &x);
        c->seed = (uint64_t)x;
    } else if (strcmp(a, "--solver") == 0) {
        bmc_smt_backend b;
        if (!v || !bmc_smt_parse_backend(v, &b)) {
            fprintf(stderr, "ravel %s: error: --solver needs auto, z3 or cadical\n", cmd);
            return -1;
        }
        bmc_smt_set_backend(b);
    } else if (strcmp(a, "--witness") == 0) {
        if (!v) {
            fprintf(stderr, "ravel %s: error: --witness needs a file name\n", cmd);
            return -1;
        }
        c->witness = v;
    } else {
        return 0;
    }
    (*i)++;
    return ok ? 1 : -1;
}

int cli_kiss_ready(cli_kiss *c, const char *cmd, bool race)
{
    int rc = cli_front_ready(&c->fr, cmd);
    for (size_t t = 0; !rc && t < c->fr.tasks.len; t++) {
        if (!svtask_find(&c->fr.tasks.data[t], race ? SVTASK_NO_DATA_RACE : SVTASK_UNREACH_CALL)) {
            fprintf(stderr, "%s: error: the task has no %s property (ravel %s checks %s)\n",
                    c->fr.task_paths.data[t], race ? "no-data-race" : "unreach-call",
                    race ? "check" : "race", race ? "unreach-call" : "no-data-race");
            rc = CLI_EXIT_INPUT;
        }
    }
    return rc;
}

/* --- the watchdog --- */

static volatile sig_atomic_t watchdog_svcomp;
/* What the watchdog prints instead of `unknown` (cli_kiss_watchdog_answer):
 * swapped in whole, so the handler sees an old or a new answer, never half
 * of one; the buffers live until the process ends. */
static base_strbuf watchdog_bufs[2];
static volatile sig_atomic_t watchdog_cur = -1;
static volatile sig_atomic_t watchdog_code = CLI_EXIT_UNKNOWN;

static void watchdog(int sig)
{
    (void)sig;
    static const char sv[] = "unknown\n";
    static const char msg[] = "unknown: timeout (the budget of --timeout ran out)\n";
    if (watchdog_cur >= 0) {
        const base_strbuf *b = &watchdog_bufs[watchdog_cur];
        if (write(STDOUT_FILENO, b->data, b->len) < 0)
            _exit(watchdog_code);
        _exit(watchdog_code);
    }
    if (watchdog_svcomp && write(STDOUT_FILENO, sv, sizeof sv - 1) < 0)
        _exit(CLI_EXIT_UNKNOWN);
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0)
        _exit(CLI_EXIT_UNKNOWN);
    _exit(CLI_EXIT_UNKNOWN);
}

void cli_kiss_watchdog_answer(base_strbuf *answer, int code)
{
    int next = watchdog_cur == 0 ? 1 : 0;
    base_strbuf_free(&watchdog_bufs[next]);
    watchdog_bufs[next] = *answer; /* taken over */
    *answer = (base_strbuf){ 0 };
    watchdog_code = code;
    watchdog_cur = next;
}

void cli_kiss_watchdog_off(void)
{
    alarm(0);
    watchdog_cur = -1;
    base_strbuf_free(&watchdog_bufs[0]);
    base_strbuf_free(&watchdog_bufs[1]);
}

void cli_kiss_watchdog(const cli_kiss *c, bool svcomp)
{
    if (c->bo.timeout_s <= 0)
        return;
    watchdog_svcomp = svcomp;
    signal(SIGALRM, watchdog);
    /* The engines stop themselves at the budget and say where; this is the
     * backstop for a phase that does not look at the clock often enough
     * (Z3 preprocessing a large formula can overrun its timeout by
     * seconds): a twentieth of the budget later, at least 1 s, the answer
     * so far is printed and the process ends. */
    double grace = c->bo.timeout_s / 20 < 1 ? 1 : c->bo.timeout_s / 20;
    double at = c->bo.timeout_s + grace;
    unsigned whole = at > 4e9 ? 4000000000u : (unsigned)at;
    alarm(whole < at ? whole + 1 : whole);
}

double cli_kiss_plan_budget(double total)
{
    if (total <= 0)
        return total;
    double keep = total / 20 < 0.5 ? 0.5 : total / 20;
    if (keep > total / 4)
        keep = total / 4;
    return total - keep;
}

/* --- the original statements --- */

void cli_orig_keep(cli_orig *o, const ir_program *p)
{
    o->p = p;
    o->nfuncs = p->nfuncs;
    o->stmts = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *o->stmts);
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const ir_func *fn = p->funcs[f];
        o->stmts[f] = calloc(fn->nstmts + 1, sizeof **o->stmts);
        for (uint32_t i = 0; i < fn->nstmts; i++) {
            const ir_stmt *s = &fn->stmts[i];
            base_strbuf b = { 0 };
            ir_print_stmt(&b, p, s);
            o->stmts[f][i].text = b.data ? b.data : strdup("");
            o->stmts[f][i].kind = s->kind;
            if (s->kind == IR_S_ASYNC && s->callee && s->callee->kind == IR_E_FUNC)
                o->stmts[f][i].callee = base_sym_str(p->syms, s->callee->func->name);
        }
    }
}

const check_orig_stmt *cli_orig_stmt(void *ctx, const ir_func *f, uint32_t index)
{
    const cli_orig *o = ctx;
    for (uint32_t i = 0; i < o->nfuncs; i++)
        if (o->p->funcs[i] == f) {
            /* the original had at most this many statements */
            for (uint32_t k = 0; k <= index; k++)
                if (!o->stmts[i][k].text)
                    return NULL;
            return &o->stmts[i][index];
        }
    return NULL;
}

void cli_orig_free(cli_orig *o)
{
    for (uint32_t f = 0; f < o->nfuncs; f++) {
        for (uint32_t i = 0; o->stmts[f][i].text; i++)
            free(o->stmts[f][i].text);
        free(o->stmts[f]);
    }
    free(o->stmts);
    o->stmts = NULL;
}

/* --- the engines --- */

trace_verdict cli_kiss_run(const cli_kiss *c, const ir_program *p, const ir_func *entry,
                           trace_result *r, const char **engine)
{
    double start = base_now();
    bmc_opts bo = c->bo;
    if (bo.budget_s <= 0) /* a timeout names the whole budget, not bmc's share */
        bo.budget_s = c->bo.timeout_s;
    double budget = c->explore_s >= 0 ? c->explore_s : bo.timeout_s > 0 ? bo.timeout_s / 2 : 1.0;
    if (bo.timeout_s > 0 && budget > bo.timeout_s)
        budget = bo.timeout_s;
    if (budget > 0) {
        explore_opts eo;
        explore_opts_init(&eo);
        eo.seed = c->seed;
        eo.timeout_s = budget;
        explore_stats st;
        trace_verdict ev = explore_check_stats(p, entry, &eo, r, &st);
        if (getenv("RAVEL_TIMES"))
            fprintf(stderr,
                    "explore: %" PRIu64 " runs (%" PRIu64 " to the end, %" PRIu64 " at an assume, %" PRIu64
                    " undefined, %" PRIu64 " at a limit), %" PRIu64 " steps, %.2f s%s\n",
                    st.runs, st.done, st.assumes, st.undefined, st.limits, st.steps, st.seconds,
                    ev == TRACE_BUG ? "; the last run failed" : "");
        if (ev == TRACE_BUG) {
            *engine = "explore";
            r->unwind = bo.unwind;
            return TRACE_BUG;
        }
        trace_result_free(r);
        if (c->explore_only) {
            char why[160];
            snprintf(why, sizeof why, "no bug found by %.3g s of random exploration", st.seconds);
            memset(r, 0, sizeof *r);
            base_arena_init(&r->arena);
            r->verdict = TRACE_UNKNOWN;
            r->unwind = bo.unwind;
            r->reason = base_arena_strdup(&r->arena, why);
            *engine = "explore";
            return TRACE_UNKNOWN;
        }
        if (bo.timeout_s > 0) {
            bo.timeout_s -= base_now() - start;
            if (bo.timeout_s < 0.001)
                bo.timeout_s = 0.001;
        }
    }
    *engine = "bmc";
    return bmc_check(p, entry, &bo, r);
}

/* --- witnesses --- */

static int write_witness(const cli_kiss *c, const check_report *r, bool race);

int cli_kiss_write_witness(const cli_kiss *c, const check_report *r, bool race)
{
    if (!c->witness || r->r->verdict != TRACE_BUG)
        return 0;
    return write_witness(c, r, race);
}

int cli_kiss_write_correctness_witness(const cli_kiss *c, bool race)
{
    return c->witness ? write_witness(c, NULL, race) : 0;
}

/* r NULL: a correctness witness. */
static int write_witness(const cli_kiss *c, const check_report *r, bool race)
{
    const char *file = c->fr.files.len ? c->fr.files.data[0] : "";
    char hash[65] = "";
    if (!base_sha256_file(file, hash)) {
        fprintf(stderr, "%s: error: cannot read the program to hash it for the witness\n", file);
        return 1;
    }
    /* the task's own property text when there is one */
    char spec[512] = "";
    for (size_t t = 0; t < c->fr.tasks.len && !spec[0]; t++) {
        const svtask_prop *pr =
            svtask_find(&c->fr.tasks.data[t], race ? SVTASK_NO_DATA_RACE : SVTASK_UNREACH_CALL);
        FILE *pf = pr ? fopen(pr->file, "r") : NULL;
        char line[512];
        while (pf && fgets(line, sizeof line, pf))
            if (strncmp(line, "CHECK(", 6) == 0) {
                line[strcspn(line, "\r\n")] = 0;
                snprintf(spec, sizeof spec, "%s", line);
                break;
            }
        if (pf)
            fclose(pf);
    }
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    witness_info w = {
        .program_file = file,
        .program_hash = hash,
        .specification = spec[0] ? spec
                         : race  ? "CHECK( init(main()), LTL(G ! data-race) )"
                                 : "CHECK( init(main()), LTL(G ! call(reach_error())) )",
        .architecture = c->fr.opts.m32 ? "32bit" : "64bit",
        .producer = "ravel",
        .creation_time = when,
    };
    base_strbuf out = { 0 };
    if (r)
        report_witness_graphml(&out, r, &w);
    else
        report_witness_correctness_graphml(&out, &w);
    FILE *f = fopen(c->witness, "w");
    bool ok = f && fwrite(out.data, 1, out.len, f) == out.len;
    if (f && fclose(f) != 0)
        ok = false;
    base_strbuf_free(&out);
    if (!ok) {
        fprintf(stderr, "%s: error: cannot write the witness\n", c->witness);
        return 1;
    }
    return 0;
}
