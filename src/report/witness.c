#include "report/witness.h"

#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

static void xml_text(base_strbuf *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': base_strbuf_puts(o, "&lt;"); break;
        case '>': base_strbuf_puts(o, "&gt;"); break;
        case '&': base_strbuf_puts(o, "&amp;"); break;
        case '"': base_strbuf_puts(o, "&quot;"); break;
        default: base_strbuf_putc(o, *s); break;
        }
    }
}

static void data(base_strbuf *o, const char *key, const char *value)
{
    base_strbuf_printf(o, "   <data key=\"%s\">", key);
    xml_text(o, value);
    base_strbuf_puts(o, "</data>\n");
}

static void key(base_strbuf *o, const char *id, const char *for_, const char *type, const char *dflt)
{
    base_strbuf_printf(o, " <key attr.name=\"%s\" attr.type=\"%s\" for=\"%s\" id=\"%s\"", id, type,
                       for_, id);
    if (dflt)
        base_strbuf_printf(o, ">\n  <default>%s</default>\n </key>\n", dflt);
    else
        base_strbuf_puts(o, "/>\n");
}

/* An lvalue a validator can parse: no names the front end made up (i.1). */
static bool plain_lhs(const char *l)
{
    for (const char *p = l; *p; p++)
        if (*p == '.' && p[1] >= '0' && p[1] <= '9')
            return false;
    return true;
}

/* A value the witness can state as a C expression: numbers, NULL, &object. */
static bool plain_value(const char *v)
{
    return v && v[0] && v[0] != '{' && !strchr(v, '\'') && !strchr(v, '@') && !strchr(v, '#');
}

/* The keys and the graph's data, up to the first node. */
static void header(base_strbuf *o, const witness_info *w, const char *type)
{
    base_strbuf_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
                        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    key(o, "witness-type", "graph", "string", NULL);
    key(o, "sourcecodelang", "graph", "string", NULL);
    key(o, "producer", "graph", "string", NULL);
    key(o, "specification", "graph", "string", NULL);
    key(o, "programfile", "graph", "string", NULL);
    key(o, "programhash", "graph", "string", NULL);
    key(o, "architecture", "graph", "string", NULL);
    key(o, "creationtime", "graph", "string", NULL);
    key(o, "entry", "node", "boolean", "false");
    key(o, "violation", "node", "boolean", "false");
    key(o, "startline", "edge", "int", NULL);
    key(o, "endline", "edge", "int", NULL);
    key(o, "threadId", "edge", "string", NULL);
    key(o, "createThread", "edge", "string", NULL);
    key(o, "enterFunction", "edge", "string", NULL);
    key(o, "assumption", "edge", "string", NULL);
    key(o, "assumption.scope", "edge", "string", NULL);
    base_strbuf_puts(o, " <graph edgedefault=\"directed\">\n");
    data(o, "witness-type", type);
    data(o, "sourcecodelang", "C");
    data(o, "producer", w->producer);
    data(o, "specification", w->specification);
    data(o, "programfile", w->program_file);
    data(o, "programhash", w->program_hash);
    data(o, "architecture", w->architecture);
    data(o, "creationtime", w->creation_time);
}

void report_witness_graphml(base_strbuf *o, const check_report *c, const witness_info *w)
{
    header(o, w, "violation_witness");
    base_strbuf_puts(o, "  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");

    size_t n;
    check_user_step *steps = report_check_steps(c, &n, NULL, 0);
    uint32_t node = 0;
    /* A thread's first step enters its function. */
    bool seen[256] = { false };
    seen[0] = true; /* main: the validator starts there */
    for (size_t i = 0; i < n; i++) {
        const check_user_step *u = &steps[i];
        const trace_step *s = u->s;
        if (!s->loc.line)
            continue;
        base_strbuf_printf(o, "  <node id=\"N%u\"/>\n", node + 1);
        base_strbuf_printf(o, "  <edge source=\"N%u\" target=\"N%u\">\n", node, node + 1);
        node++;
        base_strbuf_printf(o, "   <data key=\"startline\">%u</data>\n", s->loc.line);
        base_strbuf_printf(o, "   <data key=\"threadId\">%u</data>\n", u->thread);
        if (u->thread < 256 && !seen[u->thread]) {
            seen[u->thread] = true;
            data(o, "enterFunction", base_sym_str(c->p->syms, s->func->name));
        }
        /* KISS: the thread id's assignment; engines over the concurrent
         * program: the handle an ASYNC stores (the thread instance) */
        bool created = s->kind == TRACE_STEP_ASSIGN && s->lhs &&
                       (strncmp(s->lhs, "kiss.tid.", 9) == 0 ||
                        (c->direct && s->func && s->stmt < s->func->nstmts &&
                         s->func->stmts[s->stmt].kind == IR_S_ASYNC));
        if (created)
            base_strbuf_printf(o, "   <data key=\"createThread\">%llu</data>\n",
                               (unsigned long long)s->value.bits);
        else if ((s->kind == TRACE_STEP_ASSIGN || s->kind == TRACE_STEP_NONDET) &&
                 !report_check_internal(s->lhs) && plain_lhs(s->lhs) &&
                 plain_value(s->value.text)) {
            base_strbuf b = { 0 };
            base_strbuf_printf(&b, "%s == %s;", s->lhs, s->value.text);
            data(o, "assumption", base_strbuf_cstr(&b));
            data(o, "assumption.scope", base_sym_str(c->p->syms, s->func->name));
            base_strbuf_free(&b);
        }
        base_strbuf_puts(o, "  </edge>\n");
    }
    free(steps);
    base_strbuf_printf(o, "  <node id=\"N%u\">\n   <data key=\"violation\">true</data>\n  </node>\n",
                       node + 1);
    base_strbuf_printf(o, "  <edge source=\"N%u\" target=\"N%u\"/>\n", node, node + 1);
    base_strbuf_puts(o, " </graph>\n</graphml>\n");
}

void report_witness_correctness_graphml(base_strbuf *o, const witness_info *w)
{
    header(o, w, "correctness_witness");
    base_strbuf_puts(o, "  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    base_strbuf_puts(o, " </graph>\n</graphml>\n");
}
