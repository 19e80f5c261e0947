/* C11 atomics: both threads add with atomic_fetch_add. -DBUG makes main's
 * update a plain read and write of the atomic object. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int count;

void *worker(void *arg)
{
    atomic_fetch_add(&count, 1);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
#ifdef BUG
    int *p = (int *)&count;
    *p = *p + 1;
#else
    atomic_fetch_add(&count, 1);
#endif
    return 0;
}
