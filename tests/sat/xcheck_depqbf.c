/* xcheck_depqbf: the built-in QBF solver against DepQBF, run as a separate
 * program (DepQBF is GPL: never linked). Writes random QDIMACS files to a
 * temporary directory, runs `depqbf FILE` on each (exit 10: true, 20:
 * false) and compares; for a true QBF it also asks DepQBF whether the
 * built-in solver's outermost existential assignment wins (the formula
 * with that assignment as unit clauses must stay true).
 *
 * usage: xcheck_depqbf [COUNT] [SEED]   (default 600 instances, seed 1)
 * Exit 0: all agree; 1: a disagreement (the file is kept and named);
 * 77: depqbf is not on PATH (ctest reports the test as skipped). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "sat/qbf.h"
#include "sat/qbf_io.h"
#include "sat/qbf_random.h"

extern char **environ;

static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char buf[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
        if (access(buf, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

/* Runs depqbf on file; returns its exit code (10/20 expected) or -1. */
static int run_depqbf(const char *file)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = { "depqbf", "--max-secs=60", (char *)file, NULL };
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

static bool write_file(const char *path, const base_strbuf *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fwrite(b->data, 1, b->len, f) == b->len;
    return fclose(f) == 0 && ok;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? strtol(argv[1], NULL, 10) : 600;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (!on_path("depqbf")) {
        printf("depqbf is not on PATH: skipped\n");
        return 77;
    }
    char dir[] = "/tmp/ravel-xcheck-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    /* Small instances like the unit test's, and larger ones that brute
     * force cannot check (up to 60 variables, up to 6 blocks). */
    const qbf_random_params kinds[] = {
        { .min_vars = 1, .max_vars = 12, .min_blocks = 2, .max_blocks = 4, .min_len = 2,
          .max_len = 4, .min_ratio = 0.5, .max_ratio = 3.0, .free_vars = true },
        { .min_vars = 20, .max_vars = 60, .min_blocks = 2, .max_blocks = 6, .min_len = 3,
          .max_len = 5, .min_ratio = 0.5, .max_ratio = 2.5, .free_vars = true },
    };
    long agree = 0, ntrue = 0, outer_checked = 0;
    char path[256], path2[256];
    snprintf(path, sizeof path, "%s/q.qdimacs", dir);
    snprintf(path2, sizeof path2, "%s/outer.qdimacs", dir);
    int status = 0;
    for (long i = 0; i < count; i++) {
        sat_qbf *q = qbf_random(&seed, &kinds[i % 2]);
        base_strbuf b = { 0 };
        sat_qbf_write_qdimacs(q, &b);
        if (!write_file(path, &b)) {
            perror(path);
            return 1;
        }
        int want = run_depqbf(path);
        sat_result got = sat_qbf_solve(q);
        if (want != 10 && want != 20) {
            fprintf(stderr, "instance %ld: depqbf exited %d on %s\n", i, want, path);
            status = 1;
            break;
        }
        if ((int)got != want) {
            fprintf(stderr, "instance %ld: ravel says %d, depqbf %d; kept %s\n", i, got, want,
                    path);
            status = 1;
            break;
        }
        agree++;
        if (got == SAT_SAT) {
            ntrue++;
            /* The outer assignment as unit clauses: still true. */
            int maxv = sat_qbf_max_var(q);
            bool *outer = calloc((size_t)maxv + 1, 1);
            qbf_outer_vars(q, outer);
            for (int v = 1; v <= maxv; v++) {
                if (!outer[v])
                    continue;
                int lit = sat_qbf_value(q, v) ? v : -v;
                sat_qbf_add_clause(q, &lit, 1);
            }
            free(outer);
            base_strbuf_clear(&b);
            sat_qbf_write_qdimacs(q, &b);
            if (!write_file(path2, &b)) {
                perror(path2);
                return 1;
            }
            int w2 = run_depqbf(path2);
            if (w2 != 10) {
                fprintf(stderr, "instance %ld: depqbf says the outer assignment loses (%d); "
                        "kept %s\n", i, w2, path2);
                status = 1;
                break;
            }
            outer_checked++;
        }
        base_strbuf_free(&b);
        sat_qbf_free(q);
    }
    printf("xcheck: %ld of %ld instances agree with depqbf (%ld true, %ld false); "
           "%ld outer assignments confirmed\n",
           agree, count, ntrue, agree - ntrue, outer_checked);
    if (status == 0) {
        unlink(path);
        unlink(path2);
        rmdir(dir);
    }
    return status;
}
