/* trace: what engines answer — freeing a result, names, a plain text form. */
#include "trace/trace.h"

#include <inttypes.h>
#include <string.h>

void trace_result_free(trace_result *r)
{
    base_arena_free(&r->arena);
    memset(r, 0, sizeof *r);
}

const char *trace_verdict_name(trace_verdict v)
{
    switch (v) {
    case TRACE_BUG: return "bug";
    case TRACE_SAFE_WITHIN_BOUNDS: return "safe within bounds";
    default: return "unknown";
    }
}

const char *trace_step_kind_name(trace_step_kind k)
{
    static const char *const names[] = { "assign", "nondet", "alloc", "call",
                                         "return", "goto", "assume", "assert", "sync" };
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static void put_loc(base_strbuf *out, base_srcloc l)
{
    const char *f = l.file ? strrchr(l.file, '/') : NULL;
    base_strbuf_printf(out, "%s:%u:%u", f ? f + 1 : l.file ? l.file : "?", l.line, l.col);
}

void trace_format_result(base_strbuf *out, const ir_program *p, const trace_result *r)
{
    base_strbuf_printf(out, "verdict: %s (unwind %u)\n", trace_verdict_name(r->verdict), r->unwind);
    if (r->verdict == TRACE_UNKNOWN) {
        base_strbuf_printf(out, "reason: %s", r->reason ? r->reason : "?");
        if (r->reason_loc.line) {
            base_strbuf_puts(out, " at ");
            put_loc(out, r->reason_loc);
        }
        base_strbuf_putc(out, '\n');
    }
    if (r->verdict == TRACE_SAFE_WITHIN_BOUNDS) {
        if (!r->unwinding_checked)
            base_strbuf_puts(out, "unwinding assertions: not checked\n");
        else if (r->unwinding_ok)
            base_strbuf_puts(out, "unwinding assertions: hold (no execution was cut)\n");
        else {
            base_strbuf_printf(out, "unwinding assertions: FAIL, the bound cuts a %s in %s at ",
                               r->cut_is_recursion ? "recursive call" : "loop",
                               base_sym_str(p->syms, r->cut_func->name));
            put_loc(out, r->cut_loc);
            base_strbuf_putc(out, '\n');
        }
    }
    if (r->verdict != TRACE_BUG)
        return;
    base_strbuf_printf(out, "failed: %s at ", r->message ? r->message : "assertion");
    put_loc(out, r->loc);
    base_strbuf_putc(out, '\n');
    for (size_t i = 0; i < r->nsteps; i++) {
        const trace_step *s = &r->steps[i];
        base_strbuf_printf(out, "%*s%s:%u ", (int)(2 * s->depth), "",
                           base_sym_str(p->syms, s->func->name), s->stmt);
        switch (s->kind) {
        case TRACE_STEP_ASSIGN:
        case TRACE_STEP_NONDET:
            base_strbuf_printf(out, "%s%s = %s", s->kind == TRACE_STEP_NONDET ? "nondet " : "",
                               s->lhs, s->value.text ? s->value.text : "?");
            break;
        case TRACE_STEP_ALLOC:
            base_strbuf_printf(out, "%s = alloc(%" PRIu64 ") = %s", s->lhs, s->alloc_size,
                               s->value.text);
            break;
        case TRACE_STEP_CALL:
            base_strbuf_printf(out, "call %s(",
                               s->callee ? base_sym_str(p->syms, s->callee->name) : "?");
            for (uint32_t k = 0; k < s->nargs; k++)
                base_strbuf_printf(out, "%s%s", k ? ", " : "", s->args[k].text);
            base_strbuf_printf(out, ")%s", s->external ? " [no body]" : "");
            break;
        case TRACE_STEP_RETURN:
            base_strbuf_printf(out, "return %s", s->value.text ? s->value.text : "");
            break;
        case TRACE_STEP_GOTO: base_strbuf_printf(out, "goto %u", s->target); break;
        case TRACE_STEP_ASSUME: base_strbuf_puts(out, "assume holds"); break;
        case TRACE_STEP_SYNC: base_strbuf_printf(out, "sync (thread %u)", s->thread); break;
        case TRACE_STEP_ASSERT:
            base_strbuf_printf(out, "assert %s", i + 1 == r->nsteps ? "FAILS" : "holds");
            break;
        }
        base_strbuf_puts(out, "  @");
        put_loc(out, s->loc);
        base_strbuf_putc(out, '\n');
    }
}
