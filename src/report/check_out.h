/* check_out: the result of `ravel check` for people (text, the
 * interleaving as one column per thread) and for tools (JSON).
 *
 * The checked program is the KISS translation of the user's; a trace step
 * belongs to the user's program when its statement's `origin` is nonzero,
 * and to the thread whose id kiss.cur held when it ran. Steps of the
 * translation itself (scheduling, raising) are left out; a thread switch
 * shows as a change of column. */
#ifndef RAVEL_REPORT_CHECK_OUT_H
#define RAVEL_REPORT_CHECK_OUT_H

#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "ir/ir.h"

typedef struct check_report {
    const ir_program *p;          /* the translated program */
    const bmc_result *r;
    uint32_t unwind, pending;     /* the bounds, for the verdict line */
    /* The text of statement `index` of the original function f, as `ravel ir`
     * prints it (NULL: unknown). */
    const char *(*orig_text)(void *ctx, const ir_func *f, uint32_t index);
    void *ctx;
} check_report;

void report_check_text(base_strbuf *out, const check_report *c);
void report_check_json(base_strbuf *out, const check_report *c, const char *file);

#endif
