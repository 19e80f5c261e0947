/* bench/race/svcomp_env.c: the SV-COMP conventions as ordinary C, linked
 * next to a task's program so that it can be run natively (under
 * ThreadSanitizer or helgrind).  Every definition is weak: a program that
 * defines one of these functions itself (reach_error, say) keeps its own.
 *
 *   __VERIFIER_nondet_*     random values: half the time a small value
 *                           (0..4, so that `while (nondet())` loops and
 *                           thread-creation loops end), otherwise any value
 *                           of the type; _bool is 0 or 1; _pointer is a
 *                           fresh zeroed 256-byte heap block
 *   __VERIFIER_assume(c)    exit(0) quietly when c is false
 *   reach_error, __VERIFIER_error
 *                           print a line and abort() (assert() and
 *                           __assert_fail are glibc's, which abort too)
 *   __VERIFIER_atomic_begin/end
 *                           one global recursive mutex
 *
 * Functions whose names start with __VERIFIER_atomic_ are atomic by SV-COMP's
 * convention; nothing here can make them so, and neither ThreadSanitizer nor
 * helgrind knows the convention.
 *
 * The random state is per thread, seeded from the time, the process id, the
 * thread and the environment variable SVCOMP_SEED (if set), so that repeated
 * runs take different branches. */
#define _GNU_SOURCE   /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

static __thread uint64_t rng_state;
static uint64_t rng_counter;   /* distinct seeds for threads started together */

static uint64_t rng_next(void) {
    if (rng_state == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ ((uint64_t)getpid() << 16);
        s ^= (uint64_t)(uintptr_t)&rng_state;   /* differs per thread */
        s += __atomic_fetch_add(&rng_counter, 1, __ATOMIC_RELAXED) * 0x9E3779B97F4A7C15ull;
        const char *env = getenv("SVCOMP_SEED");
        if (env) s ^= strtoull(env, NULL, 0) * 0xBF58476D1CE4E5B9ull;
        rng_state = s ? s : 1;
    }
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Half the time 0..4, otherwise all bits random (truncated by the caller). */
static uint64_t nondet_bits(void) {
    uint64_t r = rng_next();
    return (r & 1) ? (r >> 1) % 5 : rng_next();
}

#define NONDET(name, type) \
    WEAK type __VERIFIER_nondet_##name(void) { return (type)nondet_bits(); }

NONDET(char, char)
NONDET(uchar, unsigned char)
NONDET(short, short)
NONDET(ushort, unsigned short)
NONDET(int, int)
NONDET(uint, unsigned int)
NONDET(unsigned, unsigned int)
NONDET(long, long)
NONDET(ulong, unsigned long)
NONDET(longlong, long long)
NONDET(ulonglong, unsigned long long)
NONDET(size_t, size_t)
NONDET(u32, uint32_t)
NONDET(u16, uint16_t)
NONDET(u8, uint8_t)
NONDET(loff_t, long long)
NONDET(sector_t, unsigned long)
NONDET(pthread_t, pthread_t)
#ifdef __SIZEOF_INT128__
NONDET(int128, __int128)
NONDET(uint128, unsigned __int128)
#endif

WEAK _Bool __VERIFIER_nondet_bool(void) { return (_Bool)(rng_next() & 1); }
WEAK float __VERIFIER_nondet_float(void) { return (float)(int64_t)nondet_bits() / 7.0f; }
WEAK double __VERIFIER_nondet_double(void) { return (double)(int64_t)nondet_bits() / 7.0; }
WEAK void *__VERIFIER_nondet_pointer(void) { return calloc(1, 256); }
WEAK char *__VERIFIER_nondet_pchar(void) { return calloc(1, 256); }

WEAK void __VERIFIER_assume(int cond) {
    if (!cond) exit(0);
}

WEAK void reach_error(void) {
    fputs("svcomp_env: reach_error() reached\n", stderr);
    abort();
}

WEAK void __VERIFIER_error(void) {
    fputs("svcomp_env: __VERIFIER_error() reached\n", stderr);
    abort();
}

static pthread_mutex_t atomic_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

WEAK void __VERIFIER_atomic_begin(void) { pthread_mutex_lock(&atomic_mutex); }
WEAK void __VERIFIER_atomic_end(void) { pthread_mutex_unlock(&atomic_mutex); }

/* Uninitialised local variables are nondeterministic in SV-COMP; run
 * natively they are whatever the stack holds, usually 0 (a fresh thread
 * stack is all zeros).  When the program is linked with
 *     -Wl,--wrap=main -Wl,--wrap=pthread_create
 * main and every thread start routine are entered through a function that
 * first fills the stack below it with small random values (0..4, as
 * nondet_bits' small half), so that the locals of main and of the start
 * routine begin with such values.  Locals of deeper functions begin with
 * whatever earlier calls left, as before.  Without those flags the
 * functions below are never called. */
#define DIRTY_WORDS 4096

__attribute__((noinline)) static void fill_small(volatile uint32_t *w, int n) {
    for (int k = 0; k < n; k++)
        w[k] = (uint32_t)(rng_next() % 5);
}

/* The array is dirty_stack's only local (the loop counter lives in
 * fill_small's frame, below it), so it reaches up to the saved frame
 * pointer: where the caller's next callee keeps its locals. */
__attribute__((noinline)) static void dirty_stack(void) {
    volatile uint32_t junk[DIRTY_WORDS];
    fill_small(junk, DIRTY_WORDS);
}

extern int __real_main(int argc, char **argv, char **envp) __attribute__((weak));
extern int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *)
    __attribute__((weak));

int __wrap_main(int argc, char **argv, char **envp) {
    dirty_stack();
    return __real_main(argc, argv, envp);
}

struct start { void *(*fn)(void *); void *arg; };

static void *start_dirty(void *p) {
    struct start s = *(struct start *)p;
    free(p);
    dirty_stack();
    return s.fn(s.arg);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    struct start *s = malloc(sizeof *s);
    if (!s) return __real_pthread_create(t, attr, fn, arg);
    s->fn = fn;
    s->arg = arg;
    int rc = __real_pthread_create(t, attr, start_dirty, s);
    if (rc != 0) free(s);
    return rc;
}
