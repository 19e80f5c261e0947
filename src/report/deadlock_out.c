/* deadlock_out: text, JSON, SARIF 2.1.0 and DOT for deadlock findings
 * (see deadlock_out.h). Output is deterministic: findings in the order the
 * analysis produced them. */
#include "report/deadlock_out.h"
#include "report/sarif.h"

#include <string.h>

static const deadlock_frame *innermost(const deadlock_chain *c)
{
    return c->nframes ? &c->frames[c->nframes - 1] : NULL;
}

static void put_loc(base_strbuf *out, const deadlock_frame *f)
{
    if (f)
        base_strbuf_printf(out, "%s:%u", f->file, f->line);
    else
        base_strbuf_puts(out, "?");
}

static void put_chain(base_strbuf *out, const deadlock_chain *c)
{
    for (size_t i = 0; i < c->nframes; i++) {
        const deadlock_frame *f = &c->frames[i];
        if (i)
            base_strbuf_puts(out, " > ");
        base_strbuf_printf(out, "%s:%u in %s", f->file, f->line, f->func);
        if (f->is_call && i + 1 < c->nframes)
            base_strbuf_printf(out, " (calls %s)", c->frames[i + 1].func);
        if (f->retake)
            base_strbuf_puts(out, " (taken back when pthread_cond_wait returns)");
    }
    if (c->nframes == 0)
        base_strbuf_puts(out, "?");
}

static bool same_chain(const deadlock_chain *a, const deadlock_chain *b)
{
    if (a->nframes != b->nframes)
        return false;
    for (size_t i = 0; i < a->nframes; i++)
        if (a->frames[i].line != b->frames[i].line || a->frames[i].col != b->frames[i].col ||
            strcmp(a->frames[i].file, b->frames[i].file) != 0)
            return false;
    return true;
}

static void put_thread(base_strbuf *out, const deadlock_edge *e)
{
    base_strbuf_printf(out, "thread %s", e->thread);
    if (e->start_chain.nframes) {
        base_strbuf_puts(out, " (started at ");
        put_chain(out, &e->start_chain);
        base_strbuf_putc(out, ')');
    } else if (e->thread_start) {
        base_strbuf_printf(out, " (started at %s)", e->thread_start);
    } else {
        base_strbuf_puts(out, " (entry point)");
    }
}

static void put_cycle(base_strbuf *out, const deadlock_finding *f)
{
    for (size_t i = 0; i < f->nedges; i++)
        base_strbuf_printf(out, "%s -> ", f->edges[i].held);
    base_strbuf_puts(out, f->edges[0].held);
}

static void headline(base_strbuf *out, const deadlock_finding *f)
{
    const deadlock_edge *e = &f->edges[0];
    switch (f->kind) {
    case DEADLOCK_CYCLE:
    case DEADLOCK_LOCK_ORDER:
        base_strbuf_printf(out, "%s of %zu locks: ",
                           f->kind == DEADLOCK_CYCLE ? "lock cycle" : "inverted lock order", f->nedges);
        put_cycle(out, f);
        if (f->kind == DEADLOCK_LOCK_ORDER)
            base_strbuf_puts(out, " (never by threads running at the same time)");
        break;
    case DEADLOCK_SELF:
        base_strbuf_printf(out, "%s is acquired again by %s while it holds it", e->wanted,
                           e->thread);
        break;
    }
}

void report_deadlock_text(base_strbuf *out, const deadlock_result *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const deadlock_finding *f = &r->findings[i];
        put_loc(out, innermost(&f->edges[0].wanted_chain));
        base_strbuf_printf(out, ": %s: ", deadlock_kind_name(f->kind));
        headline(out, f);
        base_strbuf_putc(out, '\n');
        for (size_t k = 0; k < f->nedges; k++) {
            const deadlock_edge *e = &f->edges[k];
            base_strbuf_printf(out, "  [%zu] ", k + 1);
            put_thread(out, e);
            if (f->kind == DEADLOCK_SELF)
                base_strbuf_printf(out, " holds %s and acquires it again\n", e->held);
            else
                base_strbuf_printf(out, " holds %s%s and waits for %s%s\n", e->held,
                                   e->held_read ? " (read)" : "", e->wanted,
                                   e->wanted_read ? " (read)" : "");
            base_strbuf_printf(out, "      %s taken at: ", e->held);
            put_chain(out, &e->held_chain);
            base_strbuf_printf(out, "\n      %s wanted at: ", e->wanted);
            put_chain(out, &e->wanted_chain);
            if (f->kind == DEADLOCK_SELF && same_chain(&e->held_chain, &e->wanted_chain))
                base_strbuf_puts(out, " (again, in the next iteration of its loop)");
            base_strbuf_putc(out, '\n');
        }
        if (f->abstract_lock) {
            /* name the array-wide locks and the folded paths: the finding
             * holds only if the threads meet on one object */
            for (int fold = 0; fold < 2; fold++) {
                size_t named = 0;
                for (size_t k = 0; k < f->nedges; k++) {
                    const char *h = f->edges[k].held;
                    if (fold ? !strstr(h, ")*") : !strstr(h, "[*]") && !strstr(h, "..."))
                        continue;
                    bool seen = false;
                    for (size_t j = 0; j < k && !seen; j++)
                        seen = strcmp(f->edges[j].held, h) == 0;
                    if (seen)
                        continue;
                    base_strbuf_printf(out, "%s %s", named ? "," : fold ? "  note: folded path" : "  note: array-wide lock", h);
                    named++;
                }
                if (fold && named)
                    base_strbuf_puts(out, ": a path too long to keep stands for every path that "
                                          "repeats its folded part, so the threads may hold different objects\n");
                else if (!fold && named)
                    base_strbuf_puts(out, ": an element at an index that is not constant stands for "
                                          "the whole array, so the threads may hold different elements\n");
                else if (!fold && !strstr(f->edges[0].held, ")*"))
                    base_strbuf_puts(out, "  note: array-wide lock: an element at an index that is not constant stands for "
                                          "the whole array\n");
            }
        }
        if (f->may)
            base_strbuf_printf(out, "  confidence: may (%s)\n", f->why);
        else
            base_strbuf_puts(out, "  confidence: must\n");
    }
    size_t n[3] = { 0, 0, 0 };
    for (size_t i = 0; i < r->nfindings; i++)
        n[r->findings[i].kind]++;
    base_strbuf_printf(out,
                       "%zu deadlock%s, %zu self-deadlock%s, %zu lock-order inversion%s "
                       "(%zu function%s, %zu thread%s, %zu lock dependenc%s)\n",
                       n[0], n[0] == 1 ? "" : "s", n[1], n[1] == 1 ? "" : "s", n[2],
                       n[2] == 1 ? "" : "s", r->nfuncs, r->nfuncs == 1 ? "" : "s", r->nthreads,
                       r->nthreads == 1 ? "" : "s", r->ndeps, r->ndeps == 1 ? "y" : "ies");
    if (r->units_left_out || r->units_partial)
        base_strbuf_printf(out,
                           "incomplete: %zu of %zu translation unit%s left out and %zu lowered in "
                           "part (errors above): the findings cover only the rest\n",
                           r->units_left_out, r->units, r->units == 1 ? "" : "s", r->units_partial);
    if (r->nassumed) {
        base_strbuf_puts(out, "assumption: a held lock is passed to ");
        for (size_t i = 0; i < r->nassumed; i++)
            base_strbuf_printf(out, "%s%s", i ? ", " : "", r->assumed[i]);
        base_strbuf_printf(out, ", without a body here: taken as not releasing it\n");
    }
    for (size_t i = 0; i < r->nlink_ordered; i++) {
        const deadlock_link_order *l = &r->link_ordered[i];
        base_strbuf_printf(out,
                           "assumption: %zu cycle%s of %s ordered %s ->%s%s%s, not reported: "
                           "the links are taken as acyclic (--no-link-order reports %s)\n",
                           l->cycles, l->cycles == 1 ? "" : "s", l->locks,
                           l->against ? "against" : "along", l->link,
                           *l->record ? " of struct " : "", l->record, l->cycles == 1 ? "it" : "them");
    }
    if (r->stopped && strcmp(r->stopped, "search") == 0)
        base_strbuf_printf(out, "incomplete: the cycle search reached its limit with cycles of the lock "
                                "graph left unexamined: the findings cover only the rest\n");
    else if (r->stopped)
        base_strbuf_printf(out,
                           "incomplete: the %s limit ran out: %zu function%s not summarised or cut "
                           "short%s: the findings cover only the rest\n",
                           r->stopped, r->funcs_unsummarised, r->funcs_unsummarised == 1 ? "" : "s",
                           r->cycles_cut ? ", and the cycle search cut short" : "");
}

static void json_chain(base_strbuf *out, const deadlock_chain *c)
{
    base_strbuf_putc(out, '[');
    for (size_t i = 0; i < c->nframes; i++) {
        const deadlock_frame *f = &c->frames[i];
        if (i)
            base_strbuf_putc(out, ',');
        base_strbuf_puts(out, "{\"function\":");
        base_strbuf_json_string(out, f->func);
        base_strbuf_puts(out, ",\"file\":");
        base_strbuf_json_string(out, f->file);
        base_strbuf_printf(out, ",\"line\":%u,\"column\":%u,\"call\":%s%s}", f->line, f->col,
                           f->is_call ? "true" : "false", f->retake ? ",\"retake\":true" : "");
    }
    base_strbuf_putc(out, ']');
}

void report_deadlock_json(base_strbuf *out, const deadlock_result *r)
{
    base_strbuf_puts(out, "{\"findings\":[");
    for (size_t i = 0; i < r->nfindings; i++) {
        const deadlock_finding *f = &r->findings[i];
        if (i)
            base_strbuf_putc(out, ',');
        base_strbuf_printf(out, "{\"kind\":\"%s\",\"abstract_lock\":%s,\"confidence\":\"%s\","
                                "\"confidence_reason\":",
                           deadlock_kind_name(f->kind), f->abstract_lock ? "true" : "false",
                           f->may ? "may" : "must");
        if (f->may)
            base_strbuf_json_string(out, f->why);
        else
            base_strbuf_puts(out, "null");
        base_strbuf_puts(out, ",\"edges\":[");
        for (size_t k = 0; k < f->nedges; k++) {
            const deadlock_edge *e = &f->edges[k];
            if (k)
                base_strbuf_putc(out, ',');
            base_strbuf_puts(out, "{\"thread\":");
            base_strbuf_json_string(out, e->thread);
            base_strbuf_puts(out, ",\"thread_start\":");
            if (e->thread_start)
                base_strbuf_json_string(out, e->thread_start);
            else
                base_strbuf_puts(out, "null");
            base_strbuf_puts(out, ",\"started_at\":");
            json_chain(out, &e->start_chain);
            base_strbuf_puts(out, ",\"held\":");
            base_strbuf_json_string(out, e->held);
            base_strbuf_printf(out, ",\"held_mode\":\"%s\",\"wanted\":", e->held_read ? "read" : "write");
            base_strbuf_json_string(out, e->wanted);
            base_strbuf_printf(out, ",\"wanted_mode\":\"%s\",\"held_at\":", e->wanted_read ? "read" : "write");
            json_chain(out, &e->held_chain);
            base_strbuf_puts(out, ",\"wanted_at\":");
            json_chain(out, &e->wanted_chain);
            base_strbuf_puts(out, ",\"guards\":[");
            for (size_t g = 0; g < e->nguards; g++) {
                if (g)
                    base_strbuf_putc(out, ',');
                base_strbuf_json_string(out, e->guards[g]);
            }
            base_strbuf_puts(out, "]}");
        }
        base_strbuf_puts(out, "]}");
    }
    base_strbuf_puts(out, "],\"entries\":[");
    for (size_t i = 0; i < r->nentries; i++) {
        if (i)
            base_strbuf_putc(out, ',');
        base_strbuf_json_string(out, r->entries[i]);
    }
    base_strbuf_puts(out, "],\"assumed_not_releasing\":[");
    for (size_t i = 0; i < r->nassumed; i++) {
        if (i)
            base_strbuf_putc(out, ',');
        base_strbuf_json_string(out, r->assumed[i]);
    }
    base_strbuf_puts(out, "],\"assumed_acyclic\":[");
    for (size_t i = 0; i < r->nlink_ordered; i++) {
        const deadlock_link_order *l = &r->link_ordered[i];
        base_strbuf_puts(out, i ? ",{\"locks\":" : "{\"locks\":");
        base_strbuf_json_string(out, l->locks);
        base_strbuf_puts(out, ",\"link\":");
        base_strbuf_json_string(out, l->link);
        base_strbuf_puts(out, ",\"record\":");
        base_strbuf_json_string(out, l->record);
        base_strbuf_printf(out, ",\"direction\":\"%s\",\"cycles\":%zu}",
                           l->against ? "against" : "along", l->cycles);
    }
    base_strbuf_printf(out,
                       "],\"functions\":%zu,\"threads\":%zu,\"dependencies\":%zu,"
                       "\"unnamed_lock_operations\":%zu,\"units\":%zu,\"units_left_out\":%zu,"
                       "\"units_partial\":%zu,\"units_parsed\":%zu,\"units_from_cache\":%zu,"
                       "\"stopped\":%s%s%s,\"functions_unsummarised\":%zu,\"cycle_search_cut\":%s,"
                       "\"complete\":%s}\n",
                       r->nfuncs, r->nthreads, r->ndeps, r->unknown_locks, r->units,
                       r->units_left_out, r->units_partial, r->units_parsed, r->units_cached,
                       r->stopped ? "\"" : "", r->stopped ? r->stopped : "null",
                       r->stopped ? "\"" : "", r->funcs_unsummarised,
                       r->cycles_cut ? "true" : "false",
                       r->units_left_out || r->units_partial || r->stopped ? "false" : "true");
}

static void sarif_phys(base_strbuf *out, const deadlock_frame *f)
{
    report_sarif_location_open(out, f ? f->file : NULL, f ? f->line : 0, f ? f->col : 0);
}

static void sarif_flow_chain(base_strbuf *out, const deadlock_chain *c, const char *what,
                             bool *first)
{
    for (size_t i = 0; i < c->nframes; i++) {
        const deadlock_frame *f = &c->frames[i];
        if (!*first)
            base_strbuf_putc(out, ',');
        *first = false;
        base_strbuf_puts(out, "{\"location\":");
        sarif_phys(out, f);
        base_strbuf_puts(out, ",\"message\":{\"text\":");
        base_strbuf b = { 0 };
        if (f->is_call && i + 1 < c->nframes)
            base_strbuf_printf(&b, "%s calls %s", f->func, c->frames[i + 1].func);
        else
            base_strbuf_printf(&b, "%s %s", f->func, what);
        base_strbuf_json_string(out, base_strbuf_cstr(&b));
        base_strbuf_free(&b);
        base_strbuf_printf(out, "}},\"nestingLevel\":%zu}", i);
    }
}

static const char *rule_ids[] = { "deadlock", "self-deadlock", "lock-order-inversion" };

void report_deadlock_sarif(base_strbuf *out, const deadlock_result *r, const char *version)
{
    base_strbuf_puts(out,
        "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
        "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"ravel\",\"version\":");
    base_strbuf_json_string(out, version ? version : "dev");
    base_strbuf_puts(out,
        ",\"rules\":["
        "{\"id\":\"deadlock\",\"shortDescription\":{\"text\":\"Threads that may run at the same "
        "time acquire locks in a cyclic order\"},\"defaultConfiguration\":{\"level\":\"error\"}},"
        "{\"id\":\"self-deadlock\",\"shortDescription\":{\"text\":\"A thread acquires a "
        "non-recursive lock it already holds\"},\"defaultConfiguration\":{\"level\":\"error\"}},"
        "{\"id\":\"lock-order-inversion\",\"shortDescription\":{\"text\":\"Locks are acquired in "
        "opposite orders in one thread\"},\"defaultConfiguration\":{\"level\":\"warning\"}}"
        "]}},\"results\":[");
    for (size_t i = 0; i < r->nfindings; i++) {
        const deadlock_finding *f = &r->findings[i];
        if (i)
            base_strbuf_putc(out, ',');
        base_strbuf_printf(out, "{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\",\"message\":{\"text\":",
                           rule_ids[f->kind], (int)f->kind,
                           f->kind == DEADLOCK_LOCK_ORDER || f->may ? "warning" : "error");
        base_strbuf msg = { 0 };
        headline(&msg, f);
        if (f->may)
            base_strbuf_printf(&msg, " (may: %s)", f->why);
        base_strbuf_json_string(out, base_strbuf_cstr(&msg));
        base_strbuf_puts(out, "},\"locations\":[");
        sarif_phys(out, innermost(&f->edges[0].wanted_chain));
        base_strbuf_puts(out, "}],\"codeFlows\":[{\"message\":{\"text\":");
        base_strbuf_json_string(out, base_strbuf_cstr(&msg));
        base_strbuf_free(&msg);
        base_strbuf_puts(out, "},\"threadFlows\":[");
        for (size_t k = 0; k < f->nedges; k++) {
            const deadlock_edge *e = &f->edges[k];
            if (k)
                base_strbuf_putc(out, ',');
            base_strbuf b = { 0 };
            put_thread(&b, e);
            base_strbuf_printf(&b, " holds %s and waits for %s", e->held, e->wanted);
            base_strbuf_puts(out, "{\"message\":{\"text\":");
            base_strbuf_json_string(out, base_strbuf_cstr(&b));
            base_strbuf_puts(out, "},\"locations\":[");
            bool first = true;
            base_strbuf_clear(&b);
            base_strbuf_printf(&b, "acquires %s", e->held);
            sarif_flow_chain(out, &e->held_chain, base_strbuf_cstr(&b), &first);
            base_strbuf_clear(&b);
            base_strbuf_printf(&b, "waits for %s", e->wanted);
            sarif_flow_chain(out, &e->wanted_chain, base_strbuf_cstr(&b), &first);
            base_strbuf_free(&b);
            base_strbuf_puts(out, "]}");
        }
        base_strbuf_puts(out, "]}]}");
    }
    base_strbuf_puts(out, "]}]}\n");
}

static void dot_string(base_strbuf *out, const char *s)
{
    base_strbuf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            base_strbuf_putc(out, '\\');
        base_strbuf_putc(out, *s);
    }
    base_strbuf_putc(out, '"');
}

void report_deadlock_dot(base_strbuf *out, const deadlock_result *r)
{
    base_strbuf_puts(out, "digraph locks {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (size_t i = 0; i < r->nlocks; i++) {
        base_strbuf_printf(out, "  l%zu [label=", i);
        dot_string(out, r->locks[i]);
        base_strbuf_puts(out, "];\n");
    }
    for (size_t i = 0; i < r->ngedges; i++) {
        const deadlock_graph_edge *e = &r->gedges[i];
        base_strbuf_printf(out, "  l%u -> l%u%s;\n", e->from, e->to,
                           e->in_finding ? " [color=red, penwidth=2]" : "");
    }
    base_strbuf_puts(out, "}\n");
}
