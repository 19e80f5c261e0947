/* A call through a union member of an object reached through a pointer
 * array (its object not known: every object of the type counts): the
 * union's other member is assigned save_item, which takes b, in another
 * object. The members overlap, so the call in worker may reach save_item
 * while worker holds a; the flusher takes b then a: a deadlock. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int saved;

struct ops { int id; union { void (*run)(void); void (*go)(void); } u; };
struct ops *table[2];

static void quiet(void) { saved = 1; }
static void save_item(void)
{
    pthread_mutex_lock(&b);
    saved = 2;
    pthread_mutex_unlock(&b);
}

static void *worker(void *arg)
{
    int i = *(int *)arg;
    pthread_mutex_lock(&a);
    table[i]->u.run();
    pthread_mutex_unlock(&a);
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
    static int which;
    table[0] = malloc(sizeof *table[0]);
    table[1] = malloc(sizeof *table[1]);
    if (!table[0] || !table[1])
        return 1;
    table[0]->u.run = quiet;
    table[1]->u.go = save_item;
    which = argc > 1;
    pthread_create(&t1, 0, worker, &which);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    (void)argv;
    return 0;
}
