/* cli_race: `ravel race FILE|TASK.yml...`: data races by KISS race
 * instrumentation. Each round translates the program with the races found
 * so far excluded and checks it; a round that finds a race reports it and
 * asks again, until none is left within the bounds, --max-races is reached
 * or the budget runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "base/vec.h"
#include "bmc/bmc.h"
#include "cli/cli.h"
#include "cli/cli_front.h"
#include "cli/cli_kiss.h"
#include "ir/ir_check.h"
#include "kiss/kiss.h"
#include "report/check_out.h"
#include "report/race_out.h"

static const char race_usage[] =
    "usage: ravel race FILE...|TASK.yml [options] [-- CLANG-FLAGS...]\n"
    "\n"
    "Looks for data races in a concurrent C program: two threads access the\n"
    "same memory location one right after the other, at least one writes, no\n"
    "common lock is held and not both accesses are atomic. The KISS\n"
    "translation with race instrumentation is explored by random concrete\n"
    "runs, then checked by bounded model checking (Z3). Each race comes with both accesses, the\n"
    "threads and the locks they held, and the interleaving. Races already\n"
    "reported are excluded and the search goes on, up to --max-races.\n"
    "No race means none within the bounds: it is not a proof. An SV-COMP task\n"
    "(TASK.yml with the no-data-race property) prints the SV-COMP answer\n"
    "first: false or unknown.\n"
    "\n"
    "options:\n"
    "  --location NAME   only accesses to the variable NAME (its base name)\n"
    "  --max-races N     stop after N races (default 16)\n"
    "  --unwind N        unwind loops and recursion N times (default 3)\n"
    "  --pending K       room for K started but unscheduled threads (default 2)\n"
    "  --max-threads N   threads created after the first N never run (64)\n"
    "  --explore S       seconds of random exploration (concrete runs of the\n"
    "                    sequential program) before the bounded check; a bug\n"
    "                    found so is real (default: half of --timeout, else 1)\n"
    "  --seed N          the exploration's seed (default 1)\n"
    "  --witness FILE    write an SV-COMP violation witness (GraphML)\n"
    "  --timeout S       give up after S seconds in all (answer unknown)\n"
    "  --json            the races as JSON\n"
    "  --sarif           the races as SARIF 2.1.0\n"
    "  -p DIR, -j N, --m32, -q, -- FLAGS   as for `ravel ir`\n"
    "  -h, --help        this text\n"
    "\n"
    "exit codes: 0 no race within the bounds; 1 a race; 2 bad command line;\n"
    "3 unknown (timeout, memory, unsupported construct); 4 out of memory;\n"
    "5 bad input (missing file, clang error, unsupported property)\n";

typedef BASE_VEC(kiss_site_pair) pair_vec;

/* One round: lowers, translates with the exclusions, checks. Returns the
 * verdict; on BUG *found holds the race and out_* its renderings. */
typedef struct race_round {
    bmc_verdict verdict;
    const char *reason;      /* UNKNOWN (static or kept in *reason_buf) */
    char reason_buf[256];
    bool cut;                /* SAFE: a bound cut a feasible path */
    char cut_where[256];
    bool found;
    race_finding f;
    base_strbuf text, json, sarif;
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

static int round_run(cli_kiss *ck, pair_vec *excl, race_round *rd, bool witness)
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
        bmc_result res;
        const char *engine;
        rd->verdict = cli_kiss_run(ck, prog, entry, &res, &engine);
        check_report c = { prog, &res, ck->bo.unwind, ck->ko.pending, cli_orig_stmt, &orig,
                           .engine = engine };
        if (rd->verdict == BMC_BUG) {
            if (!report_race_explain(&c, &kr, &rd->f)) {
                rd->verdict = BMC_UNKNOWN;
                snprintf(rd->reason_buf, sizeof rd->reason_buf,
                         "internal: a trace that is not a race (%s)",
                         res.message ? res.message : "no message");
                rd->reason = rd->reason_buf;
            } else {
                rd->found = true;
                report_race_text(&rd->text, &rd->f, &c);
                report_race_json(&rd->json, &rd->f, &c);
                report_race_sarif_result(&rd->sarif, &rd->f, &c);
                exclude_places(excl, &rd->f, &kr);
                if (witness && cli_kiss_write_witness(ck, &c, true) != 0)
                    rc = CLI_EXIT_INPUT;
            }
        } else if (rd->verdict == BMC_UNKNOWN) {
            snprintf(rd->reason_buf, sizeof rd->reason_buf, "%s", res.reason ? res.reason : "no answer");
            rd->reason = rd->reason_buf;
        } else if (res.unwinding_checked && !res.unwinding_ok && res.cut_loc.file) {
            rd->cut = true;
            snprintf(rd->cut_where, sizeof rd->cut_where, "%s at %s:%u",
                     res.cut_is_recursion ? "a recursion" : "a loop", res.cut_loc.file,
                     res.cut_loc.line);
        }
        bmc_result_free(&res);
    }
    kiss_result_free(&kr);
    base_diag_free(&kd);
    cli_orig_free(&orig);
    cli_program_free(&cp);
    return rc;
}

static void round_free(race_round *rd)
{
    report_race_finding_free(&rd->f);
    base_strbuf_free(&rd->text);
    base_strbuf_free(&rd->json);
    base_strbuf_free(&rd->sarif);
}

/* What ravel race prints: the races found so far, then the verdict (rd:
 * the last round, which found nothing more or stopped). */
static void race_output(base_strbuf *out, const cli_kiss *ck, bool svcomp, uint32_t found,
                        uint32_t max_races, bool max_races_set, const race_round *rd, const base_strbuf *text,
                        const base_strbuf *json, const base_strbuf *sarif)
{
    const char *verdict = found ? "race" : rd->verdict == BMC_SAFE_WITHIN_BOUNDS ? "no race" : "unknown";
    if (svcomp)
        base_strbuf_puts(out, found ? "false\n" : "unknown\n");
    if (ck->sarif) {
        report_race_sarif_begin(out, NULL);
        base_strbuf_put(out, sarif->data, sarif->len);
        report_race_sarif_end(out);
    } else if (ck->json) {
        base_strbuf_puts(out, "{\"file\":");
        base_strbuf_json_string(out, ck->fr.files.data[0]);
        base_strbuf_printf(out, ",\"verdict\":\"%s\",\"unwind\":%u,\"pending\":%u",
                           verdict, ck->bo.unwind, ck->ko.pending);
        if (!found && rd->verdict == BMC_UNKNOWN) {
            base_strbuf_puts(out, ",\"reason\":");
            base_strbuf_json_string(out, rd->reason ? rd->reason : "");
        }
        if (!found && rd->verdict == BMC_SAFE_WITHIN_BOUNDS)
            base_strbuf_printf(out, ",\"bound_reached\":%s", rd->cut ? "true" : "false");
        base_strbuf_puts(out, ",\"races\":[");
        base_strbuf_put(out, json->data, json->len);
        base_strbuf_puts(out, "]}\n");
    } else {
        base_strbuf_put(out, text->data, text->len);
        const char *pend = ck->ko.pending == 1 ? "" : "s";
        if (found) {
            base_strbuf_printf(out, "%u data race%s found within unwind %u, %u pending thread%s",
                               found, found == 1 ? "" : "s", ck->bo.unwind, ck->ko.pending, pend);
            if (found >= max_races && max_races_set)
                base_strbuf_printf(out, " (stopped at --max-races %u)", max_races);
            else if (found >= max_races)
                base_strbuf_puts(out, " (the SV-COMP answer needs one race)");
            else if (rd->verdict == BMC_UNKNOWN)
                base_strbuf_printf(out, " (the search for more stopped: %s)",
                                   rd->reason ? rd->reason : "unknown");
            base_strbuf_putc(out, '\n');
        } else if (rd->verdict == BMC_SAFE_WITHIN_BOUNDS) {
            base_strbuf_printf(out, "no data race within unwind %u, %u pending thread%s\n",
                               ck->bo.unwind, ck->ko.pending, pend);
            base_strbuf_puts(out, "  (KISS explores the schedules these bounds allow, not all of them)\n");
            if (rd->cut)
                base_strbuf_printf(out, "  the bound cut %s: a larger --unwind explores more\n",
                                   rd->cut_where);
        } else {
            base_strbuf_printf(out, "unknown: %s\n", rd->reason ? rd->reason : "no answer");
        }
    }
}

int cli_race(int argc, char **argv)
{
    cli_kiss ck;
    cli_kiss_init(&ck);
    uint32_t max_races = 16;
    bool max_races_set = false;
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
    if (!rc)
        rc = cli_kiss_ready(&ck, "race", true);
    if (rc) {
        cli_kiss_free(&ck);
        return rc;
    }
    cli_front *fr = &ck.fr;
    bool svcomp = fr->tasks.len > 0;
    if (svcomp && !max_races_set)
        max_races = 1; /* the SV-COMP answer needs one race */
    cli_kiss_watchdog(&ck, svcomp);

    pair_vec excl = { 0 };
    base_strbuf text = { 0 }, json = { 0 }, sarif = { 0 };
    double start = base_now(), budget = ck.bo.timeout_s;
    uint32_t found = 0;
    race_round rd;
    memset(&rd, 0, sizeof rd);
    if (budget > 0) {
        /* should the watchdog end the first search, it answers in the
         * format asked for (JSON, SARIF), not in plain text */
        race_round stopped = { .verdict = BMC_UNKNOWN,
                               .reason = "timeout (the budget of --timeout ran out)" };
        base_strbuf none = { 0 };
        race_output(&none, &ck, svcomp, 0, max_races, max_races_set, &stopped, &text, &json, &sarif);
        cli_kiss_watchdog_answer(&none, CLI_EXIT_UNKNOWN);
    }
    for (;;) {
        if (budget > 0) {
            double left = budget - (base_now() - start);
            if (left <= 0.001) {
                rd.verdict = BMC_UNKNOWN;
                rd.reason = "timeout (the budget of --timeout ran out)";
                break;
            }
            ck.bo.timeout_s = left;
        }
        rc = round_run(&ck, &excl, &rd, found == 0 && ck.witness);
        if (rc || !rd.found)
            break;
        found++;
        if (found > 1)
            base_strbuf_putc(&text, '\n');
        base_strbuf_put(&text, rd.text.data, rd.text.len);
        base_strbuf_puts(&json, found > 1 ? ",\n " : "\n ");
        base_strbuf_put(&json, rd.json.data, rd.json.len);
        if (found > 1)
            base_strbuf_putc(&sarif, ',');
        base_strbuf_put(&sarif, rd.sarif.data, rd.sarif.len);
        round_free(&rd);
        if (budget > 0) {
            /* should the watchdog end the search, it prints the races so far */
            race_round stopped = { .verdict = BMC_UNKNOWN,
                                   .reason = "timeout (the budget of --timeout ran out)" };
            base_strbuf partial = { 0 };
            race_output(&partial, &ck, svcomp, found, max_races, max_races_set, &stopped, &text, &json, &sarif);
            cli_kiss_watchdog_answer(&partial, CLI_EXIT_FOUND);
        }
        if (found >= max_races)
            break;
    }
    cli_kiss_watchdog_off();
    if (!rc) {
        base_strbuf out = { 0 };
        race_output(&out, &ck, svcomp, found, max_races, max_races_set, &rd, &text, &json, &sarif);
        fwrite(out.data, 1, out.len, stdout);
        base_strbuf_free(&out);
        rc = found ? CLI_EXIT_FOUND
             : rd.verdict == BMC_SAFE_WITHIN_BOUNDS ? CLI_EXIT_OK : CLI_EXIT_UNKNOWN;
    }
    round_free(&rd);
    base_vec_free(&excl);
    base_strbuf_free(&text);
    base_strbuf_free(&json);
    base_strbuf_free(&sarif);
    cli_kiss_free(&ck);
    return rc;
}
