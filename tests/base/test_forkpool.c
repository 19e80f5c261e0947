/* Unit tests for base/forkpool: results come back in item order whatever
 * order the workers finish in; a worker that dies loses only its item, and
 * the others run the rest. */
#define _DEFAULT_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/forkpool.h"

typedef struct seen {
    size_t next; /* the item emit expects */
    int rcs[64];
    char outs[64][32];
    char errs[64][128];
    int crash_at;  /* item whose worker kills itself, or -1 */
} seen;

static int work(void *ctx, size_t i, base_strbuf *out, base_strbuf *err)
{
    seen *s = ctx;
    if ((int)i == s->crash_at)
        raise(SIGKILL);
    /* Early items take longest, so later ones finish first. */
    usleep((useconds_t)((i < 4 ? 4 - i : 0) * 20000));
    base_strbuf_printf(out, "out %zu", i);
    if (i % 5 == 0)
        base_strbuf_printf(err, "err %zu", i);
    return (int)(i % 7);
}

static void emit(void *ctx, size_t i, int rc, const char *out, size_t outlen, const char *err,
                 size_t errlen)
{
    seen *s = ctx;
    assert_int_equal(i, s->next);
    s->next++;
    s->rcs[i] = rc;
    snprintf(s->outs[i], sizeof s->outs[i], "%.*s", (int)outlen, out);
    snprintf(s->errs[i], sizeof s->errs[i], "%.*s", (int)errlen, err);
}

static void test_in_order(void **state)
{
    (void)state;
    static seen s;
    memset(&s, 0, sizeof s);
    s.crash_at = -1;
    fflush(NULL);
    assert_true(base_forkpool_run(40, 3, work, emit, &s));
    assert_int_equal(s.next, 40);
    for (size_t i = 0; i < 40; i++) {
        char want[32];
        snprintf(want, sizeof want, "out %zu", i);
        assert_string_equal(s.outs[i], want);
        assert_int_equal(s.rcs[i], (int)(i % 7));
        if (i % 5 == 0) {
            snprintf(want, sizeof want, "err %zu", i);
            assert_string_equal(s.errs[i], want);
        } else {
            assert_string_equal(s.errs[i], "");
        }
    }
}

static void test_dead_worker(void **state)
{
    (void)state;
    static seen s;
    memset(&s, 0, sizeof s);
    s.crash_at = 6;
    fflush(NULL);
    assert_true(base_forkpool_run(20, 2, work, emit, &s));
    assert_int_equal(s.next, 20);
    assert_int_equal(s.rcs[6], BASE_FORKPOOL_DIED);
    assert_non_null(strstr(s.errs[6], "killed by signal 9"));
    for (size_t i = 0; i < 20; i++)
        if (i != 6)
            assert_int_equal(s.rcs[i], (int)(i % 7));
}

static void test_one_worker_many_items(void **state)
{
    (void)state;
    static seen s;
    memset(&s, 0, sizeof s);
    s.crash_at = -1;
    fflush(NULL);
    assert_true(base_forkpool_run(5, 8, work, emit, &s)); /* more workers than items */
    assert_int_equal(s.next, 5);
    assert_true(base_forkpool_run(0, 2, work, emit, &s)); /* nothing to do */
    assert_int_equal(s.next, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_dead_worker),
        cmocka_unit_test(test_one_worker_many_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
