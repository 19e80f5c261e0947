/* graphs: the job behind POST /api/litmus/graphs: one execution graph per
 * allowed final state of a litmus test, as SVG.
 *
 * It enumerates the final states (litmus_simulate, full mode), then for each
 * state asks again with the condition replaced by `exists (that state)`
 * (verdict-only, keeping a witness), draws the witness with the DOT that
 * `ravel litmus --dot` writes (report_litmus_dot) and lays it out with
 * Graphviz (libgvc, the dot engine) to SVG. Server-side layout: the page
 * needs no graph library, and the picture is the one --dot users get.
 *
 * With --explain it answers instead why the condition's outcome is
 * forbidden (litmus_options.explain): the model's checks that forbid it and
 * the candidate execution that violates them, drawn the same way.
 *
 * Runs in a job's child process (serve/job.h) as
 *   ravel serve --graphs-job [-m M | -model FILE.cat [-bell FILE] [-I DIR]...]
 *               [--explain] [--unroll N] [--timeout S] [--max-graphs N] FILE
 * and prints one JSON object:
 *   {"test", "file", "model", "states", "graphs": [{"state", "svg"}],
 *    "truncated"}; with --explain {"test", "file", "model", "observation",
 *   "explain": {as ravel litmus --json --explain}, "text", "svg"}; when
 *   undecided, {"test", ..., "verdict": "unknown", "reason"}. */
#ifndef RAVEL_SERVE_GRAPHS_H
#define RAVEL_SERVE_GRAPHS_H

int serve_graphs_main(int argc, char **argv);

#endif
