/* deadlock_fnptr_returned with destructors that free the table they are
 * given as a void * (keep frees it, drop_conn takes a and frees it;
 * table_free no longer does). A table passed as a void * to a function
 * that only frees it is not copied: the names table still reaches keep
 * only, so b -> a never happens. No finding. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int shared;

struct table { int n; void (*dest)(void *); };
struct registry { struct table *names; struct table *conns; };
static struct registry reg;

static struct table *table_new(void (*dest)(void *))
{
    struct table *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    t->n = 0;
    t->dest = dest;
    return t;
}

static void table_free(struct table *t)
{
    if (t->dest)
        t->dest(t);
}

static void keep(void *p) { free(p); }
static void drop_conn(void *p)
{
    pthread_mutex_lock(&a);
    shared++;
    pthread_mutex_unlock(&a);
    free(p);
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&b);
    table_free(reg.names);
    pthread_mutex_unlock(&b);
    return arg;
}

static void *flusher(void *arg)
{
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared = 0;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    struct table *c;
    reg.names = table_new(keep);
    c = table_new(drop_conn);
    reg.conns = c;
    if (!reg.names || !reg.conns)
        return 1;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    table_free(reg.conns);
    return 0;
}
