/* deadlock_out: every output format of `ravel deadlock`.
 *
 *  - text: one block per finding, for a programmer: the cycle, then for each
 *    edge the thread (and where it was started), the lock it holds with the
 *    chain of calls that took it, and the lock it waits for with its chain;
 *  - json: one object with the findings, the entry points and counts;
 *  - sarif: SARIF 2.1.0, one result per finding, a code flow per finding
 *    with one thread flow per thread (the call chains as nesting levels);
 *  - dot: the lock graph (Graphviz), edges of findings in red.
 *
 * Pure formatting: no file is opened here. */
#ifndef RAVEL_REPORT_DEADLOCK_OUT_H
#define RAVEL_REPORT_DEADLOCK_OUT_H

#include "base/strbuf.h"
#include "deadlock/deadlock.h"

void report_deadlock_text(base_strbuf *out, const deadlock_result *r);
void report_deadlock_json(base_strbuf *out, const deadlock_result *r);
void report_deadlock_sarif(base_strbuf *out, const deadlock_result *r, const char *version);
void report_deadlock_dot(base_strbuf *out, const deadlock_result *r);

#endif
