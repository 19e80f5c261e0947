#include "proj.h"

void *worker_a(void *arg)
{
    (void)arg;
    take_both(&m1, &m2); /* m1 then m2 */
    drop_both(&m1, &m2);
    return NULL;
}
