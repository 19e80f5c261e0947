/* Unit tests for base/strbuf: appending, printf growth, JSON escaping and
 * base_read_file (contents with NULs, empty, large, missing, directory). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"

static void check_terminated(const base_strbuf *b)
{
    if (b->data) {
        assert_true(b->len < b->cap);
        assert_int_equal(b->data[b->len], '\0');
    }
}

static void test_zeroed_is_empty(void **state)
{
    (void)state;
    base_strbuf b = { 0 };
    assert_non_null(base_strbuf_cstr(&b));
    assert_string_equal(base_strbuf_cstr(&b), "");
    base_strbuf_clear(&b);
    assert_int_equal(b.len, 0);
    base_strbuf_free(&b);
    assert_null(b.data);
}

static void test_put(void **state)
{
    (void)state;
    base_strbuf b = { 0 };
    base_strbuf_putc(&b, 'a');
    base_strbuf_puts(&b, "bcd");
    base_strbuf_put(&b, "efgh", 2);
    assert_string_equal(base_strbuf_cstr(&b), "abcdef");
    assert_int_equal(b.len, 6);
    check_terminated(&b);
    base_strbuf_put(&b, "x\0y", 3); /* embedded NUL counts */
    assert_int_equal(b.len, 9);
    assert_memory_equal(b.data, "abcdefx\0y", 10);
    base_strbuf_puts(&b, "");
    assert_int_equal(b.len, 9);
    base_strbuf empty = { 0 }; /* data NULL: putting it adds nothing (and no memcpy from NULL) */
    base_strbuf_put(&b, empty.data, empty.len);
    assert_int_equal(b.len, 9);
    base_strbuf_clear(&b);
    assert_int_equal(b.len, 0);
    assert_string_equal(base_strbuf_cstr(&b), "");
    base_strbuf_puts(&b, "again");
    assert_string_equal(base_strbuf_cstr(&b), "again");
    base_strbuf_free(&b);
}

static void test_growth(void **state)
{
    (void)state;
    base_strbuf b = { 0 };
    for (int i = 0; i < 100000; i++) {
        base_strbuf_putc(&b, (char)('a' + i % 26));
        check_terminated(&b);
    }
    assert_int_equal(b.len, 100000);
    assert_int_equal(b.data[26 * 1000 + 3], 'd');
    base_strbuf_free(&b);
}

static void test_printf(void **state)
{
    (void)state;
    base_strbuf b = { 0 };
    base_strbuf_printf(&b, "%d-%s-%c", 42, "x", 'y');
    assert_string_equal(base_strbuf_cstr(&b), "42-x-y");
    base_strbuf_printf(&b, "|%05.1f|%x", 3.14159, 255u);
    assert_string_equal(base_strbuf_cstr(&b), "42-x-y|003.1|ff");
    base_strbuf_printf(&b, "%s", "");
    assert_int_equal(b.len, strlen("42-x-y|003.1|ff"));
    check_terminated(&b);
    base_strbuf_free(&b);

    /* Output much larger than the initial capacity, in one call. */
    base_strbuf big = { 0 };
    base_strbuf_puts(&big, "<");
    base_strbuf_printf(&big, "%5000d", 7);
    base_strbuf_puts(&big, ">");
    assert_int_equal(big.len, 5002);
    assert_int_equal(big.data[0], '<');
    assert_int_equal(big.data[1], ' ');
    assert_int_equal(big.data[5000], '7');
    assert_int_equal(big.data[5001], '>');
    check_terminated(&big);
    base_strbuf_free(&big);
}

static void wrap_vprintf(base_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void wrap_vprintf(base_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

static void test_vprintf(void **state)
{
    (void)state;
    base_strbuf b = { 0 };
    for (int i = 0; i < 1000; i++)
        wrap_vprintf(&b, "%d,", i);
    assert_int_equal(strncmp(b.data, "0,1,2,3,", 8), 0);
    assert_int_equal(strcmp(b.data + b.len - 4, "999,"), 0);
    check_terminated(&b);
    base_strbuf_free(&b);
}

static void json(const char *in, const char *want)
{
    base_strbuf b = { 0 };
    base_strbuf_puts(&b, "x=");
    base_strbuf_json_string(&b, in);
    assert_string_equal(base_strbuf_cstr(&b) + 2, want);
    base_strbuf_free(&b);
}

static void test_json_string(void **state)
{
    (void)state;
    json("", "\"\"");
    json("plain text", "\"plain text\"");
    json("say \"hi\"", "\"say \\\"hi\\\"\"");
    json("back\\slash", "\"back\\\\slash\"");
    json("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
    json("\x01\x1f", "\"\\u0001\\u001f\"");
    json("\x7f", "\"\x7f\"");                   /* DEL is not a control char in JSON */
    json("caf\xc3\xa9 \xe2\x88\x80", "\"caf\xc3\xa9 \xe2\x88\x80\""); /* UTF-8 unchanged */
    json("/", "\"/\"");
}

static char *write_temp(const void *data, size_t len)
{
    const char *dir = getenv("TMPDIR");
    char *path = malloc(4096);
    assert_non_null(path);
    snprintf(path, 4096, "%s/ravel_strbuf_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static void test_read_file(void **state)
{
    (void)state;
    static const char content[] = "line 1\nline\0two\n";
    char *path = write_temp(content, sizeof content - 1);
    size_t len = 0;
    char *data = base_read_file(path, &len);
    assert_non_null(data);
    assert_int_equal(len, sizeof content - 1);
    assert_memory_equal(data, content, sizeof content); /* with the added NUL */
    free(data);
    data = base_read_file(path, NULL); /* len is optional */
    assert_non_null(data);
    free(data);
    unlink(path);
    free(path);
}

static void test_read_empty_file(void **state)
{
    (void)state;
    char *path = write_temp("", 0);
    size_t len = 99;
    char *data = base_read_file(path, &len);
    assert_non_null(data);
    assert_int_equal(len, 0);
    assert_string_equal(data, "");
    free(data);
    unlink(path);
    free(path);
}

static void test_read_large_file(void **state)
{
    (void)state;
    size_t n = 300000; /* several read chunks */
    unsigned char *buf = malloc(n);
    assert_non_null(buf);
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    char *path = write_temp(buf, n);
    size_t len = 0;
    char *data = base_read_file(path, &len);
    assert_non_null(data);
    assert_int_equal(len, n);
    assert_memory_equal(data, buf, n);
    assert_int_equal(data[n], '\0');
    free(data);
    free(buf);
    unlink(path);
    free(path);
}

static void test_read_missing_file(void **state)
{
    (void)state;
    size_t len = 123;
    errno = 0;
    char *data = base_read_file("/nonexistent/ravel/no-such-file.litmus", &len);
    assert_null(data);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(len, 123); /* untouched on failure */
}

static void test_read_directory(void **state)
{
    (void)state;
    errno = 0;
    char *data = base_read_file("/", NULL);
    assert_null(data);
    assert_int_not_equal(errno, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zeroed_is_empty),
        cmocka_unit_test(test_put),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_vprintf),
        cmocka_unit_test(test_json_string),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_read_empty_file),
        cmocka_unit_test(test_read_large_file),
        cmocka_unit_test(test_read_missing_file),
        cmocka_unit_test(test_read_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
