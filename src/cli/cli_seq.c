/* cli_seq: `ravel seq FILE... [-o OUT] [--pending K] [--ir]`: the KISS
 * translation of a concurrent C program as a sequential C program (or as
 * IR with --ir). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cemit/cemit.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "ir/ir_check.h"
#include "ir/ir_print.h"
#include "kiss/kiss.h"

static const char seq_usage[] =
    "usage: ravel seq FILE... [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Translates a concurrent C program into a sequential one that simulates it\n"
    "under a nondeterministic scheduler (KISS: a raise flag that stops the\n"
    "running thread, a bounded multiset of started but unscheduled threads).\n"
    "The output is plain C using SV-COMP's conventions (__VERIFIER_nondet_*,\n"
    "__VERIFIER_assume, reach_error), so any sequential verifier can check it.\n"
    "A bug in the sequential program is a bug in the concurrent one; the\n"
    "converse holds only for the schedules the bounds allow.\n"
    "\n"
    "options:\n"
    "  -o FILE           write the program to FILE (default: standard output)\n"
    "  --pending K       room for K started but unscheduled threads (default 2)\n"
    "  --max-threads N   executions that start more than N threads are cut\n"
    "                    (default 16)\n"
    "  --ir              print the sequential program as IR instead of C\n"
    "  --races           instrument for data races (each race fails an assertion)\n"
    "                    instead of keeping the program's assertions\n"
    "  --location NAME   with --races: only races on the variable NAME\n"
    "  -p DIR, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 written; 2 bad command line; 4 out of memory; 5 bad input\n"
    "(missing file, clang error, unsupported construct, no main)\n";

/* Parses an unsigned number option value in [lo, hi]; false on error. */
int cli_seq(int argc, char **argv)
{
    cli_front fr = { 0 };
    const char *out_path = NULL;
    bool as_ir = false;
    kiss_opts ko = { .pending = 2, .max_threads = 16 };
    int rc = CLI_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        int r = cli_front_arg(&fr, argc, argv, &i, "seq");
        if (r < 0) {
            cli_front_free(&fr);
            return CLI_EXIT_USAGE;
        }
        if (r > 0)
            continue;
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(seq_usage, stdout);
            cli_front_free(&fr);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--ir") == 0) {
            as_ir = true;
        } else if (strcmp(a, "--races") == 0) {
            ko.races = true;
        } else if (strcmp(a, "--location") == 0 && v) {
            ko.races = true;
            ko.location = v;
            i++;
        } else if (strcmp(a, "-o") == 0 && v) {
            out_path = v;
            i++;
        } else if (strcmp(a, "--pending") == 0) {
            double x;
            if (cli_number("seq", a, v, 0, 64, true, &x))
                ko.pending = (uint32_t)x;
            else
                rc = CLI_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--max-threads") == 0) {
            double x;
            if (cli_number("seq", a, v, 1, 4096, true, &x))
                ko.max_threads = (uint32_t)x;
            else
                rc = CLI_EXIT_USAGE;
            i++;
        } else {
            fprintf(stderr, "ravel seq: error: unknown option '%s' (try 'ravel seq --help')\n", a);
            rc = CLI_EXIT_USAGE;
        }
        if (rc) {
            cli_front_free(&fr);
            return rc;
        }
    }
    int ready = cli_front_ready(&fr, "seq");
    if (ready) {
        cli_front_free(&fr);
        return ready;
    }
    cli_program cp;
    size_t errors = cli_program_load(&cp, &fr);
    ir_program *prog = &cp.prog;
    if (errors) {
        rc = CLI_EXIT_INPUT;
    } else {
        base_diag kd;
        base_diag_init(&kd);
        ir_func *entry = kiss_translate(prog, &ko, NULL, &kd);
        if (entry && ir_check(prog, &kd) == 0) {
            base_strbuf out = { 0 };
            if (as_ir) {
                ir_print_opts po = { .skip_empty_init = true };
                ir_print_program_opts(&out, prog, &po);
            } else {
                cemit_program(&out, prog, entry);
            }
            FILE *f = out_path ? fopen(out_path, "w") : stdout;
            if (!f) {
                fprintf(stderr, "%s: error: cannot write the file: %s\n", out_path, strerror(errno));
                rc = CLI_EXIT_INPUT;
            } else {
                fwrite(out.data, 1, out.len, f);
                if (out_path)
                    fclose(f);
            }
            base_strbuf_free(&out);
        } else {
            rc = entry ? CLI_EXIT_INTERNAL : CLI_EXIT_INPUT;
        }
        base_diag_print(&kd, stderr);
        base_diag_free(&kd);
    }
    cli_program_free(&cp);
    cli_front_free(&fr);
    return rc;
}
