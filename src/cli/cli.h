/* cli: argument parsing and subcommands. No analysis logic lives here: each
 * subcommand parses its options, calls the analysis, and hands the findings
 * to report. */
#ifndef RAVEL_CLI_CLI_H
#define RAVEL_CLI_CLI_H

/* Exit codes, the same for every subcommand (documented in ravel --help and
 * docs/manual.md). */
enum cli_exit {
    CLI_EXIT_OK = 0,        /* ran to the end; for litmus: every test decided */
    CLI_EXIT_FOUND = 1,     /* check/race/deadlock: a bug was found */
    CLI_EXIT_USAGE = 2,     /* bad command line: unknown option, missing argument */
    CLI_EXIT_UNKNOWN = 3,   /* some answer is unknown: timeout, unsupported feature */
    CLI_EXIT_RESOURCE = 4,  /* out of memory (base/xalloc.h) */
    CLI_EXIT_INPUT = 5,     /* bad input: missing file, parse error */
    CLI_EXIT_MODEL = 6,     /* unknown memory model */
    CLI_EXIT_INTERNAL = 70, /* an internal error (a bug in ravel) */
};

int cli_main(int argc, char **argv);
int cli_litmus(int argc, char **argv);
int cli_ir(int argc, char **argv);
int cli_seq(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_race(int argc, char **argv);
int cli_deadlock(int argc, char **argv);

#endif
