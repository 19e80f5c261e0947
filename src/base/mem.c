#include "base/mem.h"

#include <stdio.h>
#include <unistd.h>

size_t base_rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long size = 0, resident = 0;
    int n = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    if (n != 2 || page <= 0)
        return 0;
    return (size_t)resident * (size_t)page;
}
