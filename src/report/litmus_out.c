#include "report/litmus_out.h"

#include <inttypes.h>

#include "litmus/evstruct.h"

static const char *sym(const litmus_test *t, base_sym s)
{
    return base_sym_str(t->syms, s);
}

void report_litmus_value(base_strbuf *out, const litmus_test *t, litmus_value v)
{
    if (v.kind == LITMUS_VAL_INT) {
        base_strbuf_printf(out, "%" PRId64, v.num);
        return;
    }
    if (v.kind == LITMUS_VAL_UNDEF) { /* never printed: evstruct.c refuses it first */
        base_strbuf_putc(out, '?');
        return;
    }
    if (v.kind == LITMUS_VAL_SYM) { /* herd's symbolic value S23 */
        base_strbuf_printf(out, "S%" PRId64, v.num);
        return;
    }
    if (v.kind == LITMUS_VAL_INSTR) { /* herd's instr:"B .+8" */
        base_strbuf_printf(out, "instr:\"%s\"", sym(t, v.loc));
        return;
    }
    if (t->locs[v.loc].code && !v.num) { /* herd's label:"P0:L0" */
        base_strbuf_printf(out, "label:\"%s\"", sym(t, t->locs[v.loc].name));
        return;
    }
    base_strbuf_puts(out, sym(t, t->locs[v.loc].name));
    if (v.num)
        base_strbuf_printf(out, "+%" PRId64, v.num);
}

/* A value of a register or location, unsigned when its type is uint64_t. */
static void typed_value(base_strbuf *out, const litmus_test *t, bool is_reg, uint32_t thread,
                        uint32_t reg, uint32_t location, litmus_value v)
{
    const litmus_thread *th = is_reg ? &t->threads[thread] : NULL;
    int type = is_reg ? (th->reg_types && reg < th->nregs ? th->reg_types[reg] : -1)
                      : (t->locs[location].typed ? t->locs[location].type : -1);
    if (v.kind == LITMUS_VAL_INT && type == LITMUS_RT_UINT64)
        base_strbuf_printf(out, "%" PRIu64, (uint64_t)v.num);
    else
        report_litmus_value(out, t, v);
}

static void atom_name(base_strbuf *out, const litmus_test *t, bool is_reg, uint32_t thread,
                      uint32_t reg, uint32_t location, uint8_t shape)
{
    uint32_t cell = is_reg ? 0 : t->locs[location].cell;
    if (is_reg)
        base_strbuf_printf(out, "%u:%s", t->threads[thread].proc, sym(t, t->threads[thread].regs[reg]));
    else if (shape == LITMUS_SHAPE_CELL)
        base_strbuf_printf(out, "%s[%u]", sym(t, t->locs[location - cell].name), cell);
    else if (shape == LITMUS_SHAPE_ARRAY)
        base_strbuf_puts(out, sym(t, t->locs[location - cell].name));
    else
        base_strbuf_printf(out, "[%s]", sym(t, t->locs[location].name));
}

/* The values of a whole array's observables obs[i..], `{v0,v1,...}`; returns
 * how many observables they are. */
static uint32_t array_values(base_strbuf *out, const litmus_test *t, uint32_t i, const litmus_value *row)
{
    uint32_t first = t->obs[i].location - t->locs[t->obs[i].location].cell, n = 0;
    base_strbuf_putc(out, '{');
    while (i + n < t->nobs && !t->obs[i + n].is_reg && t->obs[i + n].shape == LITMUS_SHAPE_ARRAY &&
           t->obs[i + n].location - t->locs[t->obs[i + n].location].cell == first) {
        if (n)
            base_strbuf_putc(out, ',');
        typed_value(out, t, false, 0, 0, t->obs[i + n].location, row[i + n]);
        n++;
    }
    base_strbuf_putc(out, '}');
    return n;
}

/* The values of an AND chain of a whole array's atoms, in cell order. */
static void array_prop_values(base_strbuf *out, const litmus_test *t, const litmus_prop *p, bool first)
{
    if (p->kind == LITMUS_P_AND) {
        array_prop_values(out, t, p->lhs, first);
        array_prop_values(out, t, p->rhs, false);
        return;
    }
    if (!first)
        base_strbuf_putc(out, ',');
    report_litmus_value(out, t, p->value);
}

/* herd7's layout of a condition: `not (p)`, and parentheses only where an
 * operand binds less tightly than its operator allows (an `\/` or `=>`
 * under `/\`, an `=>` under `\/`, an `\/` or `/\` under `=>`). */
static bool needs_paren(litmus_prop_kind above, litmus_prop_kind here)
{
    switch (above) {
    case LITMUS_P_AND: return here != LITMUS_P_AND;
    case LITMUS_P_OR: return here == LITMUS_P_IMPLIES;
    case LITMUS_P_IMPLIES: return here != LITMUS_P_IMPLIES;
    default: return false; /* the top */
    }
}

static void prop(base_strbuf *out, const litmus_test *t, const litmus_prop *p,
                 litmus_prop_kind above)
{
    switch (p->kind) {
    case LITMUS_P_TRUE: base_strbuf_puts(out, "true"); return;
    case LITMUS_P_FALSE: base_strbuf_puts(out, "false"); return;
    case LITMUS_P_REG:
    case LITMUS_P_LOC:
        atom_name(out, t, p->kind == LITMUS_P_REG, p->thread, p->reg, p->location, p->shape);
        base_strbuf_putc(out, '=');
        report_litmus_value(out, t, p->value); /* herd prints the condition's 64-bit value */
        return;
    case LITMUS_P_SAME:
        atom_name(out, t, p->lhs->kind == LITMUS_P_REG, p->lhs->thread, p->lhs->reg, p->lhs->location,
                  p->lhs->shape);
        base_strbuf_putc(out, '=');
        atom_name(out, t, p->rhs->kind == LITMUS_P_REG, p->rhs->thread, p->rhs->reg, p->rhs->location,
                  p->rhs->shape);
        return;
    case LITMUS_P_NOT:
        base_strbuf_puts(out, "not (");
        prop(out, t, p->lhs, LITMUS_P_TRUE);
        base_strbuf_putc(out, ')');
        return;
    case LITMUS_P_AND:
    case LITMUS_P_OR:
    case LITMUS_P_IMPLIES: {
        if (p->kind == LITMUS_P_AND && p->shape == LITMUS_SHAPE_ARRAY) { /* x={1,2} */
            const litmus_prop *leaf = p->lhs;
            while (leaf->kind == LITMUS_P_AND)
                leaf = leaf->lhs;
            atom_name(out, t, false, 0, 0, leaf->location, LITMUS_SHAPE_ARRAY);
            base_strbuf_puts(out, "={");
            array_prop_values(out, t, p, true);
            base_strbuf_putc(out, '}');
            return;
        }
        const char *op = p->kind == LITMUS_P_AND ? " /\\ " : p->kind == LITMUS_P_OR ? " \\/ " : " => ";
        bool paren = needs_paren(above, p->kind);
        if (paren)
            base_strbuf_putc(out, '(');
        prop(out, t, p->lhs, p->kind);
        base_strbuf_puts(out, op);
        prop(out, t, p->rhs, p->kind);
        if (paren)
            base_strbuf_putc(out, ')');
        return;
    }
    }
}

void report_litmus_prop(base_strbuf *out, const litmus_test *t, const litmus_prop *p)
{
    prop(out, t, p, LITMUS_P_TRUE); /* TRUE: the top, no operator above */
}

void report_litmus_condition(base_strbuf *out, const litmus_test *t)
{
    static const char *const q[] = { "exists", "~exists", "forall" };
    base_strbuf_printf(out, "%s (", q[t->quant]);
    report_litmus_prop(out, t, t->cond);
    base_strbuf_putc(out, ')');
}

void report_litmus_state(base_strbuf *out, const litmus_test *t, const litmus_value *row)
{
    for (uint32_t i = 0; i < t->nobs; i++) {
        const litmus_observable *o = &t->obs[i];
        if (i)
            base_strbuf_putc(out, ' ');
        atom_name(out, t, o->is_reg, o->thread, o->reg, o->location, o->shape);
        base_strbuf_putc(out, '=');
        if (!o->is_reg && o->shape == LITMUS_SHAPE_ARRAY)
            i += array_values(out, t, i, row) - 1;
        else
            typed_value(out, t, o->is_reg, o->thread, o->reg, o->location, row[i]);
        base_strbuf_putc(out, ';');
    }
}

static const char *obs_name(litmus_observation o)
{
    return o == LITMUS_OBS_NEVER ? "Never" : o == LITMUS_OBS_ALWAYS ? "Always" : "Sometimes";
}

static const char *kind_name(litmus_quant q)
{
    return q == LITMUS_Q_EXISTS ? "Allowed" : q == LITMUS_Q_NOT_EXISTS ? "Forbidden" : "Required";
}

void report_litmus_herd(base_strbuf *out, const litmus_test *t, const litmus_result *r)
{
    base_strbuf_printf(out, "Test %s %s\n", t->name, kind_name(t->quant));
    if (r->status == LITMUS_UNKNOWN) {
        base_strbuf_printf(out, "Unknown: %s\n", r->reason);
        base_strbuf_puts(out, "Condition ");
        report_litmus_condition(out, t);
        base_strbuf_printf(out, "\nObservation %s Unknown\n", t->name);
        base_strbuf_printf(out, "Time %s %.2f\n\n", t->name, r->time_total);
        return;
    }
    if (!r->verdict_only) {
        base_strbuf_printf(out, "States %u\n", r->nstates);
        for (uint32_t i = 0; i < r->nstates; i++) {
            report_litmus_state(out, t, r->states + (size_t)i * t->nobs);
            base_strbuf_putc(out, '\n');
        }
    }
    base_strbuf_puts(out, r->undefined ? "Undef\n" : r->ok ? "Ok\n" : "No\n");
    if (!r->verdict_only) {
        /* herd7 counts witnesses of the condition as a whole: under
         * ~exists a positive one is an execution without the outcome
         * (the Observation line counts the outcome itself) */
        bool swap = t->quant == LITMUS_Q_NOT_EXISTS;
        base_strbuf_printf(out, "Witnesses\nPositive: %" PRIu64 " Negative: %" PRIu64 "\n",
                           swap ? r->negative : r->positive, swap ? r->positive : r->negative);
    }
    if (r->undefined)
        base_strbuf_puts(out, "Flag *undef*\n");
    for (uint32_t i = 0; i < r->nflags; i++)
        base_strbuf_printf(out, "Flag %s\n", r->flags[i]);
    base_strbuf_puts(out, "Condition ");
    report_litmus_condition(out, t);
    base_strbuf_putc(out, '\n');
    if (r->verdict_only)
        base_strbuf_printf(out, "Observation %s %s\n", t->name, obs_name(r->obs));
    else
        base_strbuf_printf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", t->name,
                           obs_name(r->obs), r->positive, r->negative);
    if (r->es.dropped_paths)
        base_strbuf_printf(out, "Warning: some executions were cut at --unroll %u\n", r->es.unroll);
    report_litmus_explain(out, t, r);
    base_strbuf_printf(out, "Time %s %.2f\n\n", t->name, r->time_total);
}

void report_litmus_json(base_strbuf *out, const litmus_test *t, const litmus_result *r,
                        const char *model)
{
    static const char *const q[] = { "exists", "~exists", "forall" };
    base_strbuf_puts(out, "{\"test\": ");
    base_strbuf_json_string(out, t->name);
    base_strbuf_puts(out, ", \"file\": ");
    base_strbuf_json_string(out, t->file);
    base_strbuf_puts(out, ", \"model\": ");
    base_strbuf_json_string(out, model);
    base_strbuf_printf(out, ", \"quantifier\": \"%s\", \"condition\": ", q[t->quant]);
    base_strbuf strs = { 0 };
    report_litmus_condition(&strs, t);
    base_strbuf_json_string(out, base_strbuf_cstr(&strs));
    if (r->status == LITMUS_UNKNOWN) {
        base_strbuf_puts(out, ", \"verdict\": \"unknown\", \"reason\": ");
        base_strbuf_json_string(out, r->reason);
    } else {
        base_strbuf_printf(out, ", \"verdict\": \"%s\", \"ok\": %s, \"observation\": \"%s\"",
                           r->positive ? "allowed" : "forbidden", r->ok ? "true" : "false",
                           obs_name(r->obs));
        if (r->undef_checked)
            base_strbuf_printf(out, ", \"undefined\": %s", r->undefined ? "true" : "false");
        if (r->nflags) {
            base_strbuf_puts(out, ", \"flags\": [");
            for (uint32_t i = 0; i < r->nflags; i++) {
                if (i)
                    base_strbuf_puts(out, ", ");
                base_strbuf_json_string(out, r->flags[i]);
            }
            base_strbuf_putc(out, ']');
        }
        if (!r->verdict_only) {
            base_strbuf_printf(out, ", \"positive\": %" PRIu64 ", \"negative\": %" PRIu64
                                    ", \"states\": [", r->positive, r->negative);
            for (uint32_t i = 0; i < r->nstates; i++) {
                base_strbuf_puts(out, i ? ", {" : "{");
                for (uint32_t k = 0; k < t->nobs; k++) {
                    const litmus_observable *o = &t->obs[k];
                    base_strbuf_clear(&strs);
                    atom_name(&strs, t, o->is_reg, o->thread, o->reg, o->location, o->shape);
                    if (k)
                        base_strbuf_puts(out, ", ");
                    base_strbuf_json_string(out, base_strbuf_cstr(&strs));
                    base_strbuf_puts(out, ": ");
                    litmus_value v = r->states[(size_t)i * t->nobs + k];
                    if (!o->is_reg && o->shape == LITMUS_SHAPE_ARRAY) { /* "{1,2}" */
                        base_strbuf_clear(&strs);
                        k += array_values(&strs, t, k, r->states + (size_t)i * t->nobs) - 1;
                        base_strbuf_json_string(out, base_strbuf_cstr(&strs));
                    } else if (v.kind == LITMUS_VAL_INT) {
                        typed_value(out, t, o->is_reg, o->thread, o->reg, o->location, v);
                    } else {
                        base_strbuf_clear(&strs);
                        report_litmus_value(&strs, t, v);
                        base_strbuf_json_string(out, base_strbuf_cstr(&strs));
                    }
                }
                base_strbuf_putc(out, '}');
            }
            base_strbuf_putc(out, ']');
        }
    }
    report_litmus_explain_json(out, t, r);
    base_strbuf_printf(out, ", \"verdict_only\": %s, \"events\": %u, \"sat_vars\": %d, "
                            "\"sat_clauses\": %" PRIu64 ", \"sat_calls\": %" PRIu64
                            ", \"time_parse\": %.6f, \"time_es\": %.6f, \"time_build\": %.6f"
                            ", \"time_ground\": %.6f, \"time_solve\": %.6f, \"time\": %.6f}",
                       r->verdict_only ? "true" : "false", r->es.nevents, r->sat_vars, r->sat_clauses,
                       r->sat_solves, r->time_parse, r->time_es, r->time_build, r->time_ground, r->time_solve,
                       r->time_total);
    base_strbuf_free(&strs);
}

static void event_label(base_strbuf *out, const litmus_test *t, const litmus_event *e)
{
    switch (e->kind) {
    case LITMUS_EV_INIT:
    case LITMUS_EV_WRITE:
        base_strbuf_printf(out, "%sW %s=", e->kind == LITMUS_EV_INIT ? "init " : "",
                           sym(t, t->locs[e->loc].name));
        report_litmus_value(out, t, e->value);
        break;
    case LITMUS_EV_READ:
        base_strbuf_printf(out, "R %s=", sym(t, t->locs[e->loc].name));
        report_litmus_value(out, t, e->value);
        break;
    case LITMUS_EV_FENCE:
        base_strbuf_puts(out, "F");
        break;
    }
    if (e->annots && e->annots->count) {
        base_strbuf_putc(out, '[');
        for (uint32_t k = 0; k < e->annots->count; k++)
            base_strbuf_printf(out, "%s%s", k ? "," : "", sym(t, e->annots->syms[k]));
        base_strbuf_putc(out, ']');
    }
}

/* The checks of mask, as "'a' and 'b'". */
static void check_set(base_strbuf *out, const litmus_explanation *x, uint64_t mask)
{
    uint32_t seen = 0, total = 0;
    for (uint32_t i = 0; i < x->nchecks; i++)
        total += (uint32_t)(mask >> i & 1);
    for (uint32_t i = 0; i < x->nchecks; i++) {
        if (!(mask >> i & 1))
            continue;
        if (seen)
            base_strbuf_puts(out, seen + 1 == total ? " and " : ", ");
        base_strbuf_printf(out, "'%s'", x->checks[i]);
        seen++;
    }
}

void report_litmus_explain(base_strbuf *out, const litmus_test *t, const litmus_result *r)
{
    const litmus_explanation *x = &r->explain;
    if (!x->asked || r->status != LITMUS_DECIDED)
        return;
    base_strbuf_puts(out, "Explanation: ");
    switch (x->kind) {
    case LITMUS_EXPLAIN_ALLOWED:
        base_strbuf_puts(out, "the model allows the outcome; nothing forbids it\n");
        return;
    case LITMUS_EXPLAIN_NO_CANDIDATE:
        base_strbuf_puts(out, "no candidate execution has the outcome, whatever the model's "
                              "checks (no choice of paths, reads-from and coherence gives it)\n");
        return;
    case LITMUS_EXPLAIN_UNKNOWN:
        base_strbuf_printf(out, "unknown: %s\n", x->reason);
        return;
    case LITMUS_EXPLAIN_CHECKS:
        break;
    }
    base_strbuf_puts(out, "forbidden by ");
    for (uint32_t k = 0; k < x->nsets; k++) {
        if (k)
            base_strbuf_puts(out, k + 1 == x->nsets ? " or by " : ", by ");
        check_set(out, x, x->sets[k]);
    }
    bool several = x->sets[0] & (x->sets[0] - 1);
    base_strbuf_puts(out, x->nsets > 1 ? " (dropping either allows the outcome)\n"
                          : several    ? " (dropping them together allows the outcome)\n"
                                       : " (dropping it allows the outcome)\n");
    base_strbuf_puts(out, "Explanation: a candidate execution with the outcome (");
    report_litmus_state(out, t, x->state);
    base_strbuf_puts(out, ") violates ");
    check_set(out, x, x->sets[0]);
    base_strbuf_puts(out, "; every other check holds in it\n");
}

void report_litmus_explain_json(base_strbuf *out, const litmus_test *t, const litmus_result *r)
{
    const litmus_explanation *x = &r->explain;
    if (!x->asked || r->status != LITMUS_DECIDED)
        return;
    static const char *const kinds[] = { "allowed", "checks", "no-candidate", "unknown" };
    base_strbuf_printf(out, ", \"explain\": {\"result\": \"%s\"", kinds[x->kind]);
    if (x->kind == LITMUS_EXPLAIN_UNKNOWN) {
        base_strbuf_puts(out, ", \"reason\": ");
        base_strbuf_json_string(out, x->reason);
    }
    base_strbuf_puts(out, ", \"checks\": [");
    for (uint32_t i = 0; i < x->nchecks; i++) {
        if (i)
            base_strbuf_puts(out, ", ");
        base_strbuf_json_string(out, x->checks[i]);
    }
    base_strbuf_puts(out, "]");
    if (x->kind == LITMUS_EXPLAIN_CHECKS) {
        base_strbuf_puts(out, ", \"forbidden_by\": [");
        for (uint32_t k = 0; k < x->nsets; k++) {
            base_strbuf_puts(out, k ? ", [" : "[");
            uint32_t n = 0;
            for (uint32_t i = 0; i < x->nchecks; i++)
                if (x->sets[k] >> i & 1) {
                    if (n++)
                        base_strbuf_puts(out, ", ");
                    base_strbuf_json_string(out, x->checks[i]);
                }
            base_strbuf_putc(out, ']');
        }
        base_strbuf_puts(out, "], \"witness_state\": ");
        base_strbuf strs = { 0 };
        report_litmus_state(&strs, t, x->state);
        base_strbuf_json_string(out, base_strbuf_cstr(&strs));
        base_strbuf_free(&strs);
    }
    base_strbuf_putc(out, '}');
}

void report_litmus_dot(base_strbuf *out, const litmus_test *t, const litmus_result *r)
{
    base_strbuf title = { 0 };
    base_strbuf_printf(&title, "%s: %s execution of ", t->name,
                       r->witness.positive ? "a positive" : "a negative");
    report_litmus_condition(&title, t);
    report_litmus_dot_witness(out, t, &r->es, &r->witness, base_strbuf_cstr(&title));
    base_strbuf_free(&title);
}

void report_litmus_dot_explain(base_strbuf *out, const litmus_test *t, const litmus_result *r)
{
    const litmus_explanation *x = &r->explain;
    base_strbuf title = { 0 };
    base_strbuf_printf(&title, "%s: a candidate execution of ", t->name);
    report_litmus_condition(&title, t);
    base_strbuf_puts(&title, " that violates ");
    check_set(&title, x, x->nsets ? x->sets[0] : 0);
    report_litmus_dot_witness(out, t, &r->es, &x->witness, base_strbuf_cstr(&title));
    base_strbuf_free(&title);
}

void report_litmus_dot_witness(base_strbuf *out, const litmus_test *t, const litmus_evstruct *es,
                               const litmus_witness *w, const char *title)
{
    base_strbuf_puts(out, "digraph ");
    base_strbuf_json_string(out, t->name);
    base_strbuf_puts(out, " {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n");
    base_strbuf_puts(out, "  label=");
    base_strbuf strs = { 0 };
    base_strbuf_json_string(out, title);
    base_strbuf_puts(out, ";\n");
    /* Initial writes, then one cluster per thread. */
    for (uint32_t e = 0; e < es->nevents; e++) {
        if (!w->in_x[e] || es->events[e].kind != LITMUS_EV_INIT)
            continue;
        base_strbuf_clear(&strs);
        event_label(&strs, t, &es->events[e]);
        base_strbuf_printf(out, "  e%u [label=", e);
        base_strbuf_json_string(out, base_strbuf_cstr(&strs));
        base_strbuf_puts(out, "];\n");
    }
    for (uint32_t th = 0; th < t->nthreads; th++) {
        base_strbuf_printf(out, "  subgraph cluster_P%u {\n    label=\"P%u\";\n", t->threads[th].proc,
                           t->threads[th].proc);
        for (uint32_t e = 0; e < es->nevents; e++) {
            const litmus_event *ev = &es->events[e];
            if (!w->in_x[e] || ev->thread != th)
                continue;
            litmus_event shown = *ev;
            for (uint32_t i = 0; ev->symbolic && i < w->nrf; i++)
                if (w->rf[2 * i + 1] == e) /* a symbolic read: the value of its rf */
                    shown.value = es->events[w->rf[2 * i]].value;
            base_strbuf_clear(&strs);
            event_label(&strs, t, &shown);
            base_strbuf_printf(out, "    e%u [label=", e);
            base_strbuf_json_string(out, base_strbuf_cstr(&strs));
            base_strbuf_puts(out, "];\n");
            if (ev->parent != LITMUS_NONE)
                base_strbuf_printf(out, "    e%u -> e%u [label=\"po\"];\n", ev->parent, e);
        }
        base_strbuf_puts(out, "  }\n");
    }
    for (uint32_t i = 0; i < w->nrf; i++)
        base_strbuf_printf(out, "  e%u -> e%u [label=\"rf\", color=red, fontcolor=red];\n",
                           w->rf[2 * i], w->rf[2 * i + 1]);
    for (uint32_t i = 0; i < w->nco; i++)
        base_strbuf_printf(out, "  e%u -> e%u [label=\"co\", color=blue, fontcolor=blue];\n",
                           w->co[2 * i], w->co[2 * i + 1]);
    /* fr = rf^-1; co, drawn to the immediate coherence successor of the
     * write read from (the rest follow by co). */
    for (uint32_t i = 0; i < w->nrf; i++)
        for (uint32_t k = 0; k < w->nco; k++)
            if (w->co[2 * k] == w->rf[2 * i] && w->co[2 * k + 1] != w->rf[2 * i + 1])
                base_strbuf_printf(out, "  e%u -> e%u [label=\"fr\", color=darkorange, "
                                        "fontcolor=darkorange, style=dashed];\n",
                                   w->rf[2 * i + 1], w->co[2 * k + 1]);
    base_strbuf_puts(out, "}\n");
    base_strbuf_free(&strs);
}
