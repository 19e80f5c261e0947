/* Unit tests for base/diag: recording, counting, formatting (with and
 * without a line), newline replacement, owned file names, max_errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/srcloc.h"

static const char *fmt_msg(const base_diag *d, size_t i)
{
    static char buf[512];
    assert_true(i < d->count);
    base_diag_format(&d->msgs[i], buf, sizeof buf);
    return buf;
}

static void test_init_empty(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    assert_int_equal(d.count, 0);
    assert_int_equal(d.errors, 0);
    assert_false(base_diag_has_errors(&d));
    base_diag_free(&d);
}

static void test_srcloc_make(void **state)
{
    (void)state;
    base_srcloc l = base_srcloc_make("a.c", 3, 9);
    assert_string_equal(l.file, "a.c");
    assert_int_equal(l.line, 3);
    assert_int_equal(l.col, 9);
}

static void test_report_and_format(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_error(&d, base_srcloc_make("prog.c", 12, 5), "unknown identifier '%s'", "x");
    base_diag_warning(&d, base_srcloc_make("prog.c", 1, 1), "%d unused", 3);
    base_diag_report(&d, BASE_SEV_NOTE, base_srcloc_make("lib.h", 7, 2), "declared here");
    assert_int_equal(d.count, 3);
    assert_int_equal(d.errors, 1);
    assert_true(base_diag_has_errors(&d));
    assert_string_equal(fmt_msg(&d, 0), "prog.c:12:5: error: unknown identifier 'x'");
    assert_string_equal(fmt_msg(&d, 1), "prog.c:1:1: warning: 3 unused");
    assert_string_equal(fmt_msg(&d, 2), "lib.h:7:2: note: declared here");
    assert_int_equal(d.msgs[0].sev, BASE_SEV_ERROR);
    assert_int_equal(d.msgs[0].loc.line, 12);
    base_diag_free(&d);
    assert_int_equal(d.count, 0);
}

static void test_warnings_are_not_errors(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_warning(&d, base_srcloc_make("f", 1, 1), "w");
    base_diag_report(&d, BASE_SEV_NOTE, base_srcloc_make("f", 1, 1), "n");
    assert_false(base_diag_has_errors(&d));
    assert_int_equal(d.errors, 0);
    base_diag_free(&d);
}

static void test_format_line_zero(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_error(&d, base_srcloc_make("T.litmus", 0, 0), "cannot read file");
    base_diag_warning(&d, base_srcloc_make("T.litmus", 0, 17), "col ignored without a line");
    assert_string_equal(fmt_msg(&d, 0), "T.litmus: error: cannot read file");
    assert_string_equal(fmt_msg(&d, 1), "T.litmus: warning: col ignored without a line");
    base_diag_free(&d);
}

static void test_newlines_replaced(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_error(&d, base_srcloc_make("f.c", 2, 3), "first\nsecond\r\nthird%s", "\n");
    assert_string_equal(d.msgs[0].text, "first second  third ");
    assert_null(strchr(fmt_msg(&d, 0), '\n'));
    base_diag_free(&d);
}

static void test_file_name_is_owned(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    char name[] = "orig.c";
    base_diag_error(&d, base_srcloc_make(name, 4, 4), "e");
    name[0] = 'X';
    assert_string_equal(d.msgs[0].file, "orig.c");
    assert_ptr_equal(d.msgs[0].loc.file, d.msgs[0].file);
    assert_ptr_not_equal(d.msgs[0].file, name);
    assert_string_equal(fmt_msg(&d, 0), "orig.c:4:4: error: e");

    base_diag_error(&d, base_srcloc_make(NULL, 1, 2), "no file");
    assert_string_equal(fmt_msg(&d, 1), "<input>:1:2: error: no file");
    base_diag_free(&d);
}

static void test_empty_message(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_report(&d, BASE_SEV_NOTE, base_srcloc_make("f", 1, 1), "%s", "");
    assert_non_null(d.msgs[0].text);
    assert_string_equal(fmt_msg(&d, 0), "f:1:1: note: ");
    base_diag_free(&d);
}

static void test_max_errors(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    d.max_errors = 2;
    for (int i = 0; i < 5; i++)
        base_diag_error(&d, base_srcloc_make("f", (uint32_t)i + 1, 1), "e%d", i);
    base_diag_warning(&d, base_srcloc_make("f", 9, 1), "still recorded");
    assert_int_equal(d.errors, 5); /* all counted */
    assert_int_equal(d.count, 3);  /* two errors and the warning recorded */
    assert_string_equal(fmt_msg(&d, 1), "f:2:1: error: e1");
    assert_string_equal(fmt_msg(&d, 2), "f:9:1: warning: still recorded");
    base_diag_free(&d);
}

static void test_many_messages(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    for (uint32_t i = 0; i < 1000; i++)
        base_diag_report(&d, (base_severity)(i % 3), base_srcloc_make("m.c", i + 1, i % 80 + 1),
                         "message %u", i);
    assert_int_equal(d.count, 1000);
    assert_int_equal(d.errors, 333);
    assert_string_equal(fmt_msg(&d, 999), "m.c:1000:40: note: message 999");
    assert_string_equal(fmt_msg(&d, 499), "m.c:500:20: warning: message 499");
    base_diag_free(&d);
}

static void test_format_truncates(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_error(&d, base_srcloc_make("file.c", 1, 2), "a long message");
    char buf[10];
    memset(buf, 'Z', sizeof buf);
    base_diag_format(&d.msgs[0], buf, sizeof buf);
    assert_string_equal(buf, "file.c:1:");
    base_diag_free(&d);
}

static void vreport_wrapper(base_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void vreport_wrapper(base_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    base_diag_vreport(d, BASE_SEV_ERROR, base_srcloc_make("v.c", 5, 6), fmt, ap);
    va_end(ap);
}

static void test_vreport(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    vreport_wrapper(&d, "%s=%d", "n", 10);
    assert_string_equal(fmt_msg(&d, 0), "v.c:5:6: error: n=10");
    assert_int_equal(d.errors, 1);
    base_diag_free(&d);
}

static void test_print(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    base_diag_error(&d, base_srcloc_make("a.c", 3, 4), "bad\nthing");
    base_diag_warning(&d, base_srcloc_make("b.litmus", 0, 0), "whole file");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    base_diag_print(&d, f);
    fclose(f);
    assert_string_equal(out, "a.c:3:4: error: bad thing\nb.litmus: warning: whole file\n");
    free(out);
    base_diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_empty),
        cmocka_unit_test(test_srcloc_make),
        cmocka_unit_test(test_report_and_format),
        cmocka_unit_test(test_warnings_are_not_errors),
        cmocka_unit_test(test_format_line_zero),
        cmocka_unit_test(test_newlines_replaced),
        cmocka_unit_test(test_file_name_is_owned),
        cmocka_unit_test(test_empty_message),
        cmocka_unit_test(test_max_errors),
        cmocka_unit_test(test_many_messages),
        cmocka_unit_test(test_format_truncates),
        cmocka_unit_test(test_vreport),
        cmocka_unit_test(test_print),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
