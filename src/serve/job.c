#define _GNU_SOURCE /* pipe2, O_CLOEXEC */
#include "serve/job.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"

#define MAX_ARGS 64

/* ASan reserves terabytes of address space: no RLIMIT_AS under it. */
#if defined(__SANITIZE_ADDRESS__)
#define JOB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JOB_ASAN 1
#endif
#endif
#ifndef JOB_ASAN
#define JOB_ASAN 0
#endif
#define MAX_RUNNING 256

static char exe_path[4096] = "/proc/self/exe";
static pthread_mutex_t running_mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t running[MAX_RUNNING];
static bool killing_all;

void serve_job_set_exe(const char *path)
{
    snprintf(exe_path, sizeof exe_path, "%s", path);
}

static void track(pid_t pid, bool add)
{
    pthread_mutex_lock(&running_mu);
    for (int i = 0; i < MAX_RUNNING; i++) {
        if (add ? running[i] == 0 : running[i] == pid) {
            running[i] = add ? pid : 0;
            break;
        }
    }
    if (add && killing_all)
        kill(pid, SIGKILL);
    pthread_mutex_unlock(&running_mu);
}

void serve_job_kill_all(void)
{
    pthread_mutex_lock(&running_mu);
    killing_all = true;
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] > 0)
            kill(running[i], SIGKILL);
    pthread_mutex_unlock(&running_mu);
}

/* Removes dir and what the child left in it (one level: the commands run
 * here write no subdirectories; a deeper one is left and said so). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        int fd = dirfd(d);
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            if (unlinkat(fd, de->d_name, 0) != 0)
                unlinkat(fd, de->d_name, AT_REMOVEDIR);
        }
        closedir(d);
    }
    if (rmdir(dir) != 0)
        fprintf(stderr, "ravel serve: warning: cannot remove %s: %s\n", dir, strerror(errno));
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static void set_limit(int what, rlim_t v)
{
    struct rlimit rl = { v, v };
    setrlimit(what, &rl);
}

void serve_job_run(const serve_job *job, serve_job_result *res)
{
    memset(res, 0, sizeof *res);
    double start = base_now();
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/ravel-serve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        base_strbuf_printf(&res->err, "ravel serve: error: cannot create a temporary directory: %s\n",
                           strerror(errno));
        return;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, job->name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || !write_all(fd, job->input, job->input_len)) {
        base_strbuf_printf(&res->err, "ravel serve: error: cannot write the input: %s\n",
                           strerror(errno));
        if (fd >= 0)
            close(fd);
        remove_dir(dir);
        return;
    }
    close(fd);

    const char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "ravel";
    for (const char *const *a = job->args; *a && argc < MAX_ARGS; a++)
        argv[argc++] = strcmp(*a, "@FILE@") == 0 ? job->name : *a;
    argv[argc] = NULL;

    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) != 0) {
        base_strbuf_printf(&res->err, "ravel serve: error: pipe: %s\n", strerror(errno));
        remove_dir(dir);
        return;
    }
    if (pipe2(pe, O_CLOEXEC) != 0) {
        base_strbuf_printf(&res->err, "ravel serve: error: pipe: %s\n", strerror(errno));
        close(po[0]);
        close(po[1]);
        remove_dir(dir);
        return;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* Only async-signal-safe calls from here to execv. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0 ||
            chdir(dir) != 0)
            _exit(127);
        if (job->mem_bytes && !JOB_ASAN)
            set_limit(RLIMIT_AS, (rlim_t)job->mem_bytes);
        set_limit(RLIMIT_CPU, (rlim_t)job->wall_s + 2);
        set_limit(RLIMIT_FSIZE, (rlim_t)64 << 20);
        set_limit(RLIMIT_CORE, 0);
        execv(exe_path, (char *const *)argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    if (pid < 0) {
        base_strbuf_printf(&res->err, "ravel serve: error: fork: %s\n", strerror(errno));
        close(po[0]);
        close(pe[0]);
        remove_dir(dir);
        return;
    }
    res->started = true;
    track(pid, true);
    double deadline = start + job->wall_s;
    struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
    base_strbuf *bufs[2] = { &res->out, &res->err };
    int open_fds = 2;
    bool killed = false;
    while (open_fds > 0) {
        double left = deadline - base_now();
        if (left <= 0 && !killed) {
            res->timed_out = true;
            kill(pid, SIGKILL);
            killed = true;
        }
        int ms = killed ? 1000 : (int)(left * 1000) + 1;
        int n = poll(fds, 2, ms);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (n == 0 && killed)
            break; /* a grandchild holds the pipe; the child itself is gone */
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[65536];
            ssize_t r = read(fds[k].fd, chunk, sizeof chunk);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
                continue;
            }
            size_t keep = (size_t)r;
            if (bufs[k]->len + keep > job->max_output) {
                keep = job->max_output > bufs[k]->len ? job->max_output - bufs[k]->len : 0;
                res->truncated = true;
                if (!killed) {
                    kill(pid, SIGKILL);
                    killed = true;
                }
            }
            base_strbuf_put(bufs[k], chunk, keep);
        }
    }
    for (int k = 0; k < 2; k++)
        if (fds[k].fd >= 0)
            close(fds[k].fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    track(pid, false);
    if (WIFEXITED(st))
        res->exit_code = WEXITSTATUS(st);
    else if (WIFSIGNALED(st))
        res->signal = WTERMSIG(st);
    res->seconds = base_now() - start;
    remove_dir(dir);
}

void serve_job_result_free(serve_job_result *res)
{
    base_strbuf_free(&res->out);
    base_strbuf_free(&res->err);
}
