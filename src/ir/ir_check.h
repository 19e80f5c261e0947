/* ir_check: validates a lowered program (the invariants of ir.h). Every
 * problem is one diagnostic at the statement's location. Run by the front
 * end's tests on everything it lowers. */
#ifndef RAVEL_IR_IR_CHECK_H
#define RAVEL_IR_IR_CHECK_H

#include "base/diag.h"
#include "ir/ir.h"

/* Returns the number of problems found (0: the program is well formed). */
unsigned ir_check(const ir_program *p, base_diag *diag);

#endif
