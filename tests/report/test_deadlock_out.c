/* Unit tests for report/deadlock_out: a finding built by hand, printed as
 * text, JSON, SARIF and DOT. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "report/deadlock_out.h"

static deadlock_frame frames_a[] = { { "t1", "x y.c", 10, 3, true, false },
                                     { "take", "x y.c", 4, 5, false, false } };
static deadlock_frame frames_b[] = { { "t1", "x y.c", 11, 3, false, false } };
static deadlock_frame frames_c[] = { { "t2", "x y.c", 20, 3, false, false } };
static deadlock_frame frames_d[] = { { "t2", "x y.c", 21, 3, false, false } };
static deadlock_frame frames_w[] = { { "t2", "x y.c", 22, 3, false, true } };
static char *no_guards[] = { NULL };

static void fill(deadlock_result *r, deadlock_finding *f, deadlock_edge *e, char **locks,
                 deadlock_graph_edge *g)
{
    memset(r, 0, sizeof *r);
    e[0] = (deadlock_edge){ "a", "b", false, false, "t1", "x y.c:30", { NULL, 0 }, { frames_a, 2 }, { frames_b, 1 },
                            no_guards, 0 };
    e[1] = (deadlock_edge){ "b", "a", false, false, "t2", NULL, { NULL, 0 }, { frames_c, 1 }, { frames_d, 1 },
                            no_guards, 0 };
    *f = (deadlock_finding){ DEADLOCK_CYCLE, e, 2, false, false, NULL };
    r->findings = f;
    r->nfindings = 1;
    r->locks = locks;
    r->nlocks = 2;
    g[0] = (deadlock_graph_edge){ 0, 1, true };
    g[1] = (deadlock_graph_edge){ 1, 0, true };
    r->gedges = g;
    r->ngedges = 2;
    r->nfuncs = 3;
    r->nthreads = 2;
    r->ndeps = 2;
}

static void test_text(void **state)
{
    (void)state;
    deadlock_result r;
    deadlock_finding f;
    deadlock_edge e[2];
    char *locks[] = { "a", "b" };
    deadlock_graph_edge g[2];
    fill(&r, &f, e, locks, g);
    base_strbuf out = { 0 };
    report_deadlock_text(&out, &r);
    assert_string_equal(base_strbuf_cstr(&out),
        "x y.c:11: deadlock: lock cycle of 2 locks: a -> b -> a\n"
        "  [1] thread t1 (started at x y.c:30) holds a and waits for b\n"
        "      a taken at: x y.c:10 in t1 (calls take) > x y.c:4 in take\n"
        "      b wanted at: x y.c:11 in t1\n"
        "  [2] thread t2 (entry point) holds b and waits for a\n"
        "      b taken at: x y.c:20 in t2\n"
        "      a wanted at: x y.c:21 in t2\n"
        "  confidence: must\n"
        "1 deadlock, 0 self-deadlocks, 0 lock-order inversions (3 functions, 2 threads, 2 lock dependencies)\n");
    base_strbuf_free(&out);
}

static void test_sarif_and_json(void **state)
{
    (void)state;
    deadlock_result r;
    deadlock_finding f;
    deadlock_edge e[2];
    char *locks[] = { "a", "b" };
    deadlock_graph_edge g[2];
    fill(&r, &f, e, locks, g);
    base_strbuf out = { 0 };
    report_deadlock_sarif(&out, &r, "1.0");
    const char *s = base_strbuf_cstr(&out);
    assert_non_null(strstr(s, "\"version\":\"2.1.0\""));
    assert_non_null(strstr(s, "\"ruleId\":\"deadlock\",\"ruleIndex\":0,\"level\":\"error\""));
    assert_non_null(strstr(s, "\"uri\":\"x%20y.c\""));
    assert_non_null(strstr(s, "\"threadFlows\":[{\"message\":{\"text\":\"thread t1 (started at x y.c:30) holds a and waits for b\"}"));
    assert_non_null(strstr(s, "\"message\":{\"text\":\"t1 calls take\"}},\"nestingLevel\":0}"));
    assert_non_null(strstr(s, "\"nestingLevel\":1}"));
    base_strbuf_clear(&out);
    report_deadlock_json(&out, &r);
    s = base_strbuf_cstr(&out);
    assert_non_null(strstr(s, "{\"findings\":[{\"kind\":\"deadlock\",\"abstract_lock\":false,\"confidence\":\"must\",\"confidence_reason\":null,\"edges\":[{\"thread\":\"t1\",\"thread_start\":\"x y.c:30\",\"started_at\":[],\"held\":\"a\""));
    assert_non_null(strstr(s, "\"thread_start\":null"));
    base_strbuf_clear(&out);
    report_deadlock_dot(&out, &r);
    assert_string_equal(base_strbuf_cstr(&out),
        "digraph locks {\n  node [shape=box, fontname=\"monospace\"];\n"
        "  l0 [label=\"a\"];\n  l1 [label=\"b\"];\n"
        "  l0 -> l1 [color=red, penwidth=2];\n  l1 -> l0 [color=red, penwidth=2];\n}\n");
    base_strbuf_free(&out);
}

/* A "may" finding: a warning in SARIF with its reason, the reason in the
 * text and JSON; a re-take after a wait is named in the chain. */
static void test_may(void **state)
{
    (void)state;
    deadlock_result r;
    deadlock_finding f;
    deadlock_edge e[2];
    char *locks[] = { "a", "b" };
    deadlock_graph_edge g[2];
    fill(&r, &f, e, locks, g);
    e[1].wanted_chain = (deadlock_chain){ frames_w, 1 };
    f.may = true;
    f.why = "a is wanted back when a wait returns";
    base_strbuf out = { 0 };
    report_deadlock_text(&out, &r);
    const char *s = base_strbuf_cstr(&out);
    assert_non_null(strstr(s, "      a wanted at: x y.c:22 in t2 (taken back when pthread_cond_wait returns)\n"
                              "  confidence: may (a is wanted back when a wait returns)\n"));
    base_strbuf_clear(&out);
    report_deadlock_sarif(&out, &r, "1.0");
    s = base_strbuf_cstr(&out);
    assert_non_null(strstr(s, "\"ruleId\":\"deadlock\",\"ruleIndex\":0,\"level\":\"warning\""));
    assert_non_null(strstr(s, "(may: a is wanted back when a wait returns)"));
    base_strbuf_clear(&out);
    report_deadlock_json(&out, &r);
    s = base_strbuf_cstr(&out);
    assert_non_null(strstr(s, "\"confidence\":\"may\",\"confidence_reason\":\"a is wanted back when a wait returns\""));
    assert_non_null(strstr(s, "\"line\":22,\"column\":3,\"call\":false,\"retake\":true}"));
    base_strbuf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_sarif_and_json),
        cmocka_unit_test(test_may),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
