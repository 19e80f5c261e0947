#include "serve/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *url;
    serve_endpoint ep;
} endpoints[] = {
    { "/api/litmus", SERVE_EP_LITMUS },
    { "/api/litmus/graphs", SERVE_EP_LITMUS_GRAPHS },
    { "/api/check", SERVE_EP_CHECK },
    { "/api/race", SERVE_EP_RACE },
    { "/api/deadlock", SERVE_EP_DEADLOCK },
};

bool serve_api_endpoint(const char *url, serve_endpoint *ep)
{
    for (size_t i = 0; i < sizeof endpoints / sizeof *endpoints; i++) {
        if (strcmp(url, endpoints[i].url) == 0) {
            *ep = endpoints[i].ep;
            return true;
        }
    }
    return false;
}

/* A parameter: its key, the option it becomes, and whether it is a flag
 * (value 0 or 1; 1 adds the option alone). */
typedef struct param_spec {
    const char *key;
    const char *option;
    bool flag;
} param_spec;

static const param_spec litmus_params[] = {
    { "model", "-m", false },      { "verdict_only", "--verdict-only", true },
    { "unroll", "--unroll", false }, { "max_clauses", "--max-clauses", false },
    { "explain", "--explain", true }, { NULL, NULL, false },
};
static const param_spec graphs_params[] = {
    { "model", "-m", false },         { "unroll", "--unroll", false },
    { "max_graphs", "--max-graphs", false }, { "explain", "--explain", true },
    { NULL, NULL, false },
};
static const param_spec check_params[] = {
    { "unwind", "--unwind", false },   { "pending", "--pending", false },
    { "max_threads", "--max-threads", false }, { "explore", "--explore", false },
    { "seed", "--seed", false },       { "m32", "--m32", true },
    { "engine", "--engine", false },   { NULL, NULL, false },
};
static const param_spec race_params[] = {
    { "unwind", "--unwind", false },     { "pending", "--pending", false },
    { "max_threads", "--max-threads", false }, { "explore", "--explore", false },
    { "seed", "--seed", false },         { "m32", "--m32", true },
    { "location", "--location", false }, { "max_races", "--max-races", false },
    { "engine", "--engine", false },     { NULL, NULL, false },
};
static const param_spec deadlock_params[] = {
    { "lock_order", "--lock-order", true }, { "max_cycle", "--max-cycle", false },
    { "entry", "--entry", false },          { "m32", "--m32", true },
    { NULL, NULL, false },
};

static bool plain_token(const char *v)
{
    size_t n = strlen(v);
    if (n == 0 || n > 64 || v[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == '+' || c == '-';
        if (!ok)
            return false;
    }
    return true;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

static bool push(serve_cmd *c, const char *s)
{
    size_t n = strlen(s) + 1;
    if (c->nargs >= SERVE_API_MAX_ARGS || c->used + n > sizeof c->store)
        return false;
    char *p = c->store + c->used;
    memcpy(p, s, n);
    c->used += n;
    c->args[c->nargs++] = p;
    c->args[c->nargs] = NULL;
    return true;
}

static bool fail(char *err, size_t errlen, const char *fmt, const char *a)
{
    snprintf(err, errlen, fmt, a);
    return false;
}

bool serve_api_build(serve_endpoint ep, const serve_param *ps, size_t n, const serve_api_env *env,
                     serve_cmd *cmd, char *err, size_t errlen)
{
    double default_timeout = env->default_timeout, max_timeout = env->max_timeout;
    memset(cmd, 0, sizeof *cmd);
    const param_spec *spec;
    const char *defname;
    switch (ep) {
    case SERVE_EP_LITMUS:
        spec = litmus_params, defname = "test.litmus";
        break;
    case SERVE_EP_LITMUS_GRAPHS:
        spec = graphs_params, defname = "test.litmus";
        break;
    case SERVE_EP_CHECK:
        spec = check_params, defname = "prog.c";
        break;
    case SERVE_EP_RACE:
        spec = race_params, defname = "prog.c";
        break;
    default:
        spec = deadlock_params, defname = "prog.c";
        break;
    }
    bool litmus = ep == SERVE_EP_LITMUS || ep == SERVE_EP_LITMUS_GRAPHS;
    const char *name = defname, *timeout = NULL;
    cmd->json = true;
    static const char *const cmds[] = { "litmus", "serve", "check", "race", "deadlock" };
    push(cmd, cmds[ep]);
    if (ep == SERVE_EP_LITMUS_GRAPHS)
        push(cmd, "--graphs-job");
    for (size_t i = 0; i < n; i++) {
        const char *k = ps[i].key, *v = ps[i].value ? ps[i].value : "";
        for (size_t j = 0; j < i; j++)
            if (strcmp(ps[j].key, k) == 0)
                return fail(err, errlen, "parameter '%s' is given twice", k);
        if (!plain_token(v))
            return fail(err, errlen,
                        "parameter '%s' needs a plain value (letters, digits, _ . + -, at most "
                        "64, not starting with '-')",
                        k);
        if (strcmp(k, "name") == 0) {
            if (v[0] == '.' || !(litmus ? has_suffix(v, ".litmus") || has_suffix(v, ".lisa")
                                        : has_suffix(v, ".c")))
                return fail(err, errlen, "parameter 'name' must be a file name ending in %s",
                            litmus ? ".litmus or .lisa" : ".c");
            name = v;
            continue;
        }
        if (strcmp(k, "timeout") == 0) {
            timeout = v;
            continue;
        }
        if (ep == SERVE_EP_LITMUS && strcmp(k, "format") == 0) {
            if (strcmp(v, "json") != 0 && strcmp(v, "herd") != 0)
                return fail(err, errlen, "parameter 'format' is json or herd, not '%s'", v);
            cmd->json = strcmp(v, "json") == 0;
            continue;
        }
        if (litmus && strcmp(k, "model") == 0 && has_suffix(v, ".cat")) {
            const serve_cat_model *m = NULL;
            for (size_t j = 0; j < env->ncats && !m; j++)
                if (strcmp(env->cats[j].name, v) == 0)
                    m = &env->cats[j];
            if (!m)
                return fail(err, errlen, "no cat model '%s' on this server (see /api/models)", v);
            if (!push(cmd, "-I") || !push(cmd, m->dir) || !push(cmd, "-model") || !push(cmd, m->path) ||
                (m->bell && (!push(cmd, "-bell") || !push(cmd, m->bell))))
                return fail(err, errlen, "the path of cat model '%s' is too long", v);
            continue;
        }
        const param_spec *p = spec;
        while (p->key && strcmp(p->key, k) != 0)
            p++;
        if (!p->key)
            return fail(err, errlen, "unknown parameter '%s'", k);
        if (p->flag) {
            if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
                return fail(err, errlen, "parameter '%s' is 0 or 1", k);
            if (strcmp(v, "1") == 0)
                push(cmd, p->option);
        } else {
            push(cmd, p->option);
            push(cmd, v);
        }
    }
    double t = default_timeout;
    if (timeout) {
        char *end;
        t = strtod(timeout, &end);
        if (*end || !(t > 0))
            return fail(err, errlen, "parameter 'timeout' needs a positive number of seconds, not '%s'",
                        timeout);
    }
    if (t > max_timeout) {
        char lim[32];
        snprintf(lim, sizeof lim, "%g", max_timeout);
        return fail(err, errlen, "parameter 'timeout' is at most %s seconds on this server", lim);
    }
    cmd->timeout = t;
    char tbuf[32];
    snprintf(tbuf, sizeof tbuf, "%g", t);
    push(cmd, "--timeout");
    push(cmd, tbuf);
    if (cmd->json && ep != SERVE_EP_LITMUS_GRAPHS)
        push(cmd, "--json");
    if (ep == SERVE_EP_LITMUS)
        push(cmd, "-q");
    if (ep == SERVE_EP_CHECK || ep == SERVE_EP_RACE || ep == SERVE_EP_DEADLOCK) {
        push(cmd, "-q");
        push(cmd, "-j");
        push(cmd, "1");
    }
    push(cmd, "@FILE@");
    snprintf(cmd->name, sizeof cmd->name, "%s", name);
    return true;
}
