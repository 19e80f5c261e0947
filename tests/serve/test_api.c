/* Unit tests for serve/api: endpoints, parameters to options, and every
 * rejection (unknown key, unsafe value, bad name, timeout past the cap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "serve/api.h"

static const serve_cat_model cats[] = {
    { .name = "tso.cat", .path = "/m/tso.cat", .dir = "/m", .bell = NULL },
    { .name = "lk.cat", .path = "/k/lk.cat", .dir = "/k", .bell = "/k/lk.bell" },
};
static const serve_api_env env = { .default_timeout = 10, .max_timeout = 60, .cats = cats, .ncats = 2 };

static char joined[4096];

static const char *join(const serve_cmd *c)
{
    joined[0] = 0;
    for (int i = 0; i < c->nargs; i++) {
        if (i)
            strcat(joined, " ");
        strcat(joined, c->args[i]);
    }
    return joined;
}

static void test_endpoints(void **state)
{
    (void)state;
    serve_endpoint ep;
    assert_true(serve_api_endpoint("/api/litmus", &ep));
    assert_int_equal(ep, SERVE_EP_LITMUS);
    assert_true(serve_api_endpoint("/api/litmus/graphs", &ep));
    assert_int_equal(ep, SERVE_EP_LITMUS_GRAPHS);
    assert_true(serve_api_endpoint("/api/deadlock", &ep));
    assert_int_equal(ep, SERVE_EP_DEADLOCK);
    assert_false(serve_api_endpoint("/api/litmus/", &ep));
    assert_false(serve_api_endpoint("/api", &ep));
}

static void test_litmus_options(void **state)
{
    (void)state;
    serve_param ps[] = { { "model", "tso" }, { "verdict_only", "1" }, { "name", "SB.litmus" } };
    serve_cmd c;
    char err[256];
    assert_true(serve_api_build(SERVE_EP_LITMUS, ps, 3, &env, &c, err, sizeof err));
    assert_string_equal(join(&c), "litmus -m tso --verdict-only --timeout 10 --json -q @FILE@");
    assert_string_equal(c.name, "SB.litmus");
    assert_true(c.json);
    serve_param herd[] = { { "format", "herd" }, { "verdict_only", "0" }, { "timeout", "2.5" } };
    assert_true(serve_api_build(SERVE_EP_LITMUS, herd, 3, &env, &c, err, sizeof err));
    assert_string_equal(join(&c), "litmus --timeout 2.5 -q @FILE@");
    assert_false(c.json);
    assert_string_equal(c.name, "test.litmus");
}

static void test_cat_models(void **state)
{
    (void)state;
    serve_cmd c;
    char err[256];
    serve_param ps[] = { { "model", "tso.cat" }, { "explain", "1" } };
    assert_true(serve_api_build(SERVE_EP_LITMUS_GRAPHS, ps, 2, &env, &c, err, sizeof err));
    assert_string_equal(join(&c),
                        "serve --graphs-job -I /m -model /m/tso.cat --explain --timeout 10 @FILE@");
    serve_param lk[] = { { "model", "lk.cat" } };
    assert_true(serve_api_build(SERVE_EP_LITMUS, lk, 1, &env, &c, err, sizeof err));
    assert_string_equal(join(&c),
                        "litmus -I /k -model /k/lk.cat -bell /k/lk.bell --timeout 10 --json -q @FILE@");
    serve_param other[] = { { "model", "x86.cat" } };
    assert_false(serve_api_build(SERVE_EP_LITMUS, other, 1, &env, &c, err, sizeof err));
    assert_non_null(strstr(err, "no cat model 'x86.cat' on this server"));
}

static void test_c_options(void **state)
{
    (void)state;
    serve_param ps[] = { { "unwind", "2" }, { "explore", "1" } };
    serve_cmd c;
    char err[256];
    assert_true(serve_api_build(SERVE_EP_RACE, ps, 2, &env, &c, err, sizeof err));
    assert_string_equal(join(&c), "race --unwind 2 --explore 1 --timeout 10 --json -q -j 1 @FILE@");
    serve_param dl[] = { { "lock_order", "1" } };
    assert_true(serve_api_build(SERVE_EP_DEADLOCK, dl, 1, &env, &c, err, sizeof err));
    assert_string_equal(join(&c), "deadlock --lock-order --timeout 10 --json -q -j 1 @FILE@");
    assert_string_equal(c.name, "prog.c");
    assert_true(serve_api_build(SERVE_EP_LITMUS_GRAPHS, NULL, 0, &env, &c, err, sizeof err));
    assert_string_equal(join(&c), "serve --graphs-job --timeout 10 @FILE@");
}

static void rejects(serve_endpoint ep, const char *k, const char *v, const char *msg)
{
    serve_param ps[] = { { k, v } };
    serve_cmd c;
    char err[256];
    assert_false(serve_api_build(ep, ps, 1, &env, &c, err, sizeof err));
    assert_non_null(strstr(err, msg));
}

static void test_rejections(void **state)
{
    (void)state;
    rejects(SERVE_EP_CHECK, "bogus", "1", "unknown parameter 'bogus'");
    rejects(SERVE_EP_CHECK, "model", "sc", "unknown parameter 'model'");
    rejects(SERVE_EP_CHECK, "unwind", "-1", "plain value");
    rejects(SERVE_EP_CHECK, "unwind", "", "plain value");
    rejects(SERVE_EP_CHECK, "unwind", NULL, "plain value");
    rejects(SERVE_EP_CHECK, "unwind", "1 2", "plain value");
    rejects(SERVE_EP_CHECK, "location", "a/b", "plain value");
    rejects(SERVE_EP_CHECK, "name", "x.litmus", "ending in .c");
    rejects(SERVE_EP_CHECK, "name", ".c", "ending in .c");
    rejects(SERVE_EP_LITMUS, "name", "x.c", "ending in .litmus");
    rejects(SERVE_EP_LITMUS, "format", "xml", "json or herd");
    rejects(SERVE_EP_DEADLOCK, "m32", "yes", "0 or 1");
    rejects(SERVE_EP_LITMUS, "timeout", "0", "positive number");
    rejects(SERVE_EP_LITMUS, "timeout", "61", "at most 60 seconds");
    rejects(SERVE_EP_LITMUS, "timeout", "nan", "positive number");
    serve_param twice[] = { { "model", "sc" }, { "model", "tso" } };
    serve_cmd c;
    char err[256];
    assert_false(serve_api_build(SERVE_EP_LITMUS, twice, 2, &env, &c, err, sizeof err));
    assert_non_null(strstr(err, "twice"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endpoints),
        cmocka_unit_test(test_litmus_options),
        cmocka_unit_test(test_c_options),
        cmocka_unit_test(test_cat_models),
        cmocka_unit_test(test_rejections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
