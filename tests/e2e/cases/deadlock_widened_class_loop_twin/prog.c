/* The twin of deadlock_widened_class_loop: the same widened sweep (the
 * node locks named by their class (any).m), and two objects of the class
 * held at once in opposite orders: left takes n3's lock and then n9's,
 * right n9's and then n3's. Left sweeps holding g, so the class is a node
 * of the lock graph and both objects are named by it: the class waits for
 * itself through locks held on every path, still found ("may": the class
 * stands for both objects). */
#include <pthread.h>

struct node { pthread_mutex_t m; };
struct table {
    struct node *n0;
    struct node *n1;
    struct node *n2;
    struct node *n3;
    struct node *n4;
    struct node *n5;
    struct node *n6;
    struct node *n7;
    struct node *n8;
    struct node *n9;
    struct node *n10;
    struct node *n11;
    struct node *n12;
    struct node *n13;
    struct node *n14;
    struct node *n15;
    struct node *n16;
    struct node *n17;
    struct node *n18;
    struct node *n19;
    struct node *n20;
    struct node *n21;
    struct node *n22;
    struct node *n23;
    struct node *n24;
    struct node *n25;
    struct node *n26;
    struct node *n27;
    struct node *n28;
    struct node *n29;
    struct node *n30;
    struct node *n31;
    struct node *n32;
    struct node *n33;
    struct node *n34;
    struct node *n35;
    struct node *n36;
    struct node *n37;
    struct node *n38;
    struct node *n39;
    struct node *n40;
    struct node *n41;
    struct node *n42;
    struct node *n43;
    struct node *n44;
    struct node *n45;
    struct node *n46;
    struct node *n47;
    struct node *n48;
    struct node *n49;
    struct node *n50;
    struct node *n51;
    struct node *nodes[64];
    int count;
};

struct table *t;
pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
int total;
int busy(int i);

static void take_all(void)
{
    pthread_mutex_lock(&t->n0->m);
    pthread_mutex_unlock(&t->n0->m);
    pthread_mutex_lock(&t->n1->m);
    pthread_mutex_unlock(&t->n1->m);
    pthread_mutex_lock(&t->n2->m);
    pthread_mutex_unlock(&t->n2->m);
    pthread_mutex_lock(&t->n3->m);
    pthread_mutex_unlock(&t->n3->m);
    pthread_mutex_lock(&t->n4->m);
    pthread_mutex_unlock(&t->n4->m);
    pthread_mutex_lock(&t->n5->m);
    pthread_mutex_unlock(&t->n5->m);
    pthread_mutex_lock(&t->n6->m);
    pthread_mutex_unlock(&t->n6->m);
    pthread_mutex_lock(&t->n7->m);
    pthread_mutex_unlock(&t->n7->m);
    pthread_mutex_lock(&t->n8->m);
    pthread_mutex_unlock(&t->n8->m);
    pthread_mutex_lock(&t->n9->m);
    pthread_mutex_unlock(&t->n9->m);
    pthread_mutex_lock(&t->n10->m);
    pthread_mutex_unlock(&t->n10->m);
    pthread_mutex_lock(&t->n11->m);
    pthread_mutex_unlock(&t->n11->m);
    pthread_mutex_lock(&t->n12->m);
    pthread_mutex_unlock(&t->n12->m);
    pthread_mutex_lock(&t->n13->m);
    pthread_mutex_unlock(&t->n13->m);
    pthread_mutex_lock(&t->n14->m);
    pthread_mutex_unlock(&t->n14->m);
    pthread_mutex_lock(&t->n15->m);
    pthread_mutex_unlock(&t->n15->m);
    pthread_mutex_lock(&t->n16->m);
    pthread_mutex_unlock(&t->n16->m);
    pthread_mutex_lock(&t->n17->m);
    pthread_mutex_unlock(&t->n17->m);
    pthread_mutex_lock(&t->n18->m);
    pthread_mutex_unlock(&t->n18->m);
    pthread_mutex_lock(&t->n19->m);
    pthread_mutex_unlock(&t->n19->m);
    pthread_mutex_lock(&t->n20->m);
    pthread_mutex_unlock(&t->n20->m);
    pthread_mutex_lock(&t->n21->m);
    pthread_mutex_unlock(&t->n21->m);
    pthread_mutex_lock(&t->n22->m);
    pthread_mutex_unlock(&t->n22->m);
    pthread_mutex_lock(&t->n23->m);
    pthread_mutex_unlock(&t->n23->m);
    pthread_mutex_lock(&t->n24->m);
    pthread_mutex_unlock(&t->n24->m);
    pthread_mutex_lock(&t->n25->m);
    pthread_mutex_unlock(&t->n25->m);
    pthread_mutex_lock(&t->n26->m);
    pthread_mutex_unlock(&t->n26->m);
    pthread_mutex_lock(&t->n27->m);
    pthread_mutex_unlock(&t->n27->m);
    pthread_mutex_lock(&t->n28->m);
    pthread_mutex_unlock(&t->n28->m);
    pthread_mutex_lock(&t->n29->m);
    pthread_mutex_unlock(&t->n29->m);
    pthread_mutex_lock(&t->n30->m);
    pthread_mutex_unlock(&t->n30->m);
    pthread_mutex_lock(&t->n31->m);
    pthread_mutex_unlock(&t->n31->m);
    pthread_mutex_lock(&t->n32->m);
    pthread_mutex_unlock(&t->n32->m);
    pthread_mutex_lock(&t->n33->m);
    pthread_mutex_unlock(&t->n33->m);
    pthread_mutex_lock(&t->n34->m);
    pthread_mutex_unlock(&t->n34->m);
    pthread_mutex_lock(&t->n35->m);
    pthread_mutex_unlock(&t->n35->m);
    pthread_mutex_lock(&t->n36->m);
    pthread_mutex_unlock(&t->n36->m);
    pthread_mutex_lock(&t->n37->m);
    pthread_mutex_unlock(&t->n37->m);
    pthread_mutex_lock(&t->n38->m);
    pthread_mutex_unlock(&t->n38->m);
    pthread_mutex_lock(&t->n39->m);
    pthread_mutex_unlock(&t->n39->m);
    pthread_mutex_lock(&t->n40->m);
    pthread_mutex_unlock(&t->n40->m);
    pthread_mutex_lock(&t->n41->m);
    pthread_mutex_unlock(&t->n41->m);
    pthread_mutex_lock(&t->n42->m);
    pthread_mutex_unlock(&t->n42->m);
    pthread_mutex_lock(&t->n43->m);
    pthread_mutex_unlock(&t->n43->m);
    pthread_mutex_lock(&t->n44->m);
    pthread_mutex_unlock(&t->n44->m);
    pthread_mutex_lock(&t->n45->m);
    pthread_mutex_unlock(&t->n45->m);
    pthread_mutex_lock(&t->n46->m);
    pthread_mutex_unlock(&t->n46->m);
    pthread_mutex_lock(&t->n47->m);
    pthread_mutex_unlock(&t->n47->m);
    pthread_mutex_lock(&t->n48->m);
    pthread_mutex_unlock(&t->n48->m);
    pthread_mutex_lock(&t->n49->m);
    pthread_mutex_unlock(&t->n49->m);
    pthread_mutex_lock(&t->n50->m);
    pthread_mutex_unlock(&t->n50->m);
    pthread_mutex_lock(&t->n51->m);
    pthread_mutex_unlock(&t->n51->m);
}

static void sweep(void)
{
    take_all();
    for (int i = 0; i < t->count; i++) {
        struct node *n = t->nodes[i];
        if (busy(i))
            pthread_mutex_lock(&n->m);
        total++;
        if (busy(i))
            pthread_mutex_unlock(&n->m);
    }
}

void *left(void *x)
{
    pthread_mutex_lock(&g);
    sweep();
    pthread_mutex_unlock(&g);
    pthread_mutex_lock(&t->n3->m);
    pthread_mutex_lock(&t->n9->m);
    total++;
    pthread_mutex_unlock(&t->n9->m);
    pthread_mutex_unlock(&t->n3->m);
    return x;
}

void *right(void *x)
{
    sweep();
    pthread_mutex_lock(&t->n9->m);
    pthread_mutex_lock(&t->n3->m);
    total++;
    pthread_mutex_unlock(&t->n3->m);
    pthread_mutex_unlock(&t->n9->m);
    return x;
}

int main(void)
{
    pthread_t p, q;
    pthread_create(&p, 0, left, 0);
    pthread_create(&q, 0, right, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
