/* cli_check: `ravel check FILE|TASK.yml... [--unwind N] [--pending K]
 * [--timeout S] [--json]`: lowers the program, translates it with KISS and
 * checks the sequential program's assertions with the bounded model
 * checker; a bug is shown as the interleaving of the original threads. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "trace/trace.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "cli/cli_kiss.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"
#include "logic/mm.h"
#include "po/po.h"
#include "report/check_out.h"
#include "tm/tm.h"

static const char check_usage[] =
    "usage: ravel check FILE...|TASK.yml [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Looks for an execution of a concurrent C program that fails an assertion\n"
    "(assert, reach_error, __VERIFIER_error), and proves there is none when it\n"
    "can. A bug comes with the interleaving of the original threads that causes\n"
    "it. An SV-COMP task (TASK.yml with the unreach-call property) prints the\n"
    "SV-COMP answer first: false, true or unknown.\n"
    "\n"
    "engines (--engine E):\n"
    "  auto (default)    the portfolio, of a budget T (--timeout, else 60 s):\n"
    "                    po deepening from unwind 2 for T/10 (at most 2 s); tm;\n"
    "                    random exploration of the KISS translation (--explore S,\n"
    "                    else T/4, at most 10 s); po deeper with 90% of the rest;\n"
    "                    then kiss's bounded check with what is left\n"
    "  po                every interleaving under SC, within the bounds, as a\n"
    "                    partial order; may answer true (a proof)\n"
    "  tm                thread-modular abstract interpretation: proves programs\n"
    "                    safe for any number of threads (threads created in\n"
    "                    loops too) under SC, or says it has no proof; never\n"
    "                    finds a bug (auto runs it when po has no answer)\n"
    "  kiss              the KISS translation: exploration, then bounded model\n"
    "                    checking (Z3); a subset of the schedules, never a proof\n"
    "  explore           the random exploration alone\n"
    "\n"
    "options:\n"
    "  --unwind N        unwind loops and recursion N times (default 3; po in the\n"
    "                    portfolio or with --timeout deepens 2, 6, 12, ... instead)\n"
    "  --pending K       room for K started but unscheduled threads (kiss, 2)\n"
    "  --max-threads N   threads created after the first N never run (64)\n"
    "  --explore S       seconds of random exploration (a bug found so is real;\n"
    "                    kiss: default half of --timeout, else 1)\n"
    "  --seed N          the exploration's seed (default 1)\n"
    "  --solver S        the bounded engines' SMT back end: auto (default: po\n"
    "                    bit-blasts to CaDiCaL up to 1M clauses, Z3 beyond; KISS\n"
    "                    uses Z3), z3 or cadical (also RAVEL_SOLVER=S)\n"
    "  --engine E        auto, po, tm, kiss or explore (above)\n"
    "  --mm M            the memory model of po: sc (default), tso, ra or c11, the\n"
    "                    models of `ravel litmus -m`; other than sc, the engine\n"
    "                    is po (auto means po)\n"
    "  --mm-formula      sc too by the model's formula instead of po's clocks\n"
    "  --mm-eager        ground the model's acyclicity and closures as clauses at\n"
    "                    once instead of adding the cycles that models have (lazy)\n"
    "  --witness FILE    write an SV-COMP witness (GraphML): a violation witness\n"
    "                    for a bug, a correctness witness for true\n"
    "  --timeout S       give up after S seconds (answer unknown); without it every\n"
    "                    engine stops after 60 s\n"
    "  --json            the verdict and the trace as JSON\n"
    "  -p DIR, -j N, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 true, or no bug within the bounds; 1 a bug; 2 bad command\n"
    "line; 3 unknown (timeout, memory, unsupported construct); 4 out of memory;\n"
    "5 bad input (missing file, clang error, unsupported property)\n";

/* The budget of a run without --timeout, in seconds. */
#define CHECK_BUDGET_S 60.0

/* Whether --timeout was given (po deepens its bound only then, or in the
 * portfolio). */
static bool timeout_given;


/* --mm: the model po decides by its formula (NULL: SC by clocks), and its
 * name for the answer (NULL: SC). */
static const logic_mm *check_mm;
static const char *check_mm_label;
static bool check_mm_eager;

/* Prints the po engine's answer; returns the exit code. */
static int po_answer(const cli_kiss *ck, const ir_program *prog, cli_orig *orig,
                     const trace_result *res, const char *inexact, bool svcomp)
{
    check_report c = { prog, res, res->unwind, ck->ko.pending, cli_orig_stmt, orig, "po",
                       .direct = true, .max_threads = ck->ko.max_threads, .inexact = inexact,
                       .model = check_mm_label };
    base_strbuf out = { 0 };
    if (svcomp)
        base_strbuf_puts(&out, res->verdict == TRACE_BUG ? "false\n"
                               : report_check_proved(&c) ? "true\n" : "unknown\n");
    if (ck->json)
        report_check_json(&out, &c, ck->fr.files.data[0]);
    else
        report_check_text(&out, &c);
    fwrite(out.data, 1, out.len, stdout);
    base_strbuf_free(&out);
    int rc = 0;
    if (ck->witness && cli_kiss_write_witness(ck, &c, false) != 0)
        rc = CLI_EXIT_INPUT;
    if (ck->witness && report_check_proved(&c) && cli_kiss_write_correctness_witness(ck, false))
        rc = CLI_EXIT_INPUT;
    if (!rc)
        rc = res->verdict == TRACE_BUG ? CLI_EXIT_FOUND
             : res->verdict == TRACE_UNKNOWN ? CLI_EXIT_UNKNOWN : CLI_EXIT_OK;
    return rc;
}

static trace_verdict run_po_once(const cli_kiss *ck, const ir_program *prog, uint32_t unwind,
                                 double budget, trace_result *res, const char **inexact)
{
    po_opts po;
    cli_kiss_po_opts(ck, unwind, budget, &po);
    po.mm = check_mm;
    po.mm_lazy = !check_mm_eager;
    const ir_func *entry = ir_find_func(prog, "main");
    bool exact;
    po_stats st;
    trace_verdict v = po_check(prog, entry, &po, res, &st, &exact, inexact);
    if (getenv("RAVEL_TIMES"))
        fprintf(stderr,
                "po: unwind %u, %zu threads, %zu events, %zu read bytes, %zu write bytes, "
                "%zu whole reads, %zu rf choices, %zu order clauses, %u-bit clocks, %zu terms, "
                "%llu SAT clauses%s, encode %.3f s, %zu solver calls %.3f s: %s\n",
                unwind, st.threads, st.events, st.read_bytes, st.write_bytes, st.whole_reads,
                st.rf_choices, st.order_clauses, st.clock_bits, res->stats.terms,
                (unsigned long long)st.clauses, st.redone ? " (over the cap: Z3)" : "",
                res->stats.encode_s, res->stats.solver_calls, res->stats.solve_s,
                trace_verdict_name(v));
    if (getenv("RAVEL_TIMES") && check_mm)
        fprintf(stderr, "po: model %s: %zu events, %zu SAT variables, %zu clauses, "
                "%zu refinement rounds adding %zu clauses\n",
                check_mm->name, st.mm_events, st.mm_vars, st.mm_clauses, st.mm_rounds,
                st.mm_refined);
    return v;
}

/* The unwinding bounds po deepens through: 2 answers the cheap programs
 * at once; 6 covers the loops of a few iterations that the corpus counts
 * (5, and a bug at the 6th); the rounds between cost more than they find
 * (bench/check, docs/manual.md). */
static const uint32_t po_bounds[] = { 2, 6, 12, 24, 48, 96, 128 };
#define PO_NBOUNDS (sizeof po_bounds / sizeof *po_bounds)

/* Runs the po engine on the untranslated program with budget seconds (0:
 * none). With a budget and no --unwind, the bound deepens through
 * po_bounds from index from while executions are cut and time remains;
 * the answer is the deepest one reached (a bug or a proof at once). With
 * from > 0, *res and *inexact hold the answer at the bound before
 * (taken over). *next (when not NULL) is the index of the first bound
 * not tried, so that a later call can go on from there. */
static trace_verdict run_po(const cli_kiss *ck, const ir_program *prog, double budget, size_t from,
                            trace_result *res, const char **inexact, size_t *next)
{
    if (next)
        *next = PO_NBOUNDS;
    if (ck->unwind_given || budget <= 0)
        return run_po_once(ck, prog, ck->bo.unwind, budget, res, inexact);
    double t0 = base_now();
    bool have = from > 0;
    trace_result best;
    const char *best_inexact = NULL;
    if (have) {
        best = *res;
        best_inexact = *inexact;
    }
    for (size_t k = from; k < PO_NBOUNDS; k++) {
        double left = budget - (base_now() - t0);
        if (left < 0.05)
            break;
        trace_result cur;
        const char *ix = NULL;
        trace_verdict v = run_po_once(ck, prog, po_bounds[k], left, &cur, &ix);
        bool proved = v == TRACE_SAFE_WITHIN_BOUNDS && cur.unwinding_checked && cur.unwinding_ok;
        if (v == TRACE_UNKNOWN && have) {
            trace_result_free(&cur);
            break; /* the deeper bound ran out of time: the last answer stands */
        }
        if (have)
            trace_result_free(&best);
        best = cur;
        best_inexact = ix;
        have = true;
        if (next)
            *next = k + 1;
        if (v != TRACE_SAFE_WITHIN_BOUNDS || proved)
            break;
    }
    if (!have)
        return run_po_once(ck, prog, 1, 0.001, res, inexact);
    *res = best;
    *inexact = best_inexact;
    return best.verdict;
}

/* The KISS side of check: the program lowered and translated. */
typedef struct kiss_side {
    cli_program cp;
    cli_orig orig;
    base_diag kd;
    ir_func *entry;
} kiss_side;

/* Loads and translates; returns 0 or the exit code of a failure. */
static int kiss_side_load(kiss_side *k, cli_kiss *ck)
{
    memset(k, 0, sizeof *k);
    base_diag_init(&k->kd);
    if (cli_program_load(&k->cp, &ck->fr))
        return CLI_EXIT_INPUT;
    ir_program *prog = &k->cp.prog;
    cli_orig_keep(&k->orig, prog);
    k->entry = kiss_translate(prog, &ck->ko, NULL, &k->kd);
    base_diag_print(&k->kd, stderr);
    if (!k->entry)
        return CLI_EXIT_INPUT;
    if (ir_check(prog, &k->kd)) {
        base_diag_print(&k->kd, stderr);
        return CLI_EXIT_INTERNAL;
    }
    return 0;
}

static void kiss_side_free(kiss_side *k)
{
    base_diag_free(&k->kd);
    cli_orig_free(&k->orig);
    cli_program_free(&k->cp);
}

/* Should the watchdog end the run, it answers in JSON too. */
static void kiss_watchdog_json(const cli_kiss *ck, kiss_side *k, bool svcomp)
{
    if (!ck->json || ck->bo.timeout_s <= 0)
        return;
    trace_result none = { .verdict = TRACE_UNKNOWN,
                        .reason = "timeout (the budget of --timeout ran out)" };
    check_report nc = { &k->cp.prog, &none, ck->bo.unwind, ck->ko.pending, cli_orig_stmt,
                        &k->orig, .engine = "none" };
    base_strbuf ans = { 0 };
    if (svcomp)
        base_strbuf_puts(&ans, "unknown\n");
    report_check_json(&ans, &nc, ck->fr.files.data[0]);
    cli_kiss_watchdog_answer(&ans, CLI_EXIT_UNKNOWN);
}

/* Prints a KISS engine's answer; returns the exit code. */
static int kiss_answer(const cli_kiss *ck, kiss_side *k, const trace_result *res,
                       const char *engine_name, bool svcomp)
{
    check_report c = { &k->cp.prog, res, ck->bo.unwind, ck->ko.pending, cli_orig_stmt, &k->orig,
                       .engine = engine_name };
    base_strbuf out = { 0 };
    if (svcomp)
        base_strbuf_puts(&out, res->verdict == TRACE_BUG ? "false\n" : "unknown\n");
    if (ck->json)
        report_check_json(&out, &c, ck->fr.files.data[0]);
    else
        report_check_text(&out, &c);
    fwrite(out.data, 1, out.len, stdout);
    base_strbuf_free(&out);
    if (ck->witness && cli_kiss_write_witness(ck, &c, false) != 0)
        return CLI_EXIT_INPUT;
    return res->verdict == TRACE_BUG ? CLI_EXIT_FOUND
           : res->verdict == TRACE_UNKNOWN ? CLI_EXIT_UNKNOWN : CLI_EXIT_OK;
}

/* Runs tm on prog. With force (--engine tm) or a proof, prints the answer
 * and stores the exit code in *rc and returns true; else (the portfolio
 * goes on) returns false. */
static bool tm_answer(const cli_kiss *ck, const ir_program *prog, bool svcomp, bool force,
                      int *rc)
{
    tm_result tr;
    double t0 = base_now();
    tm_check(prog, ir_find_func(prog, "main"), &tr);
    if (getenv("RAVEL_TIMES"))
        fprintf(stderr, "tm: %u rounds, %u thread functions, %.3f s: %s%s\n", tr.rounds,
                tr.threads, base_now() - t0, tr.proved ? "proved" : "no proof: ",
                tr.proved ? "" : tr.reason);
    if (!tr.proved && !force)
        return false;
    trace_result res;
    memset(&res, 0, sizeof res);
    res.verdict = tr.proved ? TRACE_SAFE_WITHIN_BOUNDS : TRACE_UNKNOWN;
    res.unwinding_checked = res.unwinding_ok = tr.proved;
    res.reason = tr.reason;
    res.reason_loc = tr.loc;
    check_report c = { prog, &res, 0, 0, NULL, NULL, "tm", .direct = true };
    base_strbuf out = { 0 };
    if (svcomp)
        base_strbuf_puts(&out, tr.proved ? "true\n" : "unknown\n");
    if (ck->json)
        report_check_json(&out, &c, ck->fr.files.data[0]);
    else if (tr.proved)
        base_strbuf_puts(&out, "true: no execution fails an assertion\n"
                               "  (thread-modular invariants: any number of threads, every "
                               "interleaving under SC)\n");
    else {
        base_strbuf_printf(&out, "unknown: no proof by thread-modular analysis: %s", tr.reason);
        if (tr.loc.file && tr.loc.line)
            base_strbuf_printf(&out, " (%s:%u:%u)", tr.loc.file, tr.loc.line, tr.loc.col);
        base_strbuf_putc(&out, '\n');
    }
    fwrite(out.data, 1, out.len, stdout);
    base_strbuf_free(&out);
    *rc = tr.proved ? CLI_EXIT_OK : CLI_EXIT_UNKNOWN;
    if (tr.proved && ck->witness && cli_kiss_write_correctness_witness(ck, false))
        *rc = CLI_EXIT_INPUT;
    return true;
}

/* The tm engine alone (--engine tm). */
static int check_tm(cli_kiss *ck, bool svcomp)
{
    cli_program cp;
    int rc = CLI_EXIT_INPUT;
    if (!cli_program_load(&cp, &ck->fr))
        tm_answer(ck, &cp.prog, svcomp, true, &rc);
    cli_program_free(&cp);
    return rc;
}

/* The po engine alone. */
static int check_po(cli_kiss *ck, bool svcomp)
{
    cli_program cp;
    int rc;
    if (cli_program_load(&cp, &ck->fr)) {
        rc = CLI_EXIT_INPUT;
    } else {
        trace_result res;
        const char *inexact = NULL;
        double budget = cli_kiss_plan_budget(ck->bo.timeout_s);
        if (timeout_given)
            run_po(ck, &cp.prog, budget, 0, &res, &inexact, NULL);
        else
            run_po_once(ck, &cp.prog, ck->bo.unwind, budget, &res, &inexact);
        cli_orig orig;
        cli_orig_keep(&orig, &cp.prog);
        rc = po_answer(ck, &cp.prog, &orig, &res, inexact, svcomp);
        cli_orig_free(&orig);
        trace_result_free(&res);
    }
    cli_program_free(&cp);
    return rc;
}

/* What is left of a budget of total seconds started at t0 (0: none). */
static double left_of(double total, double t0)
{
    if (total <= 0)
        return 0;
    double left = total - (base_now() - t0);
    return left < 0.001 ? 0.001 : left;
}

/* The portfolio (the default engine), chosen by measurement on the
 * SV-COMP corpus (bench/check, docs/manual.md): the random exploration
 * finds most bugs within seconds, po then answers bugs that need a
 * particular schedule and proves what it can, and KISS's bounded check
 * gets what is left. Of a budget T (--timeout, else CHECK_BUDGET_S):
 *  1. exploration of the KISS translation for --explore S, else a quarter
 *     of T, at most 10 s (a bug it finds is real);
 *  2. po, deepening the unwinding (2, 6, 12, ...), with all but a tenth of
 *     what is left (a bug or a proof is the answer);
 *  3. KISS's bounded check with the rest; when it finds no bug, po's
 *     bounded answer (every interleaving) stands rather than KISS's. */
static int check_auto(cli_kiss *ck, bool svcomp)
{
    double t0 = base_now(), total = cli_kiss_plan_budget(ck->bo.timeout_s);
    kiss_side k;
    int rc = kiss_side_load(&k, ck);
    if (rc) {
        kiss_side_free(&k);
        return rc;
    }
    kiss_watchdog_json(ck, &k, svcomp);
    cli_program cp;
    if (cli_program_load(&cp, &ck->fr)) {
        cli_program_free(&cp);
        kiss_side_free(&k);
        return CLI_EXIT_INPUT;
    }
    /* po, briefly, deepening from the first bound: small programs get
     * their proof or their bug in a fraction of a second (a loop of three
     * iterations in main needs the second bound) */
    trace_result pores;
    const char *inexact = NULL;
    double b0 = 0.1 * total < 2 ? 0.1 * total : 2;
    size_t next = 1;
    trace_verdict v = run_po(ck, &cp.prog, b0, 0, &pores, &inexact, &next);
    check_report pc = { &cp.prog, &pores, 0, 0, NULL, NULL, "po", .direct = true,
                        .inexact = inexact };
    if (v == TRACE_BUG || report_check_proved(&pc))
        goto po;
    /* the thread-modular prover, in a fraction of a second: a proof for
     * any number of threads, which no bound of po gives */
    if (tm_answer(ck, &cp.prog, svcomp, false, &rc))
        goto done;
    trace_result res;
    const char *name;
    cli_kiss e = *ck;
    e.explore_only = true;
    e.explore_s = ck->explore_s >= 0 ? ck->explore_s : 0.25 * total < 10 ? 0.25 * total : 10;
    if (e.explore_s > 0 && cli_kiss_run(&e, &k.cp.prog, k.entry, &res, &name) == TRACE_BUG) {
        rc = kiss_answer(ck, &k, &res, name, svcomp);
        trace_result_free(&res);
        goto done;
    }
    if (e.explore_s > 0)
        trace_result_free(&res);
    /* then deeper, from the answer at the first bound (out of time there:
     * from the first bound again, with the rest of the budget) */
    if (v == TRACE_UNKNOWN) {
        trace_result_free(&pores);
        v = run_po(ck, &cp.prog, 0.9 * left_of(total, t0), 0, &pores, &inexact, NULL);
    } else if (!ck->unwind_given && next < PO_NBOUNDS) {
        v = run_po(ck, &cp.prog, 0.9 * left_of(total, t0), next, &pores, &inexact, NULL);
    }
    pc.r = &pores;
    pc.inexact = inexact;
    bool have_po = v == TRACE_SAFE_WITHIN_BOUNDS;
    if (v != TRACE_BUG && !report_check_proved(&pc)) {
        cli_kiss rest = *ck;
        rest.explore_s = 0;
        rest.bo.timeout_s = left_of(total, t0);
        rest.bo.budget_s = ck->bo.timeout_s; /* a timeout names the whole budget */
        if (cli_kiss_run(&rest, &k.cp.prog, k.entry, &res, &name) == TRACE_BUG || !have_po) {
            rc = kiss_answer(ck, &k, &res, name, svcomp);
            trace_result_free(&res);
            goto done;
        }
        trace_result_free(&res);
    }
po:;
    cli_orig orig;
    cli_orig_keep(&orig, &cp.prog);
    rc = po_answer(ck, &cp.prog, &orig, &pores, inexact, svcomp);
    cli_orig_free(&orig);
done:
    trace_result_free(&pores);
    cli_program_free(&cp);
    kiss_side_free(&k);
    return rc;
}

int cli_check(int argc, char **argv)
{
    cli_kiss ck;
    cli_kiss_init(&ck);
    int rc = CLI_EXIT_OK;
    cli_engine engine = CLI_ENGINE_AUTO;
    bool use_tm = false; /* --engine tm (kept here: race has no tm) */
    const char *mm_name = "sc";
    bool mm_formula = false;
    for (int i = 1; i < argc && !rc; i++) {
        int r = cli_kiss_arg(&ck, argc, argv, &i, "check");
        if (r < 0)
            rc = CLI_EXIT_USAGE;
        if (r)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "--engine") == 0 && i + 1 < argc && strcmp(argv[i + 1], "tm") == 0) {
            use_tm = true;
            i++;
            continue;
        }
        if (strcmp(a, "--engine") == 0) {
            use_tm = false;
            if (!cli_kiss_engine("check", i + 1 < argc ? argv[++i] : NULL, &engine))
                rc = CLI_EXIT_USAGE;
            continue;
        }
        if (strcmp(a, "--mm") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            const logic_mm *m = v ? logic_mm_find(v) : NULL;
            if (!m || m->needs_qbf || m->config_only || m->build) {
                fprintf(stderr, "ravel check: error: --mm needs one of sc, tso, ra, c11%s%s%s\n",
                        v ? " (not '" : "", v ? v : "", v ? "')" : "");
                rc = CLI_EXIT_USAGE;
            }
            mm_name = v;
            continue;
        }
        if (strcmp(a, "--mm-formula") == 0) {
            mm_formula = true;
            continue;
        }
        if (strcmp(a, "--mm-eager") == 0) {
            check_mm_eager = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(check_usage, stdout);
            cli_kiss_free(&ck);
            return CLI_EXIT_OK;
        }
        fprintf(stderr, "ravel check: error: unknown option '%s' (try 'ravel check --help')\n", a);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc) {
        const logic_mm *m = logic_mm_find(mm_name);
        bool sc = strcmp(m->name, "sc") == 0;
        check_mm = sc && !mm_formula ? NULL : m;
        static char label[16];
        size_t k = 0;
        for (; !sc && m->name[k] && k + 1 < sizeof label; k++)
            label[k] = (char)toupper((unsigned char)m->name[k]);
        label[k] = 0;
        check_mm_label = sc ? NULL : label;
        if (check_mm && use_tm) {
            fprintf(stderr, "ravel check: error: --engine tm proves under sc only\n");
            rc = CLI_EXIT_USAGE;
        }
        if (check_mm && engine == CLI_ENGINE_AUTO)
            engine = CLI_ENGINE_PO;
        if (check_mm && engine != CLI_ENGINE_PO) {
            fprintf(stderr, "ravel check: error: --mm %s%s needs --engine po\n", m->name,
                    mm_formula ? " --mm-formula" : "");
            rc = CLI_EXIT_USAGE;
        }
    }
    if (!rc)
        rc = cli_kiss_ready(&ck, "check", false);
    if (rc) {
        cli_kiss_free(&ck);
        return rc;
    }
    cli_front *fr = &ck.fr;
    bool svcomp = fr->tasks.len > 0;
    timeout_given = ck.bo.timeout_s > 0;
    if (!timeout_given) { /* every run ends: the default budget */
        ck.bo.timeout_s = CHECK_BUDGET_S;
        if (ck.explore_s < 0 && engine != CLI_ENGINE_AUTO)
            ck.explore_s = 1; /* kiss, explore: as without a budget */
    }
    cli_kiss_watchdog(&ck, svcomp);
    ck.explore_only = engine == CLI_ENGINE_EXPLORE;
    if (use_tm) {
        rc = check_tm(&ck, svcomp);
    } else if (engine == CLI_ENGINE_PO) {
        rc = check_po(&ck, svcomp);
    } else if (engine == CLI_ENGINE_AUTO) {
        rc = check_auto(&ck, svcomp);
    } else {
        kiss_side k;
        rc = kiss_side_load(&k, &ck);
        if (!rc) {
            kiss_watchdog_json(&ck, &k, svcomp);
            trace_result res;
            const char *name;
            cli_kiss planned = ck;
            planned.bo.budget_s = ck.bo.timeout_s;
            planned.bo.timeout_s = cli_kiss_plan_budget(ck.bo.timeout_s);
            cli_kiss_run(&planned, &k.cp.prog, k.entry, &res, &name);
            rc = kiss_answer(&ck, &k, &res, name, svcomp);
            trace_result_free(&res);
        }
        kiss_side_free(&k);
    }
    cli_kiss_free(&ck);
    return rc;
}
