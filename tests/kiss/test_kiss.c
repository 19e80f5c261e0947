/* Unit tests for the KISS translation: each tests/kiss/cases/NAME.c is
 * lowered, translated (pending 2, at most 4 threads) and the sequential
 * program's IR compared with NAME.ir; the result passes ir_check. An
 * err_NAME.c must be refused with the diagnostics in err_NAME.err. The
 * cases in race_cases/ are translated with race instrumentation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kiss/kiss.h"
#include "support/ir_cases.h"

static bool translate(ir_program *p, base_diag *d)
{
    kiss_opts o = { .pending = 2, .max_threads = 4 };
    return kiss_translate(p, &o, NULL, d) != NULL;
}

static bool translate_races(ir_program *p, base_diag *d)
{
    kiss_opts o = { .pending = 2, .max_threads = 4, .races = true };
    kiss_result r = { 0 };
    bool ok = kiss_translate(p, &o, &r, d) != NULL;
    assert_true(!ok || r.nsites > 0);
    kiss_result_free(&r);
    return ok;
}

static void test_race_instrumentation(void **state)
{
    (void)state;
    const char *data = getenv("RAVEL_TEST_DATA");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/kiss/race_cases", data ? data : "tests");
    ir_cases_run(dir, translate_races, 2);
}

static void test_translations(void **state)
{
    (void)state;
    const char *data = getenv("RAVEL_TEST_DATA");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/kiss/cases", data ? data : "tests");
    ir_cases_run(dir, translate, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_translations),
        cmocka_unit_test(test_race_instrumentation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
