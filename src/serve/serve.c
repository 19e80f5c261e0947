#include "serve/serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "logic/mm.h"
#include "serve/api.h"
#include "serve/assets.h"
#include "serve/graphs.h"
#include "serve/job.h"
#include "serve/library.h"

/* Exit codes as cli/cli.h's. */
enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_RESOURCE = 4, EXIT_INPUT = 5, EXIT_MODEL = 6 };

static const char serve_usage[] =
    "usage: ravel serve [--port N] [--bind ADDR] [-j N] [options]\n"
    "\n"
    "The playground: a local web server with a page to edit a litmus test or a C\n"
    "program and see the outcomes, the execution graphs, the interleaving of a bug,\n"
    "a race's two accesses or a deadlock's lock cycle, and a JSON API over the\n"
    "commands: POST /api/litmus, /api/litmus/graphs, /api/check, /api/race and\n"
    "/api/deadlock with the test or program as the body and options as query\n"
    "parameters (see the manual). The answers are the commands' --json.\n"
    "\n"
    "It serves until it gets SIGINT (Ctrl-C) or SIGTERM, then stops the running\n"
    "jobs and exits 0: it does not end by itself. Every request does: each runs in\n"
    "a child process with a time, memory and output cap.\n"
    "\n"
    "options:\n"
    "  --port N         TCP port (default 8080; 0 picks a free one); the URL is\n"
    "                   printed on stderr\n"
    "  --bind ADDR      IP address to listen on (default 127.0.0.1, loopback only;\n"
    "                   0.0.0.0 or :: lets other machines run jobs here)\n"
    "  -j N             jobs running at once (default 2)\n"
    "  --queue N        requests waiting for a job slot; past that 503 (default 16)\n"
    "  --timeout S      a job's --timeout when the request gives none (default 10)\n"
    "  --max-timeout S  the largest timeout a request may ask for (default 60)\n"
    "  --mem MB         a job's address-space cap in MiB (default 4096)\n"
    "  --max-body KB    the largest request body in KiB (default 1024)\n"
    "  --samples DIR    offer the litmus tests and C programs below DIR as samples,\n"
    "                   grouped by directory (e.g. a corpus); may be repeated\n"
    "  --models DIR     offer DIR's cat models (*.cat, with NAME.bell beside) in\n"
    "                   the model picker; may be repeated\n"
    "  -q, --quiet      no line per request on stderr\n"
    "  -h, --help       this text\n"
    "\n"
    "exit codes: 0 stopped by a signal; 2 bad command line; 4 cannot listen\n"
    "(address in use, bad address); 5 a --samples or --models directory cannot be\n"
    "read\n";

typedef struct serve_cfg {
    int workers, queue;
    double timeout, max_timeout;
    size_t mem, max_body;
    bool quiet;
} serve_cfg;

static serve_cfg cfg;
static serve_library lib; /* fixed before the daemon starts */

/* The job slots: at most cfg.workers running, cfg.queue waiting. */
static pthread_mutex_t q_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cv = PTHREAD_COND_INITIALIZER;
static int q_running, q_waiting;
static bool q_stopping;

static bool slot_acquire(void)
{
    pthread_mutex_lock(&q_mu);
    bool ok = false;
    if (!q_stopping && q_running < cfg.workers) {
        ok = true;
    } else if (!q_stopping && q_waiting < cfg.queue) {
        q_waiting++;
        while (q_running >= cfg.workers && !q_stopping)
            pthread_cond_wait(&q_cv, &q_mu);
        q_waiting--;
        ok = !q_stopping;
    }
    if (ok)
        q_running++;
    pthread_mutex_unlock(&q_mu);
    return ok;
}

static void slot_release(void)
{
    pthread_mutex_lock(&q_mu);
    q_running--;
    pthread_cond_signal(&q_cv);
    pthread_mutex_unlock(&q_mu);
}

/* --- responses --- */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                            const char *data, size_t len, int exit_code)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    if (exit_code >= 0) {
        char v[16];
        snprintf(v, sizeof v, "%d", exit_code);
        MHD_add_response_header(r, "X-Ravel-Exit", v);
    }
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

/* {"error": msg, "messages": [stderr lines...], "exit": code|null} */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg,
                                  const char *err_text, int exit_code)
{
    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "{\"error\": ");
    base_strbuf_json_string(&b, msg);
    base_strbuf_puts(&b, ", \"messages\": [");
    int n = 0;
    if (err_text) {
        base_strbuf line = { 0 };
        for (const char *p = err_text;; p++) {
            if (*p == '\n' || *p == 0) {
                if (line.len) {
                    base_strbuf_puts(&b, n++ ? ", " : "");
                    base_strbuf_json_string(&b, base_strbuf_cstr(&line));
                }
                base_strbuf_clear(&line);
                if (*p == 0 || n >= 200)
                    break;
            } else {
                base_strbuf_putc(&line, *p);
            }
        }
        base_strbuf_free(&line);
    }
    base_strbuf_puts(&b, "], \"exit\": ");
    if (exit_code >= 0)
        base_strbuf_printf(&b, "%d}\n", exit_code);
    else
        base_strbuf_puts(&b, "null}\n");
    enum MHD_Result r = reply(c, status, "application/json", base_strbuf_cstr(&b), b.len, exit_code);
    base_strbuf_free(&b);
    return r;
}

/* The first non-empty line of text, into buf. */
static void first_line(const char *text, char *buf, size_t size)
{
    while (*text == '\n')
        text++;
    size_t n = strcspn(text, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, text, n);
    buf[n] = 0;
}

/* --- GET --- */

static const char *mime(const char *name)
{
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".html") == 0)
        return "text/html; charset=utf-8";
    if (n > 4 && strcmp(name + n - 4, ".css") == 0)
        return "text/css; charset=utf-8";
    if (n > 3 && strcmp(name + n - 3, ".js") == 0)
        return "text/javascript; charset=utf-8";
    if (n > 4 && strcmp(name + n - 4, ".svg") == 0)
        return "image/svg+xml";
    return "text/plain; charset=utf-8";
}

static enum MHD_Result get_samples(struct MHD_Connection *c)
{
    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "[");
    int n = 0;
    for (size_t i = 0; i < serve_nassets; i++) {
        const serve_asset *a = &serve_assets[i];
        bool litmus = strncmp(a->name, "litmus/", 7) == 0, cprog = strncmp(a->name, "c/", 2) == 0;
        if (!litmus && !cprog)
            continue;
        base_strbuf_puts(&b, n++ ? ",\n {\"name\": " : "\n {\"name\": ");
        base_strbuf_json_string(&b, strchr(a->name, '/') + 1);
        base_strbuf_printf(&b, ", \"kind\": \"%s\", \"group\": \"examples\", \"text\": ",
                           litmus ? "litmus" : "c");
        base_strbuf_json_string(&b, (const char *)a->data);
        base_strbuf_putc(&b, '}');
    }
    for (size_t i = 0; i < lib.nsamples; i++) {
        const serve_sample *s = &lib.samples[i];
        base_strbuf_puts(&b, n++ ? ",\n {\"name\": " : "\n {\"name\": ");
        base_strbuf_json_string(&b, s->name);
        base_strbuf_printf(&b, ", \"kind\": \"%s\", \"group\": ", s->litmus ? "litmus" : "c");
        base_strbuf_json_string(&b, s->group);
        base_strbuf_printf(&b, ", \"id\": %zu}", i);
    }
    base_strbuf_puts(&b, "\n]\n");
    enum MHD_Result r = reply(c, 200, "application/json", base_strbuf_cstr(&b), b.len, -1);
    base_strbuf_free(&b);
    return r;
}

static enum MHD_Result get_models(struct MHD_Connection *c)
{
    size_t n;
    const logic_mm *m = logic_mm_all(&n);
    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "[");
    for (size_t k = 0; k < n; k++) {
        base_strbuf_puts(&b, k ? ",\n {\"name\": " : "\n {\"name\": ");
        base_strbuf_json_string(&b, m[k].name);
        base_strbuf_printf(&b, ", \"solver\": \"%s\", \"summary\": ", m[k].needs_qbf ? "QBF" : "SAT");
        base_strbuf_json_string(&b, m[k].summary);
        base_strbuf_putc(&b, '}');
    }
    for (size_t k = 0; k < lib.ncats; k++) {
        base_strbuf_puts(&b, n + k ? ",\n {\"name\": " : "\n {\"name\": ");
        base_strbuf_json_string(&b, lib.cats[k].name);
        base_strbuf_puts(&b, ", \"solver\": \"cat\", \"summary\": ");
        base_strbuf_json_string(&b, lib.cats[k].path);
        base_strbuf_putc(&b, '}');
    }
    base_strbuf_puts(&b, "\n]\n");
    enum MHD_Result r = reply(c, 200, "application/json", base_strbuf_cstr(&b), b.len, -1);
    base_strbuf_free(&b);
    return r;
}

/* GET /api/sample?id=N: the text of a --samples file. */
static enum MHD_Result get_sample(struct MHD_Connection *c)
{
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
    char *end = NULL;
    unsigned long long id = v && *v ? strtoull(v, &end, 10) : 0;
    if (!v || !*v || *end || v[0] == '-' || id >= lib.nsamples)
        return send_error(c, 404, "no such sample (see /api/samples)", NULL, -1);
    size_t len = 0;
    char *text = serve_library_read(&lib, (size_t)id, cfg.max_body, &len);
    if (!text) {
        char msg[160];
        snprintf(msg, sizeof msg, "cannot read sample %llu: %s", id, strerror(errno));
        return send_error(c, 500, msg, NULL, -1);
    }
    enum MHD_Result r = reply(c, 200, "text/plain; charset=utf-8", text, len, -1);
    free(text);
    return r;
}

static enum MHD_Result get_health(struct MHD_Connection *c)
{
    pthread_mutex_lock(&q_mu);
    int running = q_running, waiting = q_waiting;
    pthread_mutex_unlock(&q_mu);
    char b[160];
    int n = snprintf(b, sizeof b, "{\"ok\": true, \"workers\": %d, \"running\": %d, \"queued\": %d}\n",
                     cfg.workers, running, waiting);
    return reply(c, 200, "application/json", b, (size_t)n, -1);
}

static enum MHD_Result handle_get(struct MHD_Connection *c, const char *url)
{
    if (strcmp(url, "/api/samples") == 0)
        return get_samples(c);
    if (strcmp(url, "/api/models") == 0)
        return get_models(c);
    if (strcmp(url, "/api/sample") == 0)
        return get_sample(c);
    if (strcmp(url, "/api/health") == 0)
        return get_health(c);
    char name[256];
    snprintf(name, sizeof name, "www%s", strcmp(url, "/") == 0 ? "/index.html" : url);
    const serve_asset *a = strlen(url) < 200 ? serve_asset_find(name) : NULL;
    if (!a)
        return send_error(c, 404, "no such page", NULL, -1);
    return reply(c, 200, mime(name), (const char *)a->data, a->len, -1);
}

/* --- POST: a job --- */

#define MAX_PARAMS 32

typedef struct param_list {
    serve_param p[MAX_PARAMS];
    size_t n;
    bool overflow;
} param_list;

static enum MHD_Result collect_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    param_list *l = cls;
    if (l->n >= MAX_PARAMS) {
        l->overflow = true;
        return MHD_NO;
    }
    l->p[l->n++] = (serve_param){ key, value };
    return MHD_YES;
}

static enum MHD_Result handle_job(struct MHD_Connection *c, serve_endpoint ep, const char *body,
                                  size_t len)
{
    param_list pl = { 0 };
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_param, &pl);
    if (pl.overflow)
        return send_error(c, 400, "too many query parameters", NULL, -1);
    serve_cmd cmd;
    char err[256];
    serve_api_env env = { .default_timeout = cfg.timeout, .max_timeout = cfg.max_timeout,
                          .cats = lib.cats, .ncats = lib.ncats };
    if (!serve_api_build(ep, pl.p, pl.n, &env, &cmd, err, sizeof err))
        return send_error(c, 400, err, NULL, -1);
    if (len == 0)
        return send_error(c, 400, "the request body (the test or program) is empty", NULL, -1);
    if (memchr(body, 0, len))
        return send_error(c, 400, "the request body contains a NUL byte", NULL, -1);
    if (!slot_acquire())
        return send_error(c, 503, "the server is busy (every job slot and queue place is taken); try again",
                          NULL, -1);
    serve_job job = {
        .args = cmd.args,
        .name = cmd.name,
        .input = body,
        .input_len = len,
        .wall_s = cmd.timeout + 5,
        .mem_bytes = cfg.mem,
        .max_output = 16u << 20,
    };
    serve_job_result res;
    serve_job_run(&job, &res);
    slot_release();
    enum MHD_Result r;
    char msg[512];
    if (!res.started) {
        first_line(base_strbuf_cstr(&res.err), msg, sizeof msg);
        r = send_error(c, 500, msg, NULL, -1);
    } else if (res.timed_out) {
        snprintf(msg, sizeof msg,
                 "ravel serve: error: the job ran past its wall-clock budget (%g s: the timeout and 5 s) and was stopped",
                 job.wall_s);
        r = send_error(c, 504, msg, base_strbuf_cstr(&res.err), -1);
    } else if (res.truncated) {
        snprintf(msg, sizeof msg, "ravel serve: error: the job printed more than %zu bytes and was stopped",
                 job.max_output);
        r = send_error(c, 500, msg, NULL, -1);
    } else if (res.signal) {
        if (res.signal == SIGXCPU)
            snprintf(msg, sizeof msg, "ravel serve: error: the job used up its CPU budget (%g s) and was stopped",
                     job.wall_s);
        else
            snprintf(msg, sizeof msg, "ravel serve: error: the job crashed (signal %d: %s)", res.signal,
                     strsignal(res.signal));
        r = send_error(c, res.signal == SIGXCPU ? 504 : 500, msg, base_strbuf_cstr(&res.err), -1);
    } else if (res.out.len > 0 && res.exit_code != EXIT_USAGE && res.exit_code != EXIT_MODEL &&
               res.exit_code != 127 && res.exit_code < 70) {
        r = reply(c, 200, cmd.json ? "application/json" : "text/plain; charset=utf-8",
                 base_strbuf_cstr(&res.out), res.out.len, res.exit_code);
    } else {
        unsigned status = res.exit_code == EXIT_USAGE || res.exit_code == EXIT_MODEL ? 400
                          : res.exit_code == EXIT_INPUT                               ? 422
                          : res.exit_code == EXIT_RESOURCE                            ? 507
                                                                                      : 500;
        first_line(base_strbuf_cstr(&res.err), msg, sizeof msg);
        if (!msg[0])
            snprintf(msg, sizeof msg, "ravel serve: error: the job ended with exit code %d and no output",
                     res.exit_code);
        r = send_error(c, status, msg, base_strbuf_cstr(&res.err), res.exit_code);
    }
    if (!cfg.quiet)
        fprintf(stderr, "ravel serve: %s exit %d%s %.3f s\n",
                ep == SERVE_EP_LITMUS ? "litmus" : ep == SERVE_EP_LITMUS_GRAPHS ? "litmus/graphs"
                : ep == SERVE_EP_CHECK ? "check" : ep == SERVE_EP_RACE ? "race" : "deadlock",
                res.exit_code, res.timed_out ? " (timed out)" : "", res.seconds);
    serve_job_result_free(&res);
    return r;
}

/* --- the request handler --- */

static enum MHD_Result send_too_big(struct MHD_Connection *c)
{
    char msg[128];
    snprintf(msg, sizeof msg, "the request body is larger than this server's limit (%zu KiB)",
             cfg.max_body >> 10);
    return send_error(c, 413, msg, NULL, -1);
}

typedef struct conn_state {
    base_strbuf body;
    bool too_big;
} conn_state;

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload,
                               size_t *upload_size, void **con_cls)
{
    conn_state *st = *con_cls;
    if (!st) {
        st = base_xcalloc(1, sizeof *st);
        *con_cls = st;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > cfg.max_body)
            return send_too_big(c); /* before reading the body: MHD then closes */
        return MHD_YES;
    }
    if (*upload_size) {
        if (st->body.len + *upload_size > cfg.max_body)
            st->too_big = true;
        if (!st->too_big)
            base_strbuf_put(&st->body, upload, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    serve_endpoint ep;
    bool api = serve_api_endpoint(url, &ep);
    if (st->too_big)
        return send_too_big(c);
    if (api && post) {
        /* A page from another origin may not start jobs here. */
        const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
        const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
        if (origin && (!host || strncmp(origin, "http://", 7) != 0 || strcmp(origin + 7, host) != 0))
            return send_error(c, 403, "requests from another origin are refused", NULL, -1);
        return handle_job(c, ep, st->body.data ? st->body.data : "", st->body.len);
    }
    if (api)
        return send_error(c, 405, "use POST with the test or program as the body", NULL, -1);
    if (get)
        return handle_get(c, url);
    if (post && strncmp(url, "/api/", 5) == 0)
        return send_error(c, 404, "no such API endpoint", NULL, -1);
    return send_error(c, 405, "method not allowed", NULL, -1);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    conn_state *st = *con_cls;
    if (st) {
        base_strbuf_free(&st->body);
        free(st);
        *con_cls = NULL;
    }
}

/* --- the command --- */

static bool parse_num(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

int serve_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--graphs-job") == 0)
        return serve_graphs_main(argc - 1, argv + 1);
    double port = 8080, workers = 2, queue = 16, timeout = 10, max_timeout = 60, mem = 4096,
           max_body = 1024;
    const char *bind = "127.0.0.1";
    cfg.quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(serve_usage, stdout);
            return EXIT_OK;
        }
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            cfg.quiet = true;
            continue;
        }
        const struct {
            const char *opt;
            double *dst;
            double lo, hi;
            const char *what;
        } nums[] = {
            { "--port", &port, 0, 65535, "port number (0 to 65535)" },
            { "-j", &workers, 1, 64, "whole number from 1 to 64" },
            { "--queue", &queue, 0, 1024, "whole number up to 1024" },
            { "--timeout", &timeout, 0.001, 86400, "number of seconds" },
            { "--max-timeout", &max_timeout, 0.001, 86400, "number of seconds" },
            { "--mem", &mem, 16, 1 << 20, "number of MiB (at least 16)" },
            { "--max-body", &max_body, 1, 1 << 20, "number of KiB" },
        };
        if (strcmp(a, "--samples") == 0 || strcmp(a, "--models") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "ravel serve: error: option '%s' needs an argument\n", a);
                serve_library_free(&lib);
                return EXIT_USAGE;
            }
            const char *dir = argv[++i];
            if (!(a[2] == 's' ? serve_library_add_samples(&lib, dir)
                              : serve_library_add_models(&lib, dir))) {
                serve_library_free(&lib);
                return EXIT_INPUT;
            }
            continue;
        }
        bool known = strcmp(a, "--bind") == 0;
        size_t k = 0;
        for (; k < sizeof nums / sizeof *nums && !known; k++)
            if (strcmp(a, nums[k].opt) == 0)
                break;
        if (!known && k == sizeof nums / sizeof *nums) {
            fprintf(stderr, "ravel serve: error: unknown option '%s' (try 'ravel serve --help')\n", a);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ravel serve: error: option '%s' needs an argument\n", a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        if (known) {
            bind = v;
            continue;
        }
        bool whole = nums[k].dst != &timeout && nums[k].dst != &max_timeout;
        if (!parse_num(v, nums[k].lo, nums[k].hi, nums[k].dst) ||
            (whole && *nums[k].dst != (double)(long)*nums[k].dst)) {
            fprintf(stderr, "ravel serve: error: option '%s' needs a %s, not '%s'\n", a, nums[k].what, v);
            return EXIT_USAGE;
        }
    }
    if (timeout > max_timeout) {
        fprintf(stderr, "ravel serve: error: --timeout %g is more than --max-timeout %g\n", timeout,
                max_timeout);
        return EXIT_USAGE;
    }
    const char *job_exe = getenv("RAVEL_SERVE_JOB_EXE"); /* tests only: see the manual */
    if (job_exe && *job_exe)
        serve_job_set_exe(job_exe);
    cfg.workers = (int)workers;
    cfg.queue = (int)queue;
    cfg.timeout = timeout;
    cfg.max_timeout = max_timeout;
    cfg.mem = (size_t)mem << 20;
    cfg.max_body = (size_t)max_body << 10;

    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    bool v6 = strchr(bind, ':') != NULL;
    if (v6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, bind, &s6->sin6_addr) != 1)
            v6 = false, bind = NULL;
    } else {
        struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
        s4->sin_family = AF_INET;
        s4->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, bind, &s4->sin_addr) != 1)
            bind = NULL;
    }
    if (!bind) {
        fprintf(stderr, "ravel serve: error: --bind needs a numeric IPv4 or IPv6 address\n");
        return EXIT_USAGE;
    }

    /* The signals are taken by sigwait below: block them before any thread
     * starts, so every thread inherits the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_ERROR_LOG | (v6 ? MHD_USE_IPv6 : 0);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, handler, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(cfg.workers + cfg.queue + 16),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)128 << 10, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "ravel serve: error: cannot listen on %s port %g: %s\n", bind, port,
                strerror(errno));
        return EXIT_RESOURCE;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned real_port = info ? info->port : (unsigned)port;
    fprintf(stderr, "ravel serve: listening on http://%s%s%s:%u/ (until SIGINT or SIGTERM)\n",
            v6 ? "[" : "", bind, v6 ? "]" : "", real_port);
    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    fprintf(stderr, "ravel serve: %s: stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    pthread_mutex_lock(&q_mu);
    q_stopping = true;
    pthread_cond_broadcast(&q_cv);
    pthread_mutex_unlock(&q_mu);
    serve_job_kill_all();
    MHD_stop_daemon(d);
    serve_library_free(&lib);
    return EXIT_OK;
}
