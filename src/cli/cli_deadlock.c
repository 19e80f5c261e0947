/* cli_deadlock: `ravel deadlock FILES... [options] [-- clang flags]`.
 * Parses its own options, leaves the input (files, -p, -j, --m32, -q,
 * task files, `--`) to cli_front as every command that reads C does, runs
 * deadlock_analyse and hands the result to report/deadlock_out. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "cfront/cfront.h"
#include "cli/cli.h"
#include "cli/cli_dlcapture.h"
#include "cli/cli_front.h"
#include "deadlock/deadlock.h"
#include "ir/ir.h"
#include "report/deadlock_out.h"

#ifndef RAVEL_VERSION
#define RAVEL_VERSION "dev"
#endif

static const char deadlock_usage[] =
    "usage: ravel deadlock FILE... [options] [-- clang flags]\n"
    "       ravel deadlock -p BUILD_DIR [FILE...] [options]\n"
    "       ravel deadlock TASK.yml [options]\n"
    "       ravel deadlock --capture DIR [options] -- BUILD COMMAND...\n"
    "       ravel deadlock --from DIR [options]\n"
    "\n"
    "Finds deadlocks statically (L2D2: compositional lock summaries per function,\n"
    "bottom-up over the call graph). Reports cycles of locks that threads able to\n"
    "run at the same time acquire in opposite orders, and self-deadlocks (a\n"
    "non-recursive lock acquired again while held on every path). Locks are named\n"
    "by access paths (m, d->lock, accounts[*].m); an array element at an index that\n"
    "is not constant stands for the whole array.\n"
    "\n"
    "Threads: main and every function started with pthread_create/thrd_create\n"
    "reachable from it; without main, every function nothing calls or starts.\n"
    "Threads joined before another starts do not run together.\n"
    "\n"
    "options:\n"
    "  -p DIR             read DIR/compile_commands.json; analyse its translation\n"
    "                     units (those of the FILEs given, or all of them)\n"
    "  --main FILE        analyse the program whose main is FILE's (default: when\n"
    "                     several units define main, each is a program of its\n"
    "                     own, with the units that define no main)\n"
    "  -- FLAGS...        compiler flags for the FILEs (-I, -D, -std, ...)\n"
    "  --m32              analyse for a 32-bit target (ILP32)\n"
    "  -j N               parse N translation units at once (default: the number\n"
    "                     of cores)\n"
    "  --no-pch           no precompiled header shared by the units that begin\n"
    "                     with the same #include (the result does not depend on it)\n"
    "  --cache DIR        keep function summaries in DIR (created when missing) and\n"
    "                     reuse those whose function and callees did not change;\n"
    "                     the lowered translation units go to DIR/units\n"
    "  --no-cache         no unit cache for -p (by default BUILD_DIR/.ravel-cache:\n"
    "                     a unit none of whose files, flags or ravel changed is\n"
    "                     not parsed again)\n"
    "  --capture DIR      run the build command after '--' with a compiler wrapper\n"
    "                     on CC that writes each C unit it compiles into DIR\n"
    "  --from DIR         analyse the units captured in DIR (after --capture, or\n"
    "                     several capture directories copied into one)\n"
    "  --capture-cc DIR   the wrapper itself: -- CC ARGS... runs the compiler, then\n"
    "                     captures the command's C sources into DIR (for distcc,\n"
    "                     icecream or remote builds: one unit's files per call)\n"
    "  --entry main|all   entry points: main (default) or every function with\n"
    "                     external linkage (library mode; entry points may run\n"
    "                     concurrently with each other and with themselves)\n"
    "  --lock-order       also report lock-order inversions inside one thread\n"
    "  --max-cycle N      report cycles of at most N locks (default: any length)\n"
    "  --timeout S        stop after S seconds (default 600; the front end counts):\n"
    "                     the summaries still to do are left out, the threads and\n"
    "                     cycles of the rest get a tenth more (at least 1 s), and\n"
    "                     the report says it is incomplete\n"
    "  --max-memory MB    the same when the resident memory exceeds MB megabytes\n"
    "                     (checked between steps of the analysis, not the front end)\n"
    "  --json             findings as JSON\n"
    "  --sarif            findings as SARIF 2.1.0 (code flows for the call chains)\n"
    "  --dot              the lock graph for Graphviz (edges of findings in red)\n"
    "  -q, --quiet        no progress or statistics on stderr\n"
    "  -h, --help         this text\n"
    "\n"
    "heuristics (each on by default):\n"
    "  --no-double-lock   a double lock/unlock does not reset the lockset (it is\n"
    "                     otherwise taken as a sign of an infeasible path)\n"
    "  --no-gate-locks    report cycles even when one lock guards all their edges\n"
    "  --no-recursive     treat recursive/error-checking mutexes as ordinary ones\n"
    "  --no-trylock       treat trylock as a blocking lock\n"
    "  --no-rwlock        treat read locks of rwlocks as exclusive\n"
    "  --no-value-order   ignore branch conditions that order the locks' owners\n"
    "                     (if (a->id < b->id) ...), and constant arguments\n"
    "  --no-array-may     keep dependencies from an array-wide lock held on some\n"
    "                     paths only (otherwise taken as an infeasible path)\n"
    "  --no-class-may     keep a lock class (any).f waiting for itself from a lock\n"
    "                     of it held on some paths only (otherwise infeasible)\n"
    "  --no-link-order    report cycles whose every dependency goes from a node's\n"
    "                     lock to that of a node it links to through one field\n"
    "                     (n->lock, then n->parent->lock; otherwise taken as\n"
    "                     ordered along the links, assumed acyclic, and said so)\n"
    "\n"
    "exit codes: 0 no finding; 1 findings; 2 bad command line; 3 no finding but a\n"
    "budget (--timeout, --max-memory, the round or cycle-search limit) ran out;\n"
    "4 out of memory; 5 bad input (missing file, a C error; findings in the rest\n"
    "still give 1)\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ravel deadlock: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (try 'ravel deadlock --help')\n", stderr);
    return CLI_EXIT_USAGE;
}

/* The progress line of the analysis (stderr, a terminal only, not with
 * --quiet): the files lowered, the summaries done, the findings so far;
 * redrawn at most ten times a second. */
typedef struct progress_ctx {
    size_t files;
    double last;
} progress_ctx;

static void progress(void *ctx, const char *phase, size_t done, size_t total, size_t findings)
{
    progress_ctx *p = ctx;
    double now = base_now();
    if (now - p->last < 0.1 && done != total)
        return;
    p->last = now;
    if (strcmp(phase, "cycles") == 0)
        fprintf(stderr, "\r\033[K[%zu units] cycle search: %zu finding%s", p->files, findings,
                findings == 1 ? "" : "s");
    else
        fprintf(stderr, "\r\033[K[%zu units] %s %zu/%zu, %zu findings", p->files, phase, done, total,
                findings);
    fflush(stderr);
}

/* The watchdog of --timeout: when the analysis could not stop in time
 * (the front end does not look at the clock), end the run. */
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "ravel deadlock: the time limit (--timeout) ran out before the "
                              "analysis could stop: no result\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(CLI_EXIT_UNKNOWN);
}

/* A positive number of at most max (seconds or megabytes). */
static bool parse_budget(const char *val, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (errno || *end || end == val || !(v > 0) || v > max)
        return false;
    *out = v;
    return true;
}

int cli_deadlock(int argc, char **argv)
{
    /* every run ends by itself: a default time budget */
    double t_start = base_now(), timeout_s = 600, max_mb = 0;
    cli_front fr = { 0 };
    bool json = false, sarif = false, dot = false;
    deadlock_opts o;
    deadlock_opts_default(&o);
    int status = CLI_EXIT_OK;
    /* dlcap: capture, --from and the unit cache */
    const char *capture_dir = NULL, *capture_cc_dir = NULL, *from_dir = NULL;
    bool no_unit_cache = false;
    char *unit_dir = NULL;

    for (int i = 1; i < argc; i++) {
        int r = cli_front_arg(&fr, argc, argv, &i, "deadlock");
        if (r < 0) {
            status = CLI_EXIT_USAGE;
            goto done;
        }
        if (r > 0)
            continue;
        const char *a = argv[i];
        bool needs = strcmp(a, "--entry") == 0 || strcmp(a, "--max-cycle") == 0 ||
                     strcmp(a, "--cache") == 0 || strcmp(a, "--capture") == 0 ||
                     strcmp(a, "--capture-cc") == 0 || strcmp(a, "--from") == 0 ||
                     strcmp(a, "--timeout") == 0 || strcmp(a, "--max-memory") == 0;
        const char *val = NULL;
        if (needs) {
            if (i + 1 >= argc) {
                status = usage_error("option '%s' needs an argument", a);
                goto done;
            }
            val = argv[++i];
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(deadlock_usage, stdout);
            goto done;
        } else if (strcmp(a, "--entry") == 0) {
            if (strcmp(val, "main") == 0) {
                o.entry = DEADLOCK_ENTRY_MAIN;
            } else if (strcmp(val, "all") == 0) {
                o.entry = DEADLOCK_ENTRY_ALL;
            } else {
                status = usage_error("--entry takes main or all, not '%s'", val);
                goto done;
            }
        } else if (strcmp(a, "--max-cycle") == 0) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(val, &end, 10);
            if (errno || *end || end == val || v < 2 || v > 1000000) {
                status = usage_error("--max-cycle needs a whole number of at least 2, not '%s'", val);
                goto done;
            }
            o.max_cycle_len = (unsigned)v;
        } else if (strcmp(a, "--timeout") == 0) {
            if (!parse_budget(val, 1e6, &timeout_s)) {
                status = usage_error("--timeout needs a positive number of seconds, not '%s'", val);
                goto done;
            }
        } else if (strcmp(a, "--max-memory") == 0) {
            if (!parse_budget(val, 1e9, &max_mb)) {
                status = usage_error("--max-memory needs a positive number of megabytes, not '%s'",
                                     val);
                goto done;
            }
        } else if (strcmp(a, "--cache") == 0) {
            if (!*val) {
                status = usage_error("%s", "--cache needs a directory");
                goto done;
            }
            o.cache_dir = val;
        } else if (strcmp(a, "--capture") == 0 || strcmp(a, "--capture-cc") == 0 ||
                   strcmp(a, "--from") == 0) { /* dlcap */
            if (!*val) {
                status = usage_error("%s needs a directory", a);
                goto done;
            }
            *(strcmp(a, "--from") == 0 ? &from_dir : strcmp(a, "--capture") == 0 ? &capture_dir
                                                                                 : &capture_cc_dir) = val;
        } else if (strcmp(a, "--no-cache") == 0) {
            no_unit_cache = true;
        } else if (strcmp(a, "--lock-order") == 0) {
            o.lock_order = true;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--sarif") == 0) {
            sarif = true;
        } else if (strcmp(a, "--dot") == 0) {
            dot = true;
        } else if (strcmp(a, "--no-double-lock") == 0) {
            o.no_double_lock_reset = true;
        } else if (strcmp(a, "--no-array-may") == 0) {
            o.no_array_may = true;
        } else if (strcmp(a, "--no-class-may") == 0) {
            o.no_class_may = true;
        } else if (strcmp(a, "--no-link-order") == 0) {
            o.no_link_order = true;
        } else if (strcmp(a, "--no-gate-locks") == 0) {
            o.no_gate_locks = true;
        } else if (strcmp(a, "--no-recursive") == 0) {
            o.no_recursive = true;
        } else if (strcmp(a, "--no-trylock") == 0) {
            o.no_trylock = true;
        } else if (strcmp(a, "--no-rwlock") == 0) {
            o.no_rwlock = true;
        } else if (strcmp(a, "--no-value-order") == 0) {
            o.no_value_order = true;
        } else {
            status = usage_error("unknown option '%s'", a);
            goto done;
        }
    }
    if (json + sarif + dot > 1) {
        status = usage_error("%s", "choose one of --json, --sarif and --dot");
        goto done;
    }
    /* dlcap: the capture modes run a command and analyse nothing */
    fr.opts.tool_version = RAVEL_VERSION;
    if (!!capture_dir + !!capture_cc_dir + !!from_dir > 1) {
        status = usage_error("%s", "choose one of --capture, --capture-cc and --from");
        goto done;
    }
    if (capture_cc_dir) {
        status = cli_dl_capture_cc(capture_cc_dir, fr.opts.clang_args, fr.opts.nclang_args, &fr.opts);
        goto done;
    }
    if (capture_dir) {
        status = cli_dl_capture_build(capture_dir, fr.opts.clang_args, fr.opts.nclang_args, &fr.opts,
                                      fr.quiet);
        goto done;
    }
    if (from_dir && (fr.files.len || fr.opts.compdb_dir)) {
        status = usage_error("%s", "--from takes no files and no -p");
        goto done;
    }
    if (o.cache_dir) {
        unit_dir = base_xmalloc(strlen(o.cache_dir) + 8);
        sprintf(unit_dir, "%s/units", o.cache_dir);
    } else if (fr.opts.compdb_dir && !no_unit_cache) {
        unit_dir = base_xmalloc(strlen(fr.opts.compdb_dir) + 16);
        sprintf(unit_dir, "%s/.ravel-cache", fr.opts.compdb_dir);
    }
    if (!no_unit_cache)
        fr.opts.unit_cache_dir = unit_dir;
    status = from_dir ? CLI_EXIT_OK : cli_front_ready(&fr, "deadlock");
    if (status)
        goto done;
    if (timeout_s > 0) {
        o.deadline = t_start + timeout_s;
        o.grace_s = timeout_s / 10 < 1 ? 1 : timeout_s / 10;
        double hard = timeout_s + o.grace_s + 5;
        signal(SIGALRM, on_alarm);
        alarm(hard > 4e9 ? 4000000000u : (unsigned)hard + 1);
    }
    if (max_mb > 0)
        o.max_bytes = (size_t)(max_mb * 1024 * 1024);

    {
        double t0 = base_now();
        cli_program cp;
        size_t errors = from_dir ? cli_program_link_dir(&cp, &fr, from_dir)
                                 : cli_program_load(&cp, &fr);
        double t1 = base_now();
        progress_ctx pc = { fr.stats.units, 0 };
        bool bar = !fr.quiet && isatty(STDERR_FILENO);
        if (bar) {
            o.progress = progress;
            o.progress_ctx = &pc;
        }
        deadlock_result res;
        if (fr.opts.main_unit && !ir_find_func(&cp.prog, "main")) {
            status = CLI_EXIT_INPUT; /* --main named no unit (reported): nothing to analyse */
            cli_program_free(&cp);
            goto done;
        }
        deadlock_analyse(&cp.prog, &o, &res);
        if (timeout_s > 0)
            alarm(0); /* the analysis stopped by itself */
        res.units = fr.stats.units;
        res.units_left_out = fr.stats.units_left_out;
        res.units_partial = fr.stats.units_partial;
        res.units_parsed = fr.stats.units_parsed;
        res.units_cached = fr.stats.units_cached;
        double t2 = base_now();
        if (bar)
            fputs("\r\033[K", stderr);
        base_strbuf out = { 0 };
        if (json)
            report_deadlock_json(&out, &res);
        else if (sarif)
            report_deadlock_sarif(&out, &res, RAVEL_VERSION);
        else if (dot)
            report_deadlock_dot(&out, &res);
        else
            report_deadlock_text(&out, &res);
        fputs(base_strbuf_cstr(&out), stdout);
        fflush(stdout);
        if (o.cache_dir && res.cache_write_errors)
            fprintf(stderr, "ravel deadlock: warning: cannot write summaries to the cache %s\n",
                    o.cache_dir);
        if (fr.opts.unit_cache_dir && fr.stats.cache_write_errors) /* dlcap */
            fprintf(stderr,
                    "ravel deadlock: warning: cannot write %zu translation unit%s to the unit "
                    "cache %s (--no-cache: none)\n",
                    fr.stats.cache_write_errors, fr.stats.cache_write_errors == 1 ? "" : "s",
                    fr.opts.unit_cache_dir);
        if (!fr.quiet && getenv("RAVEL_TIMES")) {
            fprintf(stderr, "ravel deadlock: front end %.3f s, analysis %.3f s\n", t1 - t0, t2 - t1);
            fprintf(stderr, "ravel deadlock: front end: parse %.3f s, lower %.3f s, link %.3f s\n",
                    fr.stats.parse_seconds, fr.stats.lower_seconds, fr.stats.link_seconds);
            fprintf(stderr, "ravel deadlock: units: %zu parsed, %zu from the cache\n",
                    fr.stats.units_parsed, fr.stats.units_cached);
            fprintf(stderr, "ravel deadlock: shared PCHs: %zu built, %zu units parsed with one, "
                    "%zu parsed again without\n",
                    fr.stats.pch_built, fr.stats.units_pch, fr.stats.pch_fallbacks);
            if (o.cache_dir)
                fprintf(stderr,
                        "ravel deadlock: cache: %zu functions reused, %zu analysed, %zu bad files\n",
                        res.cache_hits, res.cache_misses, res.cache_bad);
        }
        status = res.nfindings ? CLI_EXIT_FOUND
                 : errors      ? CLI_EXIT_INPUT
                 : res.stopped ? CLI_EXIT_UNKNOWN
                               : CLI_EXIT_OK;
        base_strbuf_free(&out);
        deadlock_result_free(&res);
        cli_program_free(&cp);
    }
done:
    free(unit_dir);
    cli_front_free(&fr);
    return status;
}
