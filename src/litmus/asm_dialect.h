/* asm_dialect: an assembly language read in herd's table layout.
 *
 * herd's hardware litmus tests share LISA's shape (lisa_parse.h): a header
 * line, an init block, thread columns separated by '|', rows ended by ';',
 * then the final condition. Only the instructions and the register names
 * differ. A dialect supplies those two; lisa_parse.c reads the rest and
 * gives the dialect a context to append instructions to the current
 * thread. Each dialect lives in a file of its own (riscv_parse.c). */
#ifndef RAVEL_LITMUS_ASM_DIALECT_H
#define RAVEL_LITMUS_ASM_DIALECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "litmus/parse_common.h"
#include "litmus/test.h"

typedef struct litmus_asm_ctx litmus_asm_ctx;

typedef struct litmus_asm_dialect {
    const char *arch; /* the test's first word, e.g. "RISCV" */
    /* Is t a register name of this architecture? */
    bool (*is_reg)(const litmus_token *t);
    /* The name a register is kept and printed under (herd prints RISC-V's
     * a0 as x10): written to buf, NUL-terminated. */
    void (*canon_reg)(const litmus_token *t, char *buf, size_t n);
    /* One instruction whose mnemonic op has just been consumed (the cursor
     * is on its first operand): reads the operands up to the end of the
     * cell and appends one or more instructions with litmus_asm_emit, each
     * a copy of `in` (which carries the source position) with its fields
     * set. false after reporting an error. */
    bool (*instr)(litmus_asm_ctx *c, litmus_instr in, const litmus_token *op);
    /* The number of the register t names, -1 if none (litmus_asm_src_reg). */
    int (*reg_number)(const litmus_token *t);
    const char *reg_what; /* "an AArch64 register", for errors */
} litmus_asm_dialect;

/* The shared parser (its cursor, the test, error reporting). */
litmus_parser *litmus_asm_parser(litmus_asm_ctx *c);
/* The index of register t in the current thread (added when new). */
uint32_t litmus_asm_reg(litmus_asm_ctx *c, const litmus_token *t);
/* A register no test can name (name should start with '%'). */
uint32_t litmus_asm_temp(litmus_asm_ctx *c, const char *name);
void litmus_asm_emit(litmus_asm_ctx *c, const litmus_instr *in);
/* A label for the instruction delta instructions after the one being read
 * (0: itself, negative: before it; one past the last: the thread's end). */
base_sym litmus_asm_pc_label(litmus_asm_ctx *c, int64_t delta);
litmus_expr *litmus_asm_leaf(litmus_asm_ctx *c, litmus_operand o);
litmus_expr *litmus_asm_binop(litmus_asm_ctx *c, litmus_op op, litmus_operand a,
                              litmus_operand b);
/* An operator on two expressions (and SEL's condition, else NULL). */
litmus_expr *litmus_asm_node(litmus_asm_ctx *c, litmus_op op, litmus_expr *lhs, litmus_expr *rhs,
                             litmus_expr *cond);
/* The code location (test.h's litmus_location.code) of the current
 * thread's label, and the one of the instruction after the one being read
 * (a return address; at: where it is named). */
uint32_t litmus_asm_code_label(litmus_asm_ctx *c, const litmus_token *label);
uint32_t litmus_asm_code_next(litmus_asm_ctx *c, const litmus_token *at);
/* The sorted annotation set of the given names. */
litmus_annots litmus_asm_annots(litmus_asm_ctx *c, const char *const *names, uint32_t n);


/* The operands every dialect reads (asm_dialect.c). `zero` is the number
 * of the dialect's zero register, which reads as 0 and whose writes go to
 * the hidden register `zero_temp`. Each reports its own error. */
bool litmus_asm_comma(litmus_asm_ctx *c);
/* The register at the cursor, not consumed: its number in *num. */
bool litmus_asm_need_reg(litmus_asm_ctx *c, int *num);
/* A source register (consumed): the zero register is the immediate 0. */
bool litmus_asm_src_reg(litmus_asm_ctx *c, int zero, litmus_operand *o);
/* A destination register (consumed). */
bool litmus_asm_dst_reg(litmus_asm_ctx *c, int zero, const char *zero_temp, uint32_t *reg);
/* The dialect being read. */
const litmus_asm_dialect *litmus_asm_dialect_of(litmus_asm_ctx *c);

/* The token kinds of '#' and '!' in the table layout's lexer. */
enum { LITMUS_ASM_T_HASH = LITMUS_T_NSHARED + 4, LITMUS_ASM_T_BANG };

extern const litmus_asm_dialect litmus_riscv_dialect;   /* riscv_parse.c */
extern const litmus_asm_dialect litmus_aarch64_dialect; /* aarch64_parse.c */
extern const litmus_asm_dialect litmus_x86_64_dialect;  /* x86_64_parse.c */

#endif
