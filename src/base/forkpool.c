/* forkpool: forked workers, results in item order (see forkpool.h).
 *
 * Shared memory: next (the next item to hand out) and, per worker, the item
 * it is running (SIZE_MAX when idle), so the parent knows which item a dead
 * worker took with it. A record on a worker's pipe is a header (item, rc,
 * the two lengths) and then the bytes of out and err; a worker writes whole
 * records, and the parent reads a record to its end once poll says the
 * pipe is readable. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, strsignal */
#include "base/forkpool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xalloc.h"

typedef struct record_head {
    size_t item;
    int rc;
    size_t outlen, errlen;
} record_head;

typedef struct result {
    bool done;
    int rc;
    char *out, *err;
    size_t outlen, errlen;
} result;

/* Writes (or reads) exactly n bytes; false on an error or, reading, at end
 * of file. */
static bool transfer(int fd, void *p, size_t n, bool writing)
{
    char *c = p;
    while (n) {
        ssize_t k = writing ? write(fd, c, n) : read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k, n -= (size_t)k;
    }
    return true;
}

static bool write_all(int fd, const void *p, size_t n)
{
    return transfer(fd, (void *)p, n, true);
}

static bool read_all(int fd, void *p, size_t n)
{
    return transfer(fd, p, n, false);
}

static void worker(size_t n, unsigned w, size_t *shared, int fd, base_forkpool_work work, void *ctx)
{
    size_t *next = &shared[0], *current = &shared[1 + w];
    base_strbuf out = { 0 }, err = { 0 };
    for (;;) {
        size_t i = __atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST);
        if (i >= n)
            break;
        __atomic_store_n(current, i, __ATOMIC_SEQ_CST);
        base_strbuf_clear(&out);
        base_strbuf_clear(&err);
        int rc = work(ctx, i, &out, &err);
        record_head h = { .item = i, .rc = rc, .outlen = out.len, .errlen = err.len };
        if (!write_all(fd, &h, sizeof h) || !write_all(fd, base_strbuf_cstr(&out), out.len) ||
            !write_all(fd, base_strbuf_cstr(&err), err.len))
            _exit(1);
        __atomic_store_n(current, SIZE_MAX, __ATOMIC_SEQ_CST);
    }
    _exit(0);
}

static void died(result *r, int status)
{
    char msg[160];
    if (status < 0)
        snprintf(msg, sizeof msg, "no worker process was left to run it\n");
    else if (WIFSIGNALED(status))
        snprintf(msg, sizeof msg, "the worker process running it was killed by signal %d (%s)\n",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(msg, sizeof msg, "the worker process running it exited with status %d\n",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    r->done = true;
    r->rc = BASE_FORKPOOL_DIED;
    r->err = base_xstrdup(msg);
    r->errlen = strlen(msg);
}

bool base_forkpool_run(size_t n, unsigned workers, base_forkpool_work work, base_forkpool_emit emit,
                       void *ctx)
{
    if (workers < 1)
        workers = 1;
    if (workers > n)
        workers = (unsigned)(n ? n : 1);
    size_t bytes = (1 + (size_t)workers) * sizeof(size_t);
    size_t *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return false;
    shared[0] = 0;
    for (unsigned w = 0; w < workers; w++)
        shared[1 + w] = SIZE_MAX;
    int *fds = base_xcalloc(workers, sizeof *fds);
    pid_t *pids = base_xcalloc(workers, sizeof *pids);
    unsigned started = 0;
    bool ok = true;
    for (; started < workers; started++) {
        int p[2];
        if (pipe(p) != 0) {
            ok = false;
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            close(p[0]);
            close(p[1]);
            ok = false;
            break;
        }
        if (pid == 0) {
            close(p[0]);
            for (unsigned k = 0; k < started; k++)
                close(fds[k]);
            worker(n, started, shared, p[1], work, ctx);
        }
        close(p[1]);
        fds[started] = p[0];
        pids[started] = pid;
    }
    if (!ok && started == 0) {
        free(fds);
        free(pids);
        munmap(shared, bytes);
        return false;
    }

    result *res = base_xcalloc(n ? n : 1, sizeof *res);
    struct pollfd *pfd = base_xcalloc(started, sizeof *pfd);
    size_t next_emit = 0;
    unsigned open = started;
    while (open > 0) {
        unsigned m = 0;
        for (unsigned w = 0; w < started; w++)
            if (fds[w] >= 0)
                pfd[m++] = (struct pollfd){ .fd = fds[w], .events = POLLIN };
        if (poll(pfd, m, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (unsigned k = 0; k < m; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            unsigned w = 0;
            while (fds[w] != pfd[k].fd)
                w++;
            record_head h;
            bool got = read_all(fds[w], &h, sizeof h) && h.item < n && !res[h.item].done;
            if (got) {
                result *r = &res[h.item];
                r->out = base_xmalloc(h.outlen + 1);
                r->err = base_xmalloc(h.errlen + 1);
                got = read_all(fds[w], r->out, h.outlen) && read_all(fds[w], r->err, h.errlen);
                r->out[got ? h.outlen : 0] = 0;
                r->err[got ? h.errlen : 0] = 0;
                r->outlen = h.outlen, r->errlen = h.errlen, r->rc = h.rc;
                r->done = got;
                if (!got) {
                    free(r->out), free(r->err);
                    r->out = r->err = NULL;
                }
            }
            if (!got) {
                /* End of file: the worker finished, or died. */
                close(fds[w]);
                fds[w] = -1;
                open--;
                int status = 0;
                while (waitpid(pids[w], &status, 0) < 0 && errno == EINTR)
                    ;
                size_t cur = __atomic_load_n(&shared[1 + w], __ATOMIC_SEQ_CST);
                if (cur < n && !res[cur].done)
                    died(&res[cur], status);
            }
        }
        for (; next_emit < n && res[next_emit].done; next_emit++) {
            result *r = &res[next_emit];
            emit(ctx, next_emit, r->rc, r->out ? r->out : "", r->outlen, r->err ? r->err : "",
                 r->errlen);
            free(r->out), free(r->err);
            r->out = r->err = NULL;
        }
    }
    /* poll failed: stop the workers still running. */
    for (unsigned w = 0; w < started; w++)
        if (fds[w] >= 0) {
            kill(pids[w], SIGKILL);
            close(fds[w]);
            while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
                ;
        }
    /* Items no worker took (every worker gone): reported as lost. */
    for (; next_emit < n; next_emit++) {
        result *r = &res[next_emit];
        if (!r->done)
            died(r, -1);
        emit(ctx, next_emit, r->rc, r->out ? r->out : "", r->outlen, r->err ? r->err : "", r->errlen);
        free(r->out), free(r->err);
    }
    free(pfd);
    free(res);
    free(fds);
    free(pids);
    munmap(shared, bytes);
    return true;
}
