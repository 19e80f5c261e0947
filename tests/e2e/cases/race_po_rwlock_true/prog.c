/* Readers read under a read lock, the writer writes under the write
 * lock. -DBUG makes the writer take the read lock: readers run beside it. */
#include <pthread.h>

int shared;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

void *reader(void *arg)
{
    pthread_rwlock_rdlock(&rw);
    int v = shared;
    pthread_rwlock_unlock(&rw);
    return (void *)(long)v;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, reader, 0);
    pthread_create(&t2, 0, reader, 0);
#ifdef BUG
    pthread_rwlock_rdlock(&rw);
#else
    pthread_rwlock_wrlock(&rw);
#endif
    shared = 1;
    pthread_rwlock_unlock(&rw);
    return 0;
}
