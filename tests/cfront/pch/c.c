// c.c: the other order
#include "proj.h"

void *worker_b(void *arg)
{
    struct item *it = arg;
    take_both(&m2, &m1); /* m2 then m1: a cycle with b.c */
    if (it)
        it->i = count_items(it);
    drop_both(&m2, &m1);
    return NULL;
}
