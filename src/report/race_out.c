#include "report/race_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "ir/ir_print.h"
#include "report/sarif.h"

/* --- reading the race off the trace --- */

#define MAX_THREADS 256
#define MAX_LOCKS 32

typedef struct thread_info {
    const char *function;
    base_srcloc started_at;
    char *locks[MAX_LOCKS];
    uint32_t nlocks;
} thread_info;

/* The lock an assignment to its owner field names: `m.owner` is m,
 * `p->owner` is *p; NULL when lhs is no owner field. */
static char *lock_of(const char *lhs)
{
    size_t n = lhs ? strlen(lhs) : 0;
    if (n > 6 && strcmp(lhs + n - 6, ".owner") == 0)
        return strndup(lhs, n - 6);
    if (n > 7 && strcmp(lhs + n - 7, "->owner") == 0) {
        char *s = malloc(n - 5);
        s[0] = '*';
        memcpy(s + 1, lhs, n - 7);
        s[n - 6] = 0;
        return s;
    }
    return NULL;
}

static void hold(thread_info *t, char *lock)
{
    for (uint32_t i = 0; i < t->nlocks; i++)
        if (strcmp(t->locks[i], lock) == 0) {
            free(lock);
            return;
        }
    if (t->nlocks < MAX_LOCKS)
        t->locks[t->nlocks++] = lock;
    else
        free(lock);
}

static void release(thread_info *t, char *lock)
{
    for (uint32_t i = 0; i < t->nlocks; i++)
        if (strcmp(t->locks[i], lock) == 0) {
            free(t->locks[i]);
            t->locks[i] = t->locks[--t->nlocks];
            break;
        }
    free(lock);
}

static void fill_access(race_access *a, const kiss_result *k, uint32_t site, uint32_t thread,
                        const thread_info *t)
{
    a->site = site;
    a->loc = k->sites[site].loc;
    a->write = k->sites[site].write;
    a->thread = thread;
    a->function = t->function ? t->function : "?";
    a->started_at = t->started_at;
    a->nlocks = t->nlocks;
    a->locks = calloc(t->nlocks ? t->nlocks : 1, sizeof *a->locks);
    for (uint32_t i = 0; i < t->nlocks; i++)
        a->locks[i] = strdup(t->locks[i]);
}

bool report_race_explain(const check_report *c, const kiss_result *k, race_finding *f)
{
    memset(f, 0, sizeof *f);
    const trace_result *r = c->r;
    unsigned second = 0;
    if (r->verdict != TRACE_BUG || !r->message ||
        sscanf(r->message, "data race at site %u", &second) != 1 || second >= k->nsites)
        return false;
    thread_info *th = calloc(MAX_THREADS, sizeof *th);
    const char *names[MAX_THREADS] = { 0 };
    size_t n;
    check_user_step *steps = report_check_steps(c, &n, names, MAX_THREADS);
    uint32_t cur = 0;
    bool found_first = false;
    for (size_t i = 0; i < r->nsteps; i++) {
        const trace_step *s = &r->steps[i];
        if (s->kind != TRACE_STEP_ASSIGN || !s->func || s->stmt >= s->func->nstmts)
            continue;
        if (s->var && s->var->kind == IR_V_GLOBAL &&
            strcmp(base_sym_str(c->p->syms, s->var->name), "kiss.cur") == 0) {
            cur = (uint32_t)s->value.bits;
            continue;
        }
        if (cur >= MAX_THREADS)
            continue;
        uint32_t origin = s->func->stmts[s->stmt].origin;
        const check_orig_stmt *o = origin && c->orig ? c->orig(c->ctx, s->func, origin - 1) : NULL;
        if (s->lhs && strncmp(s->lhs, "kiss.tid.", 9) == 0) {
            uint64_t tid = s->value.bits;
            if (tid < MAX_THREADS) {
                th[tid].started_at = s->loc;
                th[tid].function = o && o->callee ? o->callee : NULL;
            }
        } else if (s->var && s->var->kind == IR_V_GLOBAL &&
                   strcmp(base_sym_str(c->p->syms, s->var->name), KISS_RACE_SITE) == 0 &&
                   s->value.bits < k->nsites && !found_first) {
            if (!th[cur].function)
                th[cur].function = names[cur];
            fill_access(&f->first, k, (uint32_t)s->value.bits, cur, &th[cur]);
            found_first = true;
        } else if (o && (o->kind == IR_S_LOCK || o->kind == IR_S_UNLOCK)) {
            char *l = lock_of(s->lhs);
            if (l && o->kind == IR_S_LOCK)
                hold(&th[cur], l);
            else if (l)
                release(&th[cur], l);
        }
    }
    uint32_t last = n ? steps[n - 1].thread : 0;
    if (last >= MAX_THREADS)
        last = 0;
    if (!th[last].function)
        th[last].function = names[last];
    if (found_first) {
        fill_access(&f->second, k, second, last, &th[last]);
        base_strbuf b = { 0 };
        ir_print_expr(&b, c->p, k->sites[second].path);
        f->object = strdup(base_strbuf_cstr(&b));
        base_strbuf_free(&b);
    }
    for (uint32_t t = 0; t < MAX_THREADS; t++)
        for (uint32_t i = 0; i < th[t].nlocks; i++)
            free(th[t].locks[i]);
    free(th);
    free(steps);
    return found_first;
}

static void free_access(race_access *a)
{
    for (uint32_t i = 0; i < a->nlocks; i++)
        free(a->locks[i]);
    free(a->locks);
}

void report_race_finding_free(race_finding *f)
{
    free(f->object);
    free_access(&f->first);
    free_access(&f->second);
    memset(f, 0, sizeof *f);
}

/* --- text --- */

static void put_thread(base_strbuf *o, const race_access *a)
{
    base_strbuf_printf(o, "thread %u (%s", a->thread, a->function);
    if (a->started_at.line)
        base_strbuf_printf(o, ", started at %s:%u:%u", a->started_at.file, a->started_at.line,
                           a->started_at.col);
    base_strbuf_putc(o, ')');
}

static void put_locks(base_strbuf *o, const race_access *a)
{
    if (!a->nlocks) {
        base_strbuf_puts(o, "holding no lock");
        return;
    }
    base_strbuf_puts(o, "holding ");
    for (uint32_t i = 0; i < a->nlocks; i++)
        base_strbuf_printf(o, "%s%s", i ? ", " : "", a->locks[i]);
}

static void put_access(base_strbuf *o, const race_access *a, const char *object)
{
    base_strbuf_puts(o, "  ");
    put_thread(o, a);
    base_strbuf_printf(o, " %s %s at %s:%u:%u, ", a->write ? "writes" : "reads", object,
                       a->loc.file ? a->loc.file : "?", a->loc.line, a->loc.col);
    put_locks(o, a);
    base_strbuf_putc(o, '\n');
}

static void headline(base_strbuf *o, const race_finding *f)
{
    base_strbuf_printf(o, "data race on %s: %s at %s:%u:%u and %s at %s:%u:%u", f->object,
                       f->first.write ? "write" : "read", f->first.loc.file, f->first.loc.line,
                       f->first.loc.col, f->second.write ? "write" : "read", f->second.loc.file,
                       f->second.loc.line, f->second.loc.col);
}

void report_race_text(base_strbuf *o, const race_finding *f, const check_report *c)
{
    headline(o, f);
    base_strbuf_putc(o, '\n');
    put_access(o, &f->first, f->object);
    put_access(o, &f->second, f->object);
    report_check_interleaving(o, c);
}

/* --- JSON --- */

static void json_access(base_strbuf *o, const race_access *a)
{
    base_strbuf_puts(o, "{\"file\":");
    base_strbuf_json_string(o, a->loc.file ? a->loc.file : "");
    base_strbuf_printf(o, ",\"line\":%u,\"col\":%u,\"access\":\"%s\",\"thread\":%u,\"function\":",
                       a->loc.line, a->loc.col, a->write ? "write" : "read", a->thread);
    base_strbuf_json_string(o, a->function);
    if (a->started_at.line) {
        base_strbuf_puts(o, ",\"started_at\":{\"file\":");
        base_strbuf_json_string(o, a->started_at.file ? a->started_at.file : "");
        base_strbuf_printf(o, ",\"line\":%u,\"col\":%u}", a->started_at.line, a->started_at.col);
    }
    base_strbuf_puts(o, ",\"locks\":[");
    for (uint32_t i = 0; i < a->nlocks; i++) {
        if (i)
            base_strbuf_putc(o, ',');
        base_strbuf_json_string(o, a->locks[i]);
    }
    base_strbuf_puts(o, "]}");
}

void report_race_json(base_strbuf *o, const race_finding *f, const check_report *c)
{
    base_strbuf_puts(o, "{\"object\":");
    base_strbuf_json_string(o, f->object);
    base_strbuf_puts(o, ",\"first\":");
    json_access(o, &f->first);
    base_strbuf_puts(o, ",\"second\":");
    json_access(o, &f->second);
    base_strbuf_puts(o, ",\"trace\":");
    report_check_json_trace(o, c);
    base_strbuf_putc(o, '}');
}

/* --- SARIF --- */

void report_race_sarif_begin(base_strbuf *o, const char *version)
{
    base_strbuf_puts(o,
        "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
        "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"ravel\",\"version\":");
    base_strbuf_json_string(o, version ? version : "dev");
    base_strbuf_puts(o,
        ",\"rules\":[{\"id\":\"data-race\",\"shortDescription\":{\"text\":\"Two threads access "
        "the same memory location at the same time, at least one writes, and no common lock "
        "orders them\"},\"defaultConfiguration\":{\"level\":\"error\"}}]}},\"results\":[");
}

void report_race_sarif_end(base_strbuf *o)
{
    base_strbuf_puts(o, "]}]}\n");
}

static void sarif_access_text(base_strbuf *b, const race_access *a, const char *object)
{
    put_thread(b, a);
    base_strbuf_printf(b, " %s %s, ", a->write ? "writes" : "reads", object);
    put_locks(b, a);
}

void report_race_sarif_result(base_strbuf *o, const race_finding *f, const check_report *c)
{
    base_strbuf msg = { 0 };
    headline(&msg, f);
    base_strbuf_puts(o, "{\"ruleId\":\"data-race\",\"ruleIndex\":0,\"level\":\"error\","
                        "\"message\":{\"text\":");
    base_strbuf_json_string(o, base_strbuf_cstr(&msg));
    base_strbuf_puts(o, "},\"locations\":[");
    report_sarif_location_msg(o, f->second.loc.file, f->second.loc.line, f->second.loc.col, NULL);
    base_strbuf_puts(o, "],\"relatedLocations\":[");
    base_strbuf b = { 0 };
    sarif_access_text(&b, &f->first, f->object);
    report_sarif_location_msg(o, f->first.loc.file, f->first.loc.line, f->first.loc.col,
                              base_strbuf_cstr(&b));
    base_strbuf_puts(o, "],\"codeFlows\":[{\"message\":{\"text\":");
    base_strbuf_json_string(o, base_strbuf_cstr(&msg));
    base_strbuf_puts(o, "},\"threadFlows\":[");
    /* one thread flow per thread, its steps in trace order; executionOrder
     * gives the interleaving across flows */
    size_t n;
    const char *names[64] = { 0 };
    check_user_step *steps = report_check_steps(c, &n, names, 64);
    uint32_t nthreads = 0;
    for (size_t i = 0; i < n; i++)
        if (steps[i].thread + 1 > nthreads)
            nthreads = steps[i].thread + 1;
    bool first_flow = true;
    for (uint32_t t = 0; t < nthreads; t++) {
        bool any = false;
        for (size_t i = 0; i < n && !any; i++)
            any = steps[i].thread == t;
        if (!any)
            continue;
        if (!first_flow)
            base_strbuf_putc(o, ',');
        first_flow = false;
        base_strbuf_clear(&b);
        base_strbuf_printf(&b, "thread %u (%s)", t, t < 64 && names[t] ? names[t] : "?");
        base_strbuf_puts(o, "{\"id\":");
        base_strbuf_json_string(o, base_strbuf_cstr(&b));
        base_strbuf_puts(o, ",\"message\":{\"text\":");
        base_strbuf_json_string(o, base_strbuf_cstr(&b));
        base_strbuf_puts(o, "},\"locations\":[");
        bool first = true;
        const ir_func *last_f = NULL;
        uint32_t last_orig = UINT32_MAX;
        for (size_t i = 0; i < n; i++) {
            if (steps[i].thread != t)
                continue;
            const trace_step *s = steps[i].s;
            if (s->func == last_f && steps[i].orig == last_orig)
                continue;
            last_f = s->func;
            last_orig = steps[i].orig;
            if (!first)
                base_strbuf_putc(o, ',');
            first = false;
            base_strbuf_printf(o, "{\"executionOrder\":%zu,\"location\":", i + 1);
            report_sarif_location_msg(o, s->loc.file, s->loc.line, s->loc.col,
                                      report_check_orig_text(c, s->func, steps[i].orig));
            base_strbuf_putc(o, '}');
        }
        base_strbuf_puts(o, "]}");
    }
    free(steps);
    base_strbuf_free(&b);
    base_strbuf_free(&msg);
    base_strbuf_puts(o, "]}]}");
}
