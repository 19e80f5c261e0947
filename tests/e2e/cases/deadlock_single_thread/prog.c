/* One thread takes two locks in both orders; nothing else runs at the same
 * time, so it cannot deadlock (a lock-order inversion, --lock-order). */
#include <pthread.h>

pthread_mutex_t p = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t q = PTHREAD_MUTEX_INITIALIZER;

void *only(void *arg)
{
    pthread_mutex_lock(&p);
    pthread_mutex_lock(&q);
    pthread_mutex_unlock(&q);
    pthread_mutex_unlock(&p);
    pthread_mutex_lock(&q);
    pthread_mutex_lock(&p);
    pthread_mutex_unlock(&p);
    pthread_mutex_unlock(&q);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, only, NULL);
    pthread_join(t, NULL);
    return 0;
}
