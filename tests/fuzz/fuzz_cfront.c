/* libFuzzer harness for the C front end: the bytes are a C file, parsed by
 * libclang from memory and lowered to IR (which ir_check then validates).
 * clang's errors and unsupported constructs are fine; any crash, leak,
 * hang or sanitizer report in ravel's lowering is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/intern.h"
#include "cfront/cfront.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* libclang's own crash recovery would hide crashes from libFuzzer. */
    setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    base_diag d;
    base_diag_init(&d);
    cfront_unsaved file = { "fuzz.c", (const char *)data, size };
    static const char *const args[] = { "-ferror-limit=5", "-fno-spell-checking" };
    cfront_opts o = { .clang_args = args, .nclang_args = 2, .unsaved = &file, .nunsaved = 1 };
    const char *files[] = { "fuzz.c" };
    cfront_lower(&p, files, 1, &o, &d);
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
    return 0;
}
