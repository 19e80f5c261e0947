/* deadlock_fnptr_object's program with the destructor in a union
 * { destroy; void *data }: main may also store save_item (which takes b)
 * in `plain` through the union's data member, as a void *. The members
 * overlap, so the worker's call through plain's destroy may reach
 * save_item while it holds a; the flusher takes b then a: a deadlock. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int saved, items1[4], items2[4];

struct list { int *data; int n; union { void (*destroy)(int *); void *data; } u; };
struct group { int id; struct list members; };

static void forget(int *x) { *x = 0; }
static void save_item(int *x)
{
    pthread_mutex_lock(&b);
    saved = *x;
    pthread_mutex_unlock(&b);
}

static void list_init(struct list *l, int *data, int n, void (*destroy)(int *))
{
    l->data = data;
    l->n = n;
    l->u.destroy = destroy;
}

static void destroy_elt(struct list *l, int i) { l->u.destroy(&l->data[i]); }

static void list_destroy(struct list *l)
{
    for (int i = 0; i < l->n; i++)
        destroy_elt(l, i);
}

static void group_init(struct group *g, int id) { g->id = id; list_init(&g->members, items2, 4, save_item); }
static void group_destroy(struct group *g) { list_destroy(&g->members); }

static struct list plain;
static struct group *grp;

static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    list_destroy(&plain);
    pthread_mutex_unlock(&a);
    group_destroy(grp);
    return arg;
}

static void *flusher(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    saved = 0;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(int argc, char **argv)
{
    pthread_t t1, t2;
    grp = malloc(sizeof *grp);
    if (!grp)
        return 1;
    list_init(&plain, items1, 4, forget);
    if (argc > 1) plain.u.data = (void *)save_item;
    group_init(grp, 1);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    free(grp); (void)argv;
    return 0;
}
