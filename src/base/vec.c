#include "base/vec.h"

#include <stdlib.h>

void base_vec_reserve_raw(void **data, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap = base_mul_size(ncap, 2);
    *data = base_xrealloc(*data, base_mul_size(ncap, elem));
    *cap = ncap;
}
