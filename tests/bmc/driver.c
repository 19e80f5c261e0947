/* bmc_driver: a test-only front door to the bounded checker (the user's
 * door is `ravel check`, wired by the cli): lowers C files with cfront and
 * checks one entry function of the (sequential) program.
 *
 *   bmc_driver [--unwind N] [--timeout S] [--m32] [--entry NAME]
 *              [--no-unwinding-assertions] FILE... [-- CLANG-FLAGS...]
 *
 * Prints trace_format_result and the statistics; exits 1 for bug, 0 for
 * safe within bounds, 3 for unknown, 5 when the files do not lower. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "cfront/cfront.h"

int main(int argc, char **argv)
{
    bmc_opts o;
    bmc_opts_init(&o);
    const char *entry = "main";
    bool m32 = false;
    const char **files = calloc((size_t)argc, sizeof *files);
    size_t nfiles = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--unwind") == 0 && i + 1 < argc)
            o.unwind = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            o.timeout_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc)
            entry = argv[++i];
        else if (strcmp(argv[i], "--m32") == 0)
            m32 = true;
        else if (strcmp(argv[i], "--no-unwinding-assertions") == 0)
            o.unwinding_assertions = false;
        else
            files[nfiles++] = argv[i];
    }
    if (nfiles == 0) {
        fprintf(stderr, "usage: bmc_driver [--unwind N] [--timeout S] [--m32] [--entry NAME] "
                        "[--no-unwinding-assertions] FILE... [-- CLANG-FLAGS...]\n");
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
    int rc;
    if (cfront_lower(&p, files, nfiles, &co, &d)) {
        base_diag_print(&d, stderr);
        rc = 5;
    } else {
        const ir_func *f = ir_find_func(&p, entry);
        trace_result r;
        bmc_check(&p, f, &o, &r);
        base_strbuf out = { 0 };
        trace_format_result(&out, &p, &r);
        fputs(base_strbuf_cstr(&out), stdout);
        printf("stats: %zu terms, %zu smt assertions, %zu array selects, %zu assertions, "
               "%zu steps, %zu cuts, %zu solver calls, encode %.3f s, solve %.3f s\n",
               r.stats.terms, r.stats.smt_asserts, r.stats.array_selects, r.stats.assertions,
               r.stats.steps,
               r.stats.cuts, r.stats.solver_calls, r.stats.encode_s, r.stats.solve_s);
        base_strbuf_free(&out);
        rc = r.verdict == TRACE_BUG ? 1 : r.verdict == TRACE_UNKNOWN ? 3 : 0;
        trace_result_free(&r);
    }
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    free(files);
    return rc;
}
