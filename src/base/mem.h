/* mem: the memory the process uses, for memory budgets. */
#ifndef RAVEL_BASE_MEM_H
#define RAVEL_BASE_MEM_H

#include <stddef.h>

/* The process's resident set in bytes (Linux /proc/self/statm), or 0 when
 * it cannot be read. Costs a small file read: call it now and then. */
size_t base_rss_bytes(void);

#endif
