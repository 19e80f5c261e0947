/* Recursive (set at init), trylock, rwlock and spin semantics; a condition
 * wait is an unlock, a skip and a lock; pthread_exit ends the thread. */
#include <pthread.h>
pthread_mutex_t r;
pthread_rwlock_t rw;
pthread_spinlock_t s;
pthread_cond_t c;
int ready;
void *t(void *a)
{
    pthread_mutex_lock(&r);
    while (!ready)
        pthread_cond_wait(&c, &r);
    pthread_mutex_unlock(&r);
    if (pthread_mutex_trylock(&r) == 0)
        pthread_mutex_unlock(&r);
    pthread_rwlock_rdlock(&rw);
    pthread_rwlock_unlock(&rw);
    pthread_spin_lock(&s);
    pthread_spin_unlock(&s);
    pthread_exit(a);
}
int main(void)
{
    pthread_mutexattr_t at;
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&r, &at);
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    return 0;
}
