/* test: a litmus test as its author wrote it.
 *
 * The LISA front end (lisa_parse.h) and the C one (c_parse.h) produce a
 * litmus_test; the event
 * structure (evstruct.h) is built from it; the report prints its condition
 * back. Nothing here knows about memory models.
 *
 * Invariants:
 *  - every register index in an instruction is < thread->nregs;
 *  - every location index is < test->nlocs;
 *  - a branch's target is an instruction index <= thread->ninstrs (== ninstrs
 *    means "jump to the end");
 *  - annotation sets are sorted by symbol and free of duplicates;
 *  - everything is allocated in test->arena and freed with litmus_test_free. */
#ifndef RAVEL_LITMUS_TEST_H
#define RAVEL_LITMUS_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/intern.h"
#include "base/srcloc.h"

/* A value: an integer, or the address of a location plus an offset (a
 * code location's address is a code address, litmus_location.code), or an
 * instruction (AArch64's `instr:"B .+8"`), or an undefined one: what
 * arithmetic the reader cannot do computed (an instruction minus another;
 * evstruct.c refuses the test when it is used), or a symbol (a final value
 * out of thin air, see LITMUS_VAL_SYM). */
typedef enum litmus_value_kind {
    LITMUS_VAL_INT,
    LITMUS_VAL_ADDR,
    LITMUS_VAL_INSTR,
    LITMUS_VAL_UNDEF,
    /* A value out of thin air (herd's symbolic S<num>): a read whose value
     * no constant determines (litmus/simulate). It equals itself only. */
    LITMUS_VAL_SYM,
} litmus_value_kind;

typedef struct litmus_value {
    litmus_value_kind kind;
    uint32_t loc; /* ADDR: the location; INSTR: the instruction's text (a base_sym) */
    int64_t num;  /* INT: the number; ADDR: the offset (0 for a plain address) */
} litmus_value;

static inline litmus_value litmus_int(int64_t n)
{
    litmus_value v = { LITMUS_VAL_INT, 0, n };
    return v;
}
static inline litmus_value litmus_addr(uint32_t loc)
{
    litmus_value v = { LITMUS_VAL_ADDR, loc, 0 };
    return v;
}
static inline bool litmus_value_eq(litmus_value a, litmus_value b)
{
    return a.kind == b.kind && a.num == b.num && (a.kind == LITMUS_VAL_INT || a.loc == b.loc);
}
/* Total order: integers (numerically), then addresses (by location, offset),
 * then instructions. */
int litmus_value_cmp(litmus_value a, litmus_value b);

/* An operand: a register, an immediate, or a location's address. */
typedef enum litmus_operand_kind {
    LITMUS_OPND_REG,
    LITMUS_OPND_IMM,
    LITMUS_OPND_LOC,
} litmus_operand_kind;

typedef struct litmus_operand {
    litmus_operand_kind kind;
    uint32_t reg;     /* REG */
    int64_t imm;      /* IMM */
    uint32_t loc;     /* LOC */
} litmus_operand;

static inline litmus_operand litmus_reg_operand(uint32_t reg)
{
    litmus_operand o = { LITMUS_OPND_REG, reg, 0, 0 };
    return o;
}
static inline litmus_operand litmus_imm_operand(int64_t imm)
{
    litmus_operand o = { LITMUS_OPND_IMM, 0, imm, 0 };
    return o;
}

/* An expression of mov and rmw: an operand or an operator on two. */
typedef enum litmus_op {
    LITMUS_OP_NONE, /* a plain operand */
    LITMUS_OP_ADD,
    LITMUS_OP_SUB,
    LITMUS_OP_MUL,
    LITMUS_OP_XOR,
    LITMUS_OP_AND,
    LITMUS_OP_OR,
    LITMUS_OP_EQ,
    LITMUS_OP_NE,
    LITMUS_OP_LT,   /* signed comparisons, 1 or 0 (C's <, <=; > and >= swap operands) */
    LITMUS_OP_LE,
    LITMUS_OP_SHL,  /* lhs << rhs (64 bits) */
    LITMUS_OP_SHR,  /* lhs >> rhs, logical (64 bits) */
    LITMUS_OP_SEXT32, /* lhs's low 32 bits, sign-extended (rhs ignored) */
    LITMUS_OP_ZEXT32, /* lhs's low 32 bits, zero-extended (rhs ignored; an address stays) */
    LITMUS_OP_LTU,  /* unsigned lhs < rhs, 1 or 0 */
    LITMUS_OP_ASR,  /* lhs >> rhs, arithmetic (64 bits) */
    /* cond != 0 ? lhs : rhs, AArch64's conditional select: the result
     * depends on the operand it selects as that operand does, and on what
     * cond depends on by a pick dependency (herd's iico_ctrl) */
    LITMUS_OP_SEL,
} litmus_op;

typedef struct litmus_expr litmus_expr;
struct litmus_expr {
    litmus_op op;
    litmus_operand opnd;   /* op == NONE */
    litmus_expr *lhs, *rhs; /* otherwise */
    litmus_expr *cond;      /* SEL */
};

/* An address: a base (location or register holding an address) plus an
 * optional offset (register or immediate), as in `x`, `r1`, `x+r2`. */
typedef struct litmus_address {
    litmus_operand base;    /* LOC or REG */
    bool has_offset;
    litmus_operand offset;  /* REG or IMM */
} litmus_address;

typedef enum litmus_instr_kind {
    LITMUS_I_NOP,    /* an empty cell, or a cell holding only a label */
    LITMUS_I_READ,   /* r[annots] reg addr */
    LITMUS_I_WRITE,  /* w[annots] addr value */
    LITMUS_I_FENCE,  /* f[annots] */
    LITMUS_I_RMW,    /* rmw[annots] reg expr addr: reg := *addr; *addr := expr */
    LITMUS_I_MOV,    /* mov reg expr */
    LITMUS_I_BRANCH, /* b[annots] reg LABEL (jump when reg != 0), or b[] LABEL */
    LITMUS_I_CALL,   /* call[name] */
    /* C's compare-and-swap (no LISA syntax): reg := *addr; if reg == cmp then
     * *addr := value, the read and the write forming an rmw with `annots`,
     * else the read alone, with `fail_annots`; ok_reg := 1 on success, 0 on
     * failure. A weak one may also fail when reg == cmp (spuriously). */
    LITMUS_I_CAS,
    /* A store-conditional (RISC-V sc, riscv_parse.c): it may fail, ok_reg :=
     * 1 and no event; or, when the thread's reservation (the last READ with
     * `reserve` since the last SC) is on the same location, succeed: a write
     * of `value` forming an rmw with the reserving read, ok_reg := 0. Either
     * way the reservation is gone. */
    LITMUS_I_SC,
} litmus_instr_kind;

typedef struct litmus_annots {
    base_sym *syms;
    uint32_t count;
} litmus_annots;

typedef struct litmus_instr {
    litmus_instr_kind kind;
    base_srcloc loc;
    litmus_annots annots;
    uint32_t reg;          /* READ, RMW, MOV: destination; BRANCH: condition */
    bool has_reg;          /* BRANCH: false for an unconditional jump */
    litmus_address addr;   /* READ, WRITE, RMW */
    litmus_operand value;  /* WRITE: REG or IMM (or LOC: storing an address); CAS: desired */
    litmus_operand cmp;    /* CAS: the expected value (REG or IMM) */
    uint32_t ok_reg;       /* CAS: receives 1 when it succeeded, else 0; SC: 0 on
                            * success, 1 on failure (UINT32_MAX: not kept) */
    litmus_annots fail_annots; /* CAS: the annotations of a failed CAS's read */
    bool fail_rmw;         /* CAS: a failed CAS's read is still in the set RMW (herd's C
                            * __cmpxchg, whose failure herd7 makes an R* event) */
    bool weak;             /* CAS: may fail spuriously */
    bool alt_deps;         /* CAS: herd7's AArch64 CAS (7.58): each outcome in two candidate
                            * executions. A success: the old value's register takes its
                            * data from the memory read, or from the compared register
                            * (a pick dependency on the read). A failure: no write, or a
                            * write back of the value read, in an rmw with the read. */
    bool reserve;          /* READ: a load-reserve (RISC-V lr), for a later SC */
    bool has_wannots;      /* RMW, CAS: the write has its own annotations... */
    litmus_annots wannots; /* ...these (AArch64's SWPL: L on the write only) */
    litmus_expr *expr;     /* RMW, MOV */
    uint32_t target;       /* BRANCH: instruction index */
    base_sym label;        /* BRANCH: the label's name; CALL: the callee */
    /* herd's C primitives (litmus/c_macros.h): */
    /* (wannots above: also set, with count > 0, by herd's C primitives) */
    litmus_annots fence_annots; /* RMW, CAS: when count > 0, a fence annotated so before the
                                 * read and after the write (CAS: on success only) */
    bool indirect;         /* BRANCH (has_reg): jumps to the code address reg holds (AArch64's
                            * BR, BLR, RET); target unused */
    uint32_t ctrl_until;   /* BRANCH on a register: the control dependency on the register's
                            * reads ends at this instruction (a C `if`: where the statement
                            * ends); 0: it never ends (LISA's jumps) */
    bool located;          /* FENCE: the event also has addr's location and value's value
                            * (herd's lock and SRCU events, which are not memory accesses) */
    bool choice;           /* FENCE: a free choice (herd's spin_trylock, spin_is_locked): the
                            * event annotated `annots` with ok_reg := 1, or one annotated
                            * `fail_annots` with ok_reg := 0; each continues the thread */
    /* CAS with pair (AArch64's CASP): a second access at addr2, of another
     * location: reg2 := *addr2 too, and the CAS succeeds when both values
     * equal cmp and cmp2; it then writes value to addr and value2 to addr2,
     * each write forming an rmw with the read of its own location; else the
     * two reads alone, with fail_annots.
     * READ with reserve and pair (AArch64's LDXP): reg := *addr, reg2 :=
     * *addr2, one single-copy-atomic access reserving both cells. SC with
     * pair (STXP): on a pair reservation of addr and addr2, value to addr
     * and value2 to addr2, one single-copy-atomic access, each write in rmw
     * with the reserving read of its cell. */
    bool pair;
    litmus_address addr2;
    litmus_operand cmp2, value2;
    uint32_t reg2;
} litmus_instr;

typedef struct litmus_reg_init {
    uint32_t reg;
    litmus_value value;
} litmus_reg_init;

/* herd's C type of a register (AArch64's init block: `uint64_t 0:X0`):
 * a final value is taken as that type, in the states and the condition. */
typedef enum litmus_reg_type {
    LITMUS_RT_INT,    /* int, herd's default: the low 32 bits, signed */
    LITMUS_RT_UINT32, /* the low 32 bits, unsigned */
    LITMUS_RT_INT64,  /* 64 bits (uint64_t too) */
    LITMUS_RT_INT8, LITMUS_RT_UINT8, LITMUS_RT_INT16, LITMUS_RT_UINT16,
    LITMUS_RT_UINT64, /* 64 bits, printed unsigned (AArch64's uint64_t) */
} litmus_reg_type;

/* v as a variable of that type holds it (an address stays). */
litmus_value litmus_typed_value(litmus_reg_type type, litmus_value v);

typedef struct litmus_thread {
    uint32_t proc;         /* the N of PN */
    uint8_t *reg_types;    /* NULL (values as computed), or per register a litmus_reg_type */
    litmus_instr *instrs;
    uint32_t ninstrs;
    base_sym *regs;        /* register index -> name */
    uint32_t nregs;
    litmus_reg_init *inits;
    uint32_t ninits;
} litmus_thread;

typedef struct litmus_location {
    base_sym name;
    litmus_value init;     /* 0 unless the init block says otherwise */
    base_srcloc loc;       /* where it was first mentioned */
    /* An array's first cell (cells > 1): its other cells are the next
     * cells - 1 locations, named NAME[1] ..., cell_size bytes apart
     * (address NAME + k * cell_size is the location k after it). */
    uint32_t cells, cell_size;
    uint32_t cell;         /* this location's index in its array (0: none or the first) */
    bool typed;            /* AArch64: every value written is taken as `type` (init too) */
    uint8_t type;          /* a litmus_reg_type */
    /* A code location (AArch64's labels as values, `P1:L0`): its address is
     * the code address of the instruction a label names, printed
     * `label:"P1:L0"`; its initial value is that instruction (INSTR). A
     * thread may run another's code (a branch to a register): each thread
     * holds a copy of the code of every thread with code locations, and
     * code_targets[th] is the instruction index, in thread th, to jump to. */
    bool code;
    uint32_t *code_targets;
} litmus_location;

/* How a location of an array is named in the condition and the final
 * states (AArch64, as herd prints them): PLAIN `[x]`, CELL `x[k]` (the
 * location is cell k of its array), ARRAY one cell of the whole array
 * `x={v0,v1,...}` (the observables of an array's cells are kept together
 * in cell order; an AND of its cells' atoms, each ARRAY, is printed as one
 * atom). */
typedef enum litmus_shape {
    LITMUS_SHAPE_PLAIN,
    LITMUS_SHAPE_CELL,
    LITMUS_SHAPE_ARRAY,
} litmus_shape;

/* The final condition's propositions. */
typedef enum litmus_prop_kind {
    LITMUS_P_TRUE,
    LITMUS_P_FALSE,
    LITMUS_P_REG,    /* thread:reg = value */
    LITMUS_P_LOC,    /* location = value */
    LITMUS_P_NOT,
    LITMUS_P_AND,
    LITMUS_P_OR,
    LITMUS_P_IMPLIES,
    LITMUS_P_SAME,   /* lhs = rhs, two REG/LOC atoms (values unused): equal final values */
} litmus_prop_kind;

typedef struct litmus_prop litmus_prop;
struct litmus_prop {
    litmus_prop_kind kind;
    base_srcloc loc;
    uint32_t thread;    /* REG: index into test->threads */
    uint32_t reg;       /* REG */
    uint32_t location;  /* LOC */
    litmus_value value; /* REG, LOC */
    litmus_prop *lhs, *rhs; /* NOT uses lhs */
    uint8_t shape;      /* LOC, AND: a litmus_shape */
};

typedef enum litmus_quant {
    LITMUS_Q_EXISTS,     /* exists p: Ok when some execution satisfies p */
    LITMUS_Q_NOT_EXISTS, /* ~exists p: Ok when none does */
    LITMUS_Q_FORALL,     /* forall p: Ok when all do */
} litmus_quant;

/* An observable of the final state: a register or a location. */
typedef struct litmus_observable {
    bool is_reg;
    uint32_t thread, reg; /* is_reg */
    uint32_t location;    /* !is_reg */
    uint8_t shape;        /* !is_reg: a litmus_shape */
} litmus_observable;

/* A node of herd's scope tree (a LISA test's `scopes:` section, e.g.
 * `(system (gpu (cta P0) (cta P1)))`): one instance of the scope level
 * `name`, holding the threads procs[lo..hi) of litmus_test.scope_procs
 * (a node's subtree lists its threads contiguously, in pre-order). */
typedef struct litmus_scope {
    const char *name;
    uint32_t lo, hi;
} litmus_scope;

typedef struct litmus_test {
    base_arena arena;
    base_intern_pool *syms; /* borrowed: shared by every test of a run */
    const char *file;       /* path as given (borrowed from arena) */
    const char *arch;       /* "LISA", "Bell" or "C" */
    const char *name;
    const char *doc;        /* the optional quoted doc string, or NULL */
    litmus_location *locs;
    uint32_t nlocs;
    litmus_thread *threads;
    uint32_t nthreads;
    litmus_quant quant;
    litmus_prop *cond;
    litmus_prop *filter;    /* NULL when absent */
    /* Observables: the `locations [...]` list, then every register and
     * location the condition and filter mention, without duplicates, in
     * herd's print order (registers by thread then name, then locations by
     * name). */
    litmus_observable *obs;
    uint32_t nobs;
    /* herd's scope tree, pre-order (NULL, 0 without `scopes:`); its
     * threads in scope_procs. scopes_bad: a `scopes:` section ravel could
     * not read as such a tree (then nscopes is 0). */
    litmus_scope *scopes;
    uint32_t nscopes;
    uint32_t *scope_procs;
    uint32_t nscope_procs;
    bool scopes_bad;
} litmus_test;

void litmus_test_free(litmus_test *t);
/* v as register reg of th holds it in the final state (th->reg_types). */
litmus_value litmus_reg_value(const litmus_thread *th, uint32_t reg, litmus_value v);
/* Looks up a location by name; UINT32_MAX when absent. */
uint32_t litmus_test_find_loc(const litmus_test *t, base_sym name);
/* Sorts and deduplicates the observables in herd's print order. */
void litmus_test_sort_observables(litmus_test *t);

#endif
