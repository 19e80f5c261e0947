/* A tree worked on from the leaves up: a thread per left subtree (walk is
 * recursive, so its summary is widened and every node's lock is named by
 * its class (any).lock). Finishing a node takes its lock and then, to
 * update the count of the parent, the parent's lock: every thread takes a
 * node's lock before its parent's, so the class "waits for itself" only
 * along ->parent, and a cycle of such waits needs a cycle of parent links.
 * No finding; the assumption (the links are acyclic) is reported instead.
 * With --no-link-order (deadlock_link_order_tree_off) the cycle is reported.
 *
 * The twin (deadlock_link_order_tree_twin, -DPARENT_FIRST): before a node
 * is finished, adopt takes its parent's lock and then the node's: parent
 * then child, against finish's child then parent. The class's self-edge
 * then has a dependency that does not follow ->parent, the order is not
 * along the links, and the cycle is found (a thread in finish(c) holds c
 * and wants p, another in adopt(c) holds p and wants c). With
 * -DPARENT_FIRST -DONLY_PARENT_FIRST (deadlock_link_order_tree_against)
 * finish is not called: every thread takes the parent's lock first, an
 * order against ->parent that no cycle closes either (no finding). */
#include <pthread.h>
#include <stdlib.h>

struct node {
    pthread_mutex_t lock;
    struct node *parent, *left, *right;
    int pending;
};

static void lock_node(struct node *n) { pthread_mutex_lock(&n->lock); }
static void unlock_node(struct node *n) { pthread_mutex_unlock(&n->lock); }

static void tell_parent(struct node *n)
{
    if (n->parent) {
        lock_node(n->parent);
        n->parent->pending--;
        unlock_node(n->parent);
    }
}

static void finish(struct node *n)
{
    lock_node(n);
    n->pending = 0;
    tell_parent(n);
    unlock_node(n);
}

#ifdef PARENT_FIRST
static void adopt(struct node *n)
{
    if (n->parent) {
        lock_node(n->parent);
        lock_node(n);
        n->pending++;
        unlock_node(n);
        unlock_node(n->parent);
    }
}
#endif

static void *worker(void *arg);

static void walk(struct node *n)
{
    pthread_t t;
    if (n->left && pthread_create(&t, 0, worker, n->left) == 0) {
        walk(n->right);
        pthread_join(t, 0);
    }
#ifdef PARENT_FIRST
    adopt(n);
#endif
#ifndef ONLY_PARENT_FIRST
    finish(n);
#endif
}

static void *worker(void *arg)
{
    walk(arg);
    return 0;
}

static struct node *build(struct node *parent, int depth)
{
    struct node *n = calloc(1, sizeof *n);
    pthread_mutex_init(&n->lock, 0);
    n->parent = parent;
    if (depth > 0) {
        n->left = build(n, depth - 1);
        n->right = build(n, depth - 1);
        n->pending = 2;
    }
    return n;
}

int main(void)
{
    walk(build(0, 3));
    return 0;
}
