/* explore_driver: a test-only front door to the explorer (the user's door
 * will be `ravel check`, wired by the cli): lowers C files with cfront,
 * translates them with KISS (unless --seq) and explores the result.
 *
 *   explore_driver [--seq] [--entry NAME] [--seed N] [--runs N] [--timeout S]
 *                  [--max-steps N] [--pending K] [--max-threads N] [--m32]
 *                  [--bmc UNWIND] FILE... [-- CLANG-FLAGS...]
 *
 * Prints trace_format_result and the run statistics (runs, runs/second);
 * exits 1 for bug, 3 for unknown, 5 when the files do not lower. --bmc
 * also runs bmc_check on the same program (after the explorer) and prints
 * its verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "cfront/cfront.h"
#include "explore/explore.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"

int main(int argc, char **argv)
{
    explore_opts o;
    explore_opts_init(&o);
    kiss_opts ko = { .pending = 2, .max_threads = 16 };
    const char *entry = NULL;
    bool m32 = false, seq = false;
    unsigned bmc_unwind = 0;
    const char **files = calloc((size_t)argc, sizeof *files);
    size_t nfiles = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            o.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            o.max_runs = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            o.timeout_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--max-steps") == 0 && i + 1 < argc)
            o.max_steps = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--pending") == 0 && i + 1 < argc)
            ko.pending = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-threads") == 0 && i + 1 < argc)
            ko.max_threads = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc)
            entry = argv[++i];
        else if (strcmp(argv[i], "--bmc") == 0 && i + 1 < argc)
            bmc_unwind = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--m32") == 0)
            m32 = true;
        else if (strcmp(argv[i], "--seq") == 0)
            seq = true;
        else
            files[nfiles++] = argv[i];
    }
    if (nfiles == 0) {
        fprintf(stderr, "usage: explore_driver [--seq] [--entry NAME] [--seed N] [--runs N] "
                        "[--timeout S] [--max-steps N] [--pending K] [--max-threads N] [--m32] "
                        "[--bmc UNWIND] FILE... [-- CLANG-FLAGS...]\n");
        free(files);
        return 2;
    }
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    cfront_opts co = { .clang_args = (const char *const *)argv + i,
                       .nclang_args = (size_t)(argc - i), .m32 = m32 };
    int rc = 3;
    if (cfront_lower(&p, files, nfiles, &co, &d)) {
        base_diag_print(&d, stderr);
        rc = 5;
        goto out;
    }
    const ir_func *f;
    if (seq) {
        f = ir_find_func(&p, entry ? entry : "main");
    } else {
        f = kiss_translate(&p, &ko, NULL, &d);
        base_diag_print(&d, stderr);
        if (!f || ir_check(&p, &d)) {
            base_diag_print(&d, stderr);
            rc = 5;
            goto out;
        }
        if (entry)
            f = ir_find_func(&p, entry);
    }
    trace_result r;
    explore_stats st;
    explore_check_stats(&p, f, &o, &r, &st);
    base_strbuf out = { 0 };
    trace_format_result(&out, &p, &r);
    fputs(base_strbuf_cstr(&out), stdout);
    base_strbuf_free(&out);
    printf("explore: %llu runs (%llu to the end, %llu assume, %llu undefined, %llu limit), "
           "%llu steps, %.3f s, %.0f runs/s, %.1f M steps/s%s\n",
           (unsigned long long)st.runs, (unsigned long long)st.done,
           (unsigned long long)st.assumes, (unsigned long long)st.undefined,
           (unsigned long long)st.limits, (unsigned long long)st.steps, st.seconds,
           st.seconds > 0 ? (double)st.runs / st.seconds : 0.0,
           st.seconds > 0 ? (double)st.steps / st.seconds / 1e6 : 0.0,
           r.verdict == TRACE_BUG ? "" : "");
    if (r.verdict == TRACE_BUG)
        printf("explore: bug found by run %llu\n", (unsigned long long)st.bug_run);
    rc = r.verdict == TRACE_BUG ? 1 : 3;
    trace_result_free(&r);
    if (bmc_unwind) {
        bmc_opts bo;
        bmc_opts_init(&bo);
        bo.unwind = bmc_unwind;
        bo.timeout_s = o.timeout_s > 0 ? o.timeout_s : 60;
        bmc_check(&p, f, &bo, &r);
        printf("bmc: %s (%.3f s)\n", trace_verdict_name(r.verdict),
               r.stats.encode_s + r.stats.solve_s);
        trace_result_free(&r);
    }
out:
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    free(files);
    return rc;
}
