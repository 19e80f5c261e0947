/* ir_json: the program as JSON, for other tools (`ravel ir --json`).
 *
 * One object: {"ptr_bytes", "globals": [...], "functions": [...]}. Types
 * are their printed form ("i32", "struct s*"); expressions are trees of
 * objects {"kind", "type", ...operands}; each statement is an object with
 * "index", "kind", "file", "line", "col", its operands by the names of
 * ir.h (lhs, rhs, callee, args, targets, cands, lock_kind, ...) and "text",
 * the statement as `ravel ir` prints it. */
#ifndef RAVEL_IR_IR_JSON_H
#define RAVEL_IR_IR_JSON_H

#include "base/strbuf.h"
#include "ir/ir.h"

void ir_json_program(base_strbuf *out, const ir_program *p);

#endif
