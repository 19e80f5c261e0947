/* cli_check: `ravel check FILE|TASK.yml... [--unwind N] [--pending K]
 * [--timeout S] [--json]`: lowers the program, translates it with KISS and
 * checks the sequential program's assertions with the bounded model
 * checker; a bug is shown as the interleaving of the original threads. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "ir/ir_check.h"
#include "ir/ir_print.h"
#include "kiss/kiss.h"
#include "report/check_out.h"

static const char check_usage[] =
    "usage: ravel check FILE...|TASK.yml [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Looks for an execution of a concurrent C program that fails an assertion\n"
    "(assert, reach_error, __VERIFIER_error): the KISS translation makes it a\n"
    "sequential program, which is checked by bounded model checking (Z3).\n"
    "A bug comes with the interleaving of the original threads that causes it.\n"
    "No bug means none within the bounds, and KISS simulates a subset of the\n"
    "schedules: it is not a proof. An SV-COMP task (TASK.yml with the\n"
    "unreach-call property) prints the SV-COMP answer: false or unknown.\n"
    "\n"
    "options:\n"
    "  --unwind N        unwind loops and recursion N times (default 3)\n"
    "  --pending K       room for K started but unscheduled threads (default 2)\n"
    "  --max-threads N   executions that start more than N threads are cut (16)\n"
    "  --timeout S       give up after S seconds (answer unknown)\n"
    "  --json            the verdict and the trace as JSON\n"
    "  -p DIR, -j N, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 no bug within the bounds; 1 a bug; 2 bad command line;\n"
    "3 unknown (timeout, memory, unsupported construct); 4 out of memory;\n"
    "5 bad input (missing file, clang error, unsupported property)\n";

/* The original statements' text, kept before the translation rewrites them. */
typedef struct orig_texts {
    const ir_program *p;
    char ***texts; /* [function index][statement index] */
    uint32_t nfuncs;
} orig_texts;

static void keep_texts(orig_texts *ot, const ir_program *p)
{
    ot->p = p;
    ot->nfuncs = p->nfuncs;
    ot->texts = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *ot->texts);
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const ir_func *fn = p->funcs[f];
        ot->texts[f] = calloc(fn->nstmts + 1, sizeof **ot->texts);
        for (uint32_t i = 0; i < fn->nstmts; i++) {
            base_strbuf b = { 0 };
            ir_print_stmt(&b, p, &fn->stmts[i]);
            ot->texts[f][i] = b.data ? b.data : strdup("");
        }
    }
}

static const char *orig_text(void *ctx, const ir_func *f, uint32_t index)
{
    orig_texts *ot = ctx;
    for (uint32_t i = 0; i < ot->nfuncs; i++)
        if (ot->p->funcs[i] == f) {
            /* the original had at most this many statements */
            for (uint32_t k = 0; k <= index; k++)
                if (!ot->texts[i][k])
                    return NULL;
            return ot->texts[i][index];
        }
    return NULL;
}

static void free_texts(orig_texts *ot)
{
    for (uint32_t f = 0; f < ot->nfuncs; f++) {
        for (uint32_t i = 0; ot->texts[f][i]; i++)
            free(ot->texts[f][i]);
        free(ot->texts[f]);
    }
    free(ot->texts);
}

/* The last line of defence for --timeout: the checker polls its deadline,
 * but a solver or a simplification may not come back in time. After the
 * budget and a grace period the process answers unknown itself. */
static volatile sig_atomic_t watchdog_svcomp;

static void watchdog(int sig)
{
    (void)sig;
    static const char sv[] = "unknown\n";
    static const char msg[] = "unknown: timeout (the budget of --timeout ran out)\n";
    if (watchdog_svcomp && write(STDOUT_FILENO, sv, sizeof sv - 1) < 0)
        _exit(CLI_EXIT_UNKNOWN);
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0)
        _exit(CLI_EXIT_UNKNOWN);
    _exit(CLI_EXIT_UNKNOWN);
}

int cli_check(int argc, char **argv)
{
    cli_front fr = { 0 };
    kiss_opts ko = { .pending = 2, .max_threads = 16 };
    bmc_opts bo;
    bmc_opts_init(&bo);
    bool json = false;
    int rc = CLI_EXIT_OK;
    for (int i = 1; i < argc && !rc; i++) {
        int r = cli_front_arg(&fr, argc, argv, &i, "check");
        if (r < 0)
            rc = CLI_EXIT_USAGE;
        if (r)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(check_usage, stdout);
            cli_front_free(&fr);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--unwind") == 0) {
            rc = cli_number("check", a, v, 1, 1000, true, &x) ? 0 : CLI_EXIT_USAGE;
            bo.unwind = (uint32_t)x;
            i++;
        } else if (strcmp(a, "--pending") == 0) {
            rc = cli_number("check", a, v, 0, 64, true, &x) ? 0 : CLI_EXIT_USAGE;
            ko.pending = (uint32_t)x;
            i++;
        } else if (strcmp(a, "--max-threads") == 0) {
            rc = cli_number("check", a, v, 1, 4096, true, &x) ? 0 : CLI_EXIT_USAGE;
            ko.max_threads = (uint32_t)x;
            i++;
        } else if (strcmp(a, "--timeout") == 0) {
            rc = cli_number("check", a, v, 0.001, 1e7, false, &x) ? 0 : CLI_EXIT_USAGE;
            bo.timeout_s = x;
            i++;
        } else {
            fprintf(stderr, "ravel check: error: unknown option '%s' (try 'ravel check --help')\n", a);
            rc = CLI_EXIT_USAGE;
        }
    }
    if (rc) {
        cli_front_free(&fr);
        return rc;
    }
    int ready = cli_front_ready(&fr, "check");
    if (ready) {
        cli_front_free(&fr);
        return ready;
    }
    bool svcomp = fr.tasks.len > 0;
    if (bo.timeout_s > 0) {
        watchdog_svcomp = svcomp;
        signal(SIGALRM, watchdog);
        alarm((unsigned)(bo.timeout_s * 1.25) + 5);
    }
    for (size_t t = 0; t < fr.tasks.len; t++) {
        if (!svtask_find(&fr.tasks.data[t], SVTASK_UNREACH_CALL)) {
            fprintf(stderr, "%s: error: the task has no unreach-call property (ravel race checks "
                            "no-data-race)\n", fr.task_paths.data[t]);
            cli_front_free(&fr);
            return CLI_EXIT_INPUT;
        }
    }
    cli_program cp;
    size_t errors = cli_program_load(&cp, &fr);
    ir_program *prog = &cp.prog;
    if (errors) {
        rc = CLI_EXIT_INPUT;
    } else {
        orig_texts ot;
        keep_texts(&ot, prog);
        base_diag kd;
        base_diag_init(&kd);
        ir_func *entry = kiss_translate(prog, &ko, NULL, &kd);
        base_diag_print(&kd, stderr);
        if (!entry) {
            rc = CLI_EXIT_INPUT;
        } else if (ir_check(prog, &kd)) {
            base_diag_print(&kd, stderr);
            rc = CLI_EXIT_INTERNAL;
        } else {
            bmc_result res;
            bmc_check(prog, entry, &bo, &res);
            check_report c = { prog, &res, bo.unwind, ko.pending, orig_text, &ot };
            base_strbuf out = { 0 };
            if (svcomp)
                base_strbuf_puts(&out, res.verdict == BMC_BUG ? "false\n" : "unknown\n");
            if (json)
                report_check_json(&out, &c, fr.files.data[0]);
            else
                report_check_text(&out, &c);
            fwrite(out.data, 1, out.len, stdout);
            base_strbuf_free(&out);
            rc = res.verdict == BMC_BUG ? CLI_EXIT_FOUND
                 : res.verdict == BMC_UNKNOWN ? CLI_EXIT_UNKNOWN : CLI_EXIT_OK;
            bmc_result_free(&res);
        }
        base_diag_free(&kd);
        free_texts(&ot);
    }
    cli_program_free(&cp);
    cli_front_free(&fr);
    return rc;
}
