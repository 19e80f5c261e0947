/* cemit: a sequential IR program as plain, compilable C (`ravel seq`).
 *
 * The output is one self-contained C file that includes no header: every
 * struct and union is defined from the IR's layout (a member without a
 * name gets one, `anonN`), every object and function is declared with C's
 * declarator syntax built from its IR type, and the control flow is gotos
 * between labelled statements. Nondeterminism and the property use
 * SV-COMP's conventions, so any sequential C verifier can check the file:
 * nondet values are `__VERIFIER_nondet_<type>()` calls, assume is
 * `__VERIFIER_assume(c)`, and a failing assertion calls `reach_error()`.
 * The program's `main` runs the global initialisers, then `entry`.
 *
 * Names are the IR's with characters C does not allow replaced by `_`;
 * user functions whose names the output defines itself (main, reach_error,
 * __VERIFIER_*) are renamed `user_<name>`. */
#ifndef RAVEL_CEMIT_CEMIT_H
#define RAVEL_CEMIT_CEMIT_H

#include "base/strbuf.h"
#include "ir/ir.h"

void cemit_program(base_strbuf *out, const ir_program *p, const ir_func *entry);

#endif
