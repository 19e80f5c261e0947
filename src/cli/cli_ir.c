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
#include "cfront/cfront.h"
#include "cli/cli.h"
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
    "                 no FILE, every translation unit in it\n"
    "  --m32          analyse for a 32-bit target (ILP32), as SV-COMP tasks say\n"
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

/* Source lines for the printer: whole files read once. */
typedef struct line_cache {
    const char *file;
    char *text;
    BASE_VEC(char *) lines;
    char buf[512];
} line_cache;

static const char *source_line(void *ctx, const char *file, uint32_t line)
{
    line_cache *lc = ctx;
    if (!file)
        return NULL;
    if (!lc->file || strcmp(lc->file, file) != 0) {
        free(lc->text);
        base_vec_free(&lc->lines);
        lc->file = file;
        size_t len;
        lc->text = base_read_file(file, &len);
        if (lc->text) {
            char *p = lc->text;
            base_vec_push(&lc->lines, p);
            for (; *p; p++)
                if (*p == '\n')
                    base_vec_push(&lc->lines, p + 1);
        }
    }
    if (!lc->text || line == 0 || line > lc->lines.len)
        return NULL;
    const char *s = lc->lines.data[line - 1];
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = 0;
    while (s[n] && s[n] != '\n' && n + 1 < sizeof lc->buf)
        n++;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    memcpy(lc->buf, s, n);
    lc->buf[n] = 0;
    return lc->buf;
}

static void progress(void *ctx, size_t done, size_t total, const char *file)
{
    (void)ctx;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", done + 1, total, file);
    fflush(stderr);
}

int cli_ir(int argc, char **argv)
{
    BASE_VEC(const char *) files = { 0 };
    const char **clang_args = NULL;
    size_t nclang = 0;
    bool json = false, quiet = false, no_source = false;
    cfront_opts opts = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            clang_args = (const char **)argv + i + 1;
            nclang = (size_t)(argc - i - 1);
            break;
        }
        if (a[0] != '-') {
            base_vec_push(&files, a);
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(ir_usage, stdout);
            base_vec_free(&files);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--m32") == 0) {
            opts.m32 = true;
        } else if (strcmp(a, "--no-source") == 0) {
            no_source = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "-p") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ravel ir: error: option '-p' needs a directory\n");
                base_vec_free(&files);
                return CLI_EXIT_USAGE;
            }
            opts.compdb_dir = argv[++i];
        } else {
            fprintf(stderr, "ravel ir: error: unknown option '%s' (try 'ravel ir --help')\n", a);
            base_vec_free(&files);
            return CLI_EXIT_USAGE;
        }
    }
    if (!files.len && !opts.compdb_dir) {
        fprintf(stderr, "ravel ir: error: no input files (try 'ravel ir --help')\n");
        return CLI_EXIT_USAGE;
    }
    opts.clang_args = clang_args;
    opts.nclang_args = nclang;
    bool show_progress = !quiet && isatty(STDERR_FILENO) && (files.len > 1 || opts.compdb_dir);
    if (show_progress)
        opts.progress = progress;

    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program prog;
    ir_program_init(&prog, &syms);
    base_diag diag;
    base_diag_init(&diag);
    size_t errors = cfront_lower(&prog, files.data, files.len, &opts, &diag);
    if (show_progress)
        fputs("\r\033[K", stderr);
    base_diag_print(&diag, stderr);
    int rc = errors ? CLI_EXIT_INPUT : CLI_EXIT_OK;
    if (!errors) {
        base_strbuf out = { 0 };
        if (json) {
            ir_json_program(&out, &prog);
        } else {
            line_cache lc = { 0 };
            ir_print_opts po = { .source_line = no_source ? NULL : source_line, .ctx = &lc,
                                 .skip_empty_init = true };
            ir_print_program_opts(&out, &prog, &po);
            free(lc.text);
            base_vec_free(&lc.lines);
        }
        fwrite(out.data, 1, out.len, stdout);
        base_strbuf_free(&out);
    }
    base_diag_free(&diag);
    ir_program_free(&prog);
    base_intern_free(&syms);
    base_vec_free(&files);
    return rc;
}
