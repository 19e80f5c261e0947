/* ast: the syntax tree of a cat (or bell) file, herd7's model language.
 *
 * A file is a list of instructions (let, let rec, checks, show, include,
 * procedures, bell declarations); an instruction holds expressions.
 * Everything lives in the arena of the cat_model that loaded it; nodes are
 * immutable once parsed. Includes are resolved at load time: an include
 * instruction carries the instructions of the file it names. */
#ifndef RAVEL_CAT_AST_H
#define RAVEL_CAT_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/srcloc.h"

typedef enum cat_ekind {
    CAT_E_VAR,    /* name */
    CAT_E_EMPTY,  /* 0 (and {}): the empty set or relation */
    CAT_E_UNIV,   /* _: every event */
    CAT_E_TAG,    /* 'name */
    CAT_E_SET,    /* { items }: explicit set (of tags) */
    CAT_E_TUPLE,  /* (a, b, ...) */
    CAT_E_UNION,  /* a | b */
    CAT_E_INTER,  /* a & b */
    CAT_E_DIFF,   /* a \ b */
    CAT_E_SEQ,    /* a ; b */
    CAT_E_PROD,   /* a * b, cartesian product of sets */
    CAT_E_ADD,    /* a ++ b, set of values */
    CAT_E_STAR,   /* a* */
    CAT_E_PLUS,   /* a+ */
    CAT_E_OPT,    /* a? */
    CAT_E_INV,    /* a^-1 */
    CAT_E_COMP,   /* ~a */
    CAT_E_TOID,   /* [a] */
    CAT_E_APP,    /* a b: application */
    CAT_E_FUN,    /* fun params -> a */
    CAT_E_LET,    /* let binds in a */
    CAT_E_LETREC, /* let rec binds in a */
    CAT_E_TRY,    /* try a with b */
    CAT_E_IF,     /* if cond then a else b (cond: items[0] op items[1]) */
    CAT_E_MATCH,  /* match a with clauses end */
} cat_ekind;

typedef struct cat_expr cat_expr;
typedef struct cat_bind cat_bind;

/* Parameters of a function or the left side of a binding: names (NULL for
 * _); tuple when written (a, b) — a one-name tuple is just that name. */
typedef struct cat_params {
    const char **names;
    uint32_t n;
    bool tuple;
} cat_params;

struct cat_bind {
    base_srcloc loc;
    cat_params lhs; /* one name, or a tuple pattern */
    cat_expr *rhs;  /* function sugar (let f(x) = e) is a CAT_E_FUN here */
};

struct cat_expr {
    cat_ekind kind;
    base_srcloc loc;
    const char *name;  /* VAR, TAG */
    cat_expr *a, *b;   /* operands; LET/LETREC: a is the body */
    cat_expr **items;  /* SET, TUPLE, IF (cond operands) */
    uint32_t nitems;
    cat_params params; /* FUN */
    cat_bind *binds;   /* LET, LETREC */
    uint32_t nbinds;
    const char *op;    /* IF: "=", "subset", "in" */
};

typedef enum cat_ikind {
    CAT_I_LET,
    CAT_I_REC,
    CAT_I_CHECK,
    CAT_I_SHOW,     /* show / unshow: display only */
    CAT_I_INCLUDE,  /* body: the included file's instructions */
    CAT_I_PROC,     /* procedure name(params) = body end */
    CAT_I_CALL,     /* call name arg [as n] */
    CAT_I_WITHFROM, /* with name from expr */
    CAT_I_ENUM,     /* enum name = 'a || 'b */
    CAT_I_EVENTS,   /* instructions / default NAME[args] (bell) */
    CAT_I_VARIANT,  /* if "variant" body [else body2] end; negated: the condition holds */
    CAT_I_MATCH,    /* match at instruction level */
    CAT_I_FORALL,   /* forall x in e do body end */
    CAT_I_DEBUG,
} cat_ikind;

typedef enum cat_test { CAT_T_ACYCLIC, CAT_T_IRREFLEXIVE, CAT_T_EMPTY } cat_test;
/* ASSERT: herd's assert, a property of the model's definitions */
typedef enum cat_check_kind { CAT_C_CHECK, CAT_C_REQUIRES, CAT_C_FLAG, CAT_C_ASSERT } cat_check_kind;

typedef struct cat_ins cat_ins;
typedef struct cat_ins_list {
    cat_ins **v;
    uint32_t n;
} cat_ins_list;

struct cat_ins {
    cat_ikind kind;
    base_srcloc loc;
    cat_bind *binds; /* LET, REC */
    uint32_t nbinds;
    cat_test test;   /* CHECK */
    bool negated;    /* CHECK: ~acyclic ... */
    cat_check_kind check;
    cat_expr *e;     /* CHECK, CALL, WITHFROM, FORALL, DEBUG, MATCH, EVENTS */
    const char *name; /* CHECK: as-name (or NULL); PROC, CALL, WITHFROM, ENUM, EVENTS, VARIANT, FORALL */
    const char *file; /* INCLUDE: the name written */
    cat_params params; /* PROC */
    const char **tags; /* ENUM */
    uint32_t ntags;
    cat_ins_list body, body2; /* INCLUDE, PROC, VARIANT, FORALL */
};

/* A parsed file: its name line (herd's "identity", may be NULL) and body. */
typedef struct cat_file {
    const char *path;
    const char *title;
    cat_ins_list body;
} cat_file;

#endif
