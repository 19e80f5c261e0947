/* serve: `ravel serve`, the playground: a local HTTP server (libmicrohttpd)
 * with a page (serve/assets.h) and a JSON API over the commands.
 *
 *   GET  /                    the page; /app.js, /style.css its files
 *   GET  /api/samples         the embedded examples [{name, kind, text}]
 *   GET  /api/models          the memory models [{name, solver, summary}]
 *   GET  /api/health          {"ok": true, "workers", "running", "queued"}
 *   POST /api/litmus          ravel litmus --json (format=herd: its text)
 *   POST /api/litmus/graphs   one SVG execution per final state (serve/graphs.h)
 *   POST /api/check, /api/race, /api/deadlock   the command's --json
 *
 * The body is the test or the program; options are query parameters
 * (serve/api.h). Each request becomes a job (serve/job.h): a child process
 * running this binary, with a time, memory and output cap, in a private
 * temporary directory. At most -j jobs run at once and --queue more wait;
 * past that the answer is 503. Bodies past --max-body get 413. */
#ifndef RAVEL_SERVE_SERVE_H
#define RAVEL_SERVE_SERVE_H

int serve_main(int argc, char **argv);

#endif
