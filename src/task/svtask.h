/* svtask: SV-COMP task definitions (the benchmark format's .yml files).
 *
 * Reads the subset of YAML the format uses: `input_files` (one file or a
 * list), `properties` (a list of maps with `property_file` and optional
 * `expected_verdict`), and `options` (`language`, `data_model`). Paths are
 * resolved against the task file's folder. A property file is recognised
 * by its text: `G ! call(reach_error())` is unreach-call, `G ! data-race`
 * is no-data-race; anything else is kept by name and is unsupported by the
 * checkers. Errors carry the task file's line and column. */
#ifndef RAVEL_TASK_SVTASK_H
#define RAVEL_TASK_SVTASK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

typedef enum svtask_prop_kind {
    SVTASK_UNREACH_CALL,
    SVTASK_NO_DATA_RACE,
    SVTASK_OTHER,
} svtask_prop_kind;

typedef struct svtask_prop {
    char *file;             /* resolved path of the .prp */
    svtask_prop_kind kind;
    int expected;           /* 1 true, 0 false, -1 not given */
} svtask_prop;

typedef struct svtask {
    char **inputs;          /* resolved paths */
    size_t ninputs;
    svtask_prop *props;
    size_t nprops;
    bool ilp32;             /* data_model: ILP32 */
    char *language;
} svtask;

/* Parses text (the contents of the task file `path`). Returns false with
 * diagnostics on malformed input; t is always safe to free. */
bool svtask_parse(svtask *t, const char *path, const char *text, size_t len, base_diag *d);
/* Reads and parses the file. */
bool svtask_load(svtask *t, const char *path, base_diag *d);
void svtask_free(svtask *t);
/* The first property of the kind, or NULL. */
const svtask_prop *svtask_find(const svtask *t, svtask_prop_kind kind);

#endif
