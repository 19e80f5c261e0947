/* Accesses through function pointers: a global pointer and one stored in
 * a struct, both called by the threads. The worker is started through a
 * pointer too. Both calls lock. -DBUG makes the struct's handler the
 * unlocked one. */
#include <pthread.h>

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void locked_inc(void)
{
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
}

void plain_inc(void) { counter++; }

struct ops {
    int id;
    void (*inc)(void);
};

void (*global_inc)(void) = locked_inc;
struct ops table = { 1, locked_inc };

void *worker(void *arg)
{
    struct ops *o = arg;
    o->inc();
    return 0;
}

void *(*start)(void *) = worker;

int main(void)
{
    pthread_t t;
#ifdef BUG
    table.inc = plain_inc;
#endif
    pthread_create(&t, 0, start, &table);
    global_inc();
    pthread_join(t, 0);
    return counter;
}
