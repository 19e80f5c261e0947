/* job: one run of a ravel command for the server, isolated in a child
 * process.
 *
 * The request's text is written to a fresh private directory (mkdtemp,
 * mode 0700) as NAME; the child changes into it, so messages name the file
 * as the user did (NAME:line:col). The child is this very binary
 * (/proc/self/exe) started with execv and an argv built from validated
 * tokens: no shell ever sees request text. Before exec it gets an address
 * space cap (RLIMIT_AS), a CPU cap (RLIMIT_CPU), a file-size cap
 * (RLIMIT_FSIZE), stdin from /dev/null and dies with the server
 * (PR_SET_PDEATHSIG). The parent collects stdout and stderr (each capped),
 * kills the child at the wall-clock deadline, then removes the directory.
 *
 * exec rather than a bare fork: the server is multithreaded (libmicrohttpd),
 * and after fork only async-signal-safe calls are allowed until exec. */
#ifndef RAVEL_SERVE_JOB_H
#define RAVEL_SERVE_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

typedef struct serve_job {
    const char *const *args; /* after argv[0], NULL-terminated; "@FILE@" becomes NAME */
    const char *name;        /* the input's file name, a plain name (no '/') */
    const char *input;
    size_t input_len;
    double wall_s;           /* wall-clock budget; the child is killed past it */
    size_t mem_bytes;        /* RLIMIT_AS; 0: none */
    size_t max_output;       /* bytes kept of stdout and of stderr each */
} serve_job;

typedef struct serve_job_result {
    bool started;     /* false: no child (see out/err for why) */
    int exit_code;    /* when exited */
    int signal;       /* nonzero: killed by this signal */
    bool timed_out;   /* killed at the wall-clock deadline */
    bool truncated;   /* some output went past max_output (child killed) */
    double seconds;
    base_strbuf out, err;
} serve_job_result;

/* Sets the executable the jobs run (default /proc/self/exe). */
void serve_job_set_exe(const char *path);
/* Runs the job to its end; the caller frees res with serve_job_result_free. */
void serve_job_run(const serve_job *job, serve_job_result *res);
void serve_job_result_free(serve_job_result *res);
/* Kills every running child (for shutdown); jobs then end promptly. */
void serve_job_kill_all(void);

#endif
