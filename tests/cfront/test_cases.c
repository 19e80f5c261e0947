/* Unit tests for cfront: each tests/cfront/cases/NAME.c is lowered and its
 * printed IR (`ravel ir --no-source` form) compared with NAME.ir; an
 * err_NAME.c must fail to lower, with exactly the diagnostics in
 * err_NAME.err. Every lowered program also passes ir_check (cfront_lower
 * runs it). RAVEL_CASES_UPDATE=1 writes the expectations instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/diag.h"
#include "base/intern.h"
#include "cfront/cfront.h"
#include "support/ir_cases.h"

static void test_all_cases(void **state)
{
    (void)state;
    const char *data = getenv("RAVEL_TEST_DATA");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/cfront/cases", data ? data : "tests");
    ir_cases_run(dir, NULL, 10);
}

/* A file that does not exist is an error with its name, not a crash. */
static void test_missing_file(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    const char *files[] = { "/nonexistent/x.c" };
    assert_int_equal(cfront_lower(&p, files, 1, NULL, &d), 1);
    char buf[512];
    base_diag_format(&d.msgs[0], buf, sizeof buf);
    assert_string_equal(buf, "/nonexistent/x.c: error: cannot open the file");
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_cases),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
