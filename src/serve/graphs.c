#include "serve/graphs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cat/model.h"
#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"
#include "logic/mm.h"
#include "report/litmus_out.h"

/* Graphviz 2.42 (and the fontconfig it loads) keep allocations to the end
 * of the process that LeakSanitizer reports; in sanitizer builds, leaks whose
 * stack passes through those libraries are not ours and are suppressed
 * (LSan calls this hook at start-up). */
#if defined(__SANITIZE_ADDRESS__)
#define GRAPHS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAPHS_ASAN 1
#endif
#endif
#ifdef GRAPHS_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libgvc.so\nleak:libcgraph.so\nleak:libfontconfig.so\nleak:libgvplugin_\n"
           "leak:libcairo.so\nleak:libpango\nleak:libcdt.so\nleak:libpathplan.so\n";
}
#endif

/* Exit codes as cli/cli.h's (serve does not include cli). */
enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_UNKNOWN = 3, EXIT_INPUT = 5, EXIT_MODEL = 6 };

static bool number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0)
        return false;
    *out = v;
    return true;
}

/* DOT text -> SVG (from "<svg" on), appended to out; false if Graphviz fails. */
static bool render_svg(GVC_t *gvc, const char *dot, base_strbuf *out)
{
    Agraph_t *g = agmemread(dot);
    if (!g)
        return false;
    bool ok = false;
    if (gvLayout(gvc, g, "dot") == 0) {
        char *data = NULL;
        unsigned int len = 0;
        if (gvRenderData(gvc, g, "svg", &data, &len) == 0 && data) {
            const char *svg = strstr(data, "<svg");
            if (svg) {
                base_strbuf_put(out, svg, len - (size_t)(svg - data));
                ok = true;
            }
        }
        if (data)
            gvFreeRenderData(data);
        gvFreeLayout(gvc, g);
    }
    agclose(g);
    return ok;
}

/* Lays dot out and appends `, "svg": ...` to out; false if Graphviz fails. */
static bool put_svg(GVC_t *gvc, const base_strbuf *dot, base_strbuf *out)
{
    base_strbuf svg = { 0 };
    bool ok = render_svg(gvc, base_strbuf_cstr(dot), &svg);
    if (ok) {
        base_strbuf_puts(out, ", \"svg\": ");
        base_strbuf_json_string(out, base_strbuf_cstr(&svg));
    }
    base_strbuf_free(&svg);
    return ok;
}

/* --explain: why the condition's outcome is forbidden, and the candidate
 * execution that shows it, drawn. Appends the members after "model". */
static int explain_job(litmus_test *t, const litmus_options *base, base_strbuf *out,
                       base_diag *diag)
{
    litmus_options opt = *base;
    opt.verdict_only = true;
    opt.explain = true;
    litmus_result res;
    if (!litmus_simulate(t, &opt, &res, diag))
        return EXIT_INPUT;
    int status = EXIT_OK;
    if (res.status == LITMUS_UNKNOWN) {
        base_strbuf_puts(out, ", \"verdict\": \"unknown\", \"reason\": ");
        base_strbuf_json_string(out, res.reason);
        status = EXIT_UNKNOWN;
    } else {
        base_strbuf_printf(out, ", \"observation\": \"%s\"",
                           res.obs == LITMUS_OBS_NEVER    ? "Never"
                           : res.obs == LITMUS_OBS_ALWAYS ? "Always"
                                                          : "Sometimes");
        report_litmus_explain_json(out, t, &res);
        base_strbuf text = { 0 };
        report_litmus_explain(&text, t, &res);
        base_strbuf_puts(out, ", \"text\": ");
        base_strbuf_json_string(out, base_strbuf_cstr(&text));
        base_strbuf_free(&text);
        bool drawn = false;
        if (res.explain.witness.present) {
            GVC_t *gvc = gvContext();
            base_strbuf dot = { 0 };
            report_litmus_dot_explain(&dot, t, &res);
            drawn = put_svg(gvc, &dot, out);
            base_strbuf_free(&dot);
            gvFreeContext(gvc);
        }
        if (!drawn)
            base_strbuf_puts(out, ", \"svg\": null");
    }
    base_strbuf_puts(out, "}\n");
    litmus_result_free(&res);
    return status;
}

/* The default job: one drawn execution per final state (at most max_graphs).
 * Appends the members after "model". */
static int states_job(litmus_test *t, const litmus_options *opt, uint32_t max_graphs,
                      base_strbuf *out, base_diag *diag)
{
    litmus_result res;
    if (!litmus_simulate(t, opt, &res, diag))
        return EXIT_INPUT;
    base_strbuf s = { 0 };
    int status = EXIT_OK;
    if (res.status == LITMUS_UNKNOWN) {
        base_strbuf_puts(out, ", \"verdict\": \"unknown\", \"reason\": ");
        base_strbuf_json_string(out, res.reason);
        base_strbuf_puts(out, ", \"graphs\": []}\n");
        status = EXIT_UNKNOWN;
    } else {
        GVC_t *gvc = gvContext();
        uint32_t n = res.nstates < max_graphs ? res.nstates : max_graphs;
        base_strbuf_printf(out, ", \"states\": %u, \"truncated\": %s, \"graphs\": [", res.nstates,
                           n < res.nstates ? "true" : "false");
        uint32_t nobs = t->nobs;
        litmus_prop *atoms = base_xcalloc(nobs ? nobs : 1, sizeof *atoms);
        litmus_prop *ands = base_xcalloc(nobs ? nobs : 1, sizeof *ands);
        litmus_prop *old_cond = t->cond;
        litmus_quant old_quant = t->quant;
        for (uint32_t i = 0; i < n; i++) {
            const litmus_value *row = &res.states[(size_t)i * nobs];
            litmus_prop top = { .kind = LITMUS_P_TRUE };
            litmus_prop *cond = &top;
            for (uint32_t k = 0; k < nobs; k++) {
                const litmus_observable *o = &t->obs[k];
                atoms[k] = (litmus_prop){ .kind = o->is_reg ? LITMUS_P_REG : LITMUS_P_LOC,
                                          .thread = o->thread,
                                          .reg = o->reg,
                                          .location = o->location,
                                          .value = row[k] };
                if (k == 0) {
                    cond = &atoms[0];
                } else {
                    ands[k] = (litmus_prop){ .kind = LITMUS_P_AND, .lhs = cond, .rhs = &atoms[k] };
                    cond = &ands[k];
                }
            }
            t->cond = cond;
            t->quant = LITMUS_Q_EXISTS;
            litmus_options one = *opt;
            one.verdict_only = true;
            one.want_witness = true;
            litmus_result r1;
            base_strbuf_clear(&s);
            report_litmus_state(&s, t, row);
            base_strbuf_puts(out, i ? ",\n  {\"state\": " : "\n  {\"state\": ");
            base_strbuf_json_string(out, base_strbuf_cstr(&s));
            base_strbuf_printf(out, ", \"satisfies\": %s",
                               litmus_prop_eval(t, old_cond, row) ? "true" : "false");
            bool drawn = false;
            if (litmus_simulate(t, &one, &r1, diag)) {
                if (r1.status == LITMUS_DECIDED && r1.witness.present && r1.witness.positive) {
                    base_strbuf dot = { 0 };
                    report_litmus_dot(&dot, t, &r1);
                    drawn = put_svg(gvc, &dot, out);
                    base_strbuf_free(&dot);
                } else if (r1.status == LITMUS_UNKNOWN) {
                    base_strbuf_puts(out, ", \"reason\": ");
                    base_strbuf_json_string(out, r1.reason);
                }
                litmus_result_free(&r1);
            }
            if (!drawn)
                base_strbuf_puts(out, ", \"svg\": null");
            base_strbuf_putc(out, '}');
            t->cond = old_cond;
            t->quant = old_quant;
        }
        base_strbuf_puts(out, "]}\n");
        free(atoms);
        free(ands);
        gvFreeContext(gvc);
    }
    base_strbuf_free(&s);
    litmus_result_free(&res);
    return status;
}

int serve_graphs_main(int argc, char **argv)
{
    const char *model_name = "sc", *file = NULL, *cat_path = NULL, *bell_path = NULL;
    const char *include[8];
    size_t ninclude = 0;
    bool want_explain = false;
    double timeout = 10, unroll = 2, max_graphs = 16;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool valued = strcmp(a, "-m") == 0 || strcmp(a, "--unroll") == 0 ||
                      strcmp(a, "--timeout") == 0 || strcmp(a, "--max-graphs") == 0 ||
                      strcmp(a, "-model") == 0 || strcmp(a, "-bell") == 0 || strcmp(a, "-I") == 0;
        if (valued && i + 1 >= argc) {
            fprintf(stderr, "ravel serve: error: option '%s' needs an argument\n", a);
            return EXIT_USAGE;
        }
        if (strcmp(a, "-m") == 0) {
            model_name = argv[++i];
        } else if (strcmp(a, "-model") == 0) {
            cat_path = argv[++i];
        } else if (strcmp(a, "-bell") == 0) {
            bell_path = argv[++i];
        } else if (strcmp(a, "-I") == 0) {
            if (ninclude == sizeof include / sizeof *include) {
                fprintf(stderr, "ravel serve: error: too many -I directories\n");
                return EXIT_USAGE;
            }
            include[ninclude++] = argv[++i];
        } else if (strcmp(a, "--explain") == 0) {
            want_explain = true;
        } else if (valued) {
            const char *v = argv[++i];
            double *dst = strcmp(a, "--unroll") == 0    ? &unroll
                          : strcmp(a, "--timeout") == 0 ? &timeout
                                                        : &max_graphs;
            if (!number(v, dst) || (dst != &timeout && (*dst != (double)(unsigned)*dst || *dst > 1000))) {
                fprintf(stderr, "ravel serve: error: option '%s' needs a %s, not '%s'\n", a,
                        dst == &timeout ? "number of seconds" : "whole number up to 1000", v);
                return EXIT_USAGE;
            }
        } else if (a[0] == '-' || file) {
            fprintf(stderr, "ravel serve: error: unexpected argument '%s' to --graphs-job\n", a);
            return EXIT_USAGE;
        } else {
            file = a;
        }
    }
    cat_model *catm = NULL;
    if (cat_path) {
        base_diag d;
        base_diag_init(&d);
        cat_load_options lo = { .model = cat_path, .bell = bell_path, .include = include,
                                .ninclude = ninclude };
        catm = cat_model_load(&lo, &d);
        base_diag_print(&d, stderr);
        base_diag_free(&d);
        if (!catm)
            return EXIT_MODEL;
    }
    const logic_mm *model = catm ? &catm->mm : logic_mm_find(model_name);
    if (!model) {
        fprintf(stderr, "ravel litmus: error: unknown memory model '%s' (try --list-models)\n",
                model_name);
        return EXIT_MODEL;
    }
    if (!file) {
        fprintf(stderr, "ravel serve: error: --graphs-job needs a litmus test\n");
        cat_model_free(catm);
        return EXIT_USAGE;
    }
    double deadline = timeout > 0 ? base_now() + timeout : 0;
    base_intern_pool syms;
    base_intern_init(&syms);
    base_diag diag;
    base_diag_init(&diag);
    litmus_test *t = litmus_load(file, &syms, &diag);
    litmus_options opt = {
        .model = model,
        .deadline = deadline,
        .max_clauses = 20000000,
        .limits = { .unroll = (uint32_t)unroll, .max_events = 5000, .max_values = 64 },
    };
    base_strbuf out = { 0 };
    int status = EXIT_INPUT;
    if (t) {
        base_strbuf_puts(&out, "{\"test\": ");
        base_strbuf_json_string(&out, t->name);
        base_strbuf_puts(&out, ", \"file\": ");
        base_strbuf_json_string(&out, t->file);
        base_strbuf_puts(&out, ", \"model\": ");
        base_strbuf_json_string(&out, model->name);
        status = want_explain ? explain_job(t, &opt, &out, &diag)
                              : states_job(t, &opt, (uint32_t)max_graphs, &out, &diag);
    }
    if (status != EXIT_INPUT)
        fputs(base_strbuf_cstr(&out), stdout);
    fflush(stdout);
    base_strbuf_free(&out);
    base_diag_print(&diag, stderr);
    base_diag_free(&diag);
    litmus_test_free(t);
    base_intern_free(&syms);
    cat_model_free(catm);
    return status;
}
