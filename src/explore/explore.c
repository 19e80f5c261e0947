/* explore: the search — run the program many times with a strategy that
 * changes per run (see explore.h), replay the first failing run with the
 * trace on.
 *
 * A run's choices are a function of (seed, run index, the estimates
 * learnt from earlier runs): the strategy state is snapshot before each
 * run, so the replay of run i makes exactly the choices run i made. */
#include "explore/explore.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "explore/interp.h"

/* --- randomness --- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct strategy {
    uint64_t rng;        /* this run's generator */
    uint64_t run_key;    /* this run's key for site coins */
    /* estimates from earlier runs (the largest seen) */
    uint64_t est_raise, est_pick, est_tid;
    /* this run's parameters */
    double p_raise;      /* raise probability (of the chosen threads, in thread mode) */
    double p_raise_bg;   /* thread mode: the other threads' */
    bool thread_mode;
    uint64_t rset[3];
    uint32_t nr;
    bool raise_sites;    /* raise only at sites whose coin (q_raise_site) came up */
    double q_raise_site;
    double p_pick;
    bool pick_sites;
    double q_pick_site;
    double q_pool;       /* a data value from the pool */
    double q_zero;       /* an integer 0 (the false branch of `if (nondet())`) */
    int fill_mode;       /* fresh bytes: 0 zero, 1 random, 2 mostly zero */
    /* change-point mode (PCT over sites): a pick fires only at the k-th
     * occurrence of a chosen site; the thread it runs then raises with
     * p_boost at each raise point inside it; a raise change point may fire
     * once too */
    bool cp_mode;
    uint64_t cp_key[3], cp_k[3], cp_seen[3];
    uint32_t ncp;
    uint64_t rcp_key, rcp_k, rcp_seen;
    bool rcp;
    double p_boost;
    uint64_t boost_at;    /* nonzero: raise exactly at this raise point of the boost */
    uint64_t boost_seen;
    uint32_t boost_depth; /* 0: no boost */
    /* the census of sites (key -> the most occurrences in one run) */
    bool census;
    base_hashmap run_counts;           /* this run's: key*2 + (1: raise) -> count */
    BASE_VEC(uint64_t) pick_keys, raise_keys;
    BASE_VEC(uint64_t) pick_max, raise_max;
    base_hashmap site_idx;             /* key*2 + kind -> index */
    /* shared, read-only during runs */
    const int64_t *pool;
    size_t npool;
    uint32_t pick_k;     /* hint: the number of pending slots (kiss.ts_used's length) */
} strategy;

static uint64_t rnd(strategy *s)
{
    return splitmix(&s->rng);
}

static double unif(strategy *s)
{
    return (double)(rnd(s) >> 11) * 0x1p-53;
}

static bool coin(strategy *s, double p)
{
    return p > 0 && unif(s) < p;
}

static bool site_on(const strategy *s, uint64_t key, double q)
{
    return (double)(base_hash64(key ^ s->run_key) >> 11) * 0x1p-53 < q;
}

static const double scales[] = { 0.5, 0.2, 0.05, 0.01, 0.002, 0.0005, 0.0001, 0.00002 };
#define NSCALES (sizeof scales / sizeof *scales)

/* A probability for a kind of choice of which about est are made per run:
 * a fixed scale, or a few expected occurrences per run. */
static double draw_prob(strategy *s, uint64_t est)
{
    if (est == 0 || coin(s, 0.5))
        return scales[rnd(s) % NSCALES];
    static const double k[] = { 0.5, 1, 2, 4 };
    double p = k[rnd(s) % 4] / (double)est;
    return p > 0.5 ? 0.5 : p;
}

/* A thread id in [0, est_tid], log-uniform from the low or the high end. */
static uint64_t draw_tid(strategy *s)
{
    double span = log((double)s->est_tid + 2.0);
    uint64_t d = (uint64_t)floor(exp(unif(s) * span)) - 1;
    if (d > s->est_tid)
        d = s->est_tid;
    return coin(s, 0.3) ? s->est_tid - d : d;
}

/* An occurrence in [1, max], log-uniform from the first: early raise
 * points are likelier to matter than late ones. */
static uint64_t draw_occurrence_low(strategy *s, uint64_t max)
{
    uint64_t d = (uint64_t)floor(exp(unif(s) * log((double)max + 1.0)));
    return d < 1 ? 1 : d > max ? max : d;
}

/* An occurrence in [1, max], log-uniform from the first or the last. */
static uint64_t draw_occurrence(strategy *s, uint64_t max)
{
    if (max <= 1)
        return 1;
    uint64_t d = draw_occurrence_low(s, max);
    return coin(s, 0.5) ? d : max + 1 - d;
}

static void begin_run(strategy *s, uint64_t seed, uint64_t run)
{
    uint64_t x = seed * 0x2545F4914F6CDD1Dull + run;
    s->rng = splitmix(&x) ^ run;
    s->run_key = rnd(s);
    s->thread_mode = coin(s, 0.5);
    if (s->thread_mode) {
        static const double hi[] = { 0.5, 0.3, 0.15, 0.05 };
        s->nr = 1 + (uint32_t)(rnd(s) % 3);
        for (uint32_t i = 0; i < s->nr; i++)
            s->rset[i] = draw_tid(s);
        s->p_raise = hi[rnd(s) % 4];
        s->p_raise_bg = coin(s, 0.7) ? 0 : draw_prob(s, s->est_raise);
    } else {
        s->p_raise = draw_prob(s, s->est_raise);
    }
    s->raise_sites = coin(s, 0.3);
    s->q_raise_site = scales[rnd(s) % 4];
    s->pick_sites = coin(s, 0.5);
    if (s->pick_sites) {
        static const double q[] = { 0.5, 0.25, 0.1, 0.03 };
        static const double p[] = { 1, 0.5, 0.2, 0.05 };
        s->q_pick_site = q[rnd(s) % 4];
        s->p_pick = coin(s, 0.5) ? p[rnd(s) % 4] : draw_prob(s, s->est_pick);
    } else {
        s->p_pick = draw_prob(s, s->est_pick);
    }
    s->cp_mode = s->pick_keys.len && coin(s, 0.5);
    s->boost_depth = 0;
    if (s->cp_mode) {
        /* one change point, two (40%) or three (10%): a nested schedule
         * (a thread run inside a thread run inside main) needs three */
        s->ncp = coin(s, 0.5) ? 1 : coin(s, 0.8) ? 2 : 3;
        for (uint32_t i = 0; i < s->ncp; i++) {
            size_t j = rnd(s) % s->pick_keys.len;
            if (coin(s, 0.7)) {
                /* a rare site (run at most twice): the scheduling points
                 * outside loops, where few choices decide much */
                size_t nrare = 0;
                for (size_t k = 0; k < s->pick_keys.len; k++)
                    nrare += s->pick_max.data[k] <= 2;
                if (nrare) {
                    size_t want = rnd(s) % nrare;
                    for (size_t k = 0; k < s->pick_keys.len; k++)
                        if (s->pick_max.data[k] <= 2 && want-- == 0) {
                            j = k;
                            break;
                        }
                }
            }
            s->cp_key[i] = s->pick_keys.data[j];
            s->cp_k[i] = draw_occurrence(s, s->pick_max.data[j]);
            s->cp_seen[i] = 0;
        }
        static const double pb[] = { 0.5, 0.3, 0.15, 0.05, 0 };
        s->p_boost = pb[rnd(s) % 5];
        /* or raise at exactly the j-th raise point of the picked thread */
        uint64_t per = s->est_raise / (s->est_tid + 1);
        per = per < 4 ? 4 : per > 64 ? 64 : per;
        s->boost_at = coin(s, 0.5) ? draw_occurrence_low(s, per) : 0;
        s->boost_seen = 0;
        s->p_raise = coin(s, 0.7) ? 0 : draw_prob(s, s->est_raise);
        s->thread_mode = false;
        s->raise_sites = false;
        s->rcp = s->raise_keys.len && coin(s, 0.3);
        if (s->rcp) {
            size_t j = rnd(s) % s->raise_keys.len;
            s->rcp_key = s->raise_keys.data[j];
            s->rcp_k = draw_occurrence(s, s->raise_max.data[j]);
            s->rcp_seen = 0;
        }
    }
    static const double qp[] = { 0.9, 0.6, 0.3, 0.05 };
    s->q_pool = qp[rnd(s) % 4];
    static const double qz[] = { 0.5, 0.25, 0.1, 0.02 };
    s->q_zero = qz[rnd(s) % 4];
    s->fill_mode = (int)(rnd(s) % 3);
    if (run < 2) {
        /* the first runs are quiet: no thread is picked or raised until
         * the end (threads then run in the final schedule), so the census
         * sees every scheduling point at which threads are pending, the
         * late ones included, which busier runs empty the pending slots
         * before */
        s->thread_mode = s->raise_sites = s->pick_sites = s->cp_mode = false;
        s->p_raise = s->p_raise_bg = s->p_pick = 0;
    }
}

static uint64_t data_value(strategy *s, const ir_type *t)
{
    if (!t)
        return rnd(s);
    if (t->kind == IR_T_PTR)
        return 0; /* NULL: any other address would be to no object */
    if (t->kind == IR_T_FLOAT) {
        static const double fpool[] = { 0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 100.0, 1e9, -1e-9 };
        if (coin(s, s->q_pool)) {
            double d = fpool[rnd(s) % (sizeof fpool / sizeof *fpool)];
            if (t->bits == 32) {
                float f = (float)d;
                uint32_t u;
                memcpy(&u, &f, sizeof u);
                return u;
            }
            uint64_t u;
            memcpy(&u, &d, sizeof u);
            return u;
        }
        return rnd(s);
    }
    if (t->kind != IR_T_INT)
        return rnd(s);
    uint32_t w = t->bits;
    if (w == 1)
        return rnd(s) & 1;
    if (coin(s, s->q_zero))
        return 0;
    if (coin(s, s->q_pool)) {
        uint64_t r = rnd(s);
        switch (r % 8) {
        case 0: { /* the type's limits and their neighbours */
            uint64_t max = w >= 64 ? (t->is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
                                   : (t->is_signed ? ((uint64_t)1 << (w - 1)) - 1 : ((uint64_t)1 << w) - 1);
            uint64_t min = t->is_signed ? ~max : 0;
            uint64_t v = (r >> 8) & 1 ? max : min;
            return v + (uint64_t)((int64_t)((r >> 9) % 3) - 1) * ((r >> 12) & 1);
        }
        case 1: return (uint64_t)((int64_t)((r >> 8) % 3) - 1); /* -1, 0, 1: the usual flags */
        case 2: return (uint64_t)((int64_t)((r >> 8) % 81) - 16); /* -16 .. 64 */
        default:
            if (s->npool)
                return (uint64_t)(s->pool[(r >> 8) % s->npool] + (int64_t)((r >> 40) % 3 == 0 ? (int64_t)((r >> 42) % 3) - 1 : 0));
            return (r >> 8) % 4;
        }
    }
    return rnd(s);
}

static void count_site(strategy *s, uint64_t k)
{
    uint64_t n = 0;
    base_hashmap_get(&s->run_counts, k, &n);
    base_hashmap_put(&s->run_counts, k, n + 1);
}

/* Folds this census run's counts into the site lists. */
static void end_census(strategy *s)
{
    for (size_t i = 0; i < s->run_counts.cap; i++) {
        uint64_t k = s->run_counts.keys[i];
        if (k == BASE_HASHMAP_EMPTY)
            continue;
        uint64_t n = s->run_counts.vals[i], j;
        bool raise = k & 1;
        if (!base_hashmap_get(&s->site_idx, k, &j)) {
            if (raise) {
                j = s->raise_keys.len;
                base_vec_push(&s->raise_keys, k >> 1);
                base_vec_push(&s->raise_max, n);
            } else {
                j = s->pick_keys.len;
                base_vec_push(&s->pick_keys, k >> 1);
                base_vec_push(&s->pick_max, n);
            }
            base_hashmap_put(&s->site_idx, k, j);
        } else if (raise) {
            if (n > s->raise_max.data[j])
                s->raise_max.data[j] = n;
        } else if (n > s->pick_max.data[j]) {
            s->pick_max.data[j] = n;
        }
    }
    base_hashmap_clear(&s->run_counts);
}

static uint64_t choose(void *ctx, explore_choice_kind k, const ir_type *t, uint32_t n,
                       const explore_site *w)
{
    strategy *s = ctx;
    switch (k) {
    case EXPLORE_CH_RAISE: {
        if (s->census)
            count_site(s, w->key * 2 + 1);
        if (s->cp_mode) {
            if (s->boost_depth && w->depth <= s->boost_depth)
                s->boost_depth = 0; /* the boosted thread has returned */
            if (s->rcp && w->key == s->rcp_key && ++s->rcp_seen == s->rcp_k)
                return 1;
            if (s->boost_depth && s->boost_at)
                return ++s->boost_seen == s->boost_at;
            return coin(s, s->boost_depth ? s->p_boost : s->p_raise);
        }
        double p = s->p_raise;
        if (s->thread_mode) {
            bool chosen = false;
            for (uint32_t i = 0; i < s->nr; i++)
                chosen |= s->rset[i] == w->tid;
            if (!chosen)
                p = s->p_raise_bg;
        }
        if (s->raise_sites && !site_on(s, w->key, s->q_raise_site))
            p = 0;
        return coin(s, p);
    }
    case EXPLORE_CH_PICK: {
        if (s->cp_mode && s->boost_depth && w->depth <= s->boost_depth)
            s->boost_depth = 0;
        /* no thread pending: nothing to decide, and the site is not
         * counted, so change points fall only where a pick runs a thread */
        if (w->idle)
            return (uint64_t)-1;
        if (s->census)
            count_site(s, w->key * 2);
        if (s->cp_mode) {
            for (uint32_t i = 0; i < s->ncp; i++)
                if (w->key == s->cp_key[i] && ++s->cp_seen[i] == s->cp_k[i]) {
                    if (!s->boost_depth) {
                        s->boost_depth = w->depth;
                        s->boost_seen = 0;
                    }
                    return rnd(s) % (s->pick_k ? s->pick_k : 2);
                }
            return (uint64_t)-1;
        }
        double p = s->p_pick;
        if (s->pick_sites && !site_on(s, w->key, s->q_pick_site))
            p = 0;
        if (coin(s, p))
            return rnd(s) % (s->pick_k ? s->pick_k : 2);
        return (uint64_t)-1;
    }
    case EXPLORE_CH_BRANCH: return n ? rnd(s) % n : 0;
    case EXPLORE_CH_DATA:
    case EXPLORE_CH_UNINIT: break;
    }
    return data_value(s, t);
}

static void fill(void *ctx, uint8_t *bytes, uint64_t n)
{
    strategy *s = ctx;
    switch (s->fill_mode) {
    case 0: memset(bytes, 0, n); break;
    case 1:
        for (uint64_t i = 0; i < n; i += 8) {
            uint64_t r = rnd(s);
            memcpy(bytes + i, &r, n - i < 8 ? n - i : 8);
        }
        break;
    default:
        memset(bytes, 0, n);
        for (uint64_t i = 0; i < n; i += 64) {
            uint64_t r = rnd(s);
            if ((r & 3) == 0)
                bytes[i + (r >> 8) % (n - i < 64 ? n - i : 64)] = (uint8_t)(r >> 32);
        }
        break;
    }
}

/* --- the pool of constants --- */

typedef BASE_VEC(int64_t) i64_vec;

static void pool_expr(const ir_expr *e, i64_vec *pool, base_hashmap *seen)
{
    if (!e)
        return;
    if (e->kind == IR_E_CONST && e->type->kind == IR_T_INT) {
        uint64_t x;
        uint64_t key = (uint64_t)e->value == BASE_HASHMAP_EMPTY ? 0x5a5a : (uint64_t)e->value;
        if (!base_hashmap_get(seen, key, &x) && pool->len < 4096) {
            base_hashmap_put(seen, key, 1);
            base_vec_push(pool, e->value);
        }
    }
    pool_expr(e->a, pool, seen);
    pool_expr(e->b, pool, seen);
    pool_expr(e->c, pool, seen);
}

static void build_pool(const ir_program *p, i64_vec *pool)
{
    base_hashmap seen;
    base_hashmap_init(&seen);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const ir_func *f = p->funcs[i];
        for (uint32_t k = 0; k < f->nstmts; k++) {
            const ir_stmt *s = &f->stmts[k];
            pool_expr(s->lhs, pool, &seen);
            pool_expr(s->rhs, pool, &seen);
            for (uint32_t j = 0; j < s->nargs; j++)
                pool_expr(s->args[j], pool, &seen);
        }
    }
    base_hashmap_free(&seen);
}

/* --- the search --- */

void explore_opts_init(explore_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->max_steps = 10000000;
}

/* The lengths of the runs that ended (not at a limit), as a histogram by
 * bit length: lengths_quantile(h, q) is a power of two at least as long as
 * a fraction q of them. A quantile, not the maximum: a rare run that spins for a long
 * time and then ends (the spinning thread raised at last) must not lift
 * every later run's limit. */
typedef struct run_lengths {
    uint64_t by_bits[65];
    uint64_t n;
} run_lengths;

static void lengths_add(run_lengths *h, uint64_t steps)
{
    uint32_t b = 0;
    while (b < 64 && (steps >> b) != 0)
        b++;
    h->by_bits[b]++;
    h->n++;
}

static uint64_t lengths_quantile(const run_lengths *h, double q)
{
    uint64_t want = (uint64_t)ceil(q * (double)h->n), seen = 0;
    for (uint32_t b = 0; b < 64; b++) {
        seen += h->by_bits[b];
        if (seen >= want && seen > 0)
            return (uint64_t)1 << b;
    }
    return h->n ? UINT64_MAX : 0;
}

/* The step limit of run number run, longest the length of most runs that
 * ended (see the loop in explore_check_stats). */
static uint64_t run_limit(uint64_t run, uint64_t longest, uint64_t max_steps)
{
    /* longest * k, saturating (longest is UINT64_MAX past 2^63 steps) */
    uint64_t x8 = longest > UINT64_MAX / 8 ? UINT64_MAX : longest * 8;
    uint64_t x64 = longest > UINT64_MAX / 64 ? UINT64_MAX : longest * 64;
    uint64_t l;
    if (run < 4 || run % 256 == 255)
        l = max_steps;
    else if (run % 16 == 15)
        l = x64 > (1u << 20) ? x64 : (1u << 20);
    else
        l = x8 > (1u << 16) ? x8 : (1u << 16);
    return l < max_steps ? l : max_steps;
}

trace_verdict explore_check(const ir_program *p, const ir_func *entry, const explore_opts *o,
                            trace_result *r)
{
    return explore_check_stats(p, entry, o, r, NULL);
}

static void set_unknown(trace_result *r, const char *reason, base_srcloc loc)
{
    r->verdict = TRACE_UNKNOWN;
    r->reason = base_arena_strdup(&r->arena, reason);
    r->reason_loc = loc;
}

trace_verdict explore_check_stats(const ir_program *p, const ir_func *entry, const explore_opts *o,
                                  trace_result *r, explore_stats *stp)
{
    memset(r, 0, sizeof *r);
    base_arena_init(&r->arena);
    explore_opts opts;
    if (o)
        opts = *o;
    else
        explore_opts_init(&opts);
    if (opts.max_steps == 0)
        opts.max_steps = 10000000;
    uint64_t max_runs = opts.max_runs;
    if (max_runs == 0 && opts.timeout_s <= 0)
        max_runs = 100000;
    explore_stats st = { 0 };
    double t0 = base_now();
    double deadline = opts.timeout_s > 0 ? t0 + opts.timeout_s : 0;
    if (!entry || !entry->has_body) {
        set_unknown(r, "the entry function has no body", entry ? entry->loc : (base_srcloc){ 0 });
        if (stp)
            *stp = st;
        return r->verdict;
    }
    explore_prog *ep = explore_prog_new(p);
    i64_vec pool = { 0 };
    build_pool(p, &pool);
    strategy s = { .pool = pool.data, .npool = pool.len, .pick_k = 2 };
    base_hashmap_init(&s.run_counts);
    base_hashmap_init(&s.site_idx);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const ir_var *v = p->globals[i];
        if (v->type->kind == IR_T_ARRAY && v->type->count &&
            strcmp(base_sym_str(p->syms, v->name), "kiss.ts_used") == 0)
            s.pick_k = (uint32_t)v->type->count;
    }
    explore_chooser ch = { choose, fill, &s };
    const char *undef_why = NULL, *limit_why = NULL;
    bool found = false;
    run_lengths lengths = { { 0 }, 0 };
    for (uint64_t run = 0;; run++) {
        if (max_runs && run >= max_runs)
            break;
        if (deadline > 0 && run > 0 && base_now() > deadline)
            break;
        begin_run(&s, opts.seed, run);
        s.census = run < 4 || run % 8 == 0;
        strategy snapshot = s;
        /* a run that loops (a thread spinning on a flag no other thread can
         * set until it stops) is cut at 8 times the length of most runs
         * that ended (longest: the 95th percentile),
         * at least 2^16 steps; every 16th run at 64 times, at least 2^20;
         * every 256th run (and the first four, before anything is known)
         * may use all of max_steps. Spinning runs are common (a reader that
         * raised never releases what a writer waits for), and each one
         * costs its whole limit: this keeps them to a small share of the
         * budget while a run that needs long still gets it, and once one
         * ends, longest grows to let the others as far. */
        uint64_t limit = run_limit(run, lengths_quantile(&lengths, 0.95), opts.max_steps);
        explore_run rr;
        explore_run_once(ep, entry, &ch, limit, run > 0 ? deadline : 0, NULL, &rr);
        if (rr.outcome != EXPLORE_RUN_LIMIT)
            lengths_add(&lengths, rr.stats.steps);
        if (s.census) {
            end_census(&s);
            s.census = false;
        }
        st.runs++;
        st.steps += rr.stats.steps;
        if (rr.stats.raise_points > s.est_raise)
            s.est_raise = rr.stats.raise_points;
        if (rr.stats.pick_points > s.est_pick)
            s.est_pick = rr.stats.pick_points;
        if (rr.stats.max_tid > s.est_tid)
            s.est_tid = rr.stats.max_tid;
        switch (rr.outcome) {
        case EXPLORE_RUN_DONE: st.done++; continue;
        case EXPLORE_RUN_ASSUME: st.assumes++; continue;
        case EXPLORE_RUN_UNDEFINED:
            st.undefined++;
            if (!undef_why)
                undef_why = rr.why;
            continue;
        case EXPLORE_RUN_LIMIT:
            st.limits++;
            if (!limit_why)
                limit_why = rr.why;
            continue;
        case EXPLORE_RUN_UNSUPPORTED:
            set_unknown(r, rr.why, rr.loc);
            break;
        case EXPLORE_RUN_BUG: {
            /* replay with the trace on: the same state makes the same choices */
            strategy again = snapshot;
            again.census = false; /* census counts do not change choices */
            ch.ctx = &again;
            explore_run rep;
            explore_run_once(ep, entry, &ch, limit, 0, r, &rep);
            ch.ctx = &s;
            if (rep.outcome != EXPLORE_RUN_BUG || rep.func != rr.func || rep.stmt != rr.stmt) {
                set_unknown(r, "internal: the replay of a failing run diverged", rr.loc);
                break;
            }
            const ir_stmt *fs = &rep.func->stmts[rep.stmt];
            r->verdict = TRACE_BUG;
            r->message = fs->message;
            r->func = rep.func;
            r->stmt = rep.stmt;
            r->loc = fs->loc;
            st.bug_run = run;
            found = true;
            break;
        }
        }
        break;
    }
    st.seconds = base_now() - t0;
    if (!found && r->verdict != TRACE_UNKNOWN)
        r->verdict = TRACE_UNKNOWN;
    if (!found && !r->reason) {
        char buf[600];
        int n = snprintf(buf, sizeof buf, "no assertion failure in %" PRIu64 " random runs", st.runs);
        if (st.runs && n > 0 && (size_t)n < sizeof buf) {
            snprintf(buf + n, sizeof buf - (size_t)n,
                     " (%" PRIu64 " ran to the end, %" PRIu64 " stopped at an assumption, %" PRIu64
                     " at undefined or unmodelled behaviour%s%s%s, %" PRIu64 " at a limit%s%s%s)",
                     st.done, st.assumes, st.undefined, undef_why ? " such as " : "",
                     undef_why ? undef_why : "", "", st.limits, limit_why ? ": " : "",
                     limit_why ? limit_why : "", "");
        }
        set_unknown(r, buf, (base_srcloc){ 0 });
    }
    r->stats.steps = st.steps;
    r->stats.encode_s = st.seconds;
    base_vec_free(&pool);
    base_hashmap_free(&s.run_counts);
    base_hashmap_free(&s.site_idx);
    base_vec_free(&s.pick_keys);
    base_vec_free(&s.raise_keys);
    base_vec_free(&s.pick_max);
    base_vec_free(&s.raise_max);
    explore_prog_free(ep);
    if (stp)
        *stp = st;
    return r->verdict;
}
