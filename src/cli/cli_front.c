#include "cli/cli_front.h"

#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/strbuf.h"

int cli_front_arg(cli_front *f, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i];
    if (strcmp(a, "--") == 0) {
        f->opts.clang_args = (const char *const *)argv + *i + 1;
        f->opts.nclang_args = (size_t)(argc - *i - 1);
        *i = argc;
        return 1;
    }
    if (a[0] != '-') {
        size_t n = strlen(a);
        if ((n > 4 && strcmp(a + n - 4, ".yml") == 0) || (n > 5 && strcmp(a + n - 5, ".yaml") == 0)) {
            base_diag d;
            base_diag_init(&d);
            svtask t;
            if (svtask_load(&t, a, &d)) {
                base_vec_push(&f->tasks, t);
                base_vec_push(&f->task_paths, a);
                for (size_t k = 0; k < t.ninputs; k++)
                    base_vec_push(&f->files, t.inputs[k]);
                if (t.ilp32)
                    f->opts.m32 = true;
            } else {
                svtask_free(&t);
                f->bad_task = true;
            }
            base_diag_print(&d, stderr);
            base_diag_free(&d);
            return 1;
        }
        base_vec_push(&f->files, a);
        return 1;
    }
    if (strcmp(a, "--m32") == 0) {
        f->opts.m32 = true;
        return 1;
    }
    if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
        f->quiet = true;
        return 1;
    }
    if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0) {
        const char *v = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
        char *end = NULL;
        long n = v ? strtol(v, &end, 10) : 0;
        if (!v || *end || n < 1 || n > 256) {
            fprintf(stderr, "ravel %s: error: -j needs a number of jobs from 1 to 256\n", cmd);
            return -1;
        }
        f->opts.jobs = (unsigned)n;
        return 1;
    }
    if (strcmp(a, "--no-pch") == 0) {
        f->opts.no_pch = true;
        return 1;
    }
    if (strcmp(a, "--main") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "ravel %s: error: option '--main' needs a file\n", cmd);
            return -1;
        }
        f->opts.main_unit = argv[++*i];
        return 1;
    }
    if (strcmp(a, "-p") == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "ravel %s: error: option '-p' needs a directory\n", cmd);
            return -1;
        }
        f->opts.compdb_dir = argv[++*i];
        return 1;
    }
    return 0;
}

bool cli_number(const char *cmd, const char *opt, const char *v, double lo, double hi, bool whole,
                double *out)
{
    char *end = NULL;
    errno = 0;
    double n = v ? strtod(v, &end) : 0;
    if (!v || !*v || errno || *end || n < lo || n > hi || (whole && n != (double)(long long)n)) {
        fprintf(stderr, "ravel %s: error: %s needs a %snumber from %g to %g\n", cmd, opt,
                whole ? "whole " : "", lo, hi);
        return false;
    }
    *out = n;
    return true;
}

int cli_front_ready(cli_front *f, const char *cmd)
{
    if (f->bad_task)
        return CLI_EXIT_INPUT; /* reported when the task was read */
    if (f->files.len || f->opts.compdb_dir)
        return CLI_EXIT_OK;
    fprintf(stderr, "ravel %s: error: no input files (try 'ravel %s --help')\n", cmd, cmd);
    return CLI_EXIT_USAGE;
}

/* The front end's progress line: the unit awaited (the front end calls
 * again every quarter second while it is slow), with how long it has been
 * awaited; redrawn at most ten times a second. */
typedef struct front_progress {
    const char *file;
    double since, drawn;
} front_progress;

static void progress(void *ctx, size_t done, size_t total, const char *file)
{
    front_progress *fp = ctx;
    double now = base_now();
    if (fp->file != file) {
        fp->file = file;
        fp->since = now;
    } else if (now - fp->drawn < 0.1) {
        return;
    }
    fp->drawn = now;
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (now - fp->since >= 1)
        fprintf(stderr, "\r\033[K[%zu/%zu units] %s (parsing, %.0f s)", done + 1, total, base,
                now - fp->since);
    else
        fprintf(stderr, "\r\033[K[%zu/%zu units] %s", done + 1, total, base);
    fflush(stderr);
}

size_t cli_front_lower(cli_front *f, ir_program *p, base_diag *d)
{
    if (!f->opts.jobs) { /* default: one parse per core */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        f->opts.jobs = n > 0 && n < 256 ? (unsigned)n : 1;
    }
    bool show = !f->quiet && isatty(STDERR_FILENO) && (f->files.len > 1 || f->opts.compdb_dir);
    front_progress fp = { 0 };
    f->opts.progress = show ? progress : NULL;
    f->opts.progress_ctx = &fp;
    f->opts.stats = &f->stats;
    size_t errors = cfront_lower(p, f->files.data, f->files.len, &f->opts, d);
    f->opts.progress = NULL;
    f->opts.progress_ctx = NULL;
    if (show)
        fputs("\r\033[K", stderr);
    if (!f->diagnosed)
        base_diag_print(d, stderr);
    f->diagnosed = true;
    return errors;
}

size_t cli_program_load(cli_program *cp, cli_front *f)
{
    base_intern_init(&cp->syms);
    ir_program_init(&cp->prog, &cp->syms);
    base_diag_init(&cp->diag);
    return cli_front_lower(f, &cp->prog, &cp->diag);
}

size_t cli_program_link_dir(cli_program *cp, cli_front *f, const char *dir)
{
    base_intern_init(&cp->syms);
    ir_program_init(&cp->prog, &cp->syms);
    base_diag_init(&cp->diag);
    f->opts.stats = &f->stats;
    size_t errors = cfront_link_dir(&cp->prog, dir, &f->opts, &cp->diag);
    if (!f->diagnosed)
        base_diag_print(&cp->diag, stderr);
    f->diagnosed = true;
    return errors;
}

void cli_program_free(cli_program *cp)
{
    base_diag_free(&cp->diag);
    ir_program_free(&cp->prog);
    base_intern_free(&cp->syms);
}

void cli_front_free(cli_front *f)
{
    base_vec_free(&f->files);
    for (size_t i = 0; i < f->tasks.len; i++)
        svtask_free(&f->tasks.data[i]);
    base_vec_free(&f->tasks);
    base_vec_free(&f->task_paths);
}

const char *cli_source_line(void *ctx, const char *file, uint32_t line)
{
    cli_source_lines *lc = ctx;
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


void cli_source_lines_free(cli_source_lines *lc)
{
    free(lc->text);
    base_vec_free(&lc->lines);
}
