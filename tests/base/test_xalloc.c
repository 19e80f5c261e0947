/* Unit tests for base/xalloc: allocation wrappers and the overflow check
 * that exits with BASE_EXIT_RESOURCE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xalloc.h"

static void test_malloc_zero(void **state)
{
    (void)state;
    void *p = base_xmalloc(0);
    assert_non_null(p);
    free(p);
    p = base_xcalloc(0, 0);
    assert_non_null(p);
    free(p);
    p = base_xrealloc(NULL, 0);
    assert_non_null(p);
    free(p);
}

static void test_calloc_zeroes(void **state)
{
    (void)state;
    unsigned char *p = base_xcalloc(1000, 8);
    for (size_t i = 0; i < 8000; i++)
        assert_int_equal(p[i], 0);
    free(p);
}

static void test_realloc_keeps_contents(void **state)
{
    (void)state;
    char *p = base_xmalloc(4);
    memcpy(p, "abc", 4);
    p = base_xrealloc(p, 100000);
    assert_string_equal(p, "abc");
    p[99999] = 'z';
    free(p);
}

static void test_strdup(void **state)
{
    (void)state;
    char *s = base_xstrdup("hello");
    assert_string_equal(s, "hello");
    free(s);
    s = base_xstrndup("hello", 2);
    assert_string_equal(s, "he");
    free(s);
    s = base_xstrdup("");
    assert_string_equal(s, "");
    free(s);
}

static void test_mul_size(void **state)
{
    (void)state;
    assert_int_equal(base_mul_size(0, SIZE_MAX), 0);
    assert_int_equal(base_mul_size(SIZE_MAX, 0), 0);
    assert_int_equal(base_mul_size(6, 7), 42);
    assert_true(base_mul_size(SIZE_MAX, 1) == SIZE_MAX);
    assert_true(base_mul_size(SIZE_MAX / 2, 2) == SIZE_MAX - 1);
}

/* Overflow counts as out of memory: the process exits with code 4. */
static void test_mul_size_overflow_exits(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* keep the child quiet; the message goes to stderr */
        (void)base_mul_size(SIZE_MAX / 2 + 1, 2);
        _exit(0); /* not reached when the check works */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), BASE_EXIT_RESOURCE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malloc_zero),
        cmocka_unit_test(test_calloc_zeroes),
        cmocka_unit_test(test_realloc_keeps_contents),
        cmocka_unit_test(test_strdup),
        cmocka_unit_test(test_mul_size),
        cmocka_unit_test(test_mul_size_overflow_exits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
