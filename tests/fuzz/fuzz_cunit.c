/* libFuzzer harness for captured translation units (cfront/cunit.h, the
 * files `ravel deadlock --from` and the unit cache read): any bytes as a
 * unit file. A unit the reader takes must write back to bytes that read and
 * write to themselves, and link (cfront_link_dir, through a manifest naming it) without a crash. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/strbuf.h"
#include "cfront/cfront.h"
#include "cfront/cunit.h"

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_unit u;
    if (!cf_unit_read(&u, (const char *)data, size))
        return 0;
    /* what the reader takes, written again, is read again and then written
     * to the same bytes (the input itself may spell numbers and strings in
     * ways the writer does not) */
    base_strbuf once = { 0 }, twice = { 0 };
    cf_unit_write(&once, &u);
    cf_unit_free(&u);
    if (!cf_unit_read(&u, once.data, once.len))
        abort();
    cf_unit_write(&twice, &u);
    if (twice.len != once.len || memcmp(twice.data, once.data, once.len) != 0)
        abort();
    base_strbuf_free(&once);
    base_strbuf_free(&twice);
    cf_unit_free(&u);
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/ravel-fuzz-cunit-XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    char path[128];
    const char *key = "0000000000000000000000000000000000000000000000000000000000000000";
    snprintf(path, sizeof path, "%s/%s.rtu", dir, key);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/m.rtm", dir);
    f = fopen(path, "w");
    if (!f)
        return 0;
    fprintf(f, "ravel-unit-manifest 1\npath fuzz.c\nunit %s\n", key);
    fclose(f);
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    cfront_opts o = { .tool_version = "fuzz" };
    cfront_link_dir(&p, dir, &o, &d);
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    return 0;
}
