/* Readers take the rwlock and a mutex in opposite orders; read locks do not
 * block each other, so only a writer could close the cycle. */
#include <pthread.h>

pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void *reader1(void *p)
{
    pthread_rwlock_rdlock(&table);
    pthread_mutex_lock(&log_lock);
    pthread_mutex_unlock(&log_lock);
    pthread_rwlock_unlock(&table);
    return p;
}

void *reader2(void *p)
{
    pthread_mutex_lock(&log_lock);
    pthread_rwlock_rdlock(&table);
    pthread_rwlock_unlock(&table);
    pthread_mutex_unlock(&log_lock);
    return p;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, reader1, NULL);
    pthread_create(&b, NULL, reader2, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
