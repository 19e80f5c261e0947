/* ir: the intermediate program shared by the checker (kiss, bmc) and the
 * deadlock detector — the KISS parallel language grown to C.
 *
 * A program is globals plus functions. A function body is a goto program
 * (as in CBMC): a numbered sequence of simple statements, each falling
 * through to the next unless it is a GOTO, which jumps to one of its
 * targets when its guard holds (a choice when several targets and a
 * nondeterministic guard). Expressions are side-effect free, typed trees
 * with C's integer widths and signedness; an lvalue keeps its access path
 * (`s->m.lock` is FIELD(FIELD(DEREF(VAR s), m), lock)), which is what
 * lock identities (deadlock) and race targets (kiss) are built from.
 *
 * Concurrency is explicit: thread start and join, atomic begin/end, and
 * lock operations are statements, not calls, so neither analysis needs to
 * know pthread's or C11's function names.
 *
 * Ownership: every node lives in the program's arena (ir_program_free).
 * Invariants (checked by ir_check): every GOTO target is a statement index
 * of its function (or == nstmts, the exit); expression types agree with
 * their operands; assignment sides have the same type; every statement has
 * a source location. */
#ifndef RAVEL_IR_IR_H
#define RAVEL_IR_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/intern.h"
#include "base/srcloc.h"

/* --- types --- */

typedef enum ir_type_kind {
    IR_T_VOID,
    IR_T_INT,    /* bits, is_signed; _Bool is 1 bit unsigned */
    IR_T_PTR,    /* to */
    IR_T_ARRAY,  /* elem, count (0: unknown) */
    IR_T_STRUCT, /* fields */
    IR_T_UNION,
    IR_T_FUNC,   /* ret, params, variadic */
    IR_T_MUTEX,  /* an opaque synchronisation object (pthread_mutex_t, mtx_t, ...) */
} ir_type_kind;

typedef struct ir_type ir_type;

typedef struct ir_field {
    base_sym name;
    const ir_type *type;
    uint64_t offset; /* in bytes */
} ir_field;

struct ir_type {
    ir_type_kind kind;
    uint32_t bits;        /* INT */
    bool is_signed;       /* INT */
    const ir_type *to;    /* PTR; ARRAY: element; FUNC: return type */
    uint64_t count;       /* ARRAY */
    base_sym tag;         /* STRUCT, UNION: the tag or 0 */
    ir_field *fields;     /* STRUCT, UNION */
    uint32_t nfields;
    const ir_type **params; /* FUNC */
    uint32_t nparams;
    bool variadic;        /* FUNC */
    uint64_t size;        /* bytes (0 for VOID, FUNC, incomplete types) */
};

/* --- variables --- */

typedef enum ir_var_kind { IR_V_GLOBAL, IR_V_LOCAL, IR_V_PARAM } ir_var_kind;

typedef struct ir_var {
    ir_var_kind kind;
    base_sym name;
    const ir_type *type;
    uint32_t id;          /* index in the program (globals) or function (locals, params) */
    bool address_taken;   /* &v appears: it may be shared (races) or aliased */
    base_srcloc loc;
} ir_var;

/* --- expressions --- */

typedef enum ir_expr_kind {
    IR_E_CONST,   /* integer constant (value) of an INT or PTR type (NULL is 0) */
    IR_E_VAR,     /* lvalue */
    IR_E_DEREF,   /* lvalue: *a */
    IR_E_FIELD,   /* lvalue: a.field (a is a struct/union lvalue) */
    IR_E_INDEX,   /* lvalue: a[b] (a is an array lvalue) */
    IR_E_ADDR,    /* &a (a is an lvalue) */
    IR_E_FUNC,    /* the address of a function */
    IR_E_STRING,  /* the address of a string literal's object */
    IR_E_UNARY,   /* op a */
    IR_E_BINARY,  /* a op b, C semantics at the expression's type */
    IR_E_CAST,    /* (type) a */
    IR_E_ITE,     /* a ? b : c, all side-effect free */
    IR_E_NONDET,  /* a nondeterministic value of the type (only as an ASSIGN's rhs) */
} ir_expr_kind;

typedef enum ir_op {
    IR_OP_NEG, IR_OP_BITNOT, IR_OP_LNOT,
    IR_OP_ADD, IR_OP_SUB, IR_OP_MUL, IR_OP_DIV, IR_OP_MOD,
    IR_OP_SHL, IR_OP_SHR, IR_OP_AND, IR_OP_OR, IR_OP_XOR,
    IR_OP_LAND, IR_OP_LOR, /* on side-effect-free operands, so no short-circuit is needed */
    IR_OP_EQ, IR_OP_NE, IR_OP_LT, IR_OP_LE, IR_OP_GT, IR_OP_GE,
    IR_OP_PTR_ADD, /* pointer + integer, scaled by the element size */
    IR_OP_PTR_DIFF,
} ir_op;

typedef struct ir_func ir_func;

typedef struct ir_expr ir_expr;
struct ir_expr {
    ir_expr_kind kind;
    const ir_type *type;
    ir_op op;
    int64_t value;          /* CONST */
    const ir_var *var;      /* VAR */
    uint32_t field;         /* FIELD: index into the struct's fields */
    const ir_func *func;    /* FUNC */
    const char *string;     /* STRING */
    const ir_expr *a, *b, *c;
};

/* --- statements --- */

typedef enum ir_stmt_kind {
    IR_S_SKIP,
    IR_S_ASSIGN,       /* lhs = rhs */
    IR_S_CALL,         /* [lhs =] callee(args) */
    IR_S_RETURN,       /* return [value] */
    IR_S_GOTO,         /* if (guard) goto targets (several: a nondeterministic choice) */
    IR_S_ASSUME,       /* cond */
    IR_S_ASSERT,       /* cond, with message */
    IR_S_ASYNC,        /* thread start: [handle =] start(arg) */
    IR_S_JOIN,         /* join(handle) */
    IR_S_ATOMIC_BEGIN,
    IR_S_ATOMIC_END,
    IR_S_LOCK,         /* lock(object) of lock_kind; trylock sets lhs to 0 on success */
    IR_S_UNLOCK,
    IR_S_LOCK_INIT,    /* init(object) with lock_kind (recursive, errorcheck, ...) */
    IR_S_ALLOC,        /* lhs = malloc(size) / calloc (zeroed) */
    IR_S_FREE,
} ir_stmt_kind;

typedef enum ir_lock_kind {
    IR_LOCK_MUTEX,
    IR_LOCK_MUTEX_RECURSIVE,
    IR_LOCK_MUTEX_ERRORCHECK,
    IR_LOCK_RW_READ,
    IR_LOCK_RW_WRITE,
    IR_LOCK_SPIN,
} ir_lock_kind;

typedef struct ir_stmt {
    ir_stmt_kind kind;
    base_srcloc loc;
    const ir_expr *lhs;     /* ASSIGN, CALL, ASYNC (handle), LOCK (trylock result), ALLOC */
    const ir_expr *rhs;     /* ASSIGN; RETURN value; GOTO guard (NULL: always);
                               ASSUME/ASSERT condition; JOIN handle; LOCK/UNLOCK/INIT/FREE
                               object; ALLOC size; ASYNC argument */
    const ir_expr *callee;  /* CALL, ASYNC: a FUNC expression or a function pointer */
    const ir_expr **args;   /* CALL */
    uint32_t nargs;
    uint32_t *targets;      /* GOTO */
    uint32_t ntargets;
    ir_lock_kind lock_kind; /* LOCK, UNLOCK, LOCK_INIT */
    bool is_try;            /* LOCK: trylock / timedlock, does not block */
    bool zeroed;            /* ALLOC: calloc */
    const char *message;    /* ASSERT */
} ir_stmt;

struct ir_func {
    base_sym name;
    const ir_type *type;     /* FUNC */
    ir_var **params;
    uint32_t nparams;
    ir_var **locals;
    uint32_t nlocals, locals_cap;
    ir_stmt *stmts;
    uint32_t nstmts, stmts_cap;
    bool has_body;           /* false: an external function, calls to it are opaque */
    bool is_atomic;          /* __VERIFIER_atomic_*: runs without interleaving */
    bool external_linkage;
    base_srcloc loc;
};

typedef struct ir_program {
    base_arena arena;
    base_intern_pool *syms;  /* borrowed */
    ir_var **globals;
    uint32_t nglobals, globals_cap;
    ir_func **funcs;
    uint32_t nfuncs, funcs_cap;
} ir_program;

void ir_program_init(ir_program *p, base_intern_pool *syms);
void ir_program_free(ir_program *p);

/* Types (allocated in the program; compare by structure with ir_type_eq). */
const ir_type *ir_type_void(ir_program *p);
const ir_type *ir_type_int(ir_program *p, uint32_t bits, bool is_signed);
const ir_type *ir_type_ptr(ir_program *p, const ir_type *to);
const ir_type *ir_type_mutex(ir_program *p);
bool ir_type_eq(const ir_type *a, const ir_type *b);
bool ir_type_is_scalar(const ir_type *t);

/* Program structure. */
ir_var *ir_add_global(ir_program *p, const char *name, const ir_type *t, base_srcloc loc);
ir_func *ir_add_func(ir_program *p, const char *name, const ir_type *t, base_srcloc loc);
ir_var *ir_add_local(ir_program *p, ir_func *f, const char *name, const ir_type *t, base_srcloc loc);
/* Appends a statement (zeroed but for kind and loc) and returns its index. */
uint32_t ir_emit(ir_program *p, ir_func *f, ir_stmt_kind k, base_srcloc loc);

/* Expressions. */
const ir_expr *ir_const(ir_program *p, const ir_type *t, int64_t v);
const ir_expr *ir_var_ref(ir_program *p, const ir_var *v);
const ir_expr *ir_deref(ir_program *p, const ir_expr *a);
const ir_expr *ir_addr(ir_program *p, const ir_expr *lv);
const ir_expr *ir_func_ref(ir_program *p, const ir_func *f);
const ir_expr *ir_binary(ir_program *p, ir_op op, const ir_type *t, const ir_expr *a,
                         const ir_expr *b);
const ir_expr *ir_nondet(ir_program *p, const ir_type *t);
bool ir_is_lvalue(const ir_expr *e);

#endif
