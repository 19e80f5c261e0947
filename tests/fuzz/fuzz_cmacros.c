/* libFuzzer harness for herd7 macro files (litmus/c_macros) and their
 * expansion in C litmus tests (litmus/c_parse): the bytes up to a line
 * "%%" are a .def file, the rest a C test that may call its macros. When
 * both parse, the test is decided under sc with small limits so one input
 * stays fast. Any crash, leak, hang or sanitizer report is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/intern.h"
#include "litmus/c_macros.h"
#include "litmus/c_parse.h"
#include "litmus/simulate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t split = size, rest = size;
    for (size_t i = 0; i + 3 <= size; i++)
        if (memcmp(text + i, "%%\n", 3) == 0 && (i == 0 || text[i - 1] == '\n')) {
            split = i;
            rest = i + 3;
            break;
        }
    base_intern_pool syms;
    base_diag diag;
    base_intern_init(&syms);
    base_diag_init(&diag);
    litmus_macros *m = litmus_macros_parse("fuzz.def", text, split, &diag);
    if (m) {
        litmus_test *t = litmus_parse_c_macros("fuzz.litmus", text + rest, size - rest, &syms, m,
                                               &diag);
        if (t) {
            litmus_options opt = {
                .model = logic_mm_find("sc"),
                .verdict_only = true,
                .deadline = base_now() + 0.5,
                .max_clauses = 200000,
                .limits = { .unroll = 1, .max_events = 200, .max_values = 8 },
            };
            litmus_result res;
            if (litmus_simulate(t, &opt, &res, &diag))
                litmus_result_free(&res);
            litmus_test_free(t);
        }
        litmus_macros_free(m);
    }
    base_diag_free(&diag);
    base_intern_free(&syms);
    return 0;
}
