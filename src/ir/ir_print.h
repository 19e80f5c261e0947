/* ir_print: the program in a readable text form close to the KISS
 * language, one statement a line with its index and source line. */
#ifndef RAVEL_IR_IR_PRINT_H
#define RAVEL_IR_IR_PRINT_H

#include "base/strbuf.h"
#include "ir/ir.h"

void ir_print_type(base_strbuf *out, const ir_program *p, const ir_type *t);
void ir_print_expr(base_strbuf *out, const ir_program *p, const ir_expr *e);
void ir_print_program(base_strbuf *out, const ir_program *p);

#endif
