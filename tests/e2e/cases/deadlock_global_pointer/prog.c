/* main hands each worker its two locks through global pointers assigned
 * just before each pthread_create: the first worker takes a then b, the
 * second b then a. Named by what the globals held at each start, the two
 * instances of worker meet on a and b: a deadlock (a "may": it assumes
 * each worker reads the globals before main assigns them again). */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *first, *second;
int transfers;

static void *worker(void *arg)
{
    pthread_mutex_t *f = first, *s = second;
    pthread_mutex_lock(f);
    pthread_mutex_lock(s);
    transfers++;
    pthread_mutex_unlock(s);
    pthread_mutex_unlock(f);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    first = &a;
    second = &b;
    pthread_create(&t1, 0, worker, 0);
    first = &b;
    second = &a;
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
