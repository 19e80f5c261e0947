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
#include "base/hashmap.h"
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
    IR_T_MUTEX,  /* an opaque synchronisation object (pthread_mutex_t, mtx_t,
                    pthread_cond_t, ...); tag names the C type */
    IR_T_FLOAT,  /* bits: 32, 64, 80 or 128 */
} ir_type_kind;

typedef struct ir_type ir_type;

typedef struct ir_field {
    base_sym name;        /* 0: an unnamed member (anonymous struct or union) */
    const ir_type *type;
    uint64_t offset;      /* in bytes, from the start of the enclosing record */
    uint32_t bit_width;   /* a bit-field's width (0: not a bit-field) */
    uint32_t bit_offset;  /* a bit-field's first bit within the byte at offset */
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
    uint32_t align;       /* bytes (0: unknown) */
};

/* --- variables --- */

typedef enum ir_var_kind { IR_V_GLOBAL, IR_V_LOCAL, IR_V_PARAM } ir_var_kind;

typedef struct ir_var {
    ir_var_kind kind;
    base_sym name;
    const ir_type *type;
    uint32_t id;          /* index in the program (globals) or function (locals, params) */
    bool address_taken;   /* &v appears: it may be shared (races) or aliased */
    bool is_static;       /* GLOBAL: internal linkage, or a function's static local */
    bool is_thread_local; /* GLOBAL: _Thread_local / __thread */
    base_srcloc loc;
} ir_var;

/* --- expressions --- */

typedef enum ir_expr_kind {
    IR_E_CONST,   /* constant: value for INT and PTR types (NULL is 0), fvalue for
                     FLOAT; of an aggregate type only 0, the all-zero object */
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
    double fvalue;          /* CONST of FLOAT type */
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
    IR_S_THREAD_EXIT,  /* pthread_exit(rhs) / thrd_exit: ends the running thread */
    IR_S_LOCK_DESTROY, /* destroy(object) */
    IR_S_COND_WAIT,    /* wait on condition rhs; the mutex (args[0]) is unlocked by a
                          separate UNLOCK before and re-locked by a LOCK after; POSIX
                          allows spurious wake-ups, so it may return at any time */
    IR_S_COND_SIGNAL,  /* signal (broadcast: all) condition rhs */
} ir_stmt_kind;

/* The C11 memory order of the atomic operation an ATOMIC_BEGIN opens (its
 * `mo`): the low 4 bits the order of the operation (of a compare-exchange:
 * on success), the high 4 bits a compare-exchange's failure order (0: the
 * same). A section with no memory access and an order is a fence
 * (atomic_thread_fence). IR_MO_NONE: a section that is no C11 operation
 * (__VERIFIER_atomic_*, atomic blocks); IR_MO_DYNAMIC: the order was not a
 * constant. Only the memory-model encodings of po read it. */
typedef enum ir_mo {
    IR_MO_NONE,
    IR_MO_RELAXED,
    IR_MO_ACQUIRE, /* consume too */
    IR_MO_RELEASE,
    IR_MO_ACQ_REL,
    IR_MO_SEQ_CST,
    IR_MO_DYNAMIC,
} ir_mo;

typedef enum ir_lock_kind {
    IR_LOCK_MUTEX,
    IR_LOCK_MUTEX_RECURSIVE,
    IR_LOCK_MUTEX_ERRORCHECK,
    IR_LOCK_RW_READ,
    IR_LOCK_RW_WRITE,
    IR_LOCK_SPIN,
    IR_LOCK_RW,          /* a rwlock in either mode: its init, unlock and destroy */
} ir_lock_kind;

/* Operands by statement kind (unused ones are NULL / 0):
 *
 *   ASSIGN        lhs = rhs
 *   CALL          [lhs =] callee(args)
 *   RETURN        return [rhs]
 *   GOTO          if (rhs) goto targets; rhs NULL: always; several targets: a
 *                 nondeterministic choice among them
 *   ASSUME        assume(rhs); message says why when it is not the program's
 *                 (e.g. "exit" for exit(), "abort")
 *   ASSERT        assert(rhs), message: what failed ("reach_error", the C text)
 *   ASYNC         [lhs =] async callee(rhs): a new thread runs callee with the
 *                 one argument rhs (NULL: none); lhs is the thread handle object
 *   JOIN          join(rhs): waits for the thread whose handle is rhs; args[0],
 *                 when present, is where the thread's result is stored (a pointer)
 *   LOCK          [lhs =] lock(rhs): rhs points to the lock object, so its
 *                 access path is rhs->a for rhs = &path; is_try: does not block,
 *                 lhs gets 0 when taken and nonzero when busy
 *   UNLOCK        [lhs =] unlock(rhs)
 *   LOCK_INIT     init(rhs) of lock_kind; args[0], when present, is the
 *                 attribute object's address; lock_kind is what the front end
 *                 could see statically (else IR_LOCK_MUTEX)
 *   LOCK_DESTROY  destroy(rhs)
 *   COND_WAIT     wait(rhs), args[0] the mutex pointer (see the kind's comment)
 *   COND_SIGNAL   signal(rhs); all: broadcast
 *   ALLOC         lhs = malloc(rhs) (zeroed: calloc)
 *   FREE          free(rhs)
 *   THREAD_EXIT   the running thread ends with result rhs
 *
 * CALL and ASYNC whose callee is not a FUNC expression (a call through a
 * function pointer) list in cands the functions it may reach: the
 * address-taken functions of a matching type (ncands 0: none is known). */
typedef struct ir_stmt {
    ir_stmt_kind kind;
    base_srcloc loc;
    const ir_expr *lhs;
    const ir_expr *rhs;
    const ir_expr *callee;
    const ir_expr **args;
    uint32_t nargs;
    uint32_t *targets;
    uint32_t ntargets;
    const ir_func **cands;
    uint32_t ncands;
    ir_lock_kind lock_kind; /* LOCK, UNLOCK, LOCK_INIT, LOCK_DESTROY */
    bool is_try;            /* LOCK: trylock / timedlock, does not block */
    bool result_used;       /* LOCK (not a try), UNLOCK: the program uses the call's
                               result, which the front end makes 0 (success) */
    bool zeroed;            /* ALLOC: calloc */
    bool all;               /* COND_SIGNAL: broadcast */
    uint8_t mo;             /* ATOMIC_BEGIN: ir_mo, see there */
    const char *message;    /* ASSERT, ASSUME */
    uint32_t origin;        /* after a translation (kiss): 1 + the index of the
                               statement of the original function this one comes
                               from; 0 for statements the translation added */
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
    bool address_taken;      /* used as a value (function pointer, thread start) */
    bool not_lowered;        /* the body exists but could not be lowered (an error
                                was reported); has_body is false */
    bool is_main;            /* a unit's main: the program's is named main; a database
                                that holds several programs has more (main@file.c), each
                                the entry of a program of its own */
    bool writes_memory;      /* no body, and a call may write any memory the program
                                can reach, not only through its pointer arguments
                                (inline assembly with a "memory" clobber: __ravel_asm_memory) */
    base_srcloc loc;
};

/* Globals start as all-zero objects (C's static initialisation); then the
 * function init (named __ravel_init, no parameters, never NULL after the
 * front end ran) stores the explicit initialisers, and then main runs. */
typedef struct ir_program {
    base_arena arena;
    base_intern_pool *syms;  /* borrowed */
    uint32_t ptr_bytes;      /* sizeof(void *) of the target: 8, or 4 for ILP32 */
    ir_func *init;
    /* Shared type nodes: ir_type_int, ir_type_void and ir_type_ptr return the
     * same node for the same arguments (types are immutable once made). */
    const ir_type *int_types[2][9];
    const ir_type *void_type;
    base_hashmap ptr_types;  /* pointee address -> pointer type */
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
const ir_type *ir_type_float(ir_program *p, uint32_t bits);
/* params is copied into the program. */
const ir_type *ir_type_func(ir_program *p, const ir_type *ret, const ir_type *const *params,
                            uint32_t nparams, bool variadic);
bool ir_type_eq(const ir_type *a, const ir_type *b);
bool ir_type_is_scalar(const ir_type *t);
/* The bytes an object of type t takes in memory, with pointers of
 * ptr_bytes bytes: the size the front end recorded, else what the bit
 * width needs; 1 for types without a size (void, functions), so that
 * every object has an address of its own. */
uint64_t ir_type_bytes(const ir_type *t, uint32_t ptr_bytes);

/* Program structure. */
ir_var *ir_add_global(ir_program *p, const char *name, const ir_type *t, base_srcloc loc);
ir_func *ir_add_func(ir_program *p, const char *name, const ir_type *t, base_srcloc loc);
ir_var *ir_add_local(ir_program *p, ir_func *f, const char *name, const ir_type *t, base_srcloc loc);
/* Parameters are appended in order; their ids count parameters only. */
ir_var *ir_add_param(ir_program *p, ir_func *f, const char *name, const ir_type *t, base_srcloc loc);
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
const ir_expr *ir_unary(ir_program *p, ir_op op, const ir_type *t, const ir_expr *a);
const ir_expr *ir_cast(ir_program *p, const ir_type *t, const ir_expr *a);
const ir_expr *ir_ite(ir_program *p, const ir_type *t, const ir_expr *c, const ir_expr *a,
                      const ir_expr *b);
const ir_expr *ir_member(ir_program *p, const ir_expr *agg, uint32_t field);
const ir_expr *ir_index(ir_program *p, const ir_expr *arr, const ir_expr *idx);
const ir_expr *ir_string(ir_program *p, const ir_type *t, const char *bytes);
bool ir_is_lvalue(const ir_expr *e);
/* Finds a function by name (NULL: none). */
ir_func *ir_find_func(const ir_program *p, const char *name);

#endif
