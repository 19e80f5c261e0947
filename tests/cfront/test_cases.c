/* Unit tests for cfront: each tests/cfront/cases/NAME.c is lowered and its
 * printed IR (`ravel ir --no-source` form) compared with NAME.ir; an
 * err_NAME.c must fail to lower, with exactly the diagnostics in
 * err_NAME.err (paths relative to the cases folder). Every lowered program
 * also passes ir_check (cfront_lower runs it). With RAVEL_CFRONT_UPDATE=1
 * the expectations are written instead of compared: review the diff. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/diag.h"
#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/cfront.h"
#include "ir/ir_json.h"
#include "ir/ir_print.h"

static char cases_dir[4096];

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Lowers one case; returns what it printed: the IR, or the diagnostics. */
static char *lower_case(const char *path, bool *ok)
{
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    const char *files[] = { path };
    static const char *const args[] = { "-I.", "-Wno-unused-value" };
    cfront_opts o = { .clang_args = args, .nclang_args = 2 };
    size_t errors = cfront_lower(&p, files, 1, &o, &d);
    base_strbuf out = { 0 };
    *ok = errors == 0;
    if (errors) {
        for (size_t i = 0; i < d.count; i++) {
            char buf[1024];
            base_diag_format(&d.msgs[i], buf, sizeof buf);
            const char *s = buf;
            if (strncmp(s, cases_dir, strlen(cases_dir)) == 0)
                s += strlen(cases_dir) + 1;
            base_strbuf_printf(&out, "%s\n", s);
        }
    } else {
        ir_print_opts po = { .skip_empty_init = true };
        ir_print_program_opts(&out, &p, &po);
        base_strbuf json = { 0 }; /* the JSON printer runs on every case too */
        ir_json_program(&json, &p);
        assert_true(json.len > 2 && json.data[0] == '{' && json.data[json.len - 2] == '}');
        base_strbuf_free(&json);
    }
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    char *r = strdup(base_strbuf_cstr(&out));
    base_strbuf_free(&out);
    return r;
}

static void run_case(const char *name)
{
    char src[8192], exp[8192];
    snprintf(src, sizeof src, "%s/%s", cases_dir, name);
    bool is_err = strncmp(name, "err_", 4) == 0;
    snprintf(exp, sizeof exp, "%s/%.*s%s", cases_dir, (int)(strlen(name) - 2), name,
             is_err ? ".err" : ".ir");
    bool ok;
    char *got = lower_case(src, &ok);
    if (getenv("RAVEL_CFRONT_UPDATE")) {
        FILE *f = fopen(exp, "w");
        assert_non_null(f);
        fputs(got, f);
        fclose(f);
    } else {
        size_t len;
        char *want = base_read_file(exp, &len);
        if (!want)
            fail_msg("%s: no expectation file %s", name, exp);
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "--- %s: expected\n%s--- got\n%s", name, want, got);
            fail_msg("%s: the lowered program differs from %s", name, exp);
        }
        free(want);
    }
    if (is_err)
        assert_false(ok);
    else if (!ok)
        fail_msg("%s did not lower:\n%s", name, got);
    free(got);
}

static void test_all_cases(void **state)
{
    (void)state;
    DIR *d = opendir(cases_dir);
    assert_non_null(d);
    char *names[512];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < 512)
        if (ends_with(de->d_name, ".c"))
            names[n++] = strdup(de->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    assert_true(n >= 10);
    for (size_t i = 0; i < n; i++) {
        run_case(names[i]);
        free(names[i]);
    }
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
    const char *data = getenv("RAVEL_TEST_DATA");
    snprintf(cases_dir, sizeof cases_dir, "%s/cfront/cases", data ? data : "tests");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_cases),
        cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
