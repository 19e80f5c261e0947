#include "proj.h"

/* a cleanup attribute naming a function of the PCH's header: the
 * lowering looks it up among the unit's declarations, which a unit parsed
 * with the PCH does not list; it is parsed again without */
void *worker_c(void *arg)
{
    (void)arg;
    pthread_mutex_t *g __attribute__((cleanup(unlockp))) = &m1;
    pthread_mutex_lock(g);
    return NULL;
}
