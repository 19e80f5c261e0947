/* The pthread API becomes IR statements, not calls. */
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t r;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_spinlock_t sp;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, data;
void *producer(void *arg)
{
    pthread_mutex_lock(&m);
    data = *(int *)arg;
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    pthread_rwlock_wrlock(&rw);
    pthread_rwlock_unlock(&rw);
    return 0;
}
void *consumer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    if (pthread_mutex_trylock(&r) == 0)
        pthread_mutex_unlock(&r);
    pthread_rwlock_rdlock(&rw);
    pthread_rwlock_unlock(&rw);
    pthread_spin_lock(&sp);
    pthread_spin_unlock(&sp);
    pthread_cond_broadcast(&cv);
    pthread_exit(0);
}
int main(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&r, &a);
    pthread_spin_init(&sp, 0);
    pthread_t t1, t2;
    int v = 42;
    pthread_create(&t1, 0, producer, &v);
    pthread_create(&t2, 0, consumer, 0);
    void *res;
    pthread_join(t1, &res);
    pthread_join(t2, 0);
    pthread_mutex_destroy(&r);
    return 0;
}
