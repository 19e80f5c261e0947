/* ir_print: the program in a readable text form close to the KISS
 * language, one statement a line with its index and source line. */
#ifndef RAVEL_IR_IR_PRINT_H
#define RAVEL_IR_IR_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "ir/ir.h"

void ir_print_type(base_strbuf *out, const ir_program *p, const ir_type *t);
void ir_print_expr(base_strbuf *out, const ir_program *p, const ir_expr *e);
/* The selectors that reach byte `off` inside an object of type t, as C
 * writes them: [2].next, then +N for what is left inside a field or element
 * (used for addresses in traces: &a[2].next+1). */
void ir_print_offset_path(base_strbuf *out, const ir_program *p, const ir_type *t, uint64_t off);
void ir_print_stmt(base_strbuf *out, const ir_program *p, const ir_stmt *s);
void ir_print_program(base_strbuf *out, const ir_program *p);
const char *ir_stmt_kind_name(ir_stmt_kind k);
const char *ir_op_name(ir_op op);
const char *ir_lock_kind_name(ir_lock_kind k);

/* Options of the program printer. With source_line set, each run of
 * statements from one source line is preceded by a comment holding that
 * line's text (source_line returns it trimmed, or NULL when unknown);
 * without it each statement ends with `// line N`. */
typedef struct ir_print_opts {
    const char *(*source_line)(void *ctx, const char *file, uint32_t line);
    void *ctx;
    bool skip_empty_init; /* omit __ravel_init when it has no statement */
} ir_print_opts;

void ir_print_program_opts(base_strbuf *out, const ir_program *p, const ir_print_opts *o);

#endif
