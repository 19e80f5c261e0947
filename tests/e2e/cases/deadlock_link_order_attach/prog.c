/* A tree whose parent links are set by a helper, `child->parent = p`,
 * from a parameter; every call passes a fresh allocation (or NULL for the
 * root), so nothing stored into ->parent is a global, a value read
 * through ->parent or the child itself: the program gives no evidence of
 * a cycle of parent links. Threads finish nodes child first, then parent
 * (as in deadlock_link_order_tree): the lock class waits for itself only
 * along ->parent, no finding, the assumption reported. With
 * -DSELF_PARENT (deadlock_link_order_attach_self) one call attaches the
 * root to itself, a cycle of parent links: found. */
#include <pthread.h>
#include <stdlib.h>

struct node {
    pthread_mutex_t lock;
    struct node *parent;
    int pending;
};

static void attach(struct node *child, struct node *p)
{
    child->parent = p;
}

static void finish(struct node *n)
{
    pthread_mutex_lock(&n->lock);
    n->pending = 0;
    if (n->parent) {
        pthread_mutex_lock(&n->parent->lock);
        n->parent->pending--;
        pthread_mutex_unlock(&n->parent->lock);
    }
    pthread_mutex_unlock(&n->lock);
}

static void climb(struct node *n)
{
    finish(n);
    if (n->parent)
        climb(n->parent);
}

static void *worker(void *arg)
{
    climb(arg);
    return 0;
}

int main(void)
{
    pthread_t t[2];
    struct node *root = calloc(1, sizeof *root), *l = calloc(1, sizeof *l),
                *r = calloc(1, sizeof *r);
    pthread_mutex_init(&root->lock, 0);
    pthread_mutex_init(&l->lock, 0);
    pthread_mutex_init(&r->lock, 0);
    attach(root, 0);
#ifdef SELF_PARENT
    attach(root, root);
#endif
    attach(l, root);
    attach(r, root);
    pthread_create(&t[0], 0, worker, l);
    pthread_create(&t[1], 0, worker, r);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
