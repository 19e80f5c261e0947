/* libFuzzer harness for the C litmus front end (litmus/c_parse) and
 * everything it feeds: the bytes are parsed as a herd7 C litmus test; when
 * they parse, the event structure is built and the test is decided under
 * c11 (RC11, with its data-race question), in verdict-only mode for even
 * sizes and by full enumeration for odd ones, with small limits so one
 * input stays fast. Any crash, leak, hang or sanitizer report is a bug. */
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/intern.h"
#include "litmus/c_parse.h"
#include "litmus/simulate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_intern_pool syms;
    base_diag diag;
    base_intern_init(&syms);
    base_diag_init(&diag);
    litmus_test *t = litmus_parse_c("fuzz.litmus", (const char *)data, size, &syms, &diag);
    if (t) {
        litmus_options opt = {
            .model = logic_mm_find("c11"),
            .verdict_only = size % 2 == 0,
            .deadline = base_now() + 0.5,
            .max_clauses = 200000,
            .limits = { .unroll = 1, .max_events = 200, .max_values = 8 },
        };
        litmus_result res;
        if (litmus_simulate(t, &opt, &res, &diag))
            litmus_result_free(&res);
        litmus_test_free(t);
    }
    base_diag_free(&diag);
    base_intern_free(&syms);
    return 0;
}
