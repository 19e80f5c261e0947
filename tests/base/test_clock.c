/* Unit tests for base/clock: monotonic, advances with real time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>

#include "base/clock.h"

static void test_positive(void **state)
{
    (void)state;
    double t = base_now();
    assert_true(t > 0.0);
}

static void test_monotonic(void **state)
{
    (void)state;
    double prev = base_now();
    for (int i = 0; i < 200000; i++) {
        double now = base_now();
        assert_true(now >= prev);
        prev = now;
    }
}

static void test_advances_with_sleep(void **state)
{
    (void)state;
    double t0 = base_now();
    struct timespec ts = { 0, 50 * 1000 * 1000 }; /* 50 ms */
    while (nanosleep(&ts, &ts) != 0) {
    }
    double dt = base_now() - t0;
    assert_true(dt >= 0.045);
    assert_true(dt < 10.0);
}

static void test_resolution(void **state)
{
    (void)state;
    /* Seconds as a double with sub-millisecond resolution: two reads a few
     * microseconds apart must be able to differ. */
    double t0 = base_now(), t1 = t0;
    for (int i = 0; i < 10000000 && t1 == t0; i++)
        t1 = base_now();
    assert_true(t1 > t0);
    assert_true(t1 - t0 < 0.001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positive),
        cmocka_unit_test(test_monotonic),
        cmocka_unit_test(test_advances_with_sleep),
        cmocka_unit_test(test_resolution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
