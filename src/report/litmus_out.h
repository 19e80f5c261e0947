/* litmus_out: every output format of `ravel litmus`.
 *
 *  - herd: herd7's own layout (Test, States, Ok/No, Witnesses, Condition,
 *    Observation, Time), so users can diff ravel against herd7; verdict-only
 *    results leave out States and the witness counts, which they do not
 *    compute; a test with undefined behaviour (some consistent execution
 *    races on a non-atomic access, under c11) prints `Undef` in place of
 *    Ok/No and a `Flag *undef*` line, as herd7 does;
 *  - json: one object per test (an array overall, written by the cli);
 *    `undefined` (true/false) is present for models that have undefined
 *    behaviour;
 *  - dot: one execution drawn with Graphviz (events by thread; po, rf, co
 *    and fr);
 *  - explain (--explain): which of the model's checks forbid the outcome,
 *    in text after herd's lines, as an "explain" member in JSON, and the
 *    candidate execution that violates them as dot.
 *
 * Pure formatting: no file is opened here. */
#ifndef RAVEL_REPORT_LITMUS_OUT_H
#define RAVEL_REPORT_LITMUS_OUT_H

#include "base/strbuf.h"
#include "litmus/simulate.h"
#include "litmus/test.h"

void report_litmus_value(base_strbuf *out, const litmus_test *t, litmus_value v);
void report_litmus_prop(base_strbuf *out, const litmus_test *t, const litmus_prop *p);
void report_litmus_condition(base_strbuf *out, const litmus_test *t);
void report_litmus_state(base_strbuf *out, const litmus_test *t, const litmus_value *row);
void report_litmus_herd(base_strbuf *out, const litmus_test *t, const litmus_result *r);
void report_litmus_json(base_strbuf *out, const litmus_test *t, const litmus_result *r,
                        const char *model);
void report_litmus_dot(base_strbuf *out, const litmus_test *t, const litmus_result *r);
void report_litmus_explain(base_strbuf *out, const litmus_test *t, const litmus_result *r);
/* Appends `, "explain": {...}` (nothing unless asked). */
void report_litmus_explain_json(base_strbuf *out, const litmus_test *t, const litmus_result *r);
/* The explanation's witness; r->explain.nsets > 0. */
void report_litmus_dot_explain(base_strbuf *out, const litmus_test *t, const litmus_result *r);
void report_litmus_dot_witness(base_strbuf *out, const litmus_test *t, const litmus_evstruct *es,
                               const litmus_witness *w, const char *title);

#endif
