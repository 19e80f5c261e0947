/* mm: the memory-model library. Each model is a formula over a candidate
 * execution (logic/exec.h), written with the combinators — never a
 * hand-coded search. `ravel litmus --list-models` prints this table. */
#ifndef RAVEL_LOGIC_MM_H
#define RAVEL_LOGIC_MM_H

#include <stdbool.h>
#include <stddef.h>

#include "logic/exec.h"

typedef struct logic_mm {
    const char *name;
    const char *summary;
    bool needs_qbf; /* full second-order: a universal SO quantifier */
    const logic_formula *(*consistent)(logic_builder *b, const logic_exec *e);
} logic_mm;

const logic_mm *logic_mm_find(const char *name);
const logic_mm *logic_mm_all(size_t *count);

/* The models, one file each. */
const logic_formula *logic_mm_sc(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_sc_so(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_tso(logic_builder *b, const logic_exec *e);

#endif
