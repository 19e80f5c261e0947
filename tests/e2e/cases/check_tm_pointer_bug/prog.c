/* The workers reach the counter through pointers (a local one and a global
 * one), and each also stamps the object its argument points to. The bug:
 * the argument is the counter. */
#include <assert.h>
#include <pthread.h>

int counter, stamp;
int *where = &counter;
int *seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    int *p = &counter;
    pthread_mutex_lock(&m);
    *p = *p + 1;
    *where = *where - 1;
    *(int *)arg = 5;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    for (int i = 0; i < 1000; i++)
        pthread_create(&t, 0, worker, &counter);
    seen = where;
    pthread_mutex_lock(&m);
    assert(*seen == 0);
    pthread_mutex_unlock(&m);
    return 0;
}
