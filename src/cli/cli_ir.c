/* cli_ir: `ravel ir FILE... [-p DIR] [--json] [--m32] [-- CLANG-FLAGS]`.
 * Lowers C files with cfront and prints the intermediate program: as text
 * close to the KISS language (each source line as a comment above its
 * statements), or as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "ir/ir_json.h"
#include "ir/ir_print.h"

static const char ir_usage[] =
    "usage: ravel ir FILE... [options] [-- CLANG-FLAGS...]\n"
    "       ravel ir -p BUILD-DIR [FILE...] [options]\n"
    "\n"
    "Parses C files with clang (libclang-19), lowers them to ravel's\n"
    "intermediate program and prints it: globals, then each function as a\n"
    "numbered list of simple statements (assign, call, goto, assume, assert,\n"
    "async, join, lock, unlock, atomic_begin/end, ...), each source line as a\n"
    "comment above the statements it became. Several files are linked into\n"
    "one program. `.i` files are read as preprocessed C.\n"
    "\n"
    "options:\n"
    "  -p DIR         read DIR/compile_commands.json (as clang-tidy does); with\n"
    "                 no FILE, every translation unit in it (entries that are\n"
    "                 not C are skipped, each with a note)\n"
    "  --main FILE    when several units define main, FILE's is the program's\n"
    "                 (default: the first, and a note lists them)\n"
    "  --m32          analyse for a 32-bit target (ILP32), as SV-COMP tasks say\n"
    "  -j N           parse N translation units at once (default: the number of\n"
    "                 cores); the result does not depend on it\n"
    "  --no-pch       no precompiled header shared by the units that begin\n"
    "                 with the same #include (the result does not depend on it)\n"
    "  --json         print the program as JSON\n"
    "  --no-source    end each statement with `// line N` instead of showing\n"
    "                 the source lines\n"
    "  -q, --quiet    no progress on stderr\n"
    "  -h, --help     this text\n"
    "  -- FLAGS       everything after `--` goes to clang (-D, -I, -std, ...)\n"
    "\n"
    "exit codes: 0 lowered; 2 bad command line; 4 out of memory; 5 a file is\n"
    "missing, clang reports an error, or a construct cannot be lowered (each\n"
    "is reported as file:line:col: error: ...)\n";

int cli_ir(int argc, char **argv)
{
    cli_front fr = { 0 };
    bool json = false, no_source = false;
    for (int i = 1; i < argc; i++) {
        int r = cli_front_arg(&fr, argc, argv, &i, "ir");
        if (r < 0) {
            cli_front_free(&fr);
            return CLI_EXIT_USAGE;
        }
        if (r > 0)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(ir_usage, stdout);
            cli_front_free(&fr);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--no-source") == 0) {
            no_source = true;
        } else {
            fprintf(stderr, "ravel ir: error: unknown option '%s' (try 'ravel ir --help')\n", a);
            cli_front_free(&fr);
            return CLI_EXIT_USAGE;
        }
    }
    int ready = cli_front_ready(&fr, "ir");
    if (ready) {
        cli_front_free(&fr);
        return ready;
    }
    cli_program cp;
    size_t errors = cli_program_load(&cp, &fr);
    ir_program *prog = &cp.prog;
    int rc = errors ? CLI_EXIT_INPUT : CLI_EXIT_OK;
    if (!errors) {
        base_strbuf out = { 0 };
        if (json) {
            ir_json_program(&out, prog);
        } else {
            cli_source_lines lc = { 0 };
            ir_print_opts po = { .source_line = no_source ? NULL : cli_source_line, .ctx = &lc,
                                 .skip_empty_init = true };
            ir_print_program_opts(&out, prog, &po);
            cli_source_lines_free(&lc);
        }
        fwrite(out.data, 1, out.len, stdout);
        base_strbuf_free(&out);
    }
    cli_program_free(&cp);
    cli_front_free(&fr);
    return rc;
}
