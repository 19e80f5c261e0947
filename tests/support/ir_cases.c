/* ir_cases: see ir_cases.h. */
#include "ir_cases.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/cfront.h"
#include "ir/ir_check.h"
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
static char *lower_case(const char *path, bool *ok, ir_cases_transform transform)
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
    if (!errors && transform && !transform(&p, &d))
        errors = d.errors ? d.errors : 1;
    if (!errors && transform)
        errors = ir_check(&p, &d);
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

static void run_case(const char *name, ir_cases_transform transform)
{
    char src[8192], exp[8192];
    snprintf(src, sizeof src, "%s/%s", cases_dir, name);
    bool is_err = strncmp(name, "err_", 4) == 0;
    snprintf(exp, sizeof exp, "%s/%.*s%s", cases_dir, (int)(strlen(name) - 2), name,
             is_err ? ".err" : ".ir");
    bool ok;
    char *got = lower_case(src, &ok, transform);
    if (getenv("RAVEL_CASES_UPDATE")) {
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

void ir_cases_run(const char *dir, ir_cases_transform transform, unsigned min_cases)
{
    snprintf(cases_dir, sizeof cases_dir, "%s", dir);
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
    assert_true(n >= min_cases);
    for (size_t i = 0; i < n; i++) {
        run_case(names[i], transform);
        free(names[i]);
    }
}

