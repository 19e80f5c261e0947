/* deadlock_fnptr_returned with the worker freeing the conns table
 * instead of the names table, holding b: the conns table's destructor is
 * drop_conn (table_new's argument where the result went into reg.conns,
 * through a local), which takes a, and the flusher takes a then b. A real
 * deadlock, found with confidence must: the call through t->dest reaches
 * drop_conn by its object only. */
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
    free(t);
}

static void keep(void *p) { (void)p; }
static void drop_conn(void *p)
{
    (void)p;
    pthread_mutex_lock(&a);
    shared++;
    pthread_mutex_unlock(&a);
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&b);
    table_free(reg.conns);
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
    table_free(reg.names);
    return 0;
}
