/* Unit tests for litmus/evstruct and litmus/encode: the event structure of
 * small tests, counted by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/encode.h"
#include "litmus/evstruct.h"
#include "litmus/lisa_parse.h"
#include "logic/vocab.h"

typedef struct fx {
    base_intern_pool syms;
    base_diag diag;
    litmus_test *t;
    litmus_evstruct es;
    bool built;
} fx;

/* Most tests here count the tree of forked reads; the symbolic ones say so. */
static const litmus_es_limits limits = { .unroll = 2, .max_events = 1000, .max_values = 16,
                                         .fork_all_reads = true };
static const litmus_es_limits sym_limits = { .unroll = 2, .max_events = 1000, .max_values = 16 };

static void build_with(fx *f, const char *src, const litmus_es_limits *lim)
{
    base_intern_init(&f->syms);
    base_diag_init(&f->diag);
    f->t = litmus_parse_lisa("t.litmus", src, strlen(src), &f->syms, &f->diag);
    assert_non_null(f->t);
    f->built = litmus_evstruct_build(f->t, lim, &f->es, &f->diag);
}

static void build(fx *f, const char *src)
{
    build_with(f, src, &limits);
}

static void done(fx *f)
{
    if (f->built)
        litmus_evstruct_free(&f->es);
    litmus_test_free(f->t);
    base_diag_free(&f->diag);
    base_intern_free(&f->syms);
}

static uint32_t count(const litmus_evstruct *es, litmus_ev_kind k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < es->nevents; i++)
        n += es->events[i].kind == k;
    return n;
}

/* SB: two inits, two writes, and each read has one event per value its
 * location may hold (0 and 1). */
static void test_sb_structure(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA SB\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
              " r[] r0 y | r[] r0 x ;\nexists (0:r0=0 /\\ 1:r0=0)\n");
    assert_true(f.built);
    assert_int_equal(f.es.nevents, 8);
    assert_int_equal(count(&f.es, LITMUS_EV_INIT), 2);
    assert_int_equal(count(&f.es, LITMUS_EV_WRITE), 2);
    assert_int_equal(count(&f.es, LITMUS_EV_READ), 4);
    assert_int_equal(f.es.npaths, 4); /* two per thread */
    /* The two read alternatives of P0 follow its write and conflict. */
    logic_structure st;
    litmus_encode_structure(f.t, &f.es, &st);
    int po = logic_structure_find(&st, LOGIC_V_PO), cf = logic_structure_find(&st, LOGIC_V_CONFLICT);
    int rfc = logic_structure_find(&st, LOGIC_V_RF_CAND);
    assert_true(po >= 0 && cf >= 0 && rfc >= 0);
    uint32_t w = LITMUS_NONE, r[2], nr = 0;
    for (uint32_t i = 0; i < f.es.nevents; i++) {
        const litmus_event *e = &f.es.events[i];
        if (e->thread == 0 && e->kind == LITMUS_EV_WRITE)
            w = i;
        if (e->thread == 0 && e->kind == LITMUS_EV_READ)
            r[nr++] = i;
    }
    assert_int_equal(nr, 2);
    assert_true(logic_rel_get2(&st, (uint32_t)po, w, r[0]));
    assert_true(logic_rel_get2(&st, (uint32_t)po, w, r[1]));
    assert_true(logic_rel_get2(&st, (uint32_t)cf, r[0], r[1]));
    assert_false(logic_rel_get2(&st, (uint32_t)cf, w, r[0]));
    /* rf candidates match values: the read of 0 from the init of y only. */
    uint32_t r0 = f.es.events[r[0]].value.num == 0 ? r[0] : r[1];
    uint32_t iy = f.es.init_of_loc[f.es.events[r0].loc];
    assert_true(logic_rel_get2(&st, (uint32_t)rfc, iy, r0));
    for (uint32_t i = 0; i < f.es.nevents; i++)
        if (i != iy)
            assert_false(logic_rel_get2(&st, (uint32_t)rfc, i, r0));
    logic_structure_free(&st);
    done(&f);
}

/* Everything after a read is duplicated per value, with dependencies. */
static void test_dependencies_and_duplication(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA deps\n{x=0; y=0; z=0;}\n P0 | P1 ;\n r[] r1 x | w[] x 1 ;\n"
              " w[] y r1 | ;\n mov r2 (xor r1 r1) | ;\n r[] r3 z+r2 | ;\nexists (0:r1=1)\n");
    assert_true(f.built);
    /* P0: 2 reads of x, each followed by a write of y and 1 read of z
     * (z only ever holds 0). */
    assert_int_equal(count(&f.es, LITMUS_EV_READ), 4);
    assert_int_equal(f.es.ndata, 2);
    assert_int_equal(f.es.naddr, 2);
    for (uint32_t k = 0; k < f.es.ndata; k++) {
        const litmus_event *w = &f.es.events[f.es.data[k].to];
        const litmus_event *r = &f.es.events[f.es.data[k].from];
        assert_int_equal(w->kind, LITMUS_EV_WRITE);
        assert_true(litmus_value_eq(w->value, r->value));
    }
    done(&f);
}

/* rmw x := x + 1 converges: a read never returns its own thread's later
 * writes, so the value domain stays {0, 1}. */
static void test_rmw_converges(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA inc\n{x=0;}\n P0 | P1 ;\n rmw[] r1 (add r1 1) x | rmw[] r1 (add r1 1) x ;\n"
              "exists (x=2)\n");
    assert_true(f.built);
    uint32_t rmws = 0;
    for (uint32_t i = 0; i < f.es.nevents; i++)
        if (f.es.events[i].rmw_write != LITMUS_NONE) {
            rmws++;
            assert_true(f.es.events[f.es.events[i].rmw_write].rmw);
        }
    assert_int_equal(rmws, 4); /* each thread reads 0 or 1 */
    done(&f);
}

/* An AArch64 exclusive pair: LDXP's two reads and, on success, STXP's two
 * writes are each one single-copy-atomic access (es->sca), and each write is
 * in rmw with the read of its own cell. */
static void test_exclusive_pair(void **state)
{
    (void)state;
    fx f;
    build(&f, "AArch64 pair\n{\nuint64_t x[2];\n0:X0=x;\n}\n P0 ;\n LDXP X1,X2,[X0] ;\n"
              " STXP W9,X1,X2,[X0] ;\nexists (0:X9=0)\n");
    assert_true(f.built);
    assert_int_equal(count(&f.es, LITMUS_EV_READ), 2);
    assert_int_equal(count(&f.es, LITMUS_EV_WRITE), 2);
    assert_int_equal(f.es.nsca, 2);
    for (uint32_t k = 0; k < f.es.nsca; k++) {
        const litmus_event *a = &f.es.events[f.es.sca[k].from], *b = &f.es.events[f.es.sca[k].to];
        assert_int_equal(a->kind, b->kind);
        assert_int_not_equal(a->loc, b->loc);
    }
    uint32_t rmws = 0;
    for (uint32_t i = 0; i < f.es.nevents; i++)
        if (f.es.events[i].rmw_write != LITMUS_NONE) {
            rmws++;
            assert_int_equal(f.es.events[f.es.events[i].rmw_write].loc, f.es.events[i].loc);
        }
    assert_int_equal(rmws, 2);
    done(&f);
}

/* A loop is cut at the unroll bound and the structure says so. */
static void test_unroll_cut(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA spin\n{y=0;}\n P0 | P1 ;\n w[] y 1 | L: r[] r0 y ;\n"
              " | mov r1 (eq r0 0) ;\n | b[] r1 L ;\nexists (1:r0=1)\n");
    assert_true(f.built);
    assert_true(f.es.dropped_paths);
    /* P1 paths: read 1 at try 1, 2 or 3; reading 0 three times is cut. */
    uint32_t p1 = 0;
    for (uint32_t i = 0; i < f.es.npaths; i++)
        p1 += f.es.paths[i].thread == 1;
    assert_int_equal(p1, 3);
    done(&f);
}

static void test_too_many_events(void **state)
{
    (void)state;
    fx f;
    /* 12 reads of a location with two values: 4096 paths, over the limit. */
    build(&f, "LISA big\n{x=0;}\n P0 | P1 ;\n r[] r1 x | w[] x 1 ;\n r[] r2 x | ;\n r[] r3 x | ;\n"
              " r[] r4 x | ;\n r[] r5 x | ;\n r[] r6 x | ;\n r[] r7 x | ;\n r[] r8 x | ;\n"
              " r[] r9 x | ;\n r[] r10 x | ;\n r[] r11 x | ;\n r[] r12 x | ;\nexists (0:r1=1)\n");
    assert_false(f.built);
    char msg[512];
    base_diag_format(&f.diag.msgs[0], msg, sizeof msg);
    assert_non_null(strstr(msg, "event structure too large"));
    done(&f);
}

static void test_integer_address(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA intaddr\n{0:r1=5;}\n P0 ;\n r[] r0 r1 ;\nexists (0:r0=0)\n");
    assert_false(f.built);
    char msg[512];
    base_diag_format(&f.diag.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "t.litmus:4:2: error: unsupported: this access uses an integer as an address");
    done(&f);
}

static void test_pointer_in_register(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA ptr\n{x=0; 0:r1=x;}\n P0 | P1 ;\n r[] r0 r1 | w[] x 3 ;\nexists (0:r0=3)\n");
    assert_true(f.built);
    assert_int_equal(count(&f.es, LITMUS_EV_READ), 2);
    done(&f);
}

/* SB with symbolic reads: neither register is used after its read, so each
 * read is one event that may read every value of its domain (0 and 1), and
 * each thread has one path whose r0 is that read. */
static void test_sb_symbolic(void **state)
{
    (void)state;
    fx f;
    build_with(&f, "LISA SB\n{x=0; y=0;}\n P0 | P1 ;\n w[] x 1 | w[] y 1 ;\n"
                   " r[] r0 y | r[] r0 x ;\nexists (0:r0=0 /\\ 1:r0=0)\n", &sym_limits);
    assert_true(f.built);
    assert_int_equal(f.es.nevents, 6);
    assert_int_equal(f.es.nsymbolic, 2);
    assert_int_equal(f.es.npaths, 2);
    logic_structure st;
    litmus_encode_structure(f.t, &f.es, &st);
    int rfc = logic_structure_find(&st, LOGIC_V_RF_CAND);
    for (uint32_t p = 0; p < f.es.npaths; p++) {
        uint32_t r = litmus_path_sym(&f.es.paths[p], 0);
        assert_int_not_equal(r, LITMUS_NONE);
        const litmus_event *e = &f.es.events[r];
        assert_true(e->symbolic && e->kind == LITMUS_EV_READ && e->dom_count == 2);
        assert_true(litmus_event_may_read(&f.es, e, litmus_int(0)));
        assert_true(litmus_event_may_read(&f.es, e, litmus_int(1)));
        assert_false(litmus_event_may_read(&f.es, e, litmus_int(2)));
        /* rf candidates: the location's initial write and the other thread's write */
        uint32_t from = 0;
        for (uint32_t w = 0; w < f.es.nevents; w++)
            from += logic_rel_get2(&st, (uint32_t)rfc, w, r);
        assert_int_equal(from, 2);
        assert_true(logic_rel_get2(&st, (uint32_t)rfc, f.es.init_of_loc[e->loc], r));
    }
    logic_structure_free(&st);
    done(&f);
}

/* Only a register nothing later uses makes a symbolic read: one feeding a
 * write forks; one overwritten unread does not, and the path holds the
 * overwriting value; in a thread with a loop every read forks (r3 too). */
static void test_symbolic_only_unused(void **state)
{
    (void)state;
    fx f;
    build_with(&f, "LISA uses\n{x=0; y=0;}\n P0 | P1 | P2 ;\n r[] r0 x | r[] r1 y | w[] x 1 ;\n"
                   " w[] y r0 | mov r1 5 | L: r[] r3 x ;\n | | r[] r2 y ;\n | | b[] r2 L ;\n"
                   "exists (0:r0=1 /\\ 1:r1=5)\n", &sym_limits);
    assert_true(f.built);
    assert_int_equal(f.es.nsymbolic, 1);
    for (uint32_t i = 0; i < f.es.nevents; i++) {
        const litmus_event *e = &f.es.events[i];
        if (e->kind == LITMUS_EV_READ)
            assert_int_equal(e->symbolic, e->thread == 1);
    }
    for (uint32_t p = 0; p < f.es.npaths; p++) {
        const litmus_path *path = &f.es.paths[p];
        for (uint32_t r = 0; r < f.t->threads[path->thread].nregs; r++)
            assert_int_equal(litmus_path_sym(path, r), LITMUS_NONE);
        if (path->thread == 1)
            assert_true(litmus_value_eq(path->regs[0], litmus_int(5)));
    }
    done(&f);
}

/* The 12 reads that overflow the forked structure are 12 symbolic events. */
static void test_symbolic_no_blowup(void **state)
{
    (void)state;
    fx f;
    build_with(&f, "LISA big\n{x=0;}\n P0 | P1 ;\n r[] r1 x | w[] x 1 ;\n r[] r2 x | ;\n r[] r3 x | ;\n"
                   " r[] r4 x | ;\n r[] r5 x | ;\n r[] r6 x | ;\n r[] r7 x | ;\n r[] r8 x | ;\n"
                   " r[] r9 x | ;\n r[] r10 x | ;\n r[] r11 x | ;\n r[] r12 x | ;\nexists (0:r1=1)\n",
               &sym_limits);
    assert_true(f.built);
    assert_int_equal(f.es.nsymbolic, 12);
    assert_int_equal(count(&f.es, LITMUS_EV_READ), 12);
    assert_int_equal(f.es.npaths, 2);
    done(&f);
}

/* The first event of thread th, or LITMUS_NONE. */
static uint32_t first_of(const litmus_evstruct *es, uint32_t th)
{
    for (uint32_t i = 0; i < es->nevents; i++)
        if (es->events[i].thread == th)
            return i;
    return LITMUS_NONE;
}

/* herd's scope tree: read in pre-order, each node's threads contiguous;
 * encode relates the events of two threads in one instance of a level. */
static void test_scope_tree(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA S\n{x=0;}\n P0 | P1 | P2 ;\n w[] x 1 | w[] x 2 | w[] x 3 ;\n"
              "scopes: (system (gpu (cta P0 P1)) (gpu (cta P2)))\nexists (x=1)\n");
    assert_true(f.built);
    assert_false(f.t->scopes_bad);
    assert_int_equal(f.t->nscopes, 5);
    assert_string_equal(f.t->scopes[0].name, "system");
    assert_int_equal(f.t->scopes[0].lo, 0);
    assert_int_equal(f.t->scopes[0].hi, 3);
    assert_string_equal(f.t->scopes[2].name, "cta");
    assert_int_equal(f.t->scopes[2].hi - f.t->scopes[2].lo, 2);
    logic_structure st;
    litmus_encode_structure(f.t, &f.es, &st);
    int cta = logic_structure_find(&st, "scope:cta"), gpu = logic_structure_find(&st, "scope:gpu");
    int sys = logic_structure_find(&st, "scope:system");
    assert_true(cta >= 0 && gpu >= 0 && sys >= 0);
    assert_true(logic_structure_find(&st, "scopes:tree") >= 0);
    uint32_t e0 = first_of(&f.es, 0), e1 = first_of(&f.es, 1), e2 = first_of(&f.es, 2);
    assert_true(logic_rel_get2(&st, (uint32_t)cta, e0, e1));
    assert_true(logic_rel_get2(&st, (uint32_t)cta, e2, e2));
    assert_false(logic_rel_get2(&st, (uint32_t)cta, e0, e2));
    assert_false(logic_rel_get2(&st, (uint32_t)gpu, e2, e1));
    assert_true(logic_rel_get2(&st, (uint32_t)sys, e2, e1));
    int xs = logic_structure_find(&st, "locname:x");
    assert_true(xs >= 0 && logic_rel_get1(&st, (uint32_t)xs, e0));
    logic_structure_free(&st);
    done(&f);
}

/* A `scopes:` section that is not a tree is kept as such (scopes_bad). */
static void test_scope_tree_bad(void **state)
{
    (void)state;
    fx f;
    build(&f, "LISA S\n{x=0;}\n P0 | P1 ;\n w[] x 1 | w[] x 2 ;\n"
              "scopes: (system P0 x)\nexists (x=1)\n");
    assert_true(f.built);
    assert_true(f.t->scopes_bad);
    assert_int_equal(f.t->nscopes, 0);
    done(&f);
}

/* Load buffering whose writes copy the values read: each write records
 * the read it copies (the other location's), no value is used by an
 * operation, and the copies close a cycle x -> y -> x. */
static void test_copy_cycle(void **state)
{
    (void)state;
    fx f;
    build_with(&f, "LISA LB+copies\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " w[] y r0 | w[] x r1 ;\nexists (0:r0=1:r1)\n", &sym_limits);
    assert_true(f.built);
    assert_true(f.es.copy_cycle);
    assert_int_equal(f.es.nvuse, 0);
    uint32_t writes = 0;
    for (uint32_t i = 0; i < f.es.nevents; i++) {
        const litmus_event *w = &f.es.events[i];
        if (w->kind != LITMUS_EV_WRITE)
            continue;
        writes++;
        assert_int_not_equal(w->copy_of, LITMUS_NONE);
        const litmus_event *r = &f.es.events[w->copy_of];
        assert_int_equal(r->kind, LITMUS_EV_READ);
        assert_int_not_equal(r->loc, w->loc);
        assert_true(litmus_value_eq(r->value, w->value));
    }
    assert_int_equal(writes, 2);
    /* a path's register holds its own read's value */
    for (uint32_t k = 0; k < f.es.npaths; k++) {
        const litmus_path *p = &f.es.paths[k];
        assert_int_not_equal(p->src[0], LITMUS_NONE);
        assert_int_equal(f.es.events[p->src[0]].thread, p->thread);
    }
    done(&f);
}

/* Its twins: a constant write breaks the cycle; a value computed from the
 * read (r0 & 1) is no copy, and the read's value is used: a cycle of
 * dependencies still (wdep), and the write's value depends on the read;
 * r0 + 0 is a copy (herd7 makes s + 0 s), r0 ^ r0 a constant (no value
 * dependency); a value a branch tests is used. */
static void test_copy_cycle_twins(void **state)
{
    (void)state;
    fx f;
    build_with(&f, "LISA LB+const\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " w[] y r0 | w[] x 0 ;\nexists (0:r0=1:r1)\n", &sym_limits);
    assert_true(f.built);
    assert_false(f.es.copy_cycle);
    done(&f);
    build_with(&f, "LISA LB+add\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " mov r2 (and r0 1) | w[] x r1 ;\n w[] y r2 | ;\nexists (0:r0=1:r1)\n",
               &sym_limits);
    assert_true(f.built);
    assert_true(f.es.copy_cycle);
    assert_true(f.es.nwdep > 0);
    for (uint32_t k = 0; k < f.es.nwdep; k++)
        assert_int_equal(f.es.events[f.es.wdep[k].from].thread, 0);
    assert_true(f.es.nvuse > 0);
    for (uint32_t k = 0; k < f.es.nvuse; k++) {
        const litmus_event *r = &f.es.events[f.es.vuse[k].from];
        assert_int_equal(r->kind, LITMUS_EV_READ);
        assert_int_equal(r->thread, 0);
    }
    for (uint32_t i = 0; i < f.es.nevents; i++)
        if (f.es.events[i].kind == LITMUS_EV_WRITE && f.es.events[i].thread == 0)
            assert_int_equal(f.es.events[i].copy_of, LITMUS_NONE);
    done(&f);
    build_with(&f, "LISA LB+add0\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " mov r2 (add r0 0) | w[] x r1 ;\n w[] y r2 | ;\nexists (0:r0=1:r1)\n",
               &sym_limits);
    assert_true(f.built);
    assert_true(f.es.copy_cycle);
    assert_int_equal(f.es.nwdep, 0);
    for (uint32_t i = 0; i < f.es.nevents; i++)
        if (f.es.events[i].kind == LITMUS_EV_WRITE && f.es.events[i].thread == 0)
            assert_int_not_equal(f.es.events[i].copy_of, LITMUS_NONE);
    done(&f);
    build_with(&f, "LISA LB+xor\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " mov r2 (xor r0 r0) | w[] x r1 ;\n w[] y r2 | ;\nexists (0:r0=1:r1)\n",
               &sym_limits);
    assert_true(f.built);
    assert_false(f.es.copy_cycle);
    assert_int_equal(f.es.nwdep, 0);
    done(&f);
    build_with(&f, "LISA LB+branch\n{x=0; y=0;}\n P0 | P1 ;\n r[] r0 x | r[] r1 y ;\n"
                   " b[] r0 L | w[] x r1 ;\n L: w[] y r0 | ;\nexists (0:r0=1:r1)\n", &sym_limits);
    assert_true(f.built);
    assert_true(f.es.copy_cycle);
    assert_true(f.es.nvuse > 0);
    done(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_structure),
        cmocka_unit_test(test_dependencies_and_duplication),
        cmocka_unit_test(test_rmw_converges),
        cmocka_unit_test(test_exclusive_pair),
        cmocka_unit_test(test_unroll_cut),
        cmocka_unit_test(test_too_many_events),
        cmocka_unit_test(test_integer_address),
        cmocka_unit_test(test_pointer_in_register),
        cmocka_unit_test(test_sb_symbolic),
        cmocka_unit_test(test_symbolic_only_unused),
        cmocka_unit_test(test_symbolic_no_blowup),
        cmocka_unit_test(test_scope_tree),
        cmocka_unit_test(test_scope_tree_bad),
        cmocka_unit_test(test_copy_cycle),
        cmocka_unit_test(test_copy_cycle_twins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
