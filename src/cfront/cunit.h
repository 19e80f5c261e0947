/* cunit: one lowered translation unit, as a program of its own, as bytes,
 * and linked into the whole program (internal to src/cfront; the byte
 * format is private to ravel and versioned).
 *
 * Each translation unit is lowered on its own, into a cf_unit (so units
 * lower in parallel, and a unit's result can be kept on disk by cucache.c
 * or written by a capture). A cf_unit holds the unit's program and what
 * linking needs: each function's and global's clang USR, each record's key
 * and whether the unit left it incomplete, the unit's diagnostics, counts
 * and the compiler flags its parse left out. cf_unit_link copies a unit
 * into the program being built, in unit order:
 *
 *   - functions and globals with the same USR are one object (the first
 *     body wins, as when one context lowered every unit);
 *   - a new object keeps its C name unless it is taken, then gets
 *     `@file` (the file of its declaration);
 *   - a unit's main is the program's `main` by --main or by being the
 *     first, else `main@file.c`;
 *   - a record left incomplete by a unit is completed in place by the
 *     first unit that defines a record of the same key;
 *   - each global's initialiser is taken from the first unit that has one,
 *     in unit order, into __ravel_init;
 *   - the unit's diagnostics are reported again, its counts added.
 *
 * Reading never trusts the bytes: every count is bounded by what is left,
 * every index and kind is checked; a malformed unit is reported as such
 * (false) and nothing of it is used. */
#ifndef RAVEL_CFRONT_CUNIT_H
#define RAVEL_CFRONT_CUNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/lower.h"

#define CF_UNIT_VERSION 3u /* 2: LOCK result_used; 3: ATOMIC_BEGIN mo */

typedef struct cf_unit_diag {
    base_severity sev;
    base_srcloc loc;
    const char *text;
} cf_unit_diag;

/* The statements [from, to) of the unit's init store global's initialiser. */
typedef struct cf_unit_init_range {
    uint32_t global, from, to;
} cf_unit_init_range;

typedef struct cf_unit {
    base_intern_pool syms;
    ir_program p;            /* p.init is the unit's initialiser */
    const char *path;        /* the unit's main file */
    base_sym *func_usr;      /* per function of p (0: none) */
    base_sym *global_usr;    /* per global of p */
    base_hashmap rec_key;    /* record type -> its key symbol (USR) */
    base_hashmap rec_open;   /* record type -> 1: the unit left it incomplete */
    BASE_VEC(cf_unit_diag) diags;
    BASE_VEC(const char *) dropped; /* flags left out of the parse */
    BASE_VEC(cf_unit_init_range) inits; /* in order, disjoint, within p.init */
    cfront_stats stats;      /* units, units_left_out, units_partial */
    size_t errors;
} cf_unit;

/* An empty unit (its program has only __ravel_init). */
void cf_unit_init(cf_unit *u, const char *path);
void cf_unit_free(cf_unit *u);

void cf_unit_write(base_strbuf *out, const cf_unit *u);
/* Reads a unit written by cf_unit_write; false (u freed) when the bytes
 * are not one. */
bool cf_unit_read(cf_unit *u, const char *data, size_t len);

/* Copies u into c->p (c is the whole program's context; see above). */
void cf_unit_link(cf_ctx *c, const cf_unit *u);

#endif
