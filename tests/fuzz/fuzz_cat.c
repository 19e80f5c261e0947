/* libFuzzer harness for the cat parser and lowering (src/cat): the bytes
 * are a cat model; it is parsed, its includes resolved to ravel's library
 * files, and lowered to a formula over a one-event structure. Any crash,
 * leak, hang or sanitizer report is a bug. */
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "cat/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_diag diag;
    base_diag_init(&diag);
    cat_check_text("fuzz.cat", (const char *)data, size, &diag);
    base_diag_free(&diag);
    return 0;
}
