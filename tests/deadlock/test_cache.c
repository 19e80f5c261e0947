/* Unit tests for deadlock's summary cache (--cache): a second run reuses
 * every summary; a changed callee invalidates its callers only when its
 * summary changed; corrupt, truncated or foreign files are misses, never
 * crashes, and never change the findings; an unusable directory is no
 * error. Programs are built by hand in the IR. */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "deadlock/deadlock.h"
#include "ir/ir.h"
#include "ir/ir_check.h"

typedef struct tb {
    base_intern_pool syms;
    ir_program p;
    const ir_type *mtx, *vp, *i32, *fn_thread, *fn_void;
    ir_var *m[4];
    uint32_t line;
} tb;

static base_srcloc at(tb *t) { return base_srcloc_make("t.c", ++t->line, 1); }

static void lock_op(tb *t, ir_func *f, ir_stmt_kind k, int i)
{
    uint32_t s = ir_emit(&t->p, f, k, at(t));
    f->stmts[s].rhs = ir_addr(&t->p, ir_var_ref(&t->p, t->m[i]));
}

static void ret(tb *t, ir_func *f) { ir_emit(&t->p, f, IR_S_RETURN, at(t)); }

static ir_func *thread_fn(tb *t, const char *name)
{
    ir_func *f = ir_add_func(&t->p, name, t->fn_thread, at(t));
    ir_add_param(&t->p, f, "arg", t->vp, at(t));
    f->external_linkage = true;
    return f;
}

static void call(tb *t, ir_func *in, ir_func *g)
{
    uint32_t s = ir_emit(&t->p, in, IR_S_CALL, at(t));
    in->stmts[s].callee = ir_func_ref(&t->p, g);
}

/* variant 0: t1 holds m1 and calls helper, which takes m2; t2 takes m2
 * then m1 (a deadlock); t3 calls leaf, which takes m4 (unrelated).
 * variant 1: helper takes m3 instead (no deadlock; helper's summary
 * changes). variant 2: helper also assigns a local, at a line of its own
 * (its IR changes, its summary does not). */
static void build(tb *t, int variant)
{
    memset(t, 0, sizeof *t);
    base_intern_init(&t->syms);
    ir_program_init(&t->p, &t->syms);
    t->mtx = ir_type_mutex(&t->p);
    t->i32 = ir_type_int(&t->p, 32, true);
    t->vp = ir_type_ptr(&t->p, ir_type_int(&t->p, 8, true));
    const ir_type *params[] = { t->vp };
    t->fn_thread = ir_type_func(&t->p, t->vp, params, 1, false);
    t->fn_void = ir_type_func(&t->p, ir_type_void(&t->p), NULL, 0, false);
    static const char *names[] = { "m1", "m2", "m3", "m4" };
    for (int i = 0; i < 4; i++)
        t->m[i] = ir_add_global(&t->p, names[i], t->mtx, at(t));
    t->p.init = ir_add_func(&t->p, "__ravel_init", t->fn_void, at(t));
    ret(t, t->p.init);

    ir_func *helper = ir_add_func(&t->p, "helper", t->fn_void, at(t));
    ir_var *x = ir_add_local(&t->p, helper, "x", t->i32, at(t));
    lock_op(t, helper, IR_S_LOCK, variant == 1 ? 2 : 1);
    lock_op(t, helper, IR_S_UNLOCK, variant == 1 ? 2 : 1);
    if (variant == 2) {
        uint32_t s = ir_emit(&t->p, helper, IR_S_ASSIGN, base_srcloc_make("t.c", 900, 1));
        helper->stmts[s].lhs = ir_var_ref(&t->p, x);
        helper->stmts[s].rhs = ir_const(&t->p, t->i32, 1);
    } /* no line of its own: the same lines for everything after */
    ret(t, helper);

    ir_func *t1 = thread_fn(t, "t1");
    lock_op(t, t1, IR_S_LOCK, 0);
    call(t, t1, helper);
    lock_op(t, t1, IR_S_UNLOCK, 0);
    ret(t, t1);

    ir_func *t2 = thread_fn(t, "t2");
    lock_op(t, t2, IR_S_LOCK, 1);
    lock_op(t, t2, IR_S_LOCK, 0);
    lock_op(t, t2, IR_S_UNLOCK, 0);
    lock_op(t, t2, IR_S_UNLOCK, 1);
    ret(t, t2);

    ir_func *leaf = ir_add_func(&t->p, "leaf", t->fn_void, at(t));
    lock_op(t, leaf, IR_S_LOCK, 3);
    lock_op(t, leaf, IR_S_UNLOCK, 3);
    ret(t, leaf);
    ir_func *t3 = thread_fn(t, "t3");
    call(t, t3, leaf);
    ret(t, t3);

    ir_func *mf = ir_add_func(&t->p, "main", ir_type_func(&t->p, t->i32, NULL, 0, false), at(t));
    mf->external_linkage = true;
    ir_func *threads[] = { t1, t2, t3 };
    for (int i = 0; i < 3; i++) {
        uint32_t s = ir_emit(&t->p, mf, IR_S_ASYNC, at(t));
        mf->stmts[s].callee = ir_func_ref(&t->p, threads[i]);
    }
    ret(t, mf);
    base_diag d;
    base_diag_init(&d);
    assert_int_equal(ir_check(&t->p, &d), 0);
    base_diag_free(&d);
}

static void tb_free(tb *t)
{
    ir_program_free(&t->p);
    base_intern_free(&t->syms);
}

static char cache_dir[256];

static void fresh_dir(void)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/ravel-dlcache-XXXXXX");
    assert_non_null(mkdtemp(cache_dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(cache_dir);
    if (!d)
        return;
    struct dirent *e;
    char p[600];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", cache_dir, e->d_name);
        remove(p);
    }
    closedir(d);
    rmdir(cache_dir);
}

/* Runs the analysis of variant v with the cache; returns the findings'
 * count and fills hits/misses/bad. */
static size_t run(int variant, const char *dir, size_t *hits, size_t *misses, size_t *bad)
{
    tb t;
    build(&t, variant);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.cache_dir = dir;
    deadlock_result r;
    deadlock_analyse(&t.p, &o, &r);
    size_t n = r.nfindings;
    if (hits)
        *hits = r.cache_hits;
    if (misses)
        *misses = r.cache_misses;
    if (bad)
        *bad = r.cache_bad;
    assert_int_equal(r.cache_hits + r.cache_misses, r.nfuncs);
    if (n) {
        assert_string_equal(r.findings[0].edges[0].held, "m1");
        assert_string_equal(r.findings[0].edges[0].wanted, "m2");
        assert_int_equal(r.findings[0].edges[0].wanted_chain.nframes, 2);
    }
    deadlock_result_free(&r);
    tb_free(&t);
    return n;
}

static void test_hit_and_miss(void **state)
{
    (void)state;
    fresh_dir();
    size_t h, m, b;
    assert_int_equal(run(0, cache_dir, &h, &m, &b), 1);
    assert_int_equal(h, 0);
    assert_int_equal(m, 7);
    assert_int_equal(run(0, cache_dir, &h, &m, &b), 1);
    assert_int_equal(h, 7);
    assert_int_equal(m, 0);
    assert_int_equal(b, 0);
    remove_dir();
}

static void test_changed_callee(void **state)
{
    (void)state;
    fresh_dir();
    size_t h, m;
    assert_int_equal(run(0, cache_dir, NULL, NULL, NULL), 1);
    /* helper's summary changes: helper and its caller t1 are analysed again */
    assert_int_equal(run(1, cache_dir, &h, &m, NULL), 0);
    assert_int_equal(m, 2);
    assert_int_equal(h, 5);
    /* back to the first program: everything is in the cache */
    assert_int_equal(run(0, cache_dir, &h, &m, NULL), 1);
    assert_int_equal(m, 0);
    /* helper's IR changes but not its summary: only helper is analysed */
    assert_int_equal(run(2, cache_dir, &h, &m, NULL), 1);
    assert_int_equal(m, 1);
    assert_int_equal(h, 6);
    remove_dir();
}

static char *read_all(const char *path, size_t *len)
{
    return base_read_file(path, len);
}

static void write_all(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Every cache file: truncated at several points, then garbage; and the
 * largest one with each byte changed and its checksum made right again,
 * so the parser itself sees the damage. Results never change. */
static void test_corrupt_files(void **state)
{
    (void)state;
    fresh_dir();
    assert_int_equal(run(0, cache_dir, NULL, NULL, NULL), 1);
    DIR *d = opendir(cache_dir);
    assert_non_null(d);
    char names[16][600];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nn < 16)
        if (strstr(e->d_name, ".dls"))
            snprintf(names[nn++], sizeof names[0], "%s/%s", cache_dir, e->d_name);
    closedir(d);
    assert_int_equal(nn, 7);
    size_t biggest = 0, blen = 0;
    for (size_t i = 0; i < nn; i++) {
        size_t len;
        char *data = read_all(names[i], &len);
        assert_non_null(data);
        if (len > blen)
            blen = len, biggest = i;
        free(data);
    }
    size_t len;
    char *orig = read_all(names[biggest], &len);
    size_t h, m, b;
    for (size_t cut = 0; cut < len; cut += 1 + len / 7) {
        write_all(names[biggest], orig, cut);
        assert_int_equal(run(0, cache_dir, &h, &m, &b), 1);
        assert_true(m >= 1);
        assert_true(b <= 1);
        write_all(names[biggest], orig, len); /* the run rewrote it; restore */
    }
    write_all(names[biggest], "not a cache file at all", 23);
    assert_int_equal(run(0, cache_dir, &h, &m, &b), 1);
    assert_int_equal(b, 1);
    assert_int_equal(m, 1);
    /* flipped bytes behind a valid checksum */
    char *mod = malloc(len);
    size_t rejected = 0;
    for (size_t pos = 8; pos + 8 < len; pos++) {
        memcpy(mod, orig, len);
        mod[pos] ^= (char)(pos % 2 ? 0x41 : 0x7f);
        uint64_t sum = base_hash_bytes(mod, len - 8);
        for (int i = 0; i < 8; i++)
            mod[len - 8 + (size_t)i] = (char)(sum >> (8 * i));
        write_all(names[biggest], mod, len);
        size_t n = run(0, cache_dir, &h, &m, &b);
        rejected += b;
        /* a flip the parser accepts may change what the summary says
         * (a line number, a lock), never crash */
        assert_true(n <= 2);
    }
    assert_true(rejected > 0);
    free(mod);
    free(orig);
    remove_dir();
}

static void test_unusable_dir(void **state)
{
    (void)state;
    size_t h, m;
    tb t;
    build(&t, 0);
    deadlock_opts o;
    deadlock_opts_default(&o);
    o.cache_dir = "/proc/ravel-no-such-dir/cache";
    deadlock_result r;
    deadlock_analyse(&t.p, &o, &r);
    assert_int_equal(r.nfindings, 1);
    assert_int_equal(r.cache_hits, 0);
    assert_true(r.cache_write_errors > 0);
    deadlock_result_free(&r);
    tb_free(&t);
    (void)h, (void)m;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_and_miss),
        cmocka_unit_test(test_changed_callee),
        cmocka_unit_test(test_corrupt_files),
        cmocka_unit_test(test_unusable_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
