#include "cli/cli.h"
#include "serve/serve.h"

#include <stdio.h>
#include <string.h>

#ifndef RAVEL_VERSION
#define RAVEL_VERSION "dev"
#endif

static const char usage[] =
    "usage: ravel <command> [options] [files]\n"
    "\n"
    "ravel finds concurrency bugs in C programs and answers memory-model questions.\n"
    "\n"
    "commands:\n"
    "  litmus    decide litmus tests (LISA) under a memory model, herd7-compatible output\n"
    "  ir        lower C files (libclang) to ravel's intermediate program and print it\n"
    "  seq       the KISS translation of a concurrent C program as sequential C\n"
    "  check     find assertion failures in concurrent C (KISS + bounded model checking)\n"
    "  race      find data races in concurrent C (KISS race instrumentation)\n"
    "  deadlock  find lock-order deadlocks and self-deadlocks in C programs (L2D2)\n"
    "  serve     the playground: a web page and JSON API over these commands (local)\n"
    "\n"
    "options:\n"
    "  -h, --help       this text; `ravel <command> --help` describes a command\n"
    "  --version        print the version\n"
    "\n"
    "exit codes (every command):\n"
    "  0   ran to the end; every answer is definite\n"
    "  1   a bug was found (check, race, deadlock)\n"
    "  2   bad command line (unknown option, missing argument)\n"
    "  3   some answer is unknown (timeout, unsupported feature, no answer from a QBF solver)\n"
    "  4   out of memory\n"
    "  5   bad input (missing file, parse or clang error, unsupported construct)\n"
    "  6   unknown memory model\n"
    "  70  internal error (a bug in ravel; please report it)\n";

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("ravel %s\n", RAVEL_VERSION);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "litmus") == 0)
        return cli_litmus(argc - 1, argv + 1);
    if (strcmp(cmd, "ir") == 0)
        return cli_ir(argc - 1, argv + 1);
    if (strcmp(cmd, "seq") == 0)
        return cli_seq(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc - 1, argv + 1);
    if (strcmp(cmd, "deadlock") == 0)
        return cli_deadlock(argc - 1, argv + 1);
    if (strcmp(cmd, "race") == 0)
        return cli_race(argc - 1, argv + 1);
    if (strcmp(cmd, "serve") == 0)
        return serve_main(argc - 1, argv + 1);
    fprintf(stderr, "ravel: error: unknown command '%s' (try 'ravel --help')\n", cmd);
    return CLI_EXIT_USAGE;
}
