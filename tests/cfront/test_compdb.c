/* Unit tests for cfront's whole-program input: a compilation database with
 * two translation units (each with its own -D flag), linked by name: one
 * external function and global shared across files, and two static
 * functions of the same name kept apart as name@file. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/cfront.h"
#include "ir/ir_print.h"

static char dir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void remove_files(void)
{
    const char *names[] = { "a.c", "b.c", "compile_commands.json" };
    for (size_t i = 0; i < 3; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void test_two_units(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ravel-compdb-XXXXXX");
    assert_non_null(mkdtemp(dir));
    write_file("a.c", "int shared = A;\nstatic int helper(void) { return 1; }\n"
                      "int twice(int);\nint main(void) { return twice(helper() + shared); }\n");
    write_file("b.c", "extern int shared;\nstatic int helper(void) { return B; }\n"
                      "int twice(int x) { return 2 * x + helper() + shared; }\n");
    char json[2048];
    snprintf(json, sizeof json,
             "[\n {\"directory\": \"%s\", \"file\": \"a.c\", \"arguments\": [\"cc\", \"-DA=3\", \"-c\", \"a.c\"]},\n"
             " {\"directory\": \"%s\", \"command\": \"cc -DB=7 -c b.c -o b.o\", \"file\": \"b.c\"}\n]\n",
             dir, dir);
    write_file("compile_commands.json", json);

    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    cfront_opts o = { .compdb_dir = dir };
    size_t errors = cfront_lower(&p, NULL, 0, &o, &d);
    if (errors)
        base_diag_print(&d, stderr);
    assert_int_equal(errors, 0);
    assert_non_null(ir_find_func(&p, "main"));
    ir_func *twice = ir_find_func(&p, "twice");
    assert_non_null(twice);
    assert_true(twice->has_body); /* declared in a.c, defined in b.c: one function */
    assert_non_null(ir_find_func(&p, "helper"));
    assert_non_null(ir_find_func(&p, "helper@b.c"));
    unsigned nshared = 0;
    for (uint32_t i = 0; i < p.nglobals; i++)
        nshared += strcmp(base_sym_str(&syms, p.globals[i]->name), "shared") == 0;
    assert_int_equal(nshared, 1);
    base_strbuf out = { 0 };
    ir_print_program(&out, &p);
    assert_non_null(strstr(base_strbuf_cstr(&out), "shared = 3")); /* -DA=3 reached a.c */
    assert_non_null(strstr(base_strbuf_cstr(&out), "return 7"));   /* -DB=7 reached b.c */
    base_strbuf_free(&out);

    /* Naming one file restricts the run to it. */
    ir_program q;
    ir_program_init(&q, &syms);
    char bpath[512];
    snprintf(bpath, sizeof bpath, "%s/b.c", dir);
    const char *files[] = { bpath };
    assert_int_equal(cfront_lower(&q, files, 1, &o, &d), 0);
    assert_null(ir_find_func(&q, "main"));
    assert_non_null(ir_find_func(&q, "twice"));
    ir_program_free(&q);

    ir_program_free(&p);
    base_diag_free(&d);
    base_intern_free(&syms);
    remove_files();
}

static void test_missing_database(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    cfront_opts o = { .compdb_dir = "/nonexistent-dir" };
    assert_int_equal(cfront_lower(&p, NULL, 0, &o, &d), 1);
    char buf[256];
    base_diag_format(&d.msgs[0], buf, sizeof buf);
    assert_string_equal(buf, "/nonexistent-dir: error: cannot read compile_commands.json in this directory");
    ir_program_free(&p);
    base_diag_free(&d);
    base_intern_free(&syms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_units),
        cmocka_unit_test(test_missing_database),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
