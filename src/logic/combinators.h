/* combinators: the macros of PrideMM §4, in which memory models are written.
 *
 * Each returns a formula; none looks at a particular structure beyond the
 * relation names. `acyclic` is the paper's, there exists an irreflexive
 * relation T that includes r and is transitive, with transitivity asked
 * only within T's bound: the fill graph of r's possible tuples (minus
 * `exclude`, a fixed relation known never to be in r+, such as conflict in
 * an event structure) under a vertex elimination order
 * (logic_sovar.bound_elim), which contains every edge that contracting a
 * cycle needs. The clauses are the triangles of the fill graph rather than
 * of r's transitive closure: for a ring of n events n * k^2 for small k
 * instead of n^3.
 *
 * A builder in lazy mode (logic_builder.lazy) defers acyclic, the
 * transitivity of logic_plus's variable and that of logic_total_on's
 * order (a total relation without cycles is transitive) to its caller. */
#ifndef RAVEL_LOGIC_COMBINATORS_H
#define RAVEL_LOGIC_COMBINATORS_H

#include "logic/formula.h"

/* forall x y. p(x,y) -> q(x,y) */
const logic_formula *logic_sub(logic_builder *b, const logic_rexpr *p, const logic_rexpr *q);
/* sub(p, q) with unions of p split into one implication each and a
 * sequence a;b written forall x z. a(x,z) -> forall y. b(z,y) -> q(x,y), so
 * that grounding visits only the z where a may hold. */
const logic_formula *logic_sub_split(logic_builder *b, const logic_rexpr *p, const logic_rexpr *q);
/* forall x y. r(x,y) <-> s(x,y) (for defining an SO variable exactly) */
const logic_formula *logic_req(logic_builder *b, const logic_rexpr *r, const logic_rexpr *s);
/* forall x y z. r(x,y) /\ r(y,z) -> r(x,z) */
const logic_formula *logic_trans(logic_builder *b, const logic_rexpr *r);
/* forall x. ~r(x,x) */
const logic_formula *logic_irrefl(logic_builder *b, const logic_rexpr *r);
/* forall x y. ~r(x,y) */
const logic_formula *logic_empty(logic_builder *b, const logic_rexpr *r);
/* exists T. sub(r, T) /\ trans(T) /\ irrefl(T) */
const logic_formula *logic_acyclic(logic_builder *b, const char *name, const logic_rexpr *r,
                                   const logic_rexpr *exclude);
/* acyclic in universal form: every nonempty set of elements has an
 * r-minimal one, forall S. (exists x. S(x)) -> exists x. S(x) /\ forall y.
 * S(y) -> ~r(y,x). Equivalent to logic_acyclic on finite structures, but
 * needs a QBF solver (S is universal). */
const logic_formula *logic_acyclic_so(logic_builder *b, const char *name, const logic_rexpr *r);
/* r is a strict total order on the elements of `set` related by `same`
 * (a fixed equivalence, e.g. same location): trans, irrefl, and any two
 * distinct elements x, y of set with same(x,y) are ordered one way. */
const logic_formula *logic_total_on(logic_builder *b, const logic_rexpr *r, const logic_rexpr *set,
                                    const logic_rexpr *same);
/* r is a partial function: forall x y z. r(x,z) /\ r(y,z) -> x = y (each
 * target has at most one source). */
const logic_formula *logic_functional_inv(logic_builder *b, const logic_rexpr *r);
/* every element of `set` is the target of some r pair. */
const logic_formula *logic_covers(logic_builder *b, const logic_rexpr *r, const logic_rexpr *set);
/* The transitive closure r+, as an existentially bounded SO variable T with
 * sub(r,T) /\ trans(T): sound wherever the model uses it antimonotonically
 * (irreflexive r+;s, acyclic ...). *constraint receives the formula that
 * must be conjoined in the enclosing existential scope. */
const logic_rexpr *logic_plus(logic_builder *b, const char *name, const logic_rexpr *r,
                              const logic_rexpr *exclude, const logic_formula **constraint,
                              const logic_sovar **var);
/* r itself as an existentially bounded SO variable V with sub(r, V) (bound:
 * r's possible tuples minus `exclude`): the same soundness condition as
 * logic_plus. Naming a sub-expression this way keeps grounding from
 * expanding long sequences (a;b;c;d costs n^3 per pair unnamed, n per
 * possible a-pair named step by step). The constraint splits unions, and a
 * sequence p;q is written forall x z. p(x,z) -> forall y. q(z,y) -> V(x,y),
 * so that only the z where p may hold are visited. */
const logic_rexpr *logic_over(logic_builder *b, const char *name, const logic_rexpr *r,
                              const logic_rexpr *exclude, const logic_formula **constraint,
                              const logic_sovar **var);

#endif
