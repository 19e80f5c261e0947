/* libFuzzer harness for serve/api: a query string ("k=v&k=v...", split here
 * as libmicrohttpd would hand it over) for each endpoint. serve_api_build
 * must never crash, and what it accepts must be safe to exec: every
 * argument non-empty, no value that can be taken for an option, a plain
 * input name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/api.h"

static const serve_cat_model cats[] = {
    { .name = "m.cat", .path = "/srv/models/m.cat", .dir = "/srv/models", .bell = "/srv/models/m.bell" },
};
static const serve_api_env env = { .default_timeout = 10, .max_timeout = 60, .cats = cats, .ncats = 1 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *q = malloc(size + 1);
    memcpy(q, data, size);
    q[size] = 0;
    serve_param ps[32];
    size_t n = 0;
    for (char *tok = q, *next; tok && n < 32; tok = next) {
        next = strchr(tok, '&');
        if (next)
            *next++ = 0;
        char *eq = strchr(tok, '=');
        if (eq)
            *eq++ = 0;
        ps[n++] = (serve_param){ tok, eq };
    }
    for (int ep = SERVE_EP_LITMUS; ep <= SERVE_EP_DEADLOCK; ep++) {
        serve_cmd cmd;
        char err[256];
        if (!serve_api_build((serve_endpoint)ep, ps, n, &env, &cmd, err, sizeof err)) {
            if (!err[0] || strlen(err) >= sizeof err)
                abort();
            continue;
        }
        if (cmd.nargs < 2 || cmd.args[cmd.nargs] != NULL || strchr(cmd.name, '/') || cmd.name[0] == '.')
            abort();
        for (int i = 0; i < cmd.nargs; i++) {
            if (!cmd.args[i][0])
                abort();
            /* an option's value follows an option; a value never starts with '-' */
            if (i > 0 && cmd.args[i - 1][0] == '-' && cmd.args[i][0] == '-' &&
                strcmp(cmd.args[i - 1], "--timeout") == 0)
                abort();
        }
    }
    free(q);
    return 0;
}
