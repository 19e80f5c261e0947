/* simulate: decide a litmus test under a memory model.
 *
 * test -> event structure -> logic structure (logic/vocab.h) -> the model's
 * formula over candidate executions -> ground to CNF -> CaDiCaL.
 *
 * Two questions:
 *  - full (herd's): enumerate every consistent execution, one SAT call each,
 *    blocking the rf and co it used; collect the distinct final states and
 *    count the executions that satisfy the condition (Positive) and those
 *    that do not (Negative);
 *  - verdict only: two SAT calls, under the assumption that the condition
 *    holds and that it fails, give Never / Sometimes / Always without
 *    enumerating anything.
 *
 * For a model with undefined behaviour (logic_mm_undef, C11's
 * data races), one more SAT call before either asks whether some consistent
 * execution (passing the filter) is undefined; herd reports such a test as
 * `Undef` whatever its condition, and so does report/.
 *
 * A model with a universal second-order quantifier (or options.qbf) takes
 * the same two questions to a QBF instead: grounding records the clauses
 * and the quantifier levels (logic/ground.h, QBF mode) and sat/qbf decides;
 * enumeration blocks executions with clauses over the outermost
 * existential variables (X, rf, co), which sat/qbf adds incrementally.
 *
 * Nothing here prints: the result goes to report/. */
#ifndef RAVEL_LITMUS_SIMULATE_H
#define RAVEL_LITMUS_SIMULATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "litmus/evstruct.h"
#include "litmus/test.h"
#include "logic/mm.h"

typedef enum litmus_observation {
    LITMUS_OBS_NEVER,
    LITMUS_OBS_SOMETIMES,
    LITMUS_OBS_ALWAYS,
} litmus_observation;

typedef enum litmus_status {
    LITMUS_DECIDED,
    LITMUS_UNKNOWN, /* see result.reason */
} litmus_status;

struct sat_qbf;

typedef struct litmus_options {
    const logic_mm *model;
    /* QBF: a model with a universal second-order quantifier is always
     * grounded to a QBF and decided by sat/qbf. qbf asks for that path for
     * every model (an existential-only formula is a one-level QBF). */
    bool qbf;
    /* If set (implies qbf): called once with the QBF of the consistent
     * executions (model and filter, before the condition), e.g. to write it. */
    void (*qbf_dump)(void *ctx, const struct sat_qbf *q);
    /* If set (implies qbf and verdict_only): decides each QBF instead of
     * sat/qbf, e.g. by running an external solver; SAT_UNKNOWN if it fails. */
    int (*qbf_solve)(void *ctx, const struct sat_qbf *q); /* a sat_result */
    void *qbf_ctx;
    bool verdict_only;
    bool want_witness;   /* keep one execution for --dot */
    /* When the condition's outcome is forbidden, say which of the model's
     * checks forbid it (litmus_explanation). SAT models only. */
    bool explain;
    double deadline;     /* absolute base_now() time; 0 for none */
    uint64_t max_clauses; /* grounding budget; past it the answer is unknown (0: none) */
    uint32_t max_memory_mb; /* the --max-memory that max_clauses stands for (0: --max-clauses) */
    litmus_es_limits limits;
} litmus_options;

/* One execution, for drawing: the events of X and its rf and co edges. */
typedef struct litmus_witness {
    bool present;
    bool positive;    /* it satisfies the condition */
    bool *in_x;       /* per event */
    uint32_t *rf;     /* pairs (write, read), flattened */
    uint32_t nrf;
    uint32_t *co;     /* pairs (earlier, later) of immediate coherence steps */
    uint32_t nco;
} litmus_witness;

/* Why the condition's outcome (for forall: its failure) is forbidden. The
 * outcome is allowed once some set of the model's named checks
 * (logic/check.h) is dropped; sets are the smallest such sets, as bit masks
 * over checks. The witness is a candidate execution with the outcome in
 * which every check of sets[0] fails and every other check holds. */
typedef enum litmus_explain_kind {
    LITMUS_EXPLAIN_ALLOWED,      /* the model allows the outcome: nothing to explain */
    LITMUS_EXPLAIN_CHECKS,       /* sets[] say which checks forbid it */
    LITMUS_EXPLAIN_NO_CANDIDATE, /* no candidate execution has it, whatever the model */
    LITMUS_EXPLAIN_UNKNOWN,      /* see reason */
} litmus_explain_kind;

typedef struct litmus_explanation {
    bool asked;
    litmus_explain_kind kind;
    char reason[160];
    char **checks;               /* the model's check names, in formula order (owned) */
    uint32_t nchecks;
    uint64_t *sets;              /* smallest sets of checks to drop (owned) */
    uint32_t nsets;
    litmus_witness witness;      /* for sets[0] */
    litmus_value *state;         /* the witness's final state (test->nobs values) */
} litmus_explanation;

typedef struct litmus_result {
    litmus_status status;
    char reason[256];          /* for UNKNOWN */
    bool verdict_only;
    litmus_observation obs;
    bool ok;                   /* the quantified condition holds (herd's Ok / No) */
    bool undef_checked;        /* the model has undefined behaviour and it was asked about */
    bool undefined;            /* some consistent execution has undefined behaviour */
    uint64_t positive, negative; /* executions; full mode only */
    char **flags;              /* the model's flags some consistent execution raises (owned) */
    uint32_t nflags;
    litmus_value *states;      /* nstates rows of test->nobs values, sorted */
    uint32_t nstates;
    litmus_evstruct es;
    litmus_witness witness;
    litmus_explanation explain; /* options.explain */
    /* problem size and time (QBF mode: clauses of the largest QBF, and QBF
     * solves) */
    int sat_vars;
    uint64_t sat_clauses, sat_solves;
    /* seconds: the event structure; the logic structure and the model's
     * formula; grounding; solving (enumeration, or the verdict's two
     * calls, flags, explanations); all of litmus_simulate */
    double time_es, time_build, time_ground, time_solve, time_total;
    double time_parse; /* set by the caller (0 if not): reading and parsing the file */
} litmus_result;

/* Fills *res (which the caller frees with litmus_result_free). Returns false
 * only when the test cannot be represented (a diagnostic says why); a
 * timeout or a model that needs QBF gives true with status UNKNOWN. */
bool litmus_simulate(const litmus_test *t, const litmus_options *opt, litmus_result *res,
                     base_diag *diag);
void litmus_result_free(litmus_result *res);
/* Evaluates a condition proposition on one final state (values of test->obs). */
bool litmus_prop_eval(const litmus_test *t, const litmus_prop *p, const litmus_value *state);

#endif
