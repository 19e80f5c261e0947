/* check: a model's named checks, and the formula with them made optional.
 *
 * A memory model is a conjunction of checks (herd's `acyclic ... as name`,
 * `irreflexive`, `empty`) beside definitions (the constraints that give a
 * named relation its value, logic_plus and logic_over). A model names its
 * checks with logic_check as it builds them; nothing else changes, the
 * formula stays the same.
 *
 * logic_checks_relax rebuilds a model's formula with every named check c_i
 * found among its top-level conjuncts (through conjunctions and existential
 * SO quantifiers) replaced by  S_i(e0) -> c_i,  where S_i is a fresh set
 * variable and e0 the structure's first element: the ground literal of
 * S_i(e0), the check's selector, switches c_i on and off under
 * assumptions. Only named checks may be dropped: a definition dropped would
 * let its relation shrink to nothing and every check on it hold vacuously.
 * Each check occurs once among the conjuncts; a check nested under another
 * connective stays as it is (always on). */
#ifndef RAVEL_LOGIC_CHECK_H
#define RAVEL_LOGIC_CHECK_H

#include "logic/formula.h"

typedef struct logic_check {
    const logic_formula *f;
    const char *name; /* in b's arena */
    const struct logic_check *next;
} logic_check;

/* Names f (a check of the model) and returns it. */
const logic_formula *logic_check_named(logic_builder *b, const char *name, const logic_formula *f);

/* The name of f if it is a named check, else NULL. */
const char *logic_check_name(const logic_builder *b, const logic_formula *f);

typedef struct logic_relaxed {
    const logic_formula *f;      /* the model's formula with optional checks */
    uint32_t n;                  /* checks found, in the order of the formula */
    const logic_sovar **sel;     /* per check: its selector set variable */
    const char **names;          /* per check */
} logic_relaxed;

/* Fills *out (arrays in b's arena). With no named check among f's
 * conjuncts, out->f is f and out->n is 0. */
void logic_checks_relax(logic_builder *b, const logic_formula *f, logic_relaxed *out);

#endif
