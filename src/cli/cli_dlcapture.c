/* cli_dlcapture: capturing a build's translation units (cli_dlcapture.h). */
#define _DEFAULT_SOURCE
#include "cli/cli_dlcapture.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli/cli.h"

/* Runs argv (NULL-terminated) and returns its exit status (127: could not
 * start; 128 + N: killed by signal N). */
static int run(char *const *argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "ravel deadlock: error: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static size_t count_units(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        n += l > 4 && strcmp(e->d_name + l - 4, ".rtm") == 0;
    }
    closedir(d);
    return n;
}

/* A word for a shell-like CC value: quoted when it has to be. */
static void put_word(base_strbuf *b, const char *w)
{
    if (!*w || strpbrk(w, " \t\n'\"\\$`;&|<>()*?[]#~")) {
        base_strbuf_putc(b, '\'');
        for (const char *p = w; *p; p++)
            if (*p == '\'')
                base_strbuf_puts(b, "'\\''");
            else
                base_strbuf_putc(b, *p);
        base_strbuf_putc(b, '\'');
    } else {
        base_strbuf_puts(b, w);
    }
}

int cli_dl_capture_build(const char *dir, const char *const *cmd, size_t n, const cfront_opts *o,
                         bool quiet)
{
    if (!n) {
        fprintf(stderr, "ravel deadlock: error: --capture needs a build command after '--' "
                        "(try 'ravel deadlock --help')\n");
        return CLI_EXIT_USAGE;
    }
    mkdir(dir, 0777);
    char *adir = realpath(dir, NULL);
    if (!adir) {
        fprintf(stderr, "%s: error: cannot create the capture directory\n", dir);
        return CLI_EXIT_INPUT;
    }
    char self[PATH_MAX + 1];
    ssize_t sl = readlink("/proc/self/exe", self, PATH_MAX);
    if (sl <= 0) {
        free(adir);
        fprintf(stderr, "ravel deadlock: error: cannot tell where the ravel binary is\n");
        return CLI_EXIT_INTERNAL;
    }
    self[sl] = 0;
    const char *real_cc = getenv("CC");
    if (!real_cc || !*real_cc || strstr(real_cc, "--capture-cc"))
        real_cc = "cc";
    base_strbuf w = { 0 };
    put_word(&w, self);
    base_strbuf_puts(&w, " deadlock --capture-cc ");
    put_word(&w, adir);
    if (o->m32)
        base_strbuf_puts(&w, " --m32");
    base_strbuf_puts(&w, " -- ");
    base_strbuf_puts(&w, real_cc); /* as the user wrote it: "gcc -std=gnu99" stays two words */
    setenv("CC", w.data, 1);
    setenv("RAVEL_CC", w.data, 1);
    /* the wrappers share precompiled headers through DIR/.pch (cpch.h;
     * --no-pch: none; a RAVEL_PCH_CACHE of the caller's is kept) */
    base_strbuf pc = { 0 };
    base_strbuf_printf(&pc, "%s/.pch", adir);
    if (o->no_pch)
        unsetenv("RAVEL_PCH_CACHE");
    else if (!getenv("RAVEL_PCH_CACHE") || !*getenv("RAVEL_PCH_CACHE"))
        setenv("RAVEL_PCH_CACHE", pc.data, 1);
    base_strbuf_free(&pc);
    const char *base = strrchr(cmd[0], '/') ? strrchr(cmd[0], '/') + 1 : cmd[0];
    bool is_make = strcmp(base, "make") == 0 || strcmp(base, "gmake") == 0;
    char **argv = base_xcalloc(n + 2, sizeof *argv);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        argv[m++] = (char *)cmd[i];
    base_strbuf ccarg = { 0 };
    if (is_make) {
        base_strbuf_printf(&ccarg, "CC=%s", w.data);
        argv[m++] = ccarg.data;
    }
    size_t before = count_units(adir);
    int st = run(argv);
    size_t after = count_units(adir);
    if (!quiet)
        fprintf(stderr, "ravel deadlock: captured %zu translation unit%s in %s (%zu new)\n", after,
                after == 1 ? "" : "s", dir, after > before ? after - before : 0);
    free(argv);
    base_strbuf_free(&ccarg);
    base_strbuf_free(&w);
    free(adir);
    if (st != 0) {
        fprintf(stderr, "ravel deadlock: error: the build command failed (exit status %d)\n", st);
        return CLI_EXIT_INPUT;
    }
    return CLI_EXIT_OK;
}

int cli_dl_capture_cc(const char *dir, const char *const *cmd, size_t n, const cfront_opts *o)
{
    if (!n) {
        fprintf(stderr, "ravel deadlock: error: --capture-cc needs a compiler command after '--'\n");
        return CLI_EXIT_USAGE;
    }
    char **argv = base_xcalloc(n + 1, sizeof *argv);
    for (size_t i = 0; i < n; i++)
        argv[i] = (char *)cmd[i];
    int st = run(argv);
    free(argv);
    if (st != 0)
        return st; /* the build sees its compiler's failure; nothing to capture */
    size_t nsrc = 0;
    size_t bad = cfront_capture(dir, cmd, n, o, &nsrc);
    if (bad)
        fprintf(stderr, "ravel deadlock: warning: cannot write %zu captured unit%s into %s\n", bad,
                bad == 1 ? "" : "s", dir);
    return 0;
}
