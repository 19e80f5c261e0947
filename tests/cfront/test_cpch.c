/* Unit tests for the scanner that finds a unit's leading #include
 * (cpch.h, cf_pch_first_include): the shared precompiled header is built
 * from that one line and the line is blanked in the unit, so the scanner
 * must never take for the first #include a line the preprocessor would
 * not read as one. A line splice (backslash-newline) or a trigraph in a
 * comment before it makes it give up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cfront/cpch.h"

static bool first(const char *s, size_t *off, size_t *n)
{
    return cf_pch_first_include(s, strlen(s), off, n);
}

static void test_found(void **state)
{
    (void)state;
    size_t off, n;
    const char *s = "/* licence */\n// note\n\n#include \"proj.h\"\nint x;\n";
    assert_true(first(s, &off, &n));
    assert_int_equal(n, strlen("#include \"proj.h\""));
    assert_memory_equal(s + off, "#include \"proj.h\"", n);
    s = "  # include <stdio.h>\n";
    assert_true(first(s, &off, &n));
    assert_memory_equal(s + off, "# include <stdio.h>", n);
}

static void test_not_first(void **state)
{
    (void)state;
    size_t off, n;
    assert_false(first("#define X 1\n#include \"proj.h\"\n", &off, &n));
    assert_false(first("int x;\n", &off, &n));
    assert_false(first("#include \"proj.h\"", &off, &n)); /* no newline */
    assert_false(first("#include \"a.h\" /* c */\n", &off, &n));
    assert_false(first("#include \\\n\"a.h\"\n", &off, &n));
    assert_false(first("/* never closed\n#include \"a.h\"\n", &off, &n));
}

/* The review's case: a backslash ends the // comment's line, so the
 * #include below it is part of the comment, not the first include. */
static void test_splice_in_comment(void **state)
{
    (void)state;
    size_t off, n;
    assert_false(first("// see also \\\n#include \"debug.h\"\n#include \"real.h\"\n", &off, &n));
    assert_false(first("// trigraph ?" "?/\n#include \"debug.h\"\n#include \"real.h\"\n", &off, &n));
    assert_false(first("/* a *\\\n/ #include \"x.h\" */\n#include \"real.h\"\n", &off, &n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_found),
        cmocka_unit_test(test_not_first),
        cmocka_unit_test(test_splice_in_comment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
