/* A trylock wrapper returns the lock it took, or NULL; the caller unlocks
 * only what it got. The busy path holds nothing, so taking `big` after it
 * is no dependency, and `work` never holds a bucket while waiting. */
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t buckets[16];
pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;

static pthread_mutex_t *bucket_trylock(unsigned h)
{
    pthread_mutex_t *m = &buckets[h % 16];
    if (pthread_mutex_trylock(m) == 0)
        return m;
    return NULL;
}

void *work(void *p)
{
    for (unsigned h = 0; h < 100; h++) {
        pthread_mutex_t *m = bucket_trylock(h);
        if (m)
            pthread_mutex_unlock(m);
        pthread_mutex_lock(&big);
        pthread_mutex_unlock(&big);
    }
    return p;
}

void *admin(void *p)
{
    pthread_mutex_lock(&big);
    pthread_mutex_lock(&buckets[(unsigned long)p % 16]);
    pthread_mutex_unlock(&buckets[(unsigned long)p % 16]);
    pthread_mutex_unlock(&big);
    return p;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, work, NULL);
    pthread_create(&b, NULL, admin, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
