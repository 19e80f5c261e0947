/* lower: the state shared by the front end's files while one program is
 * lowered (internal to src/cfront).
 *
 * One cf_ctx lowers every translation unit into one ir_program. Functions
 * are lowered one at a time from a worklist: the definitions of the main
 * files first, then whatever they reference from headers. While a function
 * is lowered, `f` is it and the per-function maps are live; an unsupported
 * construct reports an error and longjmps to `fail`, which marks the
 * function not_lowered and moves on.
 *
 * Invariants: every ir_func and global ir_var is registered under its
 * clang USR in `by_usr` (so translation units link by name); every emitted
 * statement carries `loc`, the expansion location of the cursor being
 * lowered; temporaries are locals named `t.N`, which no C name can be. */
#ifndef RAVEL_CFRONT_LOWER_H
#define RAVEL_CFRONT_LOWER_H

#include <clang-c/Index.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "cfront/cfront.h"
#include "ir/ir.h"

/* A jump whose target is not known yet: statement `stmt` of the current
 * function gets target `label` (or the loop/switch exit) when it is. */
typedef struct cf_patch {
    uint32_t stmt;
    base_sym label;
} cf_patch;

typedef BASE_VEC(cf_patch) cf_patch_vec;
typedef BASE_VEC(CXCursor) cf_cursor_vec;

/* A cursor's children, in the scratch arena (so an abandoned function
 * leaks nothing). */
typedef struct cf_cursors {
    CXCursor *v;
    size_t n;
} cf_cursors;

typedef struct cf_case {
    int64_t value;
    int64_t hi;  /* a GNU case range `case value ... hi:`; hi == value otherwise */
    uint32_t at;
} cf_case;

/* The innermost enclosing loop or switch: where break and continue go, and
 * a switch's case labels. */
typedef struct cf_jumpctx {
    cf_patch_vec breaks, continues;
    size_t cleanups_at;  /* c->cleanups.len when the loop or switch began */
    bool is_switch;
    BASE_VEC(cf_case) cases;
    int64_t default_at; /* -1: none */
} cf_jumpctx;

typedef struct cf_local {
    CXCursor decl;
    ir_var *var;
} cf_local;

/* One translation unit to parse: its file and clang's command line (owned
 * copies; full_argv: args[0] is the compiler, as a database gives it). */
typedef struct cf_job {
    char *path;
    char **args;
    int nargs;
    bool full_argv;
    /* filled by the parse */
    CXTranslationUnit tu;
    int err;     /* libclang's error code, 0 when tu is set */
    double parse_seconds, lower_seconds;
    double started;            /* when a worker took it */
    BASE_VEC(char *) dropped;  /* flags left out of this unit's parse (owned) */
    struct cf_unit *unit;      /* the lowered unit, when parsed and lowered or read
                                  from the cache (owned; guarded like parsed) */
    bool from_cache;
    /* the unit cache's answer (cucache.h): 0 not asked, 1 a hit, 2 a miss;
     * on a hit the unit file's key */
    signed char probe;
    char unit_key[65];
    bool parsed; /* tu/err are final (guarded by the pool's mutex when parallel) */
    /* a shared precompiled header (cpch.c): the group (-1: none), the
     * unit's text with its leading #include blanked (owned), the argument
     * that names the source (full_argv), and the group's header when the
     * parse used it (not a file on disk: the cache does not key on it) */
    int pch_group;
    char *pch_text;
    size_t pch_len;
    int src_arg;
    const char *pch_header;
    const struct cf_pch_names *pch_names; /* its files' names as a parse without it has them */
    bool pch_retry; /* its lowering needs a parse without the PCH */
} cf_job;

typedef BASE_VEC(cf_job) cf_job_vec;

/* Flags clang rejected as unknown (gcc-only ones), shared by the parsing
 * threads under mu; units: how many units dropped it after the first. */
typedef struct cf_bad_flag {
    char *flag;
    size_t units;
} cf_bad_flag;

typedef struct cf_flagset {
    pthread_mutex_t mu;
    BASE_VEC(cf_bad_flag) flags;
} cf_flagset;

typedef struct cf_init_range {
    const ir_var *global;
    uint32_t from, to;
} cf_init_range;

typedef struct cf_ctx {
    ir_program *p;
    base_diag *d;
    const cfront_opts *opts;
    CXTranslationUnit tu;
    base_hashmap by_usr;    /* USR symbol -> ir_func* or ir_var* (tag in the low bit) */
    base_hashmap obj_usr;   /* ir_func* or ir_var* -> its USR symbol (for cunit.c) */
    base_hashmap rec_key;   /* record ir_type* -> its key symbol (for cunit.c) */
    /* the statements of init that store one global's initialiser (cunit.c
     * links each global's once) */
    base_hashmap inited;    /* globals whose initialiser is linked (cunit.c) */
    BASE_VEC(cf_init_range) init_ranges;
    base_hashmap types;     /* record USR symbol -> ir_type*, for the current unit */
    base_hashmap records_done; /* record USR symbol -> its first complete ir_type* (program) */
    BASE_VEC(struct cf_incomplete { base_sym key; ir_type *type; }) records_incomplete;
                            /* incomplete records no unit has defined yet (ctype.c) */
    base_hashmap names;     /* name symbol -> 1 for every function and global name used */
    base_hashmap queued;    /* USR symbol of a function definition -> 1 once queued */
    cf_cursor_vec work;     /* function definitions waiting to be lowered (FIFO) */
    size_t work_next;       /* the next one in work */
    cf_cursor_vec ginit;    /* global definitions whose initialisers wait */
    size_t errors;
    ir_func *asm_func;        /* __ravel_asm and __ravel_asm_memory (casm.c), made on first use */
    ir_func *asm_memory_func;
    size_t asm_blocks;        /* inline assembly statements lowered */
    cf_flagset bad_flags;     /* compiler flags clang does not know (cfront.c) */
    bool main_taken;          /* a unit's main is the program's `main` already */
    size_t unit_errors;       /* errors in the unit being lowered (only the first is shown) */
    cfront_stats stats;

    /* the function being lowered */
    ir_func *f;
    base_arena scratch;       /* freed after each function */
    base_srcloc loc;
    jmp_buf fail;
    BASE_VEC(cf_local) locals;
    base_hashmap local_index; /* clang_hashCursor -> index+1 in locals (first of a chain) */
    base_hashmap labels;      /* label symbol -> statement index */
    base_hashmap attr_kinds;  /* attribute object (var symbol) -> ir_lock_kind + 1 */
    base_hashmap vla_bytes;   /* a variable-length array local (ir_var*) -> the local
                                 holding its size in bytes (ir_var*), for sizeof */
    base_hashmap label_ids;   /* label's place symbol -> its address value (&&label), whole program */
    cf_patch_vec gotos;
    BASE_VEC(cf_jumpctx *) jumps;
    /* computed goto: the labels of the function with their address values,
     * and the `goto *v` statements waiting for the dispatch after the body */
    BASE_VEC(struct cf_addr_label { uint64_t id; uint32_t at; }) addr_labels;
    /* __attribute__((cleanup(fn))) variables of the enclosing blocks, innermost
     * last (cscope.c), and the blocks themselves */
    BASE_VEC(struct cf_cleanup { ir_var *var; ir_func *fn; size_t scope; }) cleanups;
    BASE_VEC(CXCursor) scopes;
    CXCursor body;            /* the function's body, for the blocks around a label */
    base_hashmap tu_funcs;    /* function name symbol -> 1 + index in tu_func_decls (this unit) */
    cf_cursor_vec tu_func_decls;
    BASE_VEC(struct cf_indirect { uint32_t stmt; const ir_expr *target; base_srcloc loc; }) indirect;
    uint32_t ntemps;
    uint8_t mo;               /* the next ATOMIC_BEGIN's memory order (ir_mo), then 0 */
    /* the unit was parsed with a shared PCH (cpch.h), whose declarations
     * the unit's cursor does not list; pch_miss: the lowering looked for
     * one of them (the unit is lowered again from a parse without it) */
    bool tu_pch, pch_miss;
    const struct cf_pch_names *pch_names;
} cf_ctx;

/* --- parse jobs (cfront.c) and compilation databases (compdb.c) --- */
void cf_add_job(cf_job_vec *v, const char *path, const char *const *args, int nargs, bool full_argv);
/* The jobs of the compilation database in dir: every C entry (those of
 * `files` when nfiles > 0), deduplicated; entries that are not C and
 * duplicates are reported as notes. extra: flags to add to each. */
void cf_compdb_jobs(cf_ctx *c, const char *dir, const char *const *files, size_t nfiles,
                    const char *const *extra, size_t nextra, cf_job_vec *jobs);

/* --- parsing one job (cfront.c), also for cpch.c --- */
/* What a parse adds to the job's own command: flags appended, one more
 * in-memory file, more CXTranslationUnit_ flags. */
typedef struct cf_parse_with {
    const char *const *args;
    int nargs;
    const struct CXUnsavedFile *unsaved;
    unsigned flags;
} cf_parse_with;
/* Parses j (its flags less those bad says clang does not know) into j->tu
 * or j->err; with may be NULL. */
void cf_parse_once(const cfront_opts *o, CXIndex idx, cf_job *j, cf_flagset *bad,
                   const cf_parse_with *with);
/* Records the flags tu's diagnostics call unknown; returns how many were new. */
size_t cf_learn_bad_flags(cf_flagset *bad, CXTranslationUnit tu);
/* Does the compiler option a take the next argument as its value? */
bool cf_takes_value(const char *a);
/* How many arguments, starting at a, ask the compiler for a dependency file
 * (-MD, -MMD, -MP, -MG, -MF/-MT/-MQ/-MJ with their value, -Wp,-MD,...): 0 for
 * any other option. They are dropped before a parse, because libclang would
 * write that file relative to ravel's own directory (clobbering the build's
 * own file during --capture). */
size_t cf_dep_output_args(const char *a);

/* --- calls through pointers (cresolve.c) --- */
/* Gives every CALL and ASYNC through a pointer its candidates (after all
 * units are lowered). */
void cf_resolve_indirect_calls(cf_ctx *c);

/* --- errors and locations (cfront.c) --- */
base_srcloc cf_loc(cf_ctx *c, CXCursor cur);
const char *cf_file_name(cf_ctx *c, CXFile f);
/* Reports "unsupported construct" at cur and abandons the current function. */
_Noreturn void cf_unsupported(cf_ctx *c, CXCursor cur, const char *what);
_Noreturn void cf_fail(cf_ctx *c, CXCursor cur, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
char *cf_spelling(cf_ctx *c, CXCursor cur); /* in the program's arena */

/* --- declarations (cfront.c) --- */
ir_func *cf_func_decl(cf_ctx *c, CXCursor decl);
ir_var *cf_global(cf_ctx *c, CXCursor decl);
ir_var *cf_local_lookup(cf_ctx *c, CXCursor decl);
ir_var *cf_new_local(cf_ctx *c, const char *name, const ir_type *t);
ir_var *cf_temp(cf_ctx *c, const ir_type *t);

/* --- types (ctype.c) --- */
const ir_type *cf_type(cf_ctx *c, CXType t, CXCursor where);
const ir_type *cf_int(cf_ctx *c, uint32_t bits, bool is_signed);
const ir_type *cf_int_type(cf_ctx *c);  /* C's int */
const ir_type *cf_size_type(cf_ctx *c); /* size_t */
/* C's integer promotion and usual arithmetic conversions. */
const ir_type *cf_promote(cf_ctx *c, const ir_type *t);
const ir_type *cf_arith(cf_ctx *c, const ir_type *a, const ir_type *b);
bool cf_type_is_atomic(CXType t);
/* Vector and _Complex types: values the IR stores and copies but does not
 * compute with (structs tagged CF_VECTOR_TAG / CF_COMPLEX_TAG). */
bool cf_type_is_opaque_value(CXType t);
#define CF_VECTOR_TAG "__vector"
#define CF_COMPLEX_TAG "__complex"
/* Finds field `name` in t (searching anonymous members) and returns the
 * access path from agg to it, or NULL. */
const ir_expr *cf_find_field(cf_ctx *c, const ir_expr *agg, base_sym name);

/* --- expressions (cexpr.c) --- */
/* The children of cur that are expressions or statements (references to
 * types and declarations are left out). */
cf_cursors cf_children(cf_ctx *c, CXCursor cur);
/* Every child, as clang visits them. */
cf_cursors cf_all_children(cf_ctx *c, CXCursor cur);
const ir_expr *cf_rvalue(cf_ctx *c, CXCursor e);
const ir_expr *cf_lvalue(cf_ctx *c, CXCursor e);
void cf_effect(cf_ctx *c, CXCursor e);
bool cf_has_effects(CXCursor e);
bool cf_eval_int(CXCursor e, int64_t *out);
/* A string literal's bytes (escapes decoded, adjacent literals joined), in
 * the program's arena. */
const char *cf_string_value(cf_ctx *c, CXCursor lit); /* an integer constant expression's value */
char *cf_first_token(cf_ctx *c, CXCursor e); /* in the scratch arena; "" if none */
/* The first token where e is spelled (inside a macro's body when a macro
 * wrote it), in the scratch arena; "" if none. */
char *cf_spelled_token(cf_ctx *c, CXCursor e);
/* Is the UnexposedExpr e a C11/GCC atomic operation (clang's AtomicExpr)?
 * first: its cf_first_token. */
bool cf_is_atomic_expr(cf_ctx *c, CXCursor e, const char *first);
ir_var *cf_declare_local(cf_ctx *c, CXCursor decl, bool param);
const ir_expr *cf_convert(cf_ctx *c, const ir_expr *e, const ir_type *to);
const ir_expr *cf_not(cf_ctx *c, const ir_expr *cond);
const ir_expr *cf_const_int(cf_ctx *c, const ir_type *t, int64_t v);
/* Emits lhs = rhs (converting rhs to lhs's type). */
void cf_assign(cf_ctx *c, const ir_expr *lhs, const ir_expr *rhs);
/* Stores rhs in a fresh temporary and returns the temporary. */
const ir_expr *cf_to_temp(cf_ctx *c, const ir_expr *rhs);
uint32_t cf_emit(cf_ctx *c, ir_stmt_kind k);
uint32_t cf_emit_goto(cf_ctx *c, const ir_expr *guard, uint32_t target);
/* Lowers the initialiser `init` of the object lv (cinit.c). */
void cf_init(cf_ctx *c, const ir_expr *lv, CXCursor init);

/* --- calls to known functions (capi.c) --- */
/* Lowers a call; want_value: the caller uses the result (returns NULL for
 * void). */
const ir_expr *cf_call(cf_ctx *c, CXCursor call, bool want_value);
/* Lowers a C11/GCC atomic expression (clang's AtomicExpr). */
const ir_expr *cf_atomic_expr(cf_ctx *c, CXCursor e, bool want_value);

/* The value of &&label (GNU labels as values): a small nonzero constant,
 * the same wherever the label's address is taken (cstmt.c). */
uint64_t cf_label_address(cf_ctx *c, CXCursor label);

/* --- blocks and __attribute__((cleanup)) (cscope.c) --- */
void cf_scope_enter(cf_ctx *c, CXCursor block);
/* Runs the cleanups of the innermost block (its normal end) and leaves it. */
void cf_scope_leave(cf_ctx *c);
/* Registers var's cleanup if decl has __attribute__((cleanup(fn))). */
void cf_scope_declared(cf_ctx *c, CXCursor decl, ir_var *var);
/* Emits the cleanup calls, innermost first, of every variable registered
 * after the first `keep` (a return: 0; break/continue: the loop's mark). */
void cf_scope_unwind(cf_ctx *c, size_t keep);
/* The same for a goto to `label`: the blocks that do not enclose it. */
void cf_scope_unwind_to_label(cf_ctx *c, CXCursor label);

/* --- inline assembly (casm.c) --- */
void cf_asm(cf_ctx *c, CXCursor s);

/* --- statements and functions (cstmt.c) --- */
void cf_stmt(cf_ctx *c, CXCursor s);
void cf_function(cf_ctx *c, CXCursor def, ir_func *f);

#endif
