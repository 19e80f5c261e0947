#include "report/check_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

#define COL 44 /* width of one thread's column */
/* A trace of more lines shows its first HEAD_LINES and its last
 * MAX_LINES - HEAD_LINES lines. */
#define MAX_LINES 400
#define HEAD_LINES 100

check_user_step *report_check_steps(const check_report *c, size_t *n, const char **names,
                                    uint32_t nnames)
{
    const trace_result *r = c->r;
    uint32_t cur = 0;
    check_user_step *out = calloc(r->nsteps ? r->nsteps : 1, sizeof *out);
    size_t k = 0;
    for (size_t i = 0; i < r->nsteps; i++) {
        const trace_step *s = &r->steps[i];
        if (c->direct) {
            if (!s->func || s->stmt >= s->func->nstmts || s->func == c->p->init)
                continue;
            if (s->thread < nnames && !names[s->thread])
                names[s->thread] = base_sym_str(c->p->syms, s->func->name);
            out[k++] = (check_user_step){ s->thread, s, s->stmt };
            continue;
        }
        if (s->kind == TRACE_STEP_ASSIGN && s->var && s->var->kind == IR_V_GLOBAL &&
            strcmp(base_sym_str(c->p->syms, s->var->name), "kiss.cur") == 0) {
            cur = (uint32_t)s->value.bits;
            continue;
        }
        if (!s->func || s->stmt >= s->func->nstmts)
            continue;
        uint32_t origin = s->func->stmts[s->stmt].origin;
        if (!origin || s->func == c->p->init)
            continue;
        if (cur < nnames && !names[cur])
            names[cur] = base_sym_str(c->p->syms, s->func->name);
        out[k++] = (check_user_step){ cur, s, origin - 1 };
    }
    *n = k;
    return out;
}

const char *report_check_orig_text(const check_report *c, const ir_func *f, uint32_t index)
{
    const check_orig_stmt *o = c->orig ? c->orig(c->ctx, f, index) : NULL;
    return o ? o->text : NULL;
}

bool report_check_internal(const char *lhs)
{
    return !lhs || strncmp(lhs, "kiss.", 5) == 0 || strncmp(lhs, "t.", 2) == 0;
}

static void pad_to(base_strbuf *o, size_t line_start, size_t col)
{
    while (o->len - line_start < col)
        base_strbuf_putc(o, ' ');
}

void report_check_interleaving(base_strbuf *o, const check_report *c)
{
    const char *names[64] = { 0 };
    size_t n;
    check_user_step *steps = report_check_steps(c, &n, names, 64);
    uint32_t nthreads = 1;
    for (size_t i = 0; i < n; i++)
        if (steps[i].thread + 1 > nthreads)
            nthreads = steps[i].thread + 1;
    if (nthreads > 8)
        nthreads = 8;
    base_strbuf_puts(o, "the interleaving (one column per thread):\n");
    size_t ls = o->len;
    for (uint32_t t = 0; t < nthreads; t++) {
        pad_to(o, ls, 2 + t * COL);
        base_strbuf_printf(o, "thread %u (%s)", t, names[t] ? names[t] : "?");
    }
    base_strbuf_putc(o, '\n');
    /* Two passes: count the lines, then print them, leaving out the middle
     * of very long traces (a loop that starts 10,000 threads). */
    size_t nlines = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t line = 0;
        bool elided = false;
        const trace_step *last_shown = NULL;
        uint32_t last_orig = UINT32_MAX;
        const ir_func *last_func = NULL;
        uint32_t last_thread = UINT32_MAX;
        for (size_t i = 0; i < n; i++) {
            const check_user_step *u = &steps[i];
            const trace_step *s = u->s;
            bool same = last_shown && u->orig == last_orig && s->func == last_func &&
                        u->thread == last_thread;
            bool value = (s->kind == TRACE_STEP_ASSIGN || s->kind == TRACE_STEP_NONDET) &&
                         !report_check_internal(s->lhs);
            if (same && !value)
                continue;
            last_shown = s;
            last_orig = u->orig;
            last_func = s->func;
            last_thread = u->thread;
            line++;
            if (pass == 0)
                continue;
            if (nlines > MAX_LINES && line > HEAD_LINES && line <= nlines - (MAX_LINES - HEAD_LINES)) {
                if (!elided)
                    base_strbuf_printf(o, "  ... %zu lines left out ...\n",
                                       nlines - MAX_LINES);
                elided = true;
                continue;
            }
            uint32_t col = u->thread < nthreads ? u->thread : nthreads - 1;
            ls = o->len;
            pad_to(o, ls, 2 + col * COL);
            if (!same) {
                const char *text = report_check_orig_text(c, s->func, u->orig);
                base_strbuf_printf(o, "%u: %s", s->loc.line, text ? text : "?");
            }
            if (value) {
                if (!same)
                    base_strbuf_puts(o, "  ");
                base_strbuf_printf(o, "[%s = %s]", s->lhs, s->value.text ? s->value.text : "?");
            }
            base_strbuf_putc(o, '\n');
        }
        nlines = line;
    }
    free(steps);
}

bool report_check_proved(const check_report *c)
{
    const trace_result *r = c->r;
    return c->direct && r->verdict == TRACE_SAFE_WITHIN_BOUNDS && r->unwinding_checked &&
           r->unwinding_ok && !c->inexact;
}

const char *report_check_cut_what(const trace_result *r)
{
    if (r->cut_is_recursion)
        return "a recursion";
    if (r->cut_func && r->cut_stmt < r->cut_func->nstmts &&
        r->cut_func->stmts[r->cut_stmt].kind == IR_S_ASYNC)
        return "a thread creation (--max-threads)";
    return "a loop";
}

static void direct_safe_text(base_strbuf *o, const check_report *c)
{
    const trace_result *r = c->r;
    if (report_check_proved(c)) {
        base_strbuf_puts(o, "true: no execution fails an assertion\n");
        if (c->model)
            base_strbuf_printf(o, "  (every execution %s allows; no loop, recursion or thread "
                                  "creation exceeds unwind %u, %u threads)\n",
                               c->model, c->unwind, c->max_threads);
        else
            base_strbuf_printf(o, "  (every interleaving under SC; no loop, recursion or thread "
                                  "creation exceeds unwind %u, %u threads)\n",
                               c->unwind, c->max_threads);
        return;
    }
    base_strbuf_printf(o, "no assertion violation within unwind %u, %u threads\n", c->unwind,
                       c->max_threads);
    if (c->model)
        base_strbuf_printf(o, "  (every execution %s allows within these bounds)\n", c->model);
    else
        base_strbuf_puts(o, "  (every interleaving under SC within these bounds)\n");
    if (r->unwinding_checked && !r->unwinding_ok && r->cut_loc.file)
        base_strbuf_printf(o, "  the bound cut %s at %s:%u: a larger bound explores more\n",
                           report_check_cut_what(r), r->cut_loc.file, r->cut_loc.line);
    else if (c->inexact)
        base_strbuf_printf(o, "  not a proof: %s\n", c->inexact); /* as race_out says it */
}

void report_check_text(base_strbuf *o, const check_report *c)
{
    const trace_result *r = c->r;
    if (c->direct && r->verdict == TRACE_SAFE_WITHIN_BOUNDS) {
        direct_safe_text(o, c);
        return;
    }
    if (r->verdict == TRACE_UNKNOWN) {
        base_strbuf_printf(o, "unknown: %s", r->reason ? r->reason : "no answer");
        if (r->reason_loc.line)
            base_strbuf_printf(o, " (%s:%u:%u)", r->reason_loc.file, r->reason_loc.line,
                               r->reason_loc.col);
        base_strbuf_putc(o, '\n');
        return;
    }
    if (r->verdict == TRACE_SAFE_WITHIN_BOUNDS) {
        base_strbuf_printf(o, "no assertion violation within unwind %u, %u pending thread%s\n",
                           c->unwind, c->pending, c->pending == 1 ? "" : "s");
        base_strbuf_puts(o, "  (KISS explores the schedules these bounds allow, not all of them)\n");
        if (r->unwinding_checked && !r->unwinding_ok && r->cut_loc.file)
            base_strbuf_printf(o, "  the bound cut %s at %s:%u: a larger --unwind explores more\n",
                               r->cut_is_recursion ? "a recursion" : "a loop", r->cut_loc.file,
                               r->cut_loc.line);
        return;
    }
    base_strbuf_printf(o, "bug: %s at %s:%u:%u\n", r->message ? r->message : "assertion fails",
                       r->loc.file ? r->loc.file : "?", r->loc.line, r->loc.col);
    report_check_interleaving(o, c);
    if (c->direct)
        base_strbuf_printf(o, "within unwind %u, %u threads (partial-order engine, %s)\n",
                           c->unwind, c->max_threads, c->model ? c->model : "SC");
    else if (c->engine && strcmp(c->engine, "explore") == 0)
        base_strbuf_printf(o, "found by random exploration, %u pending thread%s\n", c->pending,
                           c->pending == 1 ? "" : "s");
    else
        base_strbuf_printf(o, "within unwind %u, %u pending thread%s\n", c->unwind, c->pending,
                           c->pending == 1 ? "" : "s");
}

void report_check_json(base_strbuf *o, const check_report *c, const char *file)
{
    const trace_result *r = c->r;
    base_strbuf_puts(o, "{\"file\":");
    base_strbuf_json_string(o, file ? file : "");
    base_strbuf_printf(o, ",\"verdict\":\"%s\",\"unwind\":%u,\"pending\":%u",
                       r->verdict == TRACE_BUG ? "bug"
                       : report_check_proved(c) ? "safe"
                       : r->verdict == TRACE_SAFE_WITHIN_BOUNDS ? "no bug within bounds"
                                                                : "unknown",
                       c->unwind, c->pending);
    if (c->direct)
        base_strbuf_printf(o, ",\"max_threads\":%u", c->max_threads);
    if (c->direct && c->model)
        base_strbuf_printf(o, ",\"mm\":\"%s\"", c->model);
    if (r->verdict == TRACE_UNKNOWN) {
        base_strbuf_puts(o, ",\"reason\":");
        base_strbuf_json_string(o, r->reason ? r->reason : "");
    }
    if (r->verdict == TRACE_SAFE_WITHIN_BOUNDS)
        base_strbuf_printf(o, ",\"bound_reached\":%s",
                           r->unwinding_checked && !r->unwinding_ok ? "true" : "false");
    if (r->verdict == TRACE_BUG) {
        base_strbuf_puts(o, ",\"message\":");
        base_strbuf_json_string(o, r->message ? r->message : "");
        base_strbuf_printf(o, ",\"line\":%u,\"col\":%u,\"trace\":", r->loc.line, r->loc.col);
        report_check_json_trace(o, c);
    }
    base_strbuf_printf(o, ",\n \"engine\":\"%s\",\"terms\":%zu,\"time_encode\":%.3f,\"time_solve\":%.3f}\n",
                       c->engine ? c->engine : "bmc", r->stats.terms, r->stats.encode_s,
                       r->stats.solve_s);
}

void report_check_json_trace(base_strbuf *o, const check_report *c)
{
    const char *names[64] = { 0 };
    size_t n;
    check_user_step *steps = report_check_steps(c, &n, names, 64);
    base_strbuf_putc(o, '[');
    for (size_t i = 0; i < n; i++) {
        const trace_step *s = steps[i].s;
        base_strbuf_puts(o, i ? ",\n " : "\n "); /* a step a line */
        base_strbuf_printf(o, "{\"thread\":%u,\"function\":", steps[i].thread);
        base_strbuf_json_string(o, base_sym_str(c->p->syms, s->func->name));
        base_strbuf_printf(o, ",\"line\":%u,\"col\":%u,\"kind\":\"%s\"", s->loc.line,
                           s->loc.col, trace_step_kind_name(s->kind));
        const char *text = report_check_orig_text(c, s->func, steps[i].orig);
        if (text) {
            base_strbuf_puts(o, ",\"statement\":");
            base_strbuf_json_string(o, text);
        }
        if ((s->kind == TRACE_STEP_ASSIGN || s->kind == TRACE_STEP_NONDET) &&
            !report_check_internal(s->lhs)) {
            base_strbuf_puts(o, ",\"lhs\":");
            base_strbuf_json_string(o, s->lhs);
            base_strbuf_puts(o, ",\"value\":");
            base_strbuf_json_string(o, s->value.text ? s->value.text : "");
        }
        base_strbuf_putc(o, '}');
    }
    free(steps);
    base_strbuf_putc(o, ']');
}
