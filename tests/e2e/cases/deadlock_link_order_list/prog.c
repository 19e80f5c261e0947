/* A list walked by two threads hand over hand, from the head towards the
 * tail: holding an item's lock, take the next one's, then let go of the
 * first (visit is entered with it->lock held). visit is recursive, so its
 * summary is widened and every item's lock is named by its class
 * (any).lock; the dependency worker makes by calling visit with
 * head->lock held is to a class, and what links it to head is the
 * acquisition's anchor (the lock is reached from visit's parameter through
 * ->next). The class waits for itself only along ->next, and two threads
 * can wait for each other only if the list is a cycle: no finding, the
 * assumption reported.
 *
 * The twin (deadlock_link_order_list_twin, -DNEXT_FIRST): a third thread
 * takes an item's successor's lock and then the item's (against ->next);
 * with a walker holding the item and wanting its successor, that is a
 * deadlock, found. */
#include <pthread.h>
#include <stdlib.h>

struct item {
    pthread_mutex_t lock;
    struct item *next;
    long sum, value;
};

struct item *head;

static void visit(struct item *it)
{
    struct item *nx = it->next;
    if (nx) {
        pthread_mutex_lock(&nx->lock);
        nx->sum = it->sum + nx->value;
    }
    pthread_mutex_unlock(&it->lock);
    if (nx)
        visit(nx);
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&head->lock);
    visit(head);
    return arg;
}

#ifdef NEXT_FIRST
static void *fixer(void *arg)
{
    struct item *it = head;
    if (it->next) {
        pthread_mutex_lock(&it->next->lock);
        pthread_mutex_lock(&it->lock);
        it->next->sum = it->sum + it->next->value;
        pthread_mutex_unlock(&it->lock);
        pthread_mutex_unlock(&it->next->lock);
    }
    return arg;
}
#endif

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 8; i++) {
        struct item *n = calloc(1, sizeof *n);
        pthread_mutex_init(&n->lock, 0);
        n->value = i;
        n->next = head;
        head = n;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
#ifdef NEXT_FIRST
    pthread_create(&t[2], 0, fixer, 0);
    pthread_join(t[2], 0);
#endif
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return 0;
}
