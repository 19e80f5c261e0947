/* deadlock_fnptr_outparam, but mainq is made by mk, which passes its own
 * out-parameter on to queue_construct with flush_action: that argument is
 * not the address of a pointer field, so the constructor's store is made
 * in any queue and the worker's call through mainq (holding b) reaches
 * flush_action (takes a); the flusher takes a then b: a real deadlock,
 * found. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int shared;

struct queue { int n; int (*consumer)(void *); };
struct action { int id; struct queue *q; };
struct global { struct queue *mainq; struct action act; };
static struct global g;

static int queue_construct(struct queue **pp, int (*consumer)(void *))
{
    struct queue *q = malloc(sizeof *q);
    if (!q)
        return -1;
    q->n = 0;
    q->consumer = consumer;
    *pp = q;
    return 0;
}

static int flush_action(void *p);
static int mk(struct queue **pp) { return queue_construct(pp, flush_action); }

static int queue_run(struct queue *q) { return q->consumer(q); }

static int quiet(void *p) { (void)p; return 0; }
static int flush_action(void *p)
{
    (void)p;
    pthread_mutex_lock(&a);
    shared++;
    pthread_mutex_unlock(&a);
    return 0;
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&b);
    queue_run(g.mainq);
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
    if (mk(&g.mainq) != 0 || queue_construct(&g.act.q, flush_action) != 0)
        return 1;

    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    queue_run(g.act.q);
    return 0;
}
