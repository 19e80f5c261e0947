/* The twin of deadlock_global_pointer without the bug: main hands both
 * workers a then b through the global pointers (and assigns them again
 * only after both started), so both take a then b. No deadlock. */
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
    first = &a;
    second = &b;
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    first = &b;
    second = &a;
    return 0;
}
