/* A doubly linked list walked by two threads in opposite directions, each
 * holding an item's lock while it takes its neighbour's: one along ->next,
 * the other along ->prev. Each order alone follows one link, but the two
 * links are inverses of each other: a thread holding a and wanting
 * a->next = b, and one holding b and wanting b->prev = a, deadlock. The
 * walks are recursive, so both locks are named by the class (any).lock;
 * the class's self-edge has dependencies along two different fields, which
 * no single acyclic link orders: found. */
#include <pthread.h>
#include <stdlib.h>

struct item {
    pthread_mutex_t lock;
    struct item *next, *prev;
    long value;
};

struct item *first, *last;

static void forward(struct item *it)
{
    if (!it)
        return;
    pthread_mutex_lock(&it->lock);
    if (it->next) {
        pthread_mutex_lock(&it->next->lock);
        it->next->value += it->value;
        pthread_mutex_unlock(&it->next->lock);
    }
    pthread_mutex_unlock(&it->lock);
    forward(it->next);
}

static void backward(struct item *it)
{
    if (!it)
        return;
    pthread_mutex_lock(&it->lock);
    if (it->prev) {
        pthread_mutex_lock(&it->prev->lock);
        it->prev->value -= it->value;
        pthread_mutex_unlock(&it->prev->lock);
    }
    pthread_mutex_unlock(&it->lock);
    backward(it->prev);
}

static void *head_to_tail(void *arg)
{
    forward(first);
    return arg;
}

static void *tail_to_head(void *arg)
{
    backward(last);
    return arg;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 8; i++) {
        struct item *n = calloc(1, sizeof *n);
        pthread_mutex_init(&n->lock, 0);
        n->prev = last;
        if (last)
            last->next = n;
        else
            first = n;
        last = n;
    }
    pthread_create(&t[0], 0, head_to_tail, 0);
    pthread_create(&t[1], 0, tail_to_head, 0);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
