/* deadlock_fnptr_object's program where main may copy the group's list
 * (destructor save_item, which takes b) over `plain` with
 * copy_list(&plain, &grp->members), a helper copying the list byte by byte through unsigned char *.
 * The worker destroys `plain` while it holds a and may so call save_item;
 * the flusher takes b then a: a deadlock. A record type viewed as bytes
 * (void *, char *) may be copied whole: its chains stand for any object. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int saved, items1[4], items2[4];

struct list { int *data; int n; void (*destroy)(int *); };
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
    l->destroy = destroy;
}

static void destroy_elt(struct list *l, int i) { l->destroy(&l->data[i]); }

static void list_destroy(struct list *l)
{
    for (int i = 0; i < l->n; i++)
        destroy_elt(l, i);
}

static void group_init(struct group *g, int id) { g->id = id; list_init(&g->members, items2, 4, save_item); }
static void group_destroy(struct group *g) { list_destroy(&g->members); }

static struct list plain;
static void copy_list(struct list *dst, const struct list *src)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0; i < sizeof *dst; i++)
        d[i] = s[i];
}
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
    group_init(grp, 1);
    if (argc > 1) copy_list(&plain, &grp->members);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    free(grp); (void)argv;
    return 0;
}
