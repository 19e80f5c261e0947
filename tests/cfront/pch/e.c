#define E_LIMIT 4 /* a macro before the first #include: in no group */
#include "proj.h"

int count_items(struct item *it)
{
    int n = 0;
    pthread_mutex_lock(&it->lock);
    for (int i = 0; i < E_LIMIT; i++)
        n += it->kind;
    pthread_mutex_unlock(&it->lock);
    return n;
}
