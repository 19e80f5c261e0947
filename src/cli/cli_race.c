/* cli_race: `ravel race FILE|TASK.yml...`: data races, by the partial-
 * order engine (po_race: every interleaving within the bounds; may prove
 * that there is none), by KISS race instrumentation (exploration, then
 * bounded model checking), or by the portfolio of both (the default).
 * Each KISS round translates the program with the races found so far
 * excluded and checks it; po excludes them in the solver. Both ask again
 * after a race until none is left within the bounds, --max-races is
 * reached or the budget runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "trace/trace.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "cli/cli_kiss.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"
#include "po/po_race.h"
#include "report/check_out.h"
#include "report/race_out.h"

static const char race_usage[] =
    "usage: ravel race FILE...|TASK.yml [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Looks for data races in a concurrent C program: two threads are about to\n"
    "access the same memory at the same time, at least one writes, and not both\n"
    "accesses are atomic (locks, joins and thread creation prevent that). Each\n"
    "race comes with both accesses, the threads and the locks they held, and\n"
    "the interleaving. Races already reported are excluded and the search goes\n"
    "on, up to --max-races. An SV-COMP task (TASK.yml with the no-data-race\n"
    "property) prints the SV-COMP answer first: false, true or unknown.\n"
    "\n"
    "engines (--engine E):\n"
    "  auto (default)    the portfolio, of a budget T (--timeout, else 60 s): po\n"
    "                    at unwind 2 (at most T/10, 2 s); random exploration of\n"
    "                    the KISS translation (--explore S, else T/4, at most\n"
    "                    10 s); po deepening the unwinding with 90% of the rest;\n"
    "                    KISS's bounded check with what is left\n"
    "  po                every interleaving under SC, within the bounds, as a\n"
    "                    partial order; may answer true (no race at all)\n"
    "  kiss              KISS race instrumentation: exploration, then bounded\n"
    "                    model checking (Z3); a subset of the schedules, no proof\n"
    "  explore           the random exploration alone\n"
    "\n"
    "options:\n"
    "  --location NAME   only accesses to the variable NAME (kiss, explore)\n"
    "  --max-races N     stop after N races (default 16; an SV-COMP task: 1)\n"
    "  --unwind N        unwind loops and recursion N times (default 3; po in the\n"
    "                    portfolio or with --timeout deepens 2, 6, 12, ... instead)\n"
    "  --pending K       room for K started but unscheduled threads (kiss, 2)\n"
    "  --max-threads N   threads created after the first N never run (64)\n"
    "  --explore S       seconds of random exploration (concrete runs of the\n"
    "                    sequential program); a race found so is real (kiss:\n"
    "                    default half of --timeout, else 1)\n"
    "  --seed N          the exploration's seed (default 1)\n"
    "  --solver S        the bounded engines' SMT back end: auto (default; Z3\n"
    "                    here), z3 or cadical (bit-blasting; also RAVEL_SOLVER=S)\n"
    "  --engine E        auto, po, kiss or explore (above)\n"
    "  --witness FILE    write an SV-COMP witness (GraphML): a violation witness\n"
    "                    for the first race, a correctness witness for true\n"
    "  --timeout S       give up after S seconds in all (answer unknown, or the\n"
    "                    races found so far); without it every engine stops\n"
    "                    after 60 s\n"
    "  --json            the races as JSON\n"
    "  --sarif           the races as SARIF 2.1.0\n"
    "  -p DIR, -j N, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 true, or no race within the bounds; 1 a race; 2 bad command\n"
    "line; 3 unknown (timeout, memory, unsupported construct); 4 out of memory;\n"
    "5 bad input (missing file, clang error, unsupported property)\n";

/* The budget of a run without --timeout, in seconds. */
#define RACE_BUDGET_S 60.0

typedef BASE_VEC(kiss_site_pair) pair_vec;

/* The races found so far, by any engine, rendered in the three formats. */
typedef struct race_list {
    uint32_t found;
    base_strbuf text, json, sarif;
} race_list;

static void list_add(race_list *l, const race_finding *f, const check_report *c)
{
    l->found++;
    if (l->found > 1) {
        base_strbuf_putc(&l->text, '\n');
        base_strbuf_putc(&l->sarif, ',');
    }
    report_race_text(&l->text, f, c);
    base_strbuf_puts(&l->json, l->found > 1 ? ",\n " : "\n ");
    report_race_json(&l->json, f, c);
    report_race_sarif_result(&l->sarif, f, c);
}

static void list_free(race_list *l)
{
    base_strbuf_free(&l->text);
    base_strbuf_free(&l->json);
    base_strbuf_free(&l->sarif);
}

/* The answer of the last question an engine was asked. */
typedef struct race_round {
    trace_verdict verdict;
    const char *reason;      /* UNKNOWN (static or kept in *reason_buf) */
    char reason_buf[256];
    bool cut;                /* SAFE: a bound cut a feasible path */
    char cut_where[256];
    bool found;              /* kiss: this round found a race */
    /* po: */
    bool po;
    bool proved;             /* SAFE is a proof */
    uint32_t unwind;
    char not_proof[300];     /* SAFE, no cut, and still no proof: why */
} race_round;

static bool same_loc(base_srcloc a, base_srcloc b)
{
    return a.line == b.line && a.col == b.col && a.file && b.file && strcmp(a.file, b.file) == 0;
}

/* A race is one pair of source places: every pair of sites at the two
 * places of f, in either order, is not reported again. */
static void exclude_places(pair_vec *excl, const race_finding *f, const kiss_result *k)
{
    base_srcloc l1 = f->first.loc, l2 = f->second.loc;
    for (uint32_t x = 0; x < k->nsites; x++)
        for (uint32_t y = 0; y < k->nsites; y++) {
            base_srcloc a = k->sites[x].loc, b = k->sites[y].loc;
            if ((same_loc(a, l1) && same_loc(b, l2)) || (same_loc(a, l2) && same_loc(b, l1))) {
                kiss_site_pair p = { x, y };
                base_vec_push(excl, p);
            }
        }
}

/* One KISS round: lowers, translates with the exclusions, checks; a race
 * found goes to l. */
static int round_run(cli_kiss *ck, pair_vec *excl, race_round *rd, race_list *l, bool witness)
{
    memset(rd, 0, sizeof *rd);
    cli_program cp;
    int rc = 0;
    if (cli_program_load(&cp, &ck->fr)) {
        cli_program_free(&cp);
        return CLI_EXIT_INPUT;
    }
    ir_program *prog = &cp.prog;
    cli_orig orig;
    cli_orig_keep(&orig, prog);
    base_diag kd;
    base_diag_init(&kd);
    kiss_opts ko = ck->ko;
    ko.races = true;
    ko.exclude = excl->data;
    ko.nexclude = (uint32_t)excl->len;
    size_t nexcl = excl->len;
    kiss_result kr = { 0 };
    ir_func *entry = kiss_translate(prog, &ko, &kr, &kd);
    if (!nexcl)
        base_diag_print(&kd, stderr);
    if (!entry) {
        rc = CLI_EXIT_INPUT;
    } else if (ir_check(prog, &kd)) {
        base_diag_print(&kd, stderr);
        rc = CLI_EXIT_INTERNAL;
    } else {
        trace_result res;
        const char *engine;
        rd->verdict = cli_kiss_run(ck, prog, entry, &res, &engine);
        check_report c = { prog, &res, ck->bo.unwind, ck->ko.pending, cli_orig_stmt, &orig,
                           .engine = engine };
        if (rd->verdict == TRACE_BUG) {
            race_finding f;
            if (!report_race_explain(&c, &kr, &f)) {
                rd->verdict = TRACE_UNKNOWN;
                snprintf(rd->reason_buf, sizeof rd->reason_buf,
                         "internal: a trace that is not a race (%s)",
                         res.message ? res.message : "no message");
                rd->reason = rd->reason_buf;
            } else {
                rd->found = true;
                list_add(l, &f, &c);
                exclude_places(excl, &f, &kr);
                if (witness && cli_kiss_write_witness(ck, &c, true) != 0)
                    rc = CLI_EXIT_INPUT;
            }
            report_race_finding_free(&f);
        } else if (rd->verdict == TRACE_UNKNOWN) {
            snprintf(rd->reason_buf, sizeof rd->reason_buf, "%s", res.reason ? res.reason : "no answer");
            rd->reason = rd->reason_buf;
        } else if (res.unwinding_checked && !res.unwinding_ok && res.cut_loc.file) {
            rd->cut = true;
            snprintf(rd->cut_where, sizeof rd->cut_where, "%s at %s:%u",
                     res.cut_is_recursion ? "a recursion" : "a loop", res.cut_loc.file,
                     res.cut_loc.line);
        }
        trace_result_free(&res);
    }
    kiss_result_free(&kr);
    base_diag_free(&kd);
    cli_orig_free(&orig);
    cli_program_free(&cp);
    return rc;
}

/* What ravel race prints: the races found so far, then the verdict (rd:
 * the last answer, which found nothing more or stopped). */
static void race_output(base_strbuf *out, const cli_kiss *ck, bool svcomp, const race_list *l,
                        uint32_t max_races, bool max_races_set, const race_round *rd)
{
    uint32_t found = l->found;
    uint32_t unwind = rd->po ? rd->unwind : ck->bo.unwind;
    const char *verdict = found ? "race"
                          : rd->proved ? "safe"
                          : rd->verdict == TRACE_SAFE_WITHIN_BOUNDS ? "no race" : "unknown";
    if (svcomp)
        base_strbuf_puts(out, found ? "false\n" : rd->proved ? "true\n" : "unknown\n");
    if (ck->sarif) {
        report_race_sarif_begin(out, NULL);
        base_strbuf_put(out, l->sarif.data, l->sarif.len);
        report_race_sarif_end(out);
    } else if (ck->json) {
        base_strbuf_puts(out, "{\"file\":");
        base_strbuf_json_string(out, ck->fr.files.data[0]);
        base_strbuf_printf(out, ",\"verdict\":\"%s\",\"unwind\":%u,\"pending\":%u",
                           verdict, unwind, ck->ko.pending);
        if (rd->po)
            base_strbuf_printf(out, ",\"max_threads\":%u", ck->ko.max_threads);
        base_strbuf_printf(out, ",\"engine\":\"%s\"", rd->po ? "po" : "kiss");
        if (!found && rd->verdict == TRACE_UNKNOWN) {
            base_strbuf_puts(out, ",\"reason\":");
            base_strbuf_json_string(out, rd->reason ? rd->reason : "");
        }
        if (!found && rd->verdict == TRACE_SAFE_WITHIN_BOUNDS)
            base_strbuf_printf(out, ",\"bound_reached\":%s", rd->cut ? "true" : "false");
        base_strbuf_puts(out, ",\"races\":[");
        base_strbuf_put(out, l->json.data, l->json.len);
        base_strbuf_puts(out, "]}\n");
    } else {
        base_strbuf_put(out, l->text.data, l->text.len);
        const char *pend = ck->ko.pending == 1 ? "" : "s";
        char bounds[128];
        if (rd->po)
            snprintf(bounds, sizeof bounds, "unwind %u, %u threads", unwind, ck->ko.max_threads);
        else
            snprintf(bounds, sizeof bounds, "unwind %u, %u pending thread%s", unwind,
                     ck->ko.pending, pend);
        if (found) {
            base_strbuf_printf(out, "%u data race%s found within %s%s", found,
                               found == 1 ? "" : "s", bounds,
                               rd->po ? " (partial-order engine, SC)" : "");
            if (found >= max_races && max_races_set)
                base_strbuf_printf(out, " (stopped at --max-races %u)", max_races);
            else if (found >= max_races)
                base_strbuf_puts(out, " (the SV-COMP answer needs one race)");
            else if (rd->verdict == TRACE_UNKNOWN)
                base_strbuf_printf(out, " (the search for more stopped: %s)",
                                   rd->reason ? rd->reason : "unknown");
            base_strbuf_putc(out, '\n');
        } else if (rd->proved) {
            base_strbuf_puts(out, "true: no execution has a data race\n");
            base_strbuf_printf(out, "  (every interleaving under SC; no loop, recursion or thread "
                                    "creation exceeds unwind %u, %u threads)\n",
                               unwind, ck->ko.max_threads);
        } else if (rd->verdict == TRACE_SAFE_WITHIN_BOUNDS) {
            base_strbuf_printf(out, "no data race within %s\n", bounds);
            if (rd->po)
                base_strbuf_puts(out, "  (every interleaving under SC within these bounds)\n");
            else
                base_strbuf_puts(out, "  (KISS explores the schedules these bounds allow, not all of them)\n");
            if (rd->cut)
                base_strbuf_printf(out, "  the bound cut %s: a larger %s explores more\n",
                                   rd->cut_where, rd->po ? "bound" : "--unwind");
            else if (rd->not_proof[0])
                base_strbuf_printf(out, "  not a proof: %s\n", rd->not_proof);
        } else {
            base_strbuf_printf(out, "unknown: %s\n", rd->reason ? rd->reason : "no answer");
        }
    }
}

/* The run's state: options, the races so far, the watchdog's answer. */
typedef struct race_run {
    cli_kiss *ck;
    bool svcomp;
    uint32_t max_races;
    bool max_races_set;
    race_list list;
    int rc;                  /* a failure to write the witness */
} race_run;

/* Should the watchdog end the run now, it prints the races so far. */
static void watchdog_partial(race_run *rr)
{
    if (rr->ck->bo.timeout_s <= 0)
        return;
    race_round stopped = { .verdict = TRACE_UNKNOWN,
                           .reason = "timeout (the budget of --timeout ran out)" };
    base_strbuf partial = { 0 };
    race_output(&partial, rr->ck, rr->svcomp, &rr->list, rr->max_races, rr->max_races_set, &stopped);
    cli_kiss_watchdog_answer(&partial, rr->list.found ? CLI_EXIT_FOUND : CLI_EXIT_UNKNOWN);
}

/* The KISS rounds (kiss, or explore_only), with budget seconds (0: none),
 * until no race is left, max_races or the budget. */
static int race_kiss(race_run *rr, cli_kiss *ck, double budget, race_round *rd)
{
    pair_vec excl = { 0 };
    double start = base_now();
    int rc = 0;
    memset(rd, 0, sizeof *rd);
    for (;;) {
        if (budget > 0) {
            double left = budget - (base_now() - start);
            if (left <= 0.001) {
                rd->verdict = TRACE_UNKNOWN;
                rd->reason = "timeout (the budget of --timeout ran out)";
                break;
            }
            ck->bo.timeout_s = left;
        }
        rc = round_run(ck, &excl, rd, &rr->list, rr->list.found == 0 && ck->witness);
        if (rc || !rd->found)
            break;
        watchdog_partial(rr);
        if (rr->list.found >= rr->max_races)
            break;
    }
    base_vec_free(&excl);
    return rc;
}

/* --- po --- */

typedef struct po_ctx {
    race_run *rr;
    const ir_program *p;
    cli_orig *orig;
    uint32_t unwind;
} po_ctx;

static void po_access_to(race_access *o, const po_race_access *a, const ir_program *p)
{
    memset(o, 0, sizeof *o);
    o->loc = a->loc;
    o->write = a->write;
    o->thread = a->thread;
    o->function = a->func ? base_sym_str(p->syms, a->func->name) : "?";
    o->started_at = a->started_at;
    o->nlocks = a->nlocks;
    o->locks = calloc(a->nlocks ? a->nlocks : 1, sizeof *o->locks);
    for (uint32_t i = 0; i < a->nlocks; i++)
        o->locks[i] = strdup(a->locks[i]);
}

static void po_on_race(void *ud, const po_race_found *pf, const trace_result *r)
{
    po_ctx *x = ud;
    race_run *rr = x->rr;
    cli_kiss *ck = rr->ck;
    check_report c = { x->p, r, x->unwind, ck->ko.pending, cli_orig_stmt, x->orig, "po",
                       .direct = true, .max_threads = ck->ko.max_threads };
    race_finding f;
    memset(&f, 0, sizeof f);
    f.object = strdup(pf->object);
    po_access_to(&f.first, &pf->first, x->p);
    po_access_to(&f.second, &pf->second, x->p);
    bool first = rr->list.found == 0;
    list_add(&rr->list, &f, &c);
    if (first && ck->witness && cli_kiss_write_witness(ck, &c, true) != 0)
        rr->rc = CLI_EXIT_INPUT;
    report_race_finding_free(&f);
    watchdog_partial(rr);
}

/* po at one bound with budget seconds (0: none); the answer in rd. */
static trace_verdict race_po_once(race_run *rr, const ir_program *p, cli_orig *orig,
                                  uint32_t unwind, double budget, race_round *rd)
{
    cli_kiss *ck = rr->ck;
    po_opts po;
    cli_kiss_po_opts(ck, unwind, budget, &po);
    po_ctx x = { rr, p, orig, unwind };
    uint32_t left = rr->max_races > rr->list.found ? rr->max_races - rr->list.found : 1;
    po_race_opts ro = { left, &x, po_on_race };
    trace_result res;
    po_stats st;
    po_race_result pr;
    po_race(p, ir_find_func(p, "main"), &po, &ro, &res, &st, &pr);
    if (getenv("RAVEL_TIMES"))
        fprintf(stderr,
                "po race: unwind %u, %zu threads, %zu events, %zu rf choices, %zu order clauses, "
                "%zu terms, encode %.3f s, %zu solver calls %.3f s: %u races, %s\n",
                unwind, st.threads, st.events, st.rf_choices, st.order_clauses, res.stats.terms,
                res.stats.encode_s, res.stats.solver_calls, res.stats.solve_s, pr.found,
                trace_verdict_name(pr.verdict));
    memset(rd, 0, sizeof *rd);
    rd->po = true;
    rd->unwind = unwind;
    rd->verdict = pr.verdict;
    rd->found = pr.found > 0;
    if (pr.verdict == TRACE_UNKNOWN) {
        snprintf(rd->reason_buf, sizeof rd->reason_buf, "%s", res.reason ? res.reason : "no answer");
        if (res.reason_loc.line) {
            size_t n = strlen(rd->reason_buf);
            snprintf(rd->reason_buf + n, sizeof rd->reason_buf - n, " (%s:%u:%u)",
                     res.reason_loc.file, res.reason_loc.line, res.reason_loc.col);
        }
        rd->reason = rd->reason_buf;
    } else if (pr.verdict == TRACE_SAFE_WITHIN_BOUNDS) {
        if (res.unwinding_checked && !res.unwinding_ok && res.cut_loc.file) {
            rd->cut = true;
            snprintf(rd->cut_where, sizeof rd->cut_where, "%s at %s:%u",
                     report_check_cut_what(&res), res.cut_loc.file, res.cut_loc.line);
        } else if (!res.unwinding_checked || !res.unwinding_ok) {
            snprintf(rd->not_proof, sizeof rd->not_proof, "the unwinding assertions were not checked");
        } else if (!pr.exact) {
            snprintf(rd->not_proof, sizeof rd->not_proof, "%s", pr.why ? pr.why : "an approximation");
        } else {
            rd->proved = pr.found == 0;
        }
    }
    trace_result_free(&res);
    return rd->verdict;
}

/* The unwinding bounds po deepens through (as check's). */
static const uint32_t po_bounds[] = { 2, 6, 12, 24, 48, 96, 128 };
#define PO_NBOUNDS (sizeof po_bounds / sizeof *po_bounds)

/* po deepening through po_bounds from index from, with budget seconds,
 * while no race is found and executions are cut; rd holds the deepest
 * answer (taken over from the bound before when from > 0). */
static void race_po_deepen(race_run *rr, const ir_program *p, cli_orig *orig, double budget,
                           size_t from, race_round *rd)
{
    double t0 = base_now();
    bool have = from > 0;
    for (size_t k = from; k < PO_NBOUNDS; k++) {
        double left = budget - (base_now() - t0);
        if (left < 0.05)
            break;
        race_round cur;
        trace_verdict v = race_po_once(rr, p, orig, po_bounds[k], left, &cur);
        if (v == TRACE_UNKNOWN && have && !cur.found)
            break; /* the deeper bound ran out of time: the last answer stands */
        *rd = cur;
        if (rd->reason == cur.reason_buf)
            rd->reason = rd->reason_buf;
        have = true;
        if (cur.found || v != TRACE_SAFE_WITHIN_BOUNDS || cur.proved || !cur.cut)
            break;
    }
    if (!have)
        race_po_once(rr, p, orig, 1, 0.001, rd);
}

/* --- the engines --- */

/* The program for po (untranslated) and its statements for traces;
 * false (freed) when it cannot be loaded. */
static bool po_load(cli_kiss *ck, cli_program *cp, cli_orig *orig)
{
    if (cli_program_load(cp, &ck->fr)) {
        cli_program_free(cp);
        return false;
    }
    cli_orig_keep(orig, &cp->prog);
    return true;
}

static int engine_po(race_run *rr, bool timeout_given, race_round *rd)
{
    cli_kiss *ck = rr->ck;
    cli_program cp;
    cli_orig orig;
    if (!po_load(ck, &cp, &orig))
        return CLI_EXIT_INPUT;
    double budget = cli_kiss_plan_budget(ck->bo.timeout_s);
    if (timeout_given && !ck->unwind_given)
        race_po_deepen(rr, &cp.prog, &orig, budget, 0, rd);
    else
        race_po_once(rr, &cp.prog, &orig, ck->bo.unwind, budget, rd);
    cli_orig_free(&orig);
    cli_program_free(&cp);
    return 0;
}

/* What is left of a budget of total seconds started at t0. */
static double left_of(double total, double t0)
{
    double left = total - (base_now() - t0);
    return left < 0.001 ? 0.001 : left;
}

/* The portfolio, of a budget T (--timeout, else RACE_BUDGET_S):
 *  1. po at unwind 2 (or --unwind) for at most T/10, at most 2 s: small
 *     programs get their proof or their races at once;
 *  2. the random exploration of the KISS race instrumentation for
 *     --explore S, else T/4, at most 10 s (a race it finds is real);
 *  3. po deepening the unwinding (6, 12, ...) with 90% of what is left;
 *  4. KISS's bounded check with the rest; when it finds no race, po's
 *     bounded answer (every interleaving) stands rather than KISS's.
 * The first engine that finds a race answers (and looks for more). */
static int engine_auto(race_run *rr, race_round *rd)
{
    cli_kiss *ck = rr->ck;
    double t0 = base_now(), total = cli_kiss_plan_budget(ck->bo.timeout_s);
    cli_program cp;
    cli_orig orig;
    if (!po_load(ck, &cp, &orig))
        return CLI_EXIT_INPUT;
    int rc = 0;
    double b0 = 0.1 * total < 2 ? 0.1 * total : 2;
    race_round po_rd;
    trace_verdict v = race_po_once(rr, &cp.prog, &orig,
                                   ck->unwind_given ? ck->bo.unwind : po_bounds[0], b0, &po_rd);
    if (po_rd.found || po_rd.proved)
        goto po;
    cli_kiss e = *ck;
    e.explore_only = true;
    e.explore_s = ck->explore_s >= 0 ? ck->explore_s : 0.25 * total < 10 ? 0.25 * total : 10;
    if (e.explore_s > 0) {
        race_round krd;
        rc = race_kiss(rr, &e, e.explore_s, &krd);
        if (rc || rr->list.found) {
            *rd = krd;
            if (rd->reason == krd.reason_buf)
                rd->reason = rd->reason_buf;
            goto done;
        }
    }
    /* then deeper, from the answer at the first bound (out of time there:
     * from the first bound again, with the rest of the budget) */
    if (ck->unwind_given && v == TRACE_UNKNOWN) {
        race_po_once(rr, &cp.prog, &orig, ck->bo.unwind, 0.9 * left_of(total, t0), &po_rd);
    } else if (!ck->unwind_given) {
        race_round deeper = po_rd;
        if (po_rd.reason == po_rd.reason_buf)
            deeper.reason = deeper.reason_buf;
        race_po_deepen(rr, &cp.prog, &orig, 0.9 * left_of(total, t0), v == TRACE_UNKNOWN ? 0 : 1,
                       &deeper);
        po_rd = deeper;
        if (po_rd.reason == deeper.reason_buf)
            po_rd.reason = po_rd.reason_buf;
    }
    if (po_rd.found || po_rd.proved)
        goto po;
    {
        cli_kiss rest = *ck;
        rest.explore_s = 0;
        race_round krd;
        rc = race_kiss(rr, &rest, left_of(total, t0), &krd);
        if (rc || rr->list.found || po_rd.verdict != TRACE_SAFE_WITHIN_BOUNDS) {
            *rd = krd;
            if (rd->reason == krd.reason_buf)
                rd->reason = rd->reason_buf;
            goto done;
        }
    }
po:
    *rd = po_rd;
    if (rd->reason == po_rd.reason_buf)
        rd->reason = rd->reason_buf;
done:
    cli_orig_free(&orig);
    cli_program_free(&cp);
    return rc;
}

int cli_race(int argc, char **argv)
{
    cli_kiss ck;
    cli_kiss_init(&ck);
    uint32_t max_races = 16;
    bool max_races_set = false;
    cli_engine engine = CLI_ENGINE_AUTO;
    int rc = CLI_EXIT_OK;
    for (int i = 1; i < argc && !rc; i++) {
        int r = cli_kiss_arg(&ck, argc, argv, &i, "race");
        if (r < 0)
            rc = CLI_EXIT_USAGE;
        if (r)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(race_usage, stdout);
            cli_kiss_free(&ck);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--sarif") == 0) {
            ck.sarif = true;
        } else if (strcmp(a, "--engine") == 0) {
            if (!cli_kiss_engine("race", v, &engine))
                rc = CLI_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--location") == 0) {
            if (!v) {
                fprintf(stderr, "ravel race: error: --location needs a variable name\n");
                rc = CLI_EXIT_USAGE;
            }
            ck.ko.location = v;
            i++;
        } else if (strcmp(a, "--max-races") == 0) {
            rc = cli_number("race", a, v, 1, 1000, true, &x) ? 0 : CLI_EXIT_USAGE;
            max_races = (uint32_t)x;
            max_races_set = true;
            i++;
        } else {
            fprintf(stderr, "ravel race: error: unknown option '%s' (try 'ravel race --help')\n", a);
            rc = CLI_EXIT_USAGE;
        }
    }
    if (!rc && ck.json && ck.sarif) {
        fprintf(stderr, "ravel race: error: --json and --sarif exclude each other\n");
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && ck.ko.location && (engine == CLI_ENGINE_PO || engine == CLI_ENGINE_AUTO)) {
        fprintf(stderr, "ravel race: error: --location needs --engine kiss or explore\n");
        rc = CLI_EXIT_USAGE;
    }
    if (!rc)
        rc = cli_kiss_ready(&ck, "race", true);
    if (rc) {
        cli_kiss_free(&ck);
        return rc;
    }
    cli_front *fr = &ck.fr;
    race_run rr = { &ck, fr->tasks.len > 0, max_races, max_races_set, { 0 }, 0 };
    if (rr.svcomp && !max_races_set)
        rr.max_races = 1; /* the SV-COMP answer needs one race */
    bool timeout_given = ck.bo.timeout_s > 0;
    if (!timeout_given) { /* every run ends: the default budget */
        ck.bo.timeout_s = RACE_BUDGET_S;
        if (ck.explore_s < 0 && engine != CLI_ENGINE_AUTO)
            ck.explore_s = 1; /* kiss, explore: as without a budget */
    }
    cli_kiss_watchdog(&ck, rr.svcomp);
    watchdog_partial(&rr); /* in the format asked for (JSON, SARIF), not plain text */
    ck.explore_only = engine == CLI_ENGINE_EXPLORE;
    race_round rd;
    memset(&rd, 0, sizeof rd);
    if (engine == CLI_ENGINE_PO)
        rc = engine_po(&rr, timeout_given, &rd);
    else if (engine == CLI_ENGINE_AUTO)
        rc = engine_auto(&rr, &rd);
    else
        rc = race_kiss(&rr, &ck, cli_kiss_plan_budget(ck.bo.timeout_s), &rd);
    cli_kiss_watchdog_off();
    if (!rc)
        rc = rr.rc;
    if (!rc) {
        base_strbuf out = { 0 };
        race_output(&out, &ck, rr.svcomp, &rr.list, rr.max_races, max_races_set, &rd);
        fwrite(out.data, 1, out.len, stdout);
        base_strbuf_free(&out);
        if (ck.witness && !rr.list.found && rd.proved &&
            cli_kiss_write_correctness_witness(&ck, true))
            rc = CLI_EXIT_INPUT;
        if (!rc)
            rc = rr.list.found ? CLI_EXIT_FOUND
                 : rd.verdict == TRACE_SAFE_WITHIN_BOUNDS ? CLI_EXIT_OK : CLI_EXIT_UNKNOWN;
    }
    list_free(&rr.list);
    cli_kiss_free(&ck);
    return rc;
}
