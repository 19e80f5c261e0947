/* cli_check: `ravel check FILE|TASK.yml... [--unwind N] [--pending K]
 * [--timeout S] [--json]`: lowers the program, translates it with KISS and
 * checks the sequential program's assertions with the bounded model
 * checker; a bug is shown as the interleaving of the original threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "cli/cli_kiss.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"
#include "report/check_out.h"

static const char check_usage[] =
    "usage: ravel check FILE...|TASK.yml [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Looks for an execution of a concurrent C program that fails an assertion\n"
    "(assert, reach_error, __VERIFIER_error): the KISS translation makes it a\n"
    "sequential program, which is explored by random concrete runs, then\n"
    "checked by bounded model checking (Z3).\n"
    "A bug comes with the interleaving of the original threads that causes it.\n"
    "No bug means none within the bounds, and KISS simulates a subset of the\n"
    "schedules: it is not a proof. An SV-COMP task (TASK.yml with the\n"
    "unreach-call property) prints the SV-COMP answer: false or unknown.\n"
    "\n"
    "options:\n"
    "  --unwind N        unwind loops and recursion N times (default 3)\n"
    "  --pending K       room for K started but unscheduled threads (default 2)\n"
    "  --max-threads N   threads created after the first N never run (64)\n"
    "  --explore S       seconds of random exploration (concrete runs of the\n"
    "                    sequential program) before the bounded check; a bug\n"
    "                    found so is real (default: half of --timeout, else 1)\n"
    "  --seed N          the exploration's seed (default 1)\n"
    "  --witness FILE    write an SV-COMP violation witness (GraphML)\n"
    "  --timeout S       give up after S seconds (answer unknown)\n"
    "  --json            the verdict and the trace as JSON\n"
    "  -p DIR, -j N, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 no bug within the bounds; 1 a bug; 2 bad command line;\n"
    "3 unknown (timeout, memory, unsupported construct); 4 out of memory;\n"
    "5 bad input (missing file, clang error, unsupported property)\n";

int cli_check(int argc, char **argv)
{
    cli_kiss ck;
    cli_kiss_init(&ck);
    int rc = CLI_EXIT_OK;
    for (int i = 1; i < argc && !rc; i++) {
        int r = cli_kiss_arg(&ck, argc, argv, &i, "check");
        if (r < 0)
            rc = CLI_EXIT_USAGE;
        if (r)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(check_usage, stdout);
            cli_kiss_free(&ck);
            return CLI_EXIT_OK;
        }
        fprintf(stderr, "ravel check: error: unknown option '%s' (try 'ravel check --help')\n", a);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc)
        rc = cli_kiss_ready(&ck, "check", false);
    if (rc) {
        cli_kiss_free(&ck);
        return rc;
    }
    cli_front *fr = &ck.fr;
    bool svcomp = fr->tasks.len > 0;
    cli_kiss_watchdog(&ck, svcomp);
    cli_program cp;
    size_t errors = cli_program_load(&cp, fr);
    ir_program *prog = &cp.prog;
    if (errors) {
        rc = CLI_EXIT_INPUT;
    } else {
        cli_orig orig;
        cli_orig_keep(&orig, prog);
        base_diag kd;
        base_diag_init(&kd);
        ir_func *entry = kiss_translate(prog, &ck.ko, NULL, &kd);
        base_diag_print(&kd, stderr);
        if (!entry) {
            rc = CLI_EXIT_INPUT;
        } else if (ir_check(prog, &kd)) {
            base_diag_print(&kd, stderr);
            rc = CLI_EXIT_INTERNAL;
        } else {
            bmc_result res;
            const char *engine;
            if (ck.json && ck.bo.timeout_s > 0) {
                /* should the watchdog end the run, it answers in JSON too */
                bmc_result none = { .verdict = BMC_UNKNOWN,
                                    .reason = "timeout (the budget of --timeout ran out)" };
                check_report nc = { prog, &none, ck.bo.unwind, ck.ko.pending, cli_orig_stmt, &orig,
                                    "none" };
                base_strbuf ans = { 0 };
                if (svcomp)
                    base_strbuf_puts(&ans, "unknown\n");
                report_check_json(&ans, &nc, fr->files.data[0]);
                cli_kiss_watchdog_answer(&ans, CLI_EXIT_UNKNOWN);
            }
            cli_kiss_run(&ck, prog, entry, &res, &engine);
            check_report c = { prog, &res, ck.bo.unwind, ck.ko.pending, cli_orig_stmt, &orig,
                               engine };
            base_strbuf out = { 0 };
            if (svcomp)
                base_strbuf_puts(&out, res.verdict == BMC_BUG ? "false\n" : "unknown\n");
            if (ck.json)
                report_check_json(&out, &c, fr->files.data[0]);
            else
                report_check_text(&out, &c);
            fwrite(out.data, 1, out.len, stdout);
            base_strbuf_free(&out);
            if (ck.witness && cli_kiss_write_witness(&ck, &c, false) != 0)
                rc = CLI_EXIT_INPUT;
            if (!rc)
                rc = res.verdict == BMC_BUG ? CLI_EXIT_FOUND
                     : res.verdict == BMC_UNKNOWN ? CLI_EXIT_UNKNOWN : CLI_EXIT_OK;
            bmc_result_free(&res);
        }
        base_diag_free(&kd);
        cli_orig_free(&orig);
    }
    cli_program_free(&cp);
    cli_kiss_free(&ck);
    return rc;
}
