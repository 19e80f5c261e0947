/* A list worked on by two threads, from the head towards the tail, each
 * item with its successor: lock an item, then the one ->next leads to
 * (lock coupling, as hand over hand does), add, let go of both, go on.
 * The walk is recursive, so its summary is widened and every item's lock
 * is named by its class (any).lock: the class waits for itself, but only
 * along ->next, and two threads can wait for each other only if the list
 * is a cycle. No finding; the assumption is reported. The twin in the
 * tree (deadlock_link_order_tree_twin) shows the other order found. */
#include <pthread.h>
#include <stdlib.h>

struct item {
    pthread_mutex_t lock;
    struct item *next;
    long sum, value;
};

struct item *head;

static void carry(struct item *it)
{
    pthread_mutex_lock(&it->lock);
    if (it->next) {
        pthread_mutex_lock(&it->next->lock);
        it->next->sum = it->sum + it->next->value;
        pthread_mutex_unlock(&it->next->lock);
    }
    pthread_mutex_unlock(&it->lock);
}

static void walk(struct item *it)
{
    if (!it)
        return;
    carry(it);
    walk(it->next);
}

static void *worker(void *arg)
{
    walk(head);
    return arg;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 8; i++) {
        struct item *n = calloc(1, sizeof *n);
        pthread_mutex_init(&n->lock, 0);
        n->value = i;
        n->next = head;
        head = n;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return 0;
}
