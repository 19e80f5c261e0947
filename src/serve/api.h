/* api: from an API request (endpoint and query parameters) to the command
 * line of the job that answers it. Pure: no I/O, so it is unit-tested and
 * fuzzed (tests/fuzz/fuzz_serve_api.c).
 *
 * Each endpoint accepts a fixed set of parameters; each value must be a
 * plain token ([A-Za-z0-9_.+-], at most 64 bytes, not starting with '-'),
 * so no value can become an option, and the command itself checks its
 * meaning (a bad number gets the command's own usage message). */
#ifndef RAVEL_SERVE_API_H
#define RAVEL_SERVE_API_H

#include <stdbool.h>
#include <stddef.h>

typedef enum serve_endpoint {
    SERVE_EP_LITMUS,        /* ravel litmus --json (or herd text: format=herd) */
    SERVE_EP_LITMUS_GRAPHS, /* one SVG execution per allowed final state */
    SERVE_EP_CHECK,
    SERVE_EP_RACE,
    SERVE_EP_DEADLOCK,
} serve_endpoint;

typedef struct serve_param {
    const char *key, *value;
} serve_param;

#define SERVE_API_MAX_ARGS 48

typedef struct serve_cmd {
    const char *args[SERVE_API_MAX_ARGS + 1]; /* NULL-terminated; "@FILE@" is the input */
    int nargs;
    char name[80];      /* the input's file name */
    bool json;          /* the command prints JSON (else text: litmus format=herd) */
    double timeout;     /* seconds passed as --timeout (deadlock: the wall cap only) */
    char store[2048];   /* the args' text */
    size_t used;
} serve_cmd;

/* A cat model the server offers (ravel serve --models DIR): the name the
 * page picks it by (its file name, which ends in .cat), its path, and its
 * directory (the job's -I, for its includes and a bell file beside it). */
typedef struct serve_cat_model {
    const char *name, *path, *dir;
    const char *bell; /* NAME.bell beside it, or NULL */
} serve_cat_model;

/* What a request may ask for on this server. */
typedef struct serve_api_env {
    double default_timeout, max_timeout; /* ravel serve --timeout, --max-timeout */
    const serve_cat_model *cats;
    size_t ncats;
} serve_api_env;

/* Parses "/api/litmus" etc.; false for an unknown path. */
bool serve_api_endpoint(const char *url, serve_endpoint *ep);
/* Fills *cmd; on a bad parameter returns false with a one-line message in
 * err. A litmus model whose name ends in .cat must be one of env's cat
 * models; the job then reads that file (-I DIR -model PATH [-bell B]). */
bool serve_api_build(serve_endpoint ep, const serve_param *ps, size_t n, const serve_api_env *env,
                     serve_cmd *cmd, char *err, size_t errlen);

#endif
