/* libFuzzer harness for the X86_64 (AT&T syntax) reader, x86_64_parse.c:
 * the bytes are the body of a test whose first line `X86_64 F` is given,
 * so that every input reaches the dialect; when they parse, the event
 * structure is built and the test is decided under TSO, as in fuzz_lisa.
 * Any crash, leak, hang or sanitizer report is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/intern.h"
#include "litmus/lisa_parse.h"
#include "litmus/simulate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char head[] = "X86_64 F\n";
    char *text = malloc(sizeof head - 1 + size + 1);
    if (!text)
        return 0;
    memcpy(text, head, sizeof head - 1);
    if (size)
        memcpy(text + sizeof head - 1, data, size);
    base_intern_pool syms;
    base_diag diag;
    base_intern_init(&syms);
    base_diag_init(&diag);
    litmus_test *t = litmus_parse_lisa("fuzz.litmus", text, sizeof head - 1 + size, &syms, &diag);
    if (t) {
        litmus_options opt = {
            .model = logic_mm_find("tso"),
            .verdict_only = size % 2 == 0,
            .deadline = base_now() + 0.5,
            .limits = { .unroll = 1, .max_events = 200, .max_values = 8 },
        };
        litmus_result res;
        if (litmus_simulate(t, &opt, &res, &diag))
            litmus_result_free(&res);
        litmus_test_free(t);
    }
    base_diag_free(&diag);
    base_intern_free(&syms);
    free(text);
    return 0;
}
