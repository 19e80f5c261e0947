/* Two threads walk a ring hand over hand (holding an item's lock, take
 * its successor's, then let go of the item). Every thread waits along
 * ->next, as in deadlock_link_order_list, but here the links form a
 * cycle, and two walkers deadlock around it. Each way of closing the ring
 * is a store into ->next that withholds the link-order assumption (links
 * acyclic), and the cycle is found:
 *   (default) the last item's ->next is set to the first one, read from a
 *             global (deadlock_link_order_ring);
 *   -DSELFLINK: the head links to itself first (`l->next = l`, as Linux's
 *             INIT_LIST_HEAD), then an item is inserted after it
 *             (deadlock_link_order_selflink);
 *   -DLIST_ADD: a list_add-style helper (`new->next = prev->next;
 *             prev->next = new;`) adds an item that is on the list
 *             already: after list_add(b, a), list_add(a, b) makes b -> a
 *             (deadlock_link_order_list_add). */
#include <pthread.h>
#include <stdlib.h>

struct item {
    pthread_mutex_t lock;
    struct item *next;
    long value;
};

struct item *first;

static void walk(struct item *it, int steps)
{
    struct item *nx = it->next;
    pthread_mutex_lock(&nx->lock);
    nx->value += it->value;
    pthread_mutex_unlock(&it->lock);
    if (steps > 0)
        walk(nx, steps - 1);
    else
        pthread_mutex_unlock(&nx->lock);
}

static void *walker(void *arg)
{
    struct item *it = arg;
    pthread_mutex_lock(&it->lock);
    walk(it, 100);
    return 0;
}

#if defined SELFLINK
static void init_head(struct item *l)
{
    pthread_mutex_init(&l->lock, 0);
    l->next = l;
}

static struct item *make_ring(void)
{
    struct item *h = calloc(1, sizeof *h), *b = calloc(1, sizeof *b);
    init_head(h);
    pthread_mutex_init(&b->lock, 0);
    b->next = h->next;
    h->next = b;
    return h;
}
#elif defined LIST_ADD
static void list_add(struct item *new, struct item *prev)
{
    new->next = prev->next;
    prev->next = new;
}

static struct item *make_ring(void)
{
    struct item *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    pthread_mutex_init(&a->lock, 0);
    pthread_mutex_init(&b->lock, 0);
    list_add(b, a);
    list_add(a, b); /* a is on the list already: a ring */
    return a;
}
#else
static struct item *make_ring(void)
{
    struct item *last = 0;
    for (int i = 0; i < 4; i++) {
        struct item *n = calloc(1, sizeof *n);
        pthread_mutex_init(&n->lock, 0);
        n->value = i;
        if (last)
            last->next = n;
        else
            first = n;
        last = n;
    }
    last->next = first; /* closes the ring */
    return first;
}
#endif

int main(void)
{
    pthread_t t[2];
    struct item *r = make_ring();
    pthread_create(&t[0], 0, walker, r);
    pthread_create(&t[1], 0, walker, r->next);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
