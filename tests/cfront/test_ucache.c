/* Unit tests for the per-unit cache's keys (cucache.h) and the unit
 * format (cunit.h): a job key changes with every flag, the path, the data
 * model and ravel's version, and with nothing else; a unit key changes
 * with any included file's path or hash and their order; a unit written
 * and read back prints as the same program; truncated or altered bytes
 * are refused, never trusted; a probe answers whether a unit is cached
 * without reading it, and a lookup after it takes that answer. */
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
#include "base/xalloc.h"
#include "cfront/cfront.h"
#include "cfront/cucache.h"
#include "cfront/cunit.h"
#include "cfront/lower.h"
#include "ir/ir_print.h"

static void job_key(const cfront_opts *o, const char *path, const char *const *args, int n, char *hex)
{
    cf_ucache_job_key(o, path, args, n, hex);
    assert_int_equal(strlen(hex), 64);
}

static void test_job_key(void **state)
{
    (void)state;
    cfront_opts o = { .tool_version = "1.0" };
    const char *a[] = { "cc", "-DX=1", "-c", "a.c" };
    const char *b[] = { "cc", "-DX=2", "-c", "a.c" };
    const char *c[] = { "cc", "-DX=1", "-c" }; /* one flag fewer */
    const char *d[] = { "cc", "-DX=1-c", "a.c" }; /* the same characters, other words */
    char k1[65], k2[65], k3[65], k4[65], k5[65], k6[65], k7[65], k8[65];
    job_key(&o, "/s/a.c", a, 4, k1);
    job_key(&o, "/s/a.c", a, 4, k2);
    assert_string_equal(k1, k2); /* a pure function */
    job_key(&o, "/s/a.c", b, 4, k3);
    assert_string_not_equal(k1, k3);
    job_key(&o, "/s/a.c", c, 3, k4);
    assert_string_not_equal(k1, k4);
    job_key(&o, "/s/a.c", d, 3, k5);
    assert_string_not_equal(k1, k5);
    job_key(&o, "/t/a.c", a, 4, k6);
    assert_string_not_equal(k1, k6);
    cfront_opts o2 = { .tool_version = "1.1" };
    job_key(&o2, "/s/a.c", a, 4, k7);
    assert_string_not_equal(k1, k7);
    cfront_opts o3 = { .tool_version = "1.0", .m32 = true };
    job_key(&o3, "/s/a.c", a, 4, k8);
    assert_string_not_equal(k1, k8);
    cfront_opts o4 = { .tool_version = "1.0", .jobs = 8, .main_unit = "x.c" };
    job_key(&o4, "/s/a.c", a, 4, k2); /* -j and --main are not the unit's */
    assert_string_equal(k1, k2);
}

static void test_unit_key(void **state)
{
    (void)state;
    const char *paths[] = { "/s/a.c", "/s/a.h" };
    const char *h1[] = { "11", "22" }, *h2[] = { "11", "23" };
    const char *swapped[] = { "/s/a.h", "/s/a.c" }, *hs[] = { "22", "11" };
    char u1[65], u2[65], u3[65], u4[65], u5[65];
    cf_ucache_unit_key("job", paths, h1, 2, u1);
    cf_ucache_unit_key("job", paths, h1, 2, u2);
    assert_string_equal(u1, u2);
    cf_ucache_unit_key("job", paths, h2, 2, u3); /* a header changed */
    assert_string_not_equal(u1, u3);
    cf_ucache_unit_key("job", paths, h1, 1, u4); /* one file fewer */
    assert_string_not_equal(u1, u4);
    cf_ucache_unit_key("job", swapped, hs, 2, u5); /* the order is part of it */
    assert_string_not_equal(u1, u5);
    cf_ucache_unit_key("job2", paths, h1, 2, u5);
    assert_string_not_equal(u1, u5);
}

static char dir[256];

static void print_program(base_strbuf *out, const ir_program *p)
{
    base_strbuf_clear(out);
    ir_print_program(out, p);
}

/* A new temporary directory (from tmpl) holding u.c with text. */
static void temp_source(char *d, size_t dn, const char *tmpl, char *src, size_t sn, const char *text)
{
    snprintf(d, dn, "%s", tmpl);
    assert_non_null(mkdtemp(d));
    snprintf(src, sn, "%s/u.c", d);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A unit lowered by a capture, read back, written again: the same bytes;
 * linked alone: the program that lowering the file directly gives. */
static void test_roundtrip(void **state)
{
    (void)state;
    char src[512], cap[512];
    temp_source(dir, sizeof dir, "/tmp/ravel-ucache-XXXXXX", src, sizeof src,
                "#include <pthread.h>\n"
                "struct node { struct node *next; pthread_mutex_t m; int v[3]; };\n"
                "static struct node head = { 0, PTHREAD_MUTEX_INITIALIZER, { 1, 2, 3 } };\n"
                "static const char *msg = \"hi\";\n"
                "static double d = 1.5;\n"
                "static void *run(void *p) { struct node *n = p; pthread_mutex_lock(&n->m);\n"
                "  for (int i = 0; i < 3; i++) n->v[i] += i ? i : 7; pthread_mutex_unlock(&n->m);\n"
                "  return (void *)msg; }\n"
                "int main(void) { pthread_t t; pthread_create(&t, 0, run, &head); pthread_join(t, 0);\n"
                "  return d > 1 ? head.v[0] : 0; }\n");
    snprintf(cap, sizeof cap, "%s/cap", dir);
    cfront_opts o = { .tool_version = "test" };
    const char *argv[] = { "cc", "-c", src };
    size_t nsrc = 0;
    assert_int_equal(cfront_capture(cap, argv, 3, &o, &nsrc), 0);
    assert_int_equal(nsrc, 1);

    base_intern_pool s1, s2;
    base_intern_init(&s1);
    base_intern_init(&s2);
    ir_program p1, p2;
    ir_program_init(&p1, &s1);
    ir_program_init(&p2, &s2);
    base_diag d1, d2;
    base_diag_init(&d1);
    base_diag_init(&d2);
    const char *files[] = { src };
    assert_int_equal(cfront_lower(&p1, files, 1, &o, &d1), 0);
    assert_int_equal(cfront_link_dir(&p2, cap, &o, &d2), 0);
    base_strbuf a = { 0 }, b = { 0 };
    print_program(&a, &p1);
    print_program(&b, &p2);
    assert_string_equal(base_strbuf_cstr(&a), base_strbuf_cstr(&b));

    /* the unit file: read, written again, byte for byte; every truncation refused */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls %s/*.rtu", cap);
    FILE *ls = popen(cmd, "r");
    char unit[600] = { 0 };
    assert_non_null(fgets(unit, sizeof unit, ls));
    pclose(ls);
    unit[strcspn(unit, "\n")] = 0;
    size_t len;
    char *data = base_read_file(unit, &len);
    assert_non_null(data);
    cf_unit u;
    assert_true(cf_unit_read(&u, data, len));
    base_strbuf again = { 0 };
    cf_unit_write(&again, &u);
    assert_int_equal(again.len, len);
    assert_memory_equal(again.data, data, len);
    cf_unit_free(&u);
    for (size_t cut = 0; cut < len; cut += 1 + cut / 8) {
        cf_unit v;
        assert_false(cf_unit_read(&v, data, cut));
    }
    data[len / 2] ^= 0x5a; /* altered: refused or a well-formed unit, never a crash */
    cf_unit w;
    if (cf_unit_read(&w, data, len))
        cf_unit_free(&w);
    free(data);
    base_strbuf_free(&again);
    base_strbuf_free(&a);
    base_strbuf_free(&b);
    base_diag_free(&d1);
    base_diag_free(&d2);
    ir_program_free(&p1);
    ir_program_free(&p2);
    base_intern_free(&s1);
    base_intern_free(&s2);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A job of the unit src (args: cc -c src). */
static cf_job probe_job(char *src, char **args)
{
    cf_job j = { .path = src, .args = args, .nargs = 3, .pch_group = -1, .src_arg = -1 };
    return j;
}

static void test_probe(void **state)
{
    (void)state;
    char pdir[64], src[128], cache[128];
    temp_source(pdir, sizeof pdir, "/tmp/ravel-probe-XXXXXX", src, sizeof src, "int x;\n");
    snprintf(cache, sizeof cache, "%s/cache", pdir);
    char *args[] = { "cc", "-c", src };
    cfront_opts o = { .tool_version = "test" };
    cf_ucache *k = cf_ucache_open(cache, &o, true);
    cf_job j = probe_job(src, args);
    assert_false(cf_ucache_probe(k, &j)); /* nothing stored yet */
    assert_int_equal(j.probe, 2);
    j.unit = base_xmalloc(sizeof *j.unit);
    cf_unit_init(j.unit, src);
    ir_program *up = &j.unit->p; /* a unit's program has its initialiser */
    up->init = ir_add_func(up, "__ravel_init", ir_type_func(up, ir_type_void(up), NULL, 0, false),
                           base_srcloc_make("<built-in>", 0, 0));
    up->init->has_body = true;
    cf_ucache_store(k, &j, NULL); /* capture: stored without a parse */
    cf_unit_free(j.unit);
    free(j.unit);
    assert_int_equal(cf_ucache_close(k), 0);

    k = cf_ucache_open(cache, &o, false);
    cf_job h = probe_job(src, args);
    assert_true(cf_ucache_probe(k, &h));
    assert_int_equal(h.probe, 1);
    assert_null(h.unit); /* a probe reads no unit */
    assert_true(cf_ucache_lookup(k, &h));
    assert_non_null(h.unit);
    cf_unit_free(h.unit);
    free(h.unit);
    cf_job miss = probe_job(src, args);
    miss.probe = 2; /* an answer already given is kept */
    assert_false(cf_ucache_lookup(k, &miss));
    assert_int_equal(cf_ucache_close(k), 0);

    /* the source changed: a miss */
    FILE *f = fopen(src, "a");
    assert_non_null(f);
    fputs("int y;\n", f);
    fclose(f);
    k = cf_ucache_open(cache, &o, false);
    cf_job c = probe_job(src, args);
    assert_false(cf_ucache_probe(k, &c));
    assert_int_equal(cf_ucache_close(k), 0);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", pdir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_key),
        cmocka_unit_test(test_unit_key),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
