/* cli_litmus: `ravel litmus FILE|DIR... [-m MODEL] [--verdict-only] [--json]
 * [--dot DIR]`. Parses options, loads each test, calls litmus_simulate and
 * hands the result to report/litmus_out. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/forkpool.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "cat/model.h"
#include "cli/cli.h"
#include "litmus/c_macros.h"
#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"
#include "logic/mm.h"
#include "report/litmus_out.h"
#include "sat/qbf.h"
#include "sat/qbf_io.h"

extern char **environ;

static const char litmus_usage[] =
    "usage: ravel litmus FILE|DIR... [options]\n"
    "\n"
    "Decides whether each litmus test's (LISA, X86 or C) final condition is\n"
    "allowed by a memory\n"
    "model (PrideMM's method: event structure, second-order formula, SAT), and\n"
    "prints herd7's output format: Test, States, Ok/No, Witnesses, Condition,\n"
    "Observation, Time. A DIR is searched for *.litmus and *.lisa files.\n"
    "\n"
    "options:\n"
    "  -m, --model NAME   memory model (default sc); see --list-models. A NAME\n"
    "                     that ends in .cat or contains '/' is a cat file\n"
    "  -model FILE        a cat model (herd7's language; herd7's flag)\n"
    "  -bell FILE         a bell file, read before the model\n"
    "  -I DIR             look for included cat files (and stdlib.cat) in DIR;\n"
    "                     may be repeated\n"
    "  -macros FILE       herd7's macro file (.def) for C tests, e.g. linux-kernel.def\n"
    "  -conf FILE         herd7's configuration file (its model, bell, macros and\n"
    "                     include lines; drawing options are ignored)\n"
    "  -variant NAME,...  herd7's variants read by the model only (ets, ets2, ets3, exs,\n"
    "                     eis, eos); any other is refused (exit 6)\n"
    "  --list-models      print the models and exit\n"
    "  --verdict-only     only decide Never/Sometimes/Always (two SAT calls, no\n"
    "                     enumeration of final states or witness counts)\n"
    "  --json             print a JSON array, one object per test\n"
    "  --dot DIR          write one execution per test to DIR/<test>.dot (a\n"
    "                     positive one when the condition is reachable); with\n"
    "                     --explain also DIR/<test>-why.dot\n"
    "  --explain          when the condition's outcome is forbidden (for forall:\n"
    "                     its failure), name the model's checks that forbid it and\n"
    "                     find a candidate execution with the outcome that violates\n"
    "                     exactly those (SAT models only)\n"
    "  --timeout S        give up on a test after S seconds (answer unknown)\n"
    "  -j, --jobs N       decide N tests at once, each in a worker process of its\n"
    "                     own; the output stays in input order (default 1)\n"
    "  --unroll N         follow each backward branch at most N times (default 2)\n"
    "  --fork-reads       unfold every read once per value it may return, also\n"
    "                     those whose register only the final condition reads\n"
    "                     (by default such a read is one event; same answers)\n"
    "  --max-memory MB    the memory budget of a test (default 2000; 0: none): a test\n"
    "                     whose SAT problem outgrows it answers unknown, naming the\n"
    "                     budget; counted as 10,000 clauses a megabyte\n"
    "  --max-clauses N    the same budget in clauses (overrides --max-memory)\n"
    "  --qbf              decide with the QBF solver even when the model needs only\n"
    "                     SAT (models with a universal second-order quantifier\n"
    "                     always use it)\n"
    "  --dump-qbf FILE    write the QBF of the test's consistent executions (model\n"
    "                     and filter, without the condition) to FILE: QCIR when FILE\n"
    "                     ends in .qcir, else QDIMACS; implies --qbf, one test only\n"
    "  --qbf-solver CMD   decide each QBF with an external solver: runs the shell\n"
    "                     command CMD FILE on a QDIMACS file and reads its exit\n"
    "                     status (10 true, 20 false, else unknown); implies --qbf\n"
    "                     and --verdict-only\n"
    "  -q, --quiet        no progress on stderr\n"
    "  -h, --help         this text\n"
    "\n"
    "exit codes: 0 every test decided; 2 bad command line; 3 some test unknown;\n"
    "4 out of memory; 5 a file is missing or malformed (the other tests still run);\n"
    "6 unknown model, or a cat model that cannot be read or uses what is not\n"
    "supported; 70 internal error (with -j: a worker process died)\n";

typedef BASE_VEC(char *) path_vec;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Adds path, or the litmus files below it when it is a directory. */
static void collect(const char *path, path_vec *out, int depth)
{
    struct stat sb;
    if (depth < 32 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        if (!d) {
            base_vec_push(out, base_xstrdup(path)); /* reported when loaded */
            return;
        }
        path_vec here = { 0 };
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            size_t n = strlen(path) + strlen(de->d_name) + 2;
            char *p = base_xmalloc(n);
            snprintf(p, n, "%s/%s", path, de->d_name);
            struct stat cs;
            if (stat(p, &cs) == 0 && S_ISDIR(cs.st_mode)) {
                base_vec_push(&here, p);
            } else if (has_suffix(de->d_name, ".litmus") || has_suffix(de->d_name, ".lisa")) {
                base_vec_push(&here, p);
            } else {
                free(p);
            }
        }
        closedir(d);
        qsort(here.data, here.len, sizeof *here.data, cmp_str);
        for (size_t i = 0; i < here.len; i++) {
            collect(here.data[i], out, depth + 1);
            free(here.data[i]);
        }
        base_vec_free(&here);
        return;
    }
    base_vec_push(out, base_xstrdup(path));
}

static void dot_name(base_strbuf *b, const char *dir, const char *name, const char *suffix)
{
    base_strbuf_printf(b, "%s/", dir);
    for (const char *p = name; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '+' || c == '-' || c == '_' || c == '.';
        base_strbuf_putc(b, ok ? c : '_');
    }
    base_strbuf_printf(b, "%s.dot", suffix);
}


/* --dump-qbf and --qbf-solver, behind litmus_options' QBF callbacks. */
typedef struct qbf_cli {
    const char *dump_path;
    const char *solver_cmd;
    int dump_errno; /* nonzero: writing the dump failed */
} qbf_cli;

static bool write_text(const char *path, const base_strbuf *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fwrite(base_strbuf_cstr(b), 1, b->len, f) == b->len;
    int e = errno;
    if (fclose(f) != 0)
        return false;
    errno = e;
    return ok;
}

static void qbf_dump(void *ctx, const sat_qbf *q)
{
    qbf_cli *c = ctx;
    base_strbuf b = { 0 };
    if (has_suffix(c->dump_path, ".qcir"))
        sat_qbf_write_qcir(q, &b);
    else
        sat_qbf_write_qdimacs(q, &b);
    if (!write_text(c->dump_path, &b))
        c->dump_errno = errno ? errno : EIO;
    base_strbuf_free(&b);
}

/* Runs `sh -c 'CMD "$1"' FILE` on the QDIMACS of q; its stdout is dropped
 * (solvers print their answer there), stderr goes through. */
static int qbf_external(void *ctx, const sat_qbf *q)
{
    qbf_cli *c = ctx;
    const char *tmp = getenv("TMPDIR");
    base_strbuf path = { 0 }, text = { 0 }, script = { 0 };
    base_strbuf_printf(&path, "%s/ravel-qbf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path.data);
    if (fd < 0) {
        fprintf(stderr, "ravel litmus: error: cannot create a temporary file: %s\n",
                strerror(errno));
        base_strbuf_free(&path);
        return SAT_UNKNOWN;
    }
    close(fd);
    sat_qbf_write_qdimacs(q, &text);
    int result = SAT_UNKNOWN;
    if (!write_text(path.data, &text)) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path.data, strerror(errno));
    } else {
        base_strbuf_printf(&script, "%s \"$1\"", c->solver_cmd);
        char *argv[] = { "sh", "-c", script.data, "ravel-qbf", path.data, NULL };
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        int rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        int st = 0;
        if (rc != 0) {
            fprintf(stderr, "ravel litmus: error: cannot run /bin/sh: %s\n", strerror(rc));
        } else {
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            if (WIFEXITED(st) && (WEXITSTATUS(st) == 10 || WEXITSTATUS(st) == 20))
                result = WEXITSTATUS(st) == 10 ? SAT_SAT : SAT_UNSAT;
        }
    }
    unlink(path.data);
    base_strbuf_free(&path);
    base_strbuf_free(&text);
    base_strbuf_free(&script);
    return result;
}

static bool parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0)
        return false;
    *out = v;
    return true;
}

/* herd7's -conf file: `key value` lines. model, bell, macros and
 * (ravel's addition) include are taken; herd's drawing options are
 * ignored; anything else is an error, so no option is silently dropped. */
typedef struct cat_cli {
    const char *model, *bell, *macros;
    path_vec include;
    path_vec owned; /* strings read from -conf */
    path_vec variants; /* -variant names (split at commas, owned) */
} cat_cli;

/* herd7's -variant a,b (or a conf file's `variant a,b`): each name must be
 * one ravel supports (cat/variant.h), else an error, exit 6. */
static bool add_variants(cat_cli *cc, const char *list, const char *where)
{
    char *copy = base_xstrdup(list);
    base_vec_push(&cc->owned, copy);
    for (char *save = NULL, *name = strtok_r(copy, ", \t", &save); name;
         name = strtok_r(NULL, ", \t", &save)) {
        const char *why = NULL;
        if (!cat_variant_supported(name, &why)) {
            fprintf(stderr, "%s: error: unsupported: -variant %s (%s)\n", where, name, why);
            return false;
        }
        base_vec_push(&cc->variants, name);
    }
    return true;
}

static bool conf_ignored(const char *key)
{
    static const char *const keys[] = {
        "graph", "squished", "showevents", "movelabel", "fontsize", "xscale", "yscale",
        "arrowsize", "showinitrf", "showfinalrf", "showinitwrites", "splines", "pad",
        "edgeattr", "doshow", "unshow", "showpo", "showthread", "showlegend", "showkind",
        "shownames", "penwidth", "scale", "dotmode", "dotcom", "symetric", "showobserved",
        "showtoken", "showraw", "showinit", "initpos", "extrachars", "oneinit", "condensed",
        "mode", "nshow", "showfr", "showcutoff", "showsc", "showprop", "through",
        "skipchecks", "strictskip", "show", "view", "speedcheck",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return false;
}

static bool read_conf(const char *path, cat_cli *cc)
{
    size_t len;
    char *text = base_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = true;
    uint32_t line = 0;
    for (char *p = text, *nl; ok && p && *p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        line++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == 0 || *p == '#' || (p[0] == '(' && p[1] == '*'))
            continue;
        char *key = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = 0;
        while (*p == ' ' || *p == '\t')
            p++;
        char *end = p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            *--end = 0;
        if (key[0] == '-')
            key++;
        if (conf_ignored(key))
            continue;
        if (*p && strcmp(key, "variant") == 0) {
            char where[300];
            snprintf(where, sizeof where, "%s:%u:1", path, line);
            ok = add_variants(cc, p, where);
            continue;
        }
        if (*p == 0 || (strcmp(key, "model") != 0 && strcmp(key, "bell") != 0 &&
                        strcmp(key, "macros") != 0 && strcmp(key, "include") != 0)) {
            fprintf(stderr, "%s:%u:1: error: unsupported configuration line '%s'\n", path, line,
                    key);
            ok = false;
            break;
        }
        char *val = base_xstrdup(p);
        base_vec_push(&cc->owned, val);
        if (strcmp(key, "model") == 0)
            cc->model = val;
        else if (strcmp(key, "bell") == 0)
            cc->bell = val;
        else if (strcmp(key, "macros") == 0)
            cc->macros = val;
        else
            base_vec_push(&cc->include, val);
    }
    free(text);
    return ok;
}

static void cat_cli_free(cat_cli *cc)
{
    for (size_t i = 0; i < cc->owned.len; i++)
        free(cc->owned.data[i]);
    base_vec_free(&cc->owned);
    base_vec_free(&cc->include);
    base_vec_free(&cc->variants);
}

static bool is_cat_path(const char *name)
{
    return strchr(name, '/') || has_suffix(name, ".cat");
}

/* One run over many tests: what every test shares, and the running
 * status. batch_work decides test i and formats its output (it may run in
 * a forked worker: base/forkpool.h); batch_emit prints it in test order. */
typedef struct litmus_batch {
    const char *const *files;
    size_t nfiles;
    bool json, progress;
    const char *dot_dir;
    qbf_cli *qc;
    litmus_options opt; /* deadline set per test from timeout */
    double timeout;
    base_intern_pool syms;
    const litmus_macros *macros; /* -macros, or NULL */
    size_t njson;       /* JSON objects printed */
    int status;
} litmus_batch;

/* The diagnostics of d as the lines base_diag_print writes. */
static void diag_text(const base_diag *d, base_strbuf *err)
{
    for (size_t i = 0; i < d->count; i++) {
        char msg[2048];
        base_diag_format(&d->msgs[i], msg, sizeof msg);
        base_strbuf_printf(err, "%s\n", msg);
    }
}

/* Writes a DOT file; a failure goes to err and makes the test's code 5. */
static int put_dot(const litmus_batch *B, const litmus_test *t, const char *suffix,
                   const base_strbuf *dot, base_strbuf *err)
{
    base_strbuf path = { 0 };
    dot_name(&path, B->dot_dir, t->name, suffix);
    int rc = CLI_EXIT_OK;
    FILE *f = fopen(base_strbuf_cstr(&path), "w");
    bool ok = f && fputs(base_strbuf_cstr(dot), f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok) {
        base_strbuf_printf(err, "%s: error: cannot write: %s\n", base_strbuf_cstr(&path),
                           strerror(errno));
        rc = CLI_EXIT_INPUT;
    }
    base_strbuf_free(&path);
    return rc;
}

/* Test i: the JSON object (without separator) or herd's text in out, its
 * diagnostics in err. Returns OK, UNKNOWN or INPUT (5: it could not be
 * read, or a file could not be written). */
static int batch_work(void *ctx, size_t i, base_strbuf *out, base_strbuf *err)
{
    litmus_batch *B = ctx;
    const char *file = B->files[i];
    base_diag diag;
    base_diag_init(&diag);
    double t0 = base_now();
    litmus_test *t = litmus_load_macros(file, &B->syms, B->macros, &diag);
    double t_parse = base_now() - t0;
    litmus_result res;
    bool ran = false;
    int rc = CLI_EXIT_OK;
    if (t) {
        litmus_options opt = B->opt;
        opt.deadline = B->timeout > 0 ? base_now() + B->timeout : 0;
        ran = litmus_simulate(t, &opt, &res, &diag);
        if (ran)
            res.time_parse = t_parse;
    }
    if (B->qc->dump_errno) {
        base_strbuf_printf(err, "%s: error: cannot write: %s\n", B->qc->dump_path,
                           strerror(B->qc->dump_errno));
        rc = CLI_EXIT_INPUT;
        B->qc->dump_errno = 0;
    }
    diag_text(&diag, err);
    if (!ran) {
        rc = CLI_EXIT_INPUT;
        if (B->json) {
            base_strbuf_puts(out, "{\"file\": ");
            base_strbuf_json_string(out, file);
            base_strbuf_puts(out, ", \"verdict\": \"error\", \"error\": ");
            char msg[1024] = "";
            if (diag.count)
                base_diag_format(&diag.msgs[0], msg, sizeof msg);
            base_strbuf_json_string(out, msg);
            base_strbuf_puts(out, "}");
        }
    } else {
        if (res.status == LITMUS_UNKNOWN && rc == CLI_EXIT_OK)
            rc = CLI_EXIT_UNKNOWN;
        if (B->json)
            report_litmus_json(out, t, &res, B->opt.model->name);
        else
            report_litmus_herd(out, t, &res);
        if (B->dot_dir && res.witness.present) {
            base_strbuf dot = { 0 };
            report_litmus_dot(&dot, t, &res);
            if (put_dot(B, t, "", &dot, err) != CLI_EXIT_OK)
                rc = CLI_EXIT_INPUT;
            base_strbuf_free(&dot);
        }
        if (B->dot_dir && res.explain.witness.present) {
            base_strbuf dot = { 0 };
            report_litmus_dot_explain(&dot, t, &res);
            if (put_dot(B, t, "-why", &dot, err) != CLI_EXIT_OK)
                rc = CLI_EXIT_INPUT;
            base_strbuf_free(&dot);
        }
        litmus_result_free(&res);
    }
    litmus_test_free(t);
    base_diag_free(&diag);
    return rc;
}

static void batch_emit(void *ctx, size_t i, int rc, const char *out, size_t outlen, const char *err,
                       size_t errlen)
{
    litmus_batch *B = ctx;
    if (B->progress)
        fprintf(stderr, "\r[%zu/%zu] %s\033[K", i + 1, B->nfiles, B->files[i]);
    if (errlen || rc == BASE_FORKPOOL_DIED) {
        if (B->progress)
            fputs("\r\033[K", stderr);
        if (rc == BASE_FORKPOOL_DIED)
            fprintf(stderr, "%s: error: %s", B->files[i], err);
        else
            fwrite(err, 1, errlen, stderr);
    }
    if (rc == BASE_FORKPOOL_DIED) {
        rc = CLI_EXIT_INTERNAL;
        if (B->json) {
            fputs(B->njson++ ? ",\n " : "\n ", stdout);
            base_strbuf o = { 0 };
            base_strbuf_puts(&o, "{\"file\": ");
            base_strbuf_json_string(&o, B->files[i]);
            base_strbuf_puts(&o, ", \"verdict\": \"error\", \"error\": ");
            base_strbuf_json_string(&o, err);
            base_strbuf_puts(&o, "}");
            fputs(base_strbuf_cstr(&o), stdout);
            base_strbuf_free(&o);
        }
    } else if (outlen) {
        if (B->json)
            fputs(B->njson++ ? ",\n " : "\n ", stdout);
        fwrite(out, 1, outlen, stdout);
    }
    fflush(stdout);
    /* A file problem outranks an unknown answer; an internal error outranks both. */
    if (rc == CLI_EXIT_INTERNAL)
        B->status = CLI_EXIT_INTERNAL;
    else if (rc == CLI_EXIT_INPUT && (B->status == CLI_EXIT_OK || B->status == CLI_EXIT_UNKNOWN))
        B->status = CLI_EXIT_INPUT;
    else if (rc == CLI_EXIT_UNKNOWN && B->status == CLI_EXIT_OK)
        B->status = CLI_EXIT_UNKNOWN;
}

static int litmus_run(int argc, char **argv, cat_cli *ccp, cat_model **catp)
{
    const char *model_name = "sc";
    bool verdict_only = false, json = false, quiet = false, use_qbf = false, explain = false;
    bool fork_reads = false;
    qbf_cli qc = { 0 };
    const char *dot_dir = NULL;
    double timeout = 0, unroll = 2, max_clauses = -1, max_memory = 2000, jobs = 1;
    path_vec inputs = { 0 };
    bool only_files = false;
    int early = -1; /* an exit status decided while reading options */

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            base_vec_push(&inputs, (char *)a);
            continue;
        }
        const char *val = NULL;
        bool needs = strcmp(a, "-m") == 0 || strcmp(a, "--model") == 0 || strcmp(a, "--dot") == 0 ||
                     strcmp(a, "-model") == 0 || strcmp(a, "-bell") == 0 ||
                     strcmp(a, "-macros") == 0 || strcmp(a, "-I") == 0 ||
                     strcmp(a, "-conf") == 0 || strcmp(a, "-variant") == 0 ||
                     strcmp(a, "--timeout") == 0 || strcmp(a, "--unroll") == 0 ||
                     strcmp(a, "--max-clauses") == 0 || strcmp(a, "--dump-qbf") == 0 ||
                     strcmp(a, "--max-memory") == 0 ||
                     strcmp(a, "--qbf-solver") == 0 || strcmp(a, "-j") == 0 ||
                     strcmp(a, "--jobs") == 0;
        if (needs) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ravel litmus: error: option '%s' needs an argument\n", a);
                base_vec_free(&inputs);
                return CLI_EXIT_USAGE;
            }
            val = argv[++i];
        }
        if (strcmp(a, "--") == 0) {
            only_files = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(litmus_usage, stdout);
            base_vec_free(&inputs);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--list-models") == 0) {
            size_t n;
            const logic_mm *m = logic_mm_all(&n);
            for (size_t k = 0; k < n; k++)
                printf("%-6s %-4s %s\n", m[k].name, m[k].needs_qbf ? "QBF" : "SAT", m[k].summary);
            base_vec_free(&inputs);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "-m") == 0 || strcmp(a, "--model") == 0) {
            if (is_cat_path(val))
                ccp->model = val;
            else
                model_name = val, ccp->model = NULL;
        } else if (strcmp(a, "-model") == 0) {
            ccp->model = val;
        } else if (strcmp(a, "-bell") == 0) {
            ccp->bell = val;
        } else if (strcmp(a, "-macros") == 0) {
            ccp->macros = val;
        } else if (strcmp(a, "-I") == 0) {
            base_vec_push(&ccp->include, (char *)val);
        } else if (strncmp(a, "-I", 2) == 0 && a[2]) {
            base_vec_push(&ccp->include, (char *)a + 2);
        } else if (strcmp(a, "-variant") == 0) {
            if (!add_variants(ccp, val, "ravel litmus")) {
                early = CLI_EXIT_MODEL;
                break;
            }
        } else if (strcmp(a, "-conf") == 0) {
            if (!read_conf(val, ccp)) {
                early = CLI_EXIT_MODEL;
                break;
            }
        } else if (strcmp(a, "--verdict-only") == 0) {
            verdict_only = true;
        } else if (strcmp(a, "--explain") == 0) {
            explain = true;
        } else if (strcmp(a, "--fork-reads") == 0) {
            fork_reads = true;
        } else if (strcmp(a, "--qbf") == 0) {
            use_qbf = true;
        } else if (strcmp(a, "--dump-qbf") == 0) {
            qc.dump_path = val;
        } else if (strcmp(a, "--qbf-solver") == 0) {
            qc.solver_cmd = val;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "--dot") == 0) {
            dot_dir = val;
        } else if (strcmp(a, "--max-clauses") == 0) {
            double v;
            if (!parse_number(val, &v) || v != (double)(uint64_t)v) {
                fprintf(stderr, "ravel litmus: error: option '%s' needs a whole number, not '%s'\n",
                        a, val);
                base_vec_free(&inputs);
                return CLI_EXIT_USAGE;
            }
            max_clauses = v;
        } else if (strcmp(a, "--max-memory") == 0) {
            double v;
            if (!parse_number(val, &v) || v != (double)(uint32_t)v) {
                fprintf(stderr, "ravel litmus: error: option '%s' needs a whole number of "
                                "megabytes, not '%s'\n", a, val);
                base_vec_free(&inputs);
                return CLI_EXIT_USAGE;
            }
            max_memory = v;
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
            double v;
            if (!parse_number(val, &v) || v != (double)(unsigned)v || v < 1 || v > 256) {
                fprintf(stderr, "ravel litmus: error: option '%s' needs a whole number from 1 to "
                                "256, not '%s'\n", a, val);
                base_vec_free(&inputs);
                return CLI_EXIT_USAGE;
            }
            jobs = v;
        } else if (strcmp(a, "--timeout") == 0 || strcmp(a, "--unroll") == 0) {
            double v;
            bool is_unroll = strcmp(a, "--unroll") == 0;
            if (!parse_number(val, &v) || (is_unroll && (v != (double)(unsigned)v || v > 1000))) {
                fprintf(stderr, "ravel litmus: error: option '%s' needs a %s, not '%s'\n", a,
                        is_unroll ? "whole number up to 1000" : "number of seconds", val);
                base_vec_free(&inputs);
                return CLI_EXIT_USAGE;
            }
            if (is_unroll)
                unroll = v;
            else
                timeout = v;
        } else {
            fprintf(stderr, "ravel litmus: error: unknown option '%s' (try 'ravel litmus --help')\n", a);
            base_vec_free(&inputs);
            return CLI_EXIT_USAGE;
        }
    }
    if (early >= 0) {
                base_vec_free(&inputs);
        return early;
    }
    cat_model *catm = NULL;
    litmus_macros *macros = NULL;
    if (ccp->macros) {
        /* as the model: the path itself, else the -I directories */
        base_strbuf path = { 0 };
        base_strbuf_puts(&path, ccp->macros);
        for (size_t i = 0; i < ccp->include.len && access(path.data, R_OK) != 0 &&
                            !strchr(ccp->macros, '/'); i++) {
            base_strbuf_clear(&path);
            base_strbuf_printf(&path, "%s/%s", ccp->include.data[i], ccp->macros);
        }
        if (access(path.data, R_OK) != 0) {
            base_strbuf_clear(&path);
            base_strbuf_puts(&path, ccp->macros);
        }
        base_diag d;
        base_diag_init(&d);
        macros = litmus_macros_load(path.data, &d);
        base_diag_print(&d, stderr);
        base_diag_free(&d);
        base_strbuf_free(&path);
        if (!macros) {
            base_vec_free(&inputs);
            return CLI_EXIT_INPUT;
        }
    }
    if (ccp->bell && !ccp->model) {
        fprintf(stderr, "ravel litmus: error: -bell needs a cat model (-model FILE.cat)\n");
                base_vec_free(&inputs);
        litmus_macros_free(macros);
        return CLI_EXIT_USAGE;
    }
    if (ccp->model) {
        base_diag d;
        base_diag_init(&d);
        cat_load_options lo = { .model = ccp->model, .bell = ccp->bell,
                                .include = (const char *const *)ccp->include.data,
                                .ninclude = ccp->include.len,
                                .variants = { (const char *const *)ccp->variants.data,
                                              ccp->variants.len } };
        catm = *catp = cat_model_load(&lo, &d);
        base_diag_print(&d, stderr);
        base_diag_free(&d);
        if (!catm) {
                        base_vec_free(&inputs);
            litmus_macros_free(macros);
            return CLI_EXIT_MODEL;
        }
    }
    const logic_mm *model = catm ? &catm->mm : logic_mm_find(model_name);
    if (!model) {
        fprintf(stderr, "ravel litmus: error: unknown memory model '%s' (try --list-models)\n",
                model_name);
        base_vec_free(&inputs);
        litmus_macros_free(macros);
        return CLI_EXIT_MODEL;
    }
    if (inputs.len == 0) {
        fprintf(stderr, "ravel litmus: error: no litmus test given (try 'ravel litmus --help')\n");
        base_vec_free(&inputs);
        litmus_macros_free(macros);
        return CLI_EXIT_USAGE;
    }
    if (dot_dir && mkdir(dot_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "ravel litmus: error: cannot create directory '%s': %s\n", dot_dir,
                strerror(errno));
        base_vec_free(&inputs);
        litmus_macros_free(macros);
        return CLI_EXIT_INPUT;
    }

    path_vec files = { 0 };
    for (size_t i = 0; i < inputs.len; i++)
        collect(inputs.data[i], &files, 0);
    base_vec_free(&inputs);
    if (qc.dump_path && files.len != 1) {
        fprintf(stderr, "ravel litmus: error: --dump-qbf needs exactly one test, not %zu\n",
                files.len);
        for (size_t i = 0; i < files.len; i++)
            free(files.data[i]);
        base_vec_free(&files);
        litmus_macros_free(macros);
        return CLI_EXIT_USAGE;
    }

    litmus_batch B = {
        .files = (const char *const *)files.data,
        .nfiles = files.len,
        .json = json,
        .progress = !quiet && isatty(STDERR_FILENO) && files.len > 1,
        .dot_dir = dot_dir,
        .qc = &qc,
        .opt = {
            .model = model,
            .verdict_only = verdict_only,
            .want_witness = dot_dir != NULL,
            .explain = explain,
            /* The memory budget in clauses: 20 million clauses took about
             * 2 GB (CaDiCaL's arena, watches and the grounder's tables). */
            .max_clauses = max_clauses >= 0 ? (uint64_t)max_clauses : (uint64_t)max_memory * 10000,
            .max_memory_mb = max_clauses >= 0 ? 0 : (uint32_t)max_memory,
            .limits = { .unroll = (uint32_t)unroll, .max_events = 5000, .max_values = 64,
                        .fork_all_reads = fork_reads },
            .qbf = use_qbf,
            .qbf_dump = qc.dump_path ? qbf_dump : NULL,
            .qbf_solve = qc.solver_cmd ? qbf_external : NULL,
            .qbf_ctx = &qc,
        },
        .timeout = timeout,
        .status = CLI_EXIT_OK,
        .macros = macros,
    };
    base_intern_init(&B.syms);
    if (json)
        fputs("[", stdout);
    fflush(stdout);
    if (jobs <= 1 || files.len <= 1 ||
        !base_forkpool_run(files.len, (unsigned)jobs, batch_work, batch_emit, &B)) {
        base_strbuf out = { 0 }, err = { 0 };
        for (size_t i = 0; i < files.len; i++) {
            base_strbuf_clear(&out);
            base_strbuf_clear(&err);
            int rc = batch_work(&B, i, &out, &err);
            batch_emit(&B, i, rc, base_strbuf_cstr(&out), out.len, base_strbuf_cstr(&err), err.len);
        }
        base_strbuf_free(&out);
        base_strbuf_free(&err);
    }
    if (B.progress)
        fputs("\r\033[K", stderr);
    if (json)
        fputs(B.njson ? "\n]\n" : "]\n", stdout);
    for (size_t i = 0; i < files.len; i++)
        free(files.data[i]);
    base_vec_free(&files);
    base_intern_free(&B.syms);
    litmus_macros_free(macros);
    return B.status;
}

int cli_litmus(int argc, char **argv)
{
    cat_cli cc = { 0 };
    cat_model *catm = NULL;
    int status = litmus_run(argc, argv, &cc, &catm);
    cat_model_free(catm);
    cat_cli_free(&cc);
    return status;
}
