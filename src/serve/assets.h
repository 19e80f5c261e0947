/* assets: the files ravel serve carries inside the binary (generated at
 * build time by cmake/RavelEmbed.cmake): the page (www/...) and the samples
 * (samples/litmus/..., samples/c/...), from src/serve/www and examples/. */
#ifndef RAVEL_SERVE_ASSETS_H
#define RAVEL_SERVE_ASSETS_H

#include <stddef.h>

typedef struct serve_asset {
    const char *name;          /* e.g. "www/index.html", "samples/litmus/SB.litmus" */
    const unsigned char *data; /* len bytes, then a NUL */
    size_t len;
} serve_asset;

extern const serve_asset serve_assets[];
extern const size_t serve_nassets;

/* The asset called name, or NULL. */
const serve_asset *serve_asset_find(const char *name);

#endif
