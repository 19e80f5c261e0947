/* qbf_bench: solve times of the built-in QBF solver (sat/qbf) against
 * DepQBF (run as a program, as in xcheck_depqbf) on generated random
 * families, or on the QDIMACS files given. Prints a table; asserts nothing
 * about time. Used by bench/qbf/run.sh.
 *
 * usage: qbf_bench [--scale K] [FILE.qdimacs...]
 * With files: one row per file. Without: the random families, K times
 * the default instance counts (default 1). A disagreement is printed and
 * makes the exit status 1. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "sat/qbf.h"
#include "sat/qbf_io.h"
#include "sat/qbf_random.h"

extern char **environ;

static int run_depqbf(const char *file)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = { "depqbf", "--max-secs=120", (char *)file, NULL };
    pid_t pid;
    int rc = posix_spawnp(&pid, "depqbf", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct tally {
    long n, sat, unsat, unknown, disagree;
    double t_ravel, t_dep, max_ravel, max_dep;
    uint64_t iterations;
} tally;

/* Solves q with both; path is q's QDIMACS file. */
static void one(tally *t, sat_qbf *q, const char *path, const char *name)
{
    double t0 = base_now();
    sat_qbf_set_deadline(q, t0 + 120);
    sat_result r = sat_qbf_solve(q);
    double t1 = base_now();
    int d = run_depqbf(path);
    double t2 = base_now();
    t->n++;
    t->t_ravel += t1 - t0;
    t->t_dep += t2 - t1;
    if (t1 - t0 > t->max_ravel)
        t->max_ravel = t1 - t0;
    if (t2 - t1 > t->max_dep)
        t->max_dep = t2 - t1;
    t->iterations += sat_qbf_get_stats(q).iterations;
    if (r == SAT_SAT)
        t->sat++;
    else if (r == SAT_UNSAT)
        t->unsat++;
    else
        t->unknown++;
    if (r != SAT_UNKNOWN && (d == 10 || d == 20) && (int)r != d) {
        t->disagree++;
        fprintf(stderr, "DISAGREE %s: ravel %d, depqbf %d\n", name, r, d);
    }
}

static void row(const char *name, const tally *t)
{
    printf("%-28s %6ld %5ld %5ld %4ld %4ld %10.3f %10.3f %9.4f %9.4f %10.1f\n", name, t->n, t->sat,
           t->unsat, t->unknown, t->disagree, t->t_ravel, t->t_dep, t->max_ravel, t->max_dep,
           t->n ? (double)t->iterations / (double)t->n : 0.0);
}

static void header(void)
{
    printf("%-28s %6s %5s %5s %4s %4s %10s %10s %9s %9s %10s\n", "family", "n", "true", "false",
           "unk", "dis", "ravel s", "depqbf s", "max rav", "max dep", "iter/inst");
}

int main(int argc, char **argv)
{
    int scale = 1, argi = 1;
    if (argc > 2 && strcmp(argv[1], "--scale") == 0) {
        scale = atoi(argv[2]);
        argi = 3;
    }
    char dir[] = "/tmp/ravel-qbf-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/q.qdimacs", dir);
    int status = 0;
    header();
    if (argi < argc) {
        for (int i = argi; i < argc; i++) {
            size_t len;
            char *text = base_read_file(argv[i], &len);
            if (!text) {
                fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
                status = 1;
                continue;
            }
            base_diag d;
            base_diag_init(&d);
            sat_qbf *q = sat_qbf_read_qdimacs(argv[i], text, len, &d);
            free(text);
            if (!q) {
                base_diag_print(&d, stderr);
                base_diag_free(&d);
                status = 1;
                continue;
            }
            base_diag_free(&d);
            tally t = { 0 };
            one(&t, q, argv[i], argv[i]);
            const char *base = strrchr(argv[i], '/');
            row(base ? base + 1 : argv[i], &t);
            status |= t.disagree > 0;
            sat_qbf_free(q);
        }
    } else {
        struct family {
            const char *name;
            int count;
            qbf_random_params p;
        } fams[] = {
            { "random 1-12 vars, 2-4 blk", 500,
              { 1, 12, 2, 4, 2, 4, 0.5, 3.0, true } },
            { "random 20-60 vars, 2-6 blk", 200,
              { 20, 60, 2, 6, 3, 5, 0.5, 2.5, true } },
            { "random 80-120 vars, 2-3 blk", 60,
              { 80, 120, 2, 3, 3, 5, 0.4, 1.2, false } },
            { "random 150-200 vars, 3 blk", 20,
              { 150, 200, 3, 3, 3, 5, 0.4, 1.0, false } },
        };
        uint64_t seed = 2026;
        for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
            tally t = { 0 };
            for (int i = 0; i < fams[f].count * scale; i++) {
                sat_qbf *q = qbf_random(&seed, &fams[f].p);
                base_strbuf b = { 0 };
                sat_qbf_write_qdimacs(q, &b);
                FILE *fp = fopen(path, "w");
                if (!fp || fwrite(b.data, 1, b.len, fp) != b.len) {
                    perror(path);
                    return 1;
                }
                fclose(fp);
                char name[64];
                snprintf(name, sizeof name, "%s #%d", fams[f].name, i);
                one(&t, q, path, name);
                base_strbuf_free(&b);
                sat_qbf_free(q);
            }
            row(fams[f].name, &t);
            status |= t.disagree > 0;
        }
    }
    unlink(path);
    rmdir(dir);
    return status;
}
