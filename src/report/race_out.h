/* race_out: the data races `ravel race` finds, for people (text: the two
 * accesses, the thread of each with its start site and the locks it held,
 * and the interleaving), for tools (JSON) and for code-scanning services
 * (SARIF 2.1.0, one result per racing pair, a code flow per thread).
 *
 * A race is read off a BUG trace of the race-instrumented KISS program
 * (kiss.h): the first access is the one recorded (the step that sets
 * kiss.race_site, and the thread kiss.cur named then), the second the
 * access whose check failed (the assertion "data race at site N", in the
 * thread running at the end). Locks held are replayed from the trace: a
 * thread holds a lock from the step of an original lock statement that
 * sets the lock's owner to the step of an unlock that clears it. */
#ifndef RAVEL_REPORT_RACE_OUT_H
#define RAVEL_REPORT_RACE_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "kiss/kiss.h"
#include "report/check_out.h"

typedef struct race_access {
    uint32_t site;             /* index into kiss_result.sites */
    base_srcloc loc;
    bool write;
    uint32_t thread;           /* 0 is main */
    const char *function;      /* the thread's function */
    base_srcloc started_at;    /* where it was created (line 0: main) */
    char **locks;              /* held at the access (malloc'd strings) */
    uint32_t nlocks;
} race_access;

typedef struct race_finding {
    char *object;              /* the accessed object as the program names it */
    race_access first, second;
} race_finding;

/* Reads the race off c's BUG trace; false when the trace is not a race
 * (another assertion, or the recording step is missing). */
bool report_race_explain(const check_report *c, const kiss_result *k, race_finding *f);
void report_race_finding_free(race_finding *f);

/* One race: headline, both accesses, the interleaving. */
void report_race_text(base_strbuf *out, const race_finding *f, const check_report *c);
/* One race as a JSON object (with the trace). */
void report_race_json(base_strbuf *out, const race_finding *f, const check_report *c);
/* One SARIF result (for the results array of report_race_sarif_begin/end). */
void report_race_sarif_result(base_strbuf *out, const race_finding *f, const check_report *c);
void report_race_sarif_begin(base_strbuf *out, const char *version);
void report_race_sarif_end(base_strbuf *out);

#endif
