/* Unit tests for tm: small concurrent programs that the thread-modular
 * analysis must prove (threads created in loops, nested mutexes, a
 * trylock spin, pointers to globals, atomic sections), and their buggy
 * neighbours, which it must never prove: each `bug` case has an execution
 * that fails its assertion. Programs with constructs the engine does not
 * model must get "no proof" with the reason. RAVEL_TM_VERBOSE=1 prints
 * the results. */
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
#include "cfront/cfront.h"
#include "tm/tm.h"

static bool prove(const char *name, const char *source, tm_result *r)
{
    base_intern_pool syms;
    ir_program p;
    base_intern_init(&syms);
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    char file[96];
    snprintf(file, sizeof file, "%s.c", name);
    const char *files[] = { file };
    static const char *const args[] = { "-Wno-unused-value", "-w" };
    cfront_unsaved u = { file, source, strlen(source) };
    cfront_opts o = { .clang_args = args, .nclang_args = 2, .unsaved = &u, .nunsaved = 1 };
    if (cfront_lower(&p, files, 1, &o, &d)) {
        base_diag_print(&d, stderr);
        fail_msg("%s did not lower", name);
    }
    bool ok = tm_check(&p, ir_find_func(&p, "main"), r);
    if (getenv("RAVEL_TM_VERBOSE"))
        fprintf(stderr, "%s: %s %s (%u rounds)\n", name, ok ? "proved" : "no proof:",
                ok ? "" : r->reason, r->rounds);
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    return ok;
}

#define HEAD                                                                                   \
    "#include <pthread.h>\n"                                                                   \
    "extern void reach_error(void);\n"                                                         \
    "extern int __VERIFIER_nondet_int(void);\n"                                                \
    "extern void __VERIFIER_atomic_begin(void);\n"                                             \
    "extern void __VERIFIER_atomic_end(void);\n"                                               \
    "#define check(c) do { if (!(c)) reach_error(); } while (0)\n"                          \
    "extern void abort(void);\n"

#define FLAGS \
    "void __VERIFIER_atomic_acquire(int *m) { if (!(*m == 0)) abort(); *m = 1; }\n" \
    "void __VERIFIER_atomic_release(int *m) { if (!(*m == 1)) abort(); *m = 0; }\n" \
    "void __VERIFIER_atomic_take(void) { if (!(flag == 0)) abort(); flag = 1; }\n" \
    "void __VERIFIER_atomic_give(void) { if (!(flag == 1)) abort(); flag = 0; }\n"

typedef struct tm_case {
    const char *name;
    bool proved;
    const char *src;
} tm_case;

static const tm_case cases[] = {
    /* two mutexes: the outer one hides the inner section's intermediate
     * value from main, for any number of threads */
    { "nested_true", true, HEAD
      "int x; pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER, inner = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&outer);\n"
      "  pthread_mutex_lock(&inner); x++; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_lock(&inner); x--; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_unlock(&outer); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 1000; i++) pthread_create(&id, 0, t, 0);\n"
      "  pthread_mutex_lock(&outer); pthread_mutex_lock(&inner); check(x == 0);\n"
      "  pthread_mutex_unlock(&inner); pthread_mutex_unlock(&outer); return 0; }\n" },
    /* the thread lets go of the outer mutex between the two sections */
    { "nested_bug", false, HEAD
      "int x; pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER, inner = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&outer);\n"
      "  pthread_mutex_lock(&inner); x++; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_unlock(&outer); pthread_mutex_lock(&outer);\n"
      "  pthread_mutex_lock(&inner); x--; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_unlock(&outer); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 1000; i++) pthread_create(&id, 0, t, 0);\n"
      "  pthread_mutex_lock(&outer); pthread_mutex_lock(&inner); check(x == 0);\n"
      "  pthread_mutex_unlock(&inner); pthread_mutex_unlock(&outer); return 0; }\n" },
    /* main checks under the inner mutex only */
    { "nested_inner_only_bug", false, HEAD
      "int x; pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER, inner = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&outer);\n"
      "  pthread_mutex_lock(&inner); x++; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_lock(&inner); x--; pthread_mutex_unlock(&inner);\n"
      "  pthread_mutex_unlock(&outer); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 1000; i++) pthread_create(&id, 0, t, 0);\n"
      "  pthread_mutex_lock(&inner); check(x == 0); pthread_mutex_unlock(&inner); return 0; }\n" },
    /* one write without the mutex breaks the protection */
    { "unprotected_write_bug", false, HEAD
      "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); x = 1; x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "void *u(void *a) { x = 1; return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); pthread_create(&id, 0, u, 0);\n"
      "  pthread_mutex_lock(&m); check(x == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    { "protected_true", true, HEAD
      "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); x = 1; x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "void *u(void *a) { pthread_mutex_lock(&m); x = 2; x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); pthread_create(&id, 0, u, 0);\n"
      "  pthread_mutex_lock(&m); check(x == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    /* a value published at an unlock is seen by the next lock */
    { "published_bug", false, HEAD
      "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m);\n"
      "  pthread_mutex_lock(&m); x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0);\n"
      "  pthread_mutex_lock(&m); check(x == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    /* threads in an endless loop, no lock: the counter grows */
    { "unlocked_counter_bug", false, HEAD
      "int x;\n"
      "void *t(void *a) { x = x + 1; return 0; }\n"
      "int main(void) { pthread_t id; while (1) { pthread_create(&id, 0, t, 0); check(x < 3); } }\n" },
    /* pointers to globals, through a local and through a global */
    { "pointer_true", true, HEAD
      "int x, y; int *gp = &x, *q; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { int *p = &x; pthread_mutex_lock(&m); (*p)++; (*gp)--; *(int *)a = 5;\n"
      "  pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 9; i++) pthread_create(&id, 0, t, &y);\n"
      "  q = gp; pthread_mutex_lock(&m); check(*q == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    /* the thread writes through its argument, which main points at x */
    { "pointer_arg_bug", false, HEAD
      "int x, y; int *gp = &x, *q; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { int *p = &x; pthread_mutex_lock(&m); (*p)++; (*gp)--; *(int *)a = 5;\n"
      "  pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 9; i++) pthread_create(&id, 0, t, &x);\n"
      "  q = gp; pthread_mutex_lock(&m); check(*q == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    /* a pointer to one of two globals: the write may hit either */
    { "pointer_weak_bug", false, HEAD
      "int a, b;\n"
      "void *t(void *arg) { int *p = __VERIFIER_nondet_int() ? &a : &b; *p = 1; return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); check(a == 0); return 0; }\n" },
    /* spinning on trylock until it is taken */
    { "trylock_true", true, HEAD
      "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); x = 7; x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 50; i++) pthread_create(&id, 0, t, 0);\n"
      "  while (pthread_mutex_trylock(&m)) {}\n"
      "  check(x == 0); pthread_mutex_unlock(&m); return 0; }\n" },
    /* a trylock that may fail, and the program goes on regardless */
    { "trylock_bug", false, HEAD
      "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); x = 7; x = 0; pthread_mutex_unlock(&m); return 0; }\n"
      "int main(void) { pthread_t id; for (int i = 0; i < 50; i++) pthread_create(&id, 0, t, 0);\n"
      "  pthread_mutex_trylock(&m);\n"
      "  check(x == 0); return 0; }\n" },
    /* the busy branch of a trylock is taken */
    { "trylock_busy_bug", false, HEAD
      "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
      "void *t(void *a) { pthread_mutex_lock(&m); return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0);\n"
      "  if (pthread_mutex_trylock(&m)) reach_error(); return 0; }\n" },
    /* atomic sections; after its own write a thread sees only written values */
    { "atomic_written_true", true, HEAD
      "int s;\n"
      "void *t(void *a) { int l = 4; __VERIFIER_atomic_begin(); s = l; __VERIFIER_atomic_end();\n"
      "  __VERIFIER_atomic_begin(); check(s == l); __VERIFIER_atomic_end(); return 0; }\n"
      "int main(void) { s = __VERIFIER_nondet_int(); pthread_t id; while (1) pthread_create(&id, 0, t, 0); }\n" },
    { "atomic_written_bug", false, HEAD
      "int s;\n"
      "void *t(void *a) { int l = __VERIFIER_nondet_int(); __VERIFIER_atomic_begin(); s = l; __VERIFIER_atomic_end();\n"
      "  __VERIFIER_atomic_begin(); check(s == l); __VERIFIER_atomic_end(); return 0; }\n"
      "int main(void) { s = __VERIFIER_nondet_int(); pthread_t id; while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* the check comes before the thread's own write: main's value is seen */
    { "before_write_bug", false, HEAD
      "int s;\n"
      "void *t(void *a) { check(s == 4); s = 4; return 0; }\n"
      "int main(void) { s = 3; pthread_t id; while (1) pthread_create(&id, 0, t, 0); }\n" },
    { "after_init_true", true, HEAD
      "int s;\n"
      "void *t(void *a) { check(s == 4); s = 4; return 0; }\n"
      "int main(void) { s = 4; pthread_t id; while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* a path on which no thread was started meets one on which one was */
    { "single_threaded_path_bug", false, HEAD
      "int g;\n"
      "void *t(void *a) { return 0; }\n"
      "int main(void) { pthread_t id; if (__VERIFIER_nondet_int()) pthread_create(&id, 0, t, 0);\n"
      "  else g = 2;\n"
      "  check(g != 2); return 0; }\n" },
    /* flag locks: atomic functions that wait for 0 and set 1, and back */
    { "flag_true", true, HEAD "int count, la, flag;\n" FLAGS
      "void *t(void *a) { __VERIFIER_atomic_acquire(&la); count++; count--; __VERIFIER_atomic_release(&la);\n"
      "  __VERIFIER_atomic_take(); __VERIFIER_atomic_acquire(&la); count--; count++;\n"
      "  __VERIFIER_atomic_release(&la); __VERIFIER_atomic_give(); return 0; }\n"
      "void *c(void *a) { while (1) { __VERIFIER_atomic_acquire(&la); __VERIFIER_atomic_take();\n"
      "  check(count == 0); __VERIFIER_atomic_give(); __VERIFIER_atomic_release(&la); } }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* the checker holds the other flag only */
    { "flag_other_bug", false, HEAD "int count, la, flag;\n" FLAGS
      "void *t(void *a) { __VERIFIER_atomic_acquire(&la); count++; count--; __VERIFIER_atomic_release(&la);\n"
      "  __VERIFIER_atomic_take(); __VERIFIER_atomic_acquire(&la); count--; count++;\n"
      "  __VERIFIER_atomic_release(&la); __VERIFIER_atomic_give(); return 0; }\n"
      "void *c(void *a) { while (1) { __VERIFIER_atomic_take();\n"
      "  check(count == 0); __VERIFIER_atomic_give(); } }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* a thread clears the flag itself: it is no lock */
    { "flag_cleared_bug", false, HEAD "int count, la, flag;\n" FLAGS
      "void *t(void *a) { __VERIFIER_atomic_acquire(&la); count++; count--; __VERIFIER_atomic_release(&la); return 0; }\n"
      "void *u(void *a) { la = 0; return 0; }\n"
      "void *c(void *a) { while (1) { __VERIFIER_atomic_acquire(&la);\n"
      "  check(count == 0); __VERIFIER_atomic_release(&la); } }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); pthread_create(&id, 0, u, 0);\n"
      "  while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* a thread releases a flag it never took */
    { "flag_foreign_release_bug", false, HEAD "int count, la, flag;\n" FLAGS
      "void *t(void *a) { __VERIFIER_atomic_acquire(&la); count++; count--; __VERIFIER_atomic_release(&la); return 0; }\n"
      "void *u(void *a) { __VERIFIER_atomic_release(&la); return 0; }\n"
      "void *c(void *a) { while (1) { __VERIFIER_atomic_acquire(&la);\n"
      "  check(count == 0); __VERIFIER_atomic_release(&la); } }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); pthread_create(&id, 0, u, 0);\n"
      "  while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* the flag's address escapes into a pointer */
    { "flag_escapes_bug", false, HEAD "int count, la, flag; int *lp = &la;\n" FLAGS
      "void *t(void *a) { __VERIFIER_atomic_acquire(&la); count++; count--; __VERIFIER_atomic_release(&la); return 0; }\n"
      "void *u(void *a) { *lp = 0; return 0; }\n"
      "void *c(void *a) { while (1) { __VERIFIER_atomic_acquire(&la);\n"
      "  check(count == 0); __VERIFIER_atomic_release(&la); } }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); pthread_create(&id, 0, u, 0);\n"
      "  while (1) pthread_create(&id, 0, t, 0); }\n" },
    /* a flag that starts taken */
    { "flag_initially_set_bug", false, HEAD "int count, la = 1, flag;\n" FLAGS
      "void *t(void *a) { count = 1; __VERIFIER_atomic_release(&la); return 0; }\n"
      "void *c(void *a) { __VERIFIER_atomic_acquire(&la); check(count == 0); return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, c, 0); pthread_create(&id, 0, t, 0); return 0; }\n" },
    /* unsigned wraparound */
    { "wraparound_bug", false, HEAD
      "unsigned u = 4294967295u;\n"
      "void *t(void *a) { return 0; }\n"
      "int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); u = u + 1; check(u != 0); return 0; }\n" },
    /* a thread function called directly as well */
    { "called_thread_bug", false, HEAD
      "int x;\n"
      "void *t(void *a) { x = 1; return 0; }\n"
      "int main(void) { pthread_t id; t(0); check(x == 0); return 0; }\n" },
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tm_result r;
        bool ok = prove(cases[i].name, cases[i].src, &r);
        if (ok != cases[i].proved)
            fail_msg("%s: expected %s, got %s (%s)", cases[i].name,
                     cases[i].proved ? "a proof" : "no proof", ok ? "a proof" : "no proof",
                     r.reason);
    }
}

/* Constructs outside the engine: no proof, and the reason says which. */
static void test_unsupported(void **state)
{
    (void)state;
    static const struct {
        const char *name, *src, *reason;
    } u[] = {
        { "heap", HEAD "#include <stdlib.h>\nint main(void) { int *p = malloc(4); return 0; }\n",
          "heap" },
        { "local_address", HEAD
          "void *t(void *a) { *(int *)a = 1; return 0; }\n"
          "int main(void) { int v = 0; pthread_t id; pthread_create(&id, 0, t, &v); check(v == 0); return 0; }\n",
          "address of local variable 'v'" },
        { "unknown_call", HEAD "extern void f(int *);\nint x;\n"
          "int main(void) { f(&x); check(x == 0); return 0; }\n", "body is unknown" },
        { "recursive_mutex", "#define _GNU_SOURCE\n" HEAD
          "pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;\n"
          "int main(void) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }\n",
          "plain" },
        { "recursion", HEAD "int f(int n) { return n ? f(n - 1) : 0; }\n"
          "int main(void) { check(f(3) == 0); return 0; }\n", "recursion" },
        { "fnptr", HEAD "int g(void) { return 0; } int (*fp)(void) = g;\n"
          "int main(void) { check(fp() == 0); return 0; }\n", "function pointer" },
    };
    for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
        tm_result r;
        bool ok = prove(u[i].name, u[i].src, &r);
        if (ok || !strstr(r.reason, u[i].reason))
            fail_msg("%s: expected no proof because of '%s', got %s (%s)", u[i].name, u[i].reason,
                     ok ? "a proof" : "no proof", r.reason);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
