/* Unit tests for report/litmus_out: conditions print as herd prints them,
 * JSON is escaped, DOT draws the witness's events and edges, undefined
 * behaviour prints as herd7's Undef. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/lisa_parse.h"
#include "report/litmus_out.h"

static base_intern_pool syms;

static litmus_test *parse(const char *src)
{
    base_diag d;
    base_diag_init(&d);
    litmus_test *t = litmus_parse_lisa("t.litmus", src, strlen(src), &syms, &d);
    base_diag_free(&d);
    assert_non_null(t);
    return t;
}

static void test_condition_printing(void **state)
{
    (void)state;
    litmus_test *t = parse("LISA c\n{ 0:r1 = x; }\n P0 | P1 ;\n r[] r0 x | w[] y 1 ;\n"
                           "exists ((0:r0=1 \\/ y=x) /\\ ~P1:r2=0 /\\ (0:r0=1 => [y]=2))\n");
    base_strbuf b = { 0 };
    report_litmus_condition(&b, t);
    /* herd7's layout: not (p), parentheses only where precedence needs them */
    assert_string_equal(base_strbuf_cstr(&b),
                        "exists ((0:r0=1 \\/ [y]=x) /\\ not (1:r2=0) /\\ (0:r0=1 => [y]=2))");
    base_strbuf_free(&b);
    litmus_test_free(t);
    t = parse("LISA d\n{ }\n P0 ;\n r[] r0 x ;\n"
              "exists (0:r0=1 /\\ (0:r0=2 \\/ (0:r0=3 /\\ 0:r0=4)) \\/ ~(0:r0=5 => 0:r0=6))\n");
    base_strbuf_clear(&b);
    report_litmus_condition(&b, t);
    assert_string_equal(base_strbuf_cstr(&b),
                        "exists (0:r0=1 /\\ (0:r0=2 \\/ 0:r0=3 /\\ 0:r0=4) \\/ not (0:r0=5 => 0:r0=6))");
    base_strbuf_free(&b);
    litmus_test_free(t);
}

static void test_herd_and_json_and_dot(void **state)
{
    (void)state;
    litmus_test *t = parse("LISA a\"b\n{}\n P0 | P1 ;\n w[] x 1 | r[] r0 x ;\nexists (1:r0=1)\n");
    litmus_options opt = { .model = logic_mm_find("sc"), .want_witness = true,
                           .limits = { .unroll = 2, .max_events = 100, .max_values = 8 } };
    litmus_result r;
    base_diag d;
    base_diag_init(&d);
    assert_true(litmus_simulate(t, &opt, &r, &d));
    base_strbuf b = { 0 };
    report_litmus_herd(&b, t, &r);
    const char *want = "Test a\"b Allowed\nStates 2\n1:r0=0;\n1:r0=1;\nOk\nWitnesses\n"
                       "Positive: 1 Negative: 1\nCondition exists (1:r0=1)\n"
                       "Observation a\"b Sometimes 1 1\nTime a\"b ";
    assert_memory_equal(base_strbuf_cstr(&b), want, strlen(want));
    base_strbuf_clear(&b);
    report_litmus_json(&b, t, &r, "sc");
    assert_non_null(strstr(base_strbuf_cstr(&b), "{\"test\": \"a\\\"b\""));
    assert_non_null(strstr(base_strbuf_cstr(&b), "\"states\": [{\"1:r0\": 0}, {\"1:r0\": 1}]"));
    assert_non_null(strstr(base_strbuf_cstr(&b), "\"verdict\": \"allowed\", \"ok\": true"));
    base_strbuf_clear(&b);
    report_litmus_dot(&b, t, &r);
    const char *dot = base_strbuf_cstr(&b);
    assert_true(r.witness.positive);
    assert_non_null(strstr(dot, "digraph \"a\\\"b\""));
    assert_non_null(strstr(dot, "label=\"R x=1\""));
    assert_non_null(strstr(dot, "label=\"rf\""));
    assert_non_null(strstr(dot, "label=\"co\""));
    assert_null(strstr(dot, "label=\"R x=0\"")); /* not in the drawn execution */
    base_strbuf_free(&b);
    litmus_result_free(&r);
    base_diag_free(&d);
    litmus_test_free(t);
}

/* A c11 race: herd7 prints Undef for Ok/No and a Flag line; JSON says
 * "undefined": true, and only models with undefined behaviour say it at all. */
static void test_undefined(void **state)
{
    (void)state;
    litmus_test *t = parse("LISA race\n{}\n P0 | P1 ;\n w[na] x 1 | r[rlx] r0 x ;\nexists (1:r0=1)\n");
    for (int v = 0; v < 2; v++) {
        litmus_options opt = { .model = logic_mm_find("c11"), .verdict_only = v == 1,
                               .limits = { .unroll = 2, .max_events = 100, .max_values = 8 } };
        litmus_result r;
        base_diag d;
        base_diag_init(&d);
        assert_true(litmus_simulate(t, &opt, &r, &d));
        base_strbuf b = { 0 };
        report_litmus_herd(&b, t, &r);
        const char *want = v ? "Test race Allowed\nUndef\nFlag *undef*\nCondition exists (1:r0=1)\n"
                               "Observation race Sometimes\nTime race "
                             : "Test race Allowed\nStates 2\n1:r0=0;\n1:r0=1;\nUndef\nWitnesses\n"
                               "Positive: 1 Negative: 1\nFlag *undef*\nCondition exists (1:r0=1)\n"
                               "Observation race Sometimes 1 1\nTime race ";
        assert_memory_equal(base_strbuf_cstr(&b), want, strlen(want));
        base_strbuf_clear(&b);
        report_litmus_json(&b, t, &r, "c11");
        assert_non_null(strstr(base_strbuf_cstr(&b), "\"observation\": \"Sometimes\", \"undefined\": true"));
        base_strbuf_free(&b);
        litmus_result_free(&r);
        opt.model = logic_mm_find("sc");
        assert_true(litmus_simulate(t, &opt, &r, &d));
        report_litmus_json(&b, t, &r, "sc");
        assert_null(strstr(base_strbuf_cstr(&b), "undefined"));
        base_strbuf_free(&b);
        litmus_result_free(&r);
        base_diag_free(&d);
    }
    litmus_test_free(t);
}

static int setup(void **state)
{
    (void)state;
    base_intern_init(&syms);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    base_intern_free(&syms);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_condition_printing),
        cmocka_unit_test(test_herd_and_json_and_dot),
        cmocka_unit_test(test_undefined),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
