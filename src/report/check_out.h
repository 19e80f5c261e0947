/* check_out: the result of `ravel check` for people (text, the
 * interleaving as one column per thread) and for tools (JSON).
 *
 * The checked program is the KISS translation of the user's (or, for the
 * po engine, the user's program itself: check_report.direct); a trace step
 * belongs to the user's program when its statement's `origin` is nonzero,
 * and to the thread whose id kiss.cur held when it ran. Steps of the
 * translation itself (scheduling, raising) are left out; a thread switch
 * shows as a change of column. */
#ifndef RAVEL_REPORT_CHECK_OUT_H
#define RAVEL_REPORT_CHECK_OUT_H

#include "base/strbuf.h"
#include "trace/trace.h"
#include "ir/ir.h"

/* What a report needs of an original statement, kept before the
 * translation rewrote it. */
typedef struct check_orig_stmt {
    char *text;             /* as `ravel ir` prints it */
    ir_stmt_kind kind;
    const char *callee;     /* ASYNC: the thread's function when it is named */
} check_orig_stmt;

typedef struct check_report {
    const ir_program *p;          /* the translated program */
    const trace_result *r;
    uint32_t unwind, pending;     /* the bounds, for the verdict line */
    /* Statement `index` of the original function f (NULL: unknown). */
    const check_orig_stmt *(*orig)(void *ctx, const ir_func *f, uint32_t index);
    void *ctx;
    const char *engine;           /* which engine answered ("bmc", "explore", "po"); NULL: bmc */
    /* An engine over the concurrent program itself (po): p is the user's
     * program, not a translation; a step's thread is trace_step.thread and
     * its statement is its own. */
    bool direct;
    uint32_t max_threads;         /* direct: the thread-creation bound */
    const char *inexact;          /* direct: why a SAFE answer is no proof (NULL: it is) */
    const char *model;            /* direct: the memory model's name in capitals (NULL: SC) */
} check_report;

/* Whether the result proves the program safe: the po engine's SAFE with
 * every unwinding assertion holding and nothing over-approximated. */
bool report_check_proved(const check_report *c);

/* A step of the user's program in a trace: the thread it ran in (the value
 * of kiss.cur) and the original statement it implements. */
typedef struct check_user_step {
    uint32_t thread;
    const trace_step *s;
    uint32_t orig; /* index of the original statement in s->func */
} check_user_step;

/* The trace's steps of the user's program (malloc'd array, *n of them);
 * names[t] (t < nnames) receives the first function thread t ran. */
check_user_step *report_check_steps(const check_report *c, size_t *n, const char **names,
                                    uint32_t nnames);
const char *report_check_orig_text(const check_report *c, const ir_func *f, uint32_t index);
/* True for the names of the translation's own variables (kiss.*). */
bool report_check_internal(const char *lhs);

/* What cut an execution of a direct engine's SAFE answer: "a loop", "a
 * recursion" or "a thread creation (--max-threads)". */
const char *report_check_cut_what(const trace_result *r);

void report_check_text(base_strbuf *out, const check_report *c);
/* The interleaving of a BUG trace, one column per thread (no verdict line). */
void report_check_interleaving(base_strbuf *out, const check_report *c);
void report_check_json(base_strbuf *out, const check_report *c, const char *file);
/* The trace of a BUG as a JSON array of steps. */
void report_check_json_trace(base_strbuf *out, const check_report *c);

#endif
