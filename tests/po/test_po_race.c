/* Unit tests for po_race: on small concurrent programs, the races found
 * (each pair of source places once), the proofs, and what each race's
 * report says (two threads, the access kinds, the locks held, a trace
 * whose steps are tagged with their threads). Byte-level overlaps, atomic
 * sections, symbolic indices and pointers to no object are covered.
 * RAVEL_PO_VERBOSE=1 prints the races. */
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
#include "trace/trace.h"
#include "cfront/cfront.h"
#include "po/po_race.h"

typedef struct seen {
    uint32_t n;
    bool distinct_threads, has_trace, write_seen;
    uint32_t locks_first, locks_second;
    char object[64];
} seen;

static void on_race(void *ud, const po_race_found *f, const trace_result *r)
{
    seen *s = ud;
    s->n++;
    s->distinct_threads = f->first.thread != f->second.thread;
    s->has_trace = r->nsteps > 0;
    s->write_seen = f->first.write || f->second.write;
    s->locks_first = f->first.nlocks;
    s->locks_second = f->second.nlocks;
    snprintf(s->object, sizeof s->object, "%s", f->object);
    if (getenv("RAVEL_PO_VERBOSE"))
        fprintf(stderr, "race on %s: line %u (thread %u) and line %u (thread %u)\n", f->object,
                f->first.loc.line, f->first.thread, f->second.loc.line, f->second.thread);
}

typedef struct rcase {
    const char *name;
    const char *src;
    uint32_t max_races;
    uint32_t races;      /* expected */
    trace_verdict verdict; /* the last answer */
    bool proved;         /* SAFE with every unwinding assertion and exact */
} rcase;

#define HEAD "#include <pthread.h>\n"

static const rcase cases[] = {
    { "write_write", HEAD "int x; void *t(void *a) { x = 1; return 0; }\n"
                     "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 2; return 0; }",
      16, 1, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "read_read", HEAD "int x; void *t(void *a) { return (void *)(long)x; }\n"
                   "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return x; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "locked", HEAD "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
                "void *t(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }\n"
                "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);\n"
                "  pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "one_side_locked", HEAD "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
                         "void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n"
                         "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 2; return 0; }",
      16, 1, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "two_pairs", HEAD "int x, y; void *t(void *a) { x = 1; y = 1; return 0; }\n"
                   "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 2; y = 2; return 0; }",
      16, 2, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "max_races", HEAD "int x, y; void *t(void *a) { x = 1; y = 1; return 0; }\n"
                   "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 2; y = 2; return 0; }",
      1, 1, TRACE_BUG, false },
    { "fields_apart", HEAD "struct { int a; int b; } s;\n"
                      "void *t(void *a) { s.a = 1; return 0; }\n"
                      "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); s.b = 2; return 0; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "byte_overlap", HEAD "int x;\n"
                      "void *t(void *a) { ((char *)&x)[2] = 1; return 0; }\n"
                      "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return x; }",
      16, 1, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "bytes_apart", HEAD "int x;\n"
                     "void *t(void *a) { ((char *)&x)[2] = 1; return 0; }\n"
                     "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);\n"
                     "  return ((char *)&x)[1]; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "both_atomic", HEAD "int x; void __VERIFIER_atomic_inc(void) { x++; }\n"
                     "void *t(void *a) { __VERIFIER_atomic_inc(); return 0; }\n"
                     "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);\n"
                     "  __VERIFIER_atomic_inc(); return 0; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "atomic_plain", HEAD "int x; void __VERIFIER_atomic_inc(void) { x++; }\n"
                      "void *t(void *a) { __VERIFIER_atomic_inc(); return 0; }\n"
                      "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 5; return 0; }",
      16, 1, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "index_apart", HEAD "int a[4]; extern int __VERIFIER_nondet_int(void);\n"
                     "void *t(void *p) { a[0] = 1; return 0; }\n"
                     "int main(void) { pthread_t h; int i = __VERIFIER_nondet_int();\n"
                     "  if (i < 1 || i > 3) return 0; pthread_create(&h, 0, t, 0); a[i] = 2; return 0; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "index_same", HEAD "int a[4]; extern int __VERIFIER_nondet_int(void);\n"
                    "void *t(void *p) { a[0] = 1; return 0; }\n"
                    "int main(void) { pthread_t h; int i = __VERIFIER_nondet_int();\n"
                    "  if (i < 0 || i > 3) return 0; pthread_create(&h, 0, t, 0); a[i] = 2; return 0; }",
      16, 1, TRACE_SAFE_WITHIN_BOUNDS, false },
    { "joined", HEAD "int x; void *t(void *a) { x = 1; return 0; }\n"
                "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0);\n"
                "  return x; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, true },
    { "nondet_pointer", HEAD "extern void *__VERIFIER_nondet_pointer(void); int x;\n"
                        "void *t(void *a) { int *p = __VERIFIER_nondet_pointer(); *p = 1; return 0; }\n"
                        "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); x = 2; return 0; }",
      16, 0, TRACE_UNKNOWN, false },
    /* an uninitialised local is a nondeterministic value (as SV-COMP reads
     * them, and as bmc does): the pointer may hold &x, or the address of
     * main's h */
    { "uninit_pointer", HEAD "int x;\n"
                        "void *t(void *a) { int *p; *p = 1; return 0; }\n"
                        "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return x; }",
      16, 2, TRACE_SAFE_WITHIN_BOUNDS, false },
    /* a pointer to no object: no race is claimed, and no proof */
    { "null_pointer", HEAD "int x;\n"
                      "void *t(void *a) { int *p = 0; *p = 1; return 0; }\n"
                      "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0);\n"
                      "  int *q = 0; return *q; }",
      16, 0, TRACE_SAFE_WITHIN_BOUNDS, false },
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const rcase *rc = &cases[k];
        base_intern_pool syms;
        base_intern_init(&syms);
        ir_program p;
        ir_program_init(&p, &syms);
        base_diag d;
        base_diag_init(&d);
        char name[80];
        snprintf(name, sizeof name, "%s.c", rc->name);
        const char *files[] = { name };
        static const char *const args[] = { "-w" };
        cfront_unsaved u = { name, rc->src, strlen(rc->src) };
        cfront_opts o = { .clang_args = args, .nclang_args = 1, .unsaved = &u, .nunsaved = 1 };
        if (cfront_lower(&p, files, 1, &o, &d)) {
            base_diag_print(&d, stderr);
            fail_msg("%s did not lower", rc->name);
        }
        po_opts po;
        po_opts_init(&po);
        po.bo.unwind = 2;
        po.bo.timeout_s = 60;
        seen s = { 0 };
        po_race_opts ro = { rc->max_races, &s, on_race };
        trace_result r;
        po_stats st;
        po_race_result out;
        po_race(&p, ir_find_func(&p, "main"), &po, &ro, &r, &st, &out);
        bool proved = out.verdict == TRACE_SAFE_WITHIN_BOUNDS && r.unwinding_checked &&
                      r.unwinding_ok && out.exact && out.found == 0;
        if (getenv("RAVEL_PO_VERBOSE"))
            fprintf(stderr, "%s: %u races, %s, proved %d (%s)\n", rc->name, out.found,
                    trace_verdict_name(out.verdict), proved, out.why ? out.why : "");
        if (out.found != rc->races || s.n != rc->races)
            fail_msg("%s: %u races (%u reported), expected %u", rc->name, out.found, s.n, rc->races);
        if (out.verdict != rc->verdict)
            fail_msg("%s: %s, expected %s", rc->name, trace_verdict_name(out.verdict),
                     trace_verdict_name(rc->verdict));
        if (proved != rc->proved)
            fail_msg("%s: proved %d, expected %d (%s)", rc->name, proved, rc->proved,
                     out.why ? out.why : "exact");
        if (s.n && (!s.distinct_threads || !s.has_trace || !s.write_seen))
            fail_msg("%s: a race report without two threads, a trace or a write", rc->name);
        if (strcmp(rc->name, "one_side_locked") == 0 && s.locks_first + s.locks_second != 1)
            fail_msg("%s: %u + %u locks held, expected 1", rc->name, s.locks_first, s.locks_second);
        if (strcmp(rc->name, "write_write") == 0 && strcmp(s.object, "x") != 0)
            fail_msg("%s: the object is '%s'", rc->name, s.object);
        trace_result_free(&r);
        base_diag_free(&d);
        ir_program_free(&p);
        base_intern_free(&syms);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
