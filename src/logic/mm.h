/* mm: the memory-model library. Each model is a formula over a candidate
 * execution (logic/exec.h), written with the combinators — never a
 * hand-coded search. `ravel litmus --list-models` prints this table.
 *
 * A model that gives some executions undefined behaviour (C11's data races
 * on non-atomics) also has an undef builder (logic_mm_undef): it returns
 * the same consistency formula, and in *undef a formula over the execution
 * that holds when that execution's behaviour is undefined. *undef may
 * mention SO variables that the consistency formula quantifies
 * existentially (such as hb): the caller grounds it after the consistency
 * formula, when their tables exist, and asks only whether some consistent
 * execution satisfies it — so those variables must occur in *undef where
 * the model's least choice of them is also the choice most favourable to
 * *undef. */
#ifndef RAVEL_LOGIC_MM_H
#define RAVEL_LOGIC_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "logic/exec.h"

/* A named flag of a model (herd's `flag` checks): a formula over the
 * execution; the flag is raised when some consistent execution satisfies
 * it. Like an undef formula, it may mention the SO variables of the
 * consistency formula (the caller grounds it after that formula). */
typedef struct logic_mm_flag {
    const char *name;
    const logic_formula *f;
} logic_mm_flag;
/* The flag of a model's undefined behaviour (cat's `requires`, herd's
 * "*undef*"): raised, it makes the result undefined, not a Flag line. */
#define LOGIC_MM_FLAG_UNDEF "*undef*"

typedef struct logic_mm logic_mm;
/* A model defined at run time (a cat file, src/cat): returns the
 * consistency formula, or NULL when it cannot be built (*error says why),
 * and in *flags (arena of b) its flags. */
typedef const logic_formula *(*logic_mm_build_fn)(const logic_mm *m, logic_builder *b,
                                                  const logic_exec *e,
                                                  const logic_mm_flag **flags,
                                                  uint32_t *nflags, const char **error);

struct logic_mm {
    const char *name;
    const char *summary;
    bool needs_qbf; /* full second-order: a universal SO quantifier */
    /* The model judges the configuration X alone (jr): rf and co are left
     * empty (logic_exec_config_only), an execution is its X, and reads may
     * return every value some write of any branch stores
     * (litmus_es_limits.every_write_value). There is no coherence order, so
     * final values of memory locations are not defined. */
    bool config_only;
    /* The model reads the values of events (cat's different-values): every
     * read forks (litmus_es_limits.fork_all_reads), since a symbolic read
     * has no value of its own. */
    bool needs_values;
    const logic_formula *(*consistent)(logic_builder *b, const logic_exec *e);
    /* Set for a model defined at run time: used instead of consistent. */
    logic_mm_build_fn build;
    const void *ctx; /* the build function's data (a cat model) */
};

typedef const logic_formula *(*logic_mm_undef_fn)(logic_builder *b, const logic_exec *e,
                                                  const logic_formula **undef);

const logic_mm *logic_mm_find(const char *name);
const logic_mm *logic_mm_all(size_t *count);
/* The undef builder of a model with undefined behaviour, else NULL. */
logic_mm_undef_fn logic_mm_undef(const logic_mm *m);

/* The models, one file each. */
const logic_formula *logic_mm_sc(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_sc_so(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_tso(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_ra(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_c11(logic_builder *b, const logic_exec *e);
const logic_formula *logic_mm_jr(logic_builder *b, const logic_exec *e);
/* jr's unrolling bound less one: the most reads a configuration can have
 * (per thread, the most reads on one path, summed). */
uint32_t logic_mm_jr_read_depth(const logic_structure *st);
/* undef may be NULL */
const logic_formula *logic_mm_c11_undef(logic_builder *b, const logic_exec *e,
                                        const logic_formula **undef);

#endif
