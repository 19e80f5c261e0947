/* libFuzzer harness for the SV-COMP task reader: any bytes as a .yml. */
#include <stddef.h>
#include <stdint.h>

#include "task/svtask.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    svtask t;
    base_diag d;
    base_diag_init(&d);
    svtask_parse(&t, "fuzz/t.yml", (const char *)data, size, &d);
    svtask_free(&t);
    base_diag_free(&d);
    return 0;
}
