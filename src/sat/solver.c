#include "sat/solver.h"

#include <ccadical.h>

#include <string.h>

#include "base/clock.h"
#include "base/xalloc.h"

struct sat_solver {
    CCaDiCaL *cad;
    int nvars;
    uint64_t nclauses, nlits, nsolves;
    double deadline;
    int *rec;        /* recorder: clauses, 0-terminated */
    size_t nrec, rec_cap;
    bool recorder;
};

sat_solver *sat_solver_new(void)
{
    sat_solver *s = base_xcalloc(1, sizeof *s);
    s->cad = ccadical_init();
    if (!s->cad) {
        free(s);
        return NULL;
    }
    /* CaDiCaL prints messages on stdout unless told not to. */
    ccadical_set_option(s->cad, "quiet", 1);
    /* ravel makes many small incremental calls (one per execution when
     * enumerating); CaDiCaL's "lucky" phase tries at the start of every
     * call cost more than the search itself there (measured: 3x on SB with
     * 12 threads), and so does alternating into stable mode on these easy
     * instances (a further 1.5x). */
    ccadical_set_option(s->cad, "lucky", 0);
    ccadical_set_option(s->cad, "stabilize", 0);
    return s;
}

sat_solver *sat_solver_new_recorder(void)
{
    sat_solver *s = base_xcalloc(1, sizeof *s);
    s->recorder = true;
    return s;
}

const int *sat_recorded(const sat_solver *s, size_t *nlits)
{
    *nlits = s->nrec;
    return s->rec;
}

static void record(sat_solver *s, const int *lits, size_t n)
{
    if (s->nrec + n + 1 > s->rec_cap) {
        while (s->nrec + n + 1 > s->rec_cap)
            s->rec_cap = s->rec_cap ? s->rec_cap * 2 : 1024;
        s->rec = base_xrealloc(s->rec, base_mul_size(s->rec_cap, sizeof(int)));
    }
    if (n)
        memcpy(s->rec + s->nrec, lits, n * sizeof(int));
    s->nrec += n;
    s->rec[s->nrec++] = 0;
}

void sat_solver_free(sat_solver *s)
{
    if (!s)
        return;
    free(s->rec);
    if (s->cad)
        ccadical_release(s->cad);
    free(s);
}

int sat_new_var(sat_solver *s)
{
    return ++s->nvars;
}

int sat_num_vars(const sat_solver *s) { return s->nvars; }
uint64_t sat_num_clauses(const sat_solver *s) { return s->nclauses; }
uint64_t sat_num_literals(const sat_solver *s) { return s->nlits; }
uint64_t sat_num_solves(const sat_solver *s) { return s->nsolves; }

void sat_add_clause(sat_solver *s, const int *lits, size_t n)
{
    if (s->recorder) {
        record(s, lits, n);
        s->nclauses++;
        s->nlits += n;
        return;
    }
    for (size_t i = 0; i < n; i++)
        ccadical_add(s->cad, lits[i]);
    ccadical_add(s->cad, 0);
    s->nclauses++;
    s->nlits += n;
}

void sat_add_unit(sat_solver *s, int lit)
{
    sat_add_clause(s, &lit, 1);
}

void sat_add_binary(sat_solver *s, int a, int b)
{
    int c[2] = { a, b };
    sat_add_clause(s, c, 2);
}

void sat_add_ternary(sat_solver *s, int a, int b, int c)
{
    int cl[3] = { a, b, c };
    sat_add_clause(s, cl, 3);
}

void sat_assume(sat_solver *s, int lit)
{
    if (s->recorder)
        return;
    ccadical_assume(s->cad, lit);
}

static int past_deadline(void *state)
{
    sat_solver *s = state;
    return s->deadline > 0 && base_now() > s->deadline;
}

void sat_set_deadline(sat_solver *s, double deadline)
{
    s->deadline = deadline;
    if (s->recorder)
        return;
    ccadical_set_terminate(s->cad, s, deadline > 0 ? past_deadline : NULL);
}

sat_result sat_solve(sat_solver *s)
{
    s->nsolves++;
    if (s->recorder || past_deadline(s))
        return SAT_UNKNOWN;
    int r = ccadical_solve(s->cad);
    return r == 10 ? SAT_SAT : r == 20 ? SAT_UNSAT : SAT_UNKNOWN;
}

bool sat_value(sat_solver *s, int lit)
{
    if (s->recorder)
        return false;
    return ccadical_val(s->cad, lit) > 0;
}

bool sat_failed(sat_solver *s, int lit)
{
    if (s->recorder)
        return false;
    return ccadical_failed(s->cad, lit) != 0;
}
