/* Unit tests for svtask: the task files of sv-benchmarks, lists of inputs,
 * comments and quotes, and every error path with its location. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "task/svtask.h"

static const char *first_error(base_diag *d, char *buf, size_t n)
{
    if (!d->count)
        return "";
    base_diag_format(&d->msgs[0], buf, n);
    return buf;
}

static void test_task(void **state)
{
    (void)state;
    const char text[] = "format_version: '2.0'\n\n# old file name: x.i\n"
                        "input_files: 'fib_bench-1.i'\n\nproperties:\n"
                        "  - property_file: ../properties/unreach-call.prp\n"
                        "    expected_verdict: true\n"
                        "  - property_file: ../properties/no-data-race.prp\n"
                        "    expected_verdict: false # a comment\n\n"
                        "options:\n  language: C\n  data_model: ILP32\n";
    svtask t;
    base_diag d;
    base_diag_init(&d);
    assert_true(svtask_parse(&t, "/b/pthread/t.yml", text, sizeof text - 1, &d));
    assert_int_equal(t.ninputs, 1);
    assert_string_equal(t.inputs[0], "/b/pthread/fib_bench-1.i");
    assert_int_equal(t.nprops, 2);
    assert_string_equal(t.props[0].file, "/b/pthread/../properties/unreach-call.prp");
    assert_int_equal(t.props[0].kind, SVTASK_UNREACH_CALL); /* by name: the file does not exist */
    assert_int_equal(t.props[0].expected, 1);
    assert_int_equal(t.props[1].kind, SVTASK_NO_DATA_RACE);
    assert_int_equal(t.props[1].expected, 0);
    assert_true(t.ilp32);
    assert_string_equal(t.language, "C");
    assert_ptr_equal(svtask_find(&t, SVTASK_NO_DATA_RACE), &t.props[1]);
    svtask_free(&t);
    base_diag_free(&d);
}

static void test_input_list(void **state)
{
    (void)state;
    const char text[] = "input_files:\n  - a.c\n  - \"sub/b.c\"\nproperties: []\n";
    svtask t;
    base_diag d;
    base_diag_init(&d);
    /* `properties: []` is a scalar here: no properties, not an error */
    assert_true(svtask_parse(&t, "t.yml", text, sizeof text - 1, &d));
    assert_int_equal(t.ninputs, 2);
    assert_string_equal(t.inputs[0], "./a.c");
    assert_string_equal(t.inputs[1], "./sub/b.c");
    assert_false(t.ilp32);
    svtask_free(&t);
    base_diag_free(&d);
}

static void expect_error(const char *text, const char *msg)
{
    svtask t;
    base_diag d;
    base_diag_init(&d);
    char buf[256];
    assert_false(svtask_parse(&t, "t.yml", text, strlen(text), &d));
    assert_string_equal(first_error(&d, buf, sizeof buf), msg);
    svtask_free(&t);
    base_diag_free(&d);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("format_version: '2.0'\n", "t.yml: error: the task names no input_files");
    /* found by the fuzzer: a lone '-' at the end of a line */
    expect_error("input_files: a.c\nproperties:\n  -", "t.yml:3:3: error: expected `key: value` or a list item");
    expect_error("-", "t.yml:1:1: error: expected `key: value` or a list item");
    expect_error("input_files: 'a.c\n", "t.yml:1:14: error: a quote that is not closed");
    expect_error("input_files: a.c\nthis is not yaml\n",
                 "t.yml:2:1: error: expected `key: value` or a list item");
    expect_error("input_files: a.c\nproperties:\n  - expected_verdict: maybe\n",
                 "t.yml:3:5: error: expected_verdict must be true or false");
    expect_error("input_files: a.c\nproperties:\n  - expected_verdict: true\n",
                 "t.yml: error: a property without property_file");
    expect_error("input_files: a.c\nproperties:\n    expected_verdict: true\n",
                 "t.yml:3:5: error: a property field outside a list item");
    svtask t;
    base_diag d;
    base_diag_init(&d);
    assert_false(svtask_load(&t, "/nonexistent/t.yml", &d));
    char buf[256];
    assert_string_equal(first_error(&d, buf, sizeof buf),
                        "/nonexistent/t.yml: error: cannot read the task file: No such file or directory");
    svtask_free(&t);
    base_diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task),
        cmocka_unit_test(test_input_list),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
