/* srcloc: a position in a user's file.
 *
 * line and col count from 1; col counts bytes, as compilers do. A location
 * with line 0 means "the whole file" and prints as just the file name. */
#ifndef RAVEL_BASE_SRCLOC_H
#define RAVEL_BASE_SRCLOC_H

#include <stdint.h>

typedef struct base_srcloc {
    const char *file; /* owned by whoever loaded the file; never NULL when printed */
    uint32_t line, col;
} base_srcloc;

static inline base_srcloc base_srcloc_make(const char *file, uint32_t line, uint32_t col)
{
    base_srcloc l = { file, line, col };
    return l;
}

#endif
