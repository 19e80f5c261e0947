/* ir_cases: a test support library. Each CASES_DIR/NAME.c is lowered (and,
 * with a transform, transformed), its printed IR compared with NAME.ir; an
 * err_NAME.c must fail with exactly the diagnostics in err_NAME.err (paths
 * relative to the folder). With RAVEL_CASES_UPDATE=1 the expectations are
 * written instead: review the diff. */
#ifndef RAVEL_TESTS_SUPPORT_IR_CASES_H
#define RAVEL_TESTS_SUPPORT_IR_CASES_H

#include <stdbool.h>

#include "base/diag.h"
#include "ir/ir.h"

/* Transforms a lowered program in place before it is printed; returns
 * false (with diagnostics) when it cannot. */
typedef bool (*ir_cases_transform)(ir_program *p, base_diag *d);

/* Runs every case in dir (at least min_cases of them) with cmocka asserts. */
void ir_cases_run(const char *dir, ir_cases_transform transform, unsigned min_cases);

#endif
