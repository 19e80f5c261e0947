/* lower: a cat program (ast.h) to one formula of the logic layer over a
 * candidate execution (logic/exec.h) — no execution is enumerated here.
 *
 * Names evaluate lazily (a let binds a thunk; an argument is passed by
 * name), so library definitions that use what is not supported cost
 * nothing until used. Values are sets and relations (logic_rexpr),
 * functions, procedures, tags and tuples. herd's universe is the events of
 * the execution: every predefined set and relation is restricted to the
 * configuration X, and so are _, id and complements.
 *
 * Fixpoints and closures are exact where they must be and cheap where
 * they may be. Each expression is lowered in a mode: OVER where the
 * enclosing check is antimonotone in it (the operand of a positive
 * acyclic, irreflexive or empty check, through | & ; * ^-1 [ ] domain range
 * and the left of \), EXACT elsewhere (right of \, under ~, flags,
 * negated checks). In OVER mode r+ is an SO variable T with r <= T and T
 * transitive, and let rec x = f(x) an SO variable X with f(X) <= X (a
 * prefixpoint): the solver may choose the least, so the check holds for
 * some choice iff it holds for the least fixpoint. In EXACT mode r+ is
 * ceil(log2 n) squarings, each an SO variable defined by <->, and let rec
 * is unrolled from the empty relation as many times as there are
 * possible tuples (Kleene iteration, exact for monotone definitions); each
 * such exact variable is a definition the grounder inlines
 * (logic_sovar.def). The definitions of SO variables that no check, flag
 * or kept variable mentions are dropped before the formula is built.
 *
 * Checks (acyclic, irreflexive, empty) are conjoined into the consistency
 * formula; `flag` checks become logic_mm_flag formulas; `show`, `unshow`
 * and `debug` do nothing; `requires` checks become the undefined flag
 * (logic/mm.h). What is not supported (docs/manual.md: `assert` on the
 * execution, herd primitives such as tag2scope or lift) is an error naming
 * the construct at its file:line:col, when evaluation reaches it. */
#ifndef RAVEL_CAT_LOWER_H
#define RAVEL_CAT_LOWER_H

#include "base/diag.h"
#include "cat/ast.h"
#include "logic/exec.h"
#include "logic/mm.h"

/* Lowers prog over e. Returns the consistency formula (its SO variables
 * quantified inside), and in *flags and *nflags (b's arena) the flags; NULL
 * after reporting an error to diag. */
const logic_formula *cat_lower(const cat_ins_list *prog, logic_builder *b, const logic_exec *e,
                               const logic_mm_flag **flags, uint32_t *nflags, base_diag *diag);

#endif
