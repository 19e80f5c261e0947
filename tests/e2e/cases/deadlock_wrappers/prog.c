/* Lock and unlock go through wrapper functions (two levels deep). */
#include <pthread.h>

pthread_mutex_t cache = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t disk = PTHREAD_MUTEX_INITIALIZER;

static void acquire(pthread_mutex_t *m) { pthread_mutex_lock(m); }
static void release(pthread_mutex_t *m) { pthread_mutex_unlock(m); }
static void acquire_logged(pthread_mutex_t *m) { acquire(m); }

void *flusher(void *p)
{
    acquire_logged(&cache);
    acquire_logged(&disk);
    release(&disk);
    release(&cache);
    return p;
}

void *loader(void *p)
{
    acquire(&disk);
    acquire(&cache);
    release(&cache);
    release(&disk);
    return p;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, flusher, NULL);
    pthread_create(&b, NULL, loader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
