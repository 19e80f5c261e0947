/* library: what `ravel serve` offers beyond its embedded examples, read
 * from directories at start-up.
 *
 *  - samples (--samples DIR, repeatable): every litmus test (*.litmus,
 *    *.lisa) and C program (*.c) below DIR, grouped by the directory it is
 *    in (relative to DIR, under DIR's own name), for the page's drop-downs.
 *    Only names are kept; a sample's text is read when the page asks for it
 *    (GET /api/sample?id=N), so a corpus of thousands costs nothing until
 *    used. At most SERVE_LIBRARY_MAX_SAMPLES files, 16 levels deep;
 *  - cat models (--models DIR, repeatable): every *.cat file in DIR, picked
 *    by its file name, with NAME.bell beside it as its bell file and DIR as
 *    its include path. The first of two models of one name wins.
 *
 * The lists are fixed once the server runs: request threads only read. */
#ifndef RAVEL_SERVE_LIBRARY_H
#define RAVEL_SERVE_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "serve/api.h"

#define SERVE_LIBRARY_MAX_SAMPLES 20000

typedef struct serve_sample {
    char *name;  /* the file's name */
    char *group; /* DIR's name, then the directories between DIR and the file */
    char *path;
    bool litmus; /* else a C program */
} serve_sample;

typedef struct serve_library {
    serve_sample *samples;
    size_t nsamples;
    serve_cat_model *cats; /* strings owned */
    size_t ncats;
    size_t dropped; /* samples past the limit, not offered */
} serve_library;

/* false (with a one-line message on stderr) if dir cannot be read. */
bool serve_library_add_samples(serve_library *lib, const char *dir);
bool serve_library_add_models(serve_library *lib, const char *dir);
/* The text of sample id (owned by the caller), or NULL with errno set;
 * NULL also when the file is larger than max_bytes (errno EFBIG). */
char *serve_library_read(const serve_library *lib, size_t id, size_t max_bytes, size_t *len);
void serve_library_free(serve_library *lib);

#endif
