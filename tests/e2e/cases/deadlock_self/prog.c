/* A helper takes the lock its caller already holds: self-deadlock. */
#include <pthread.h>

pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
long hits;

static void bump(void)
{
    pthread_mutex_lock(&stats_lock);
    hits++;
    pthread_mutex_unlock(&stats_lock);
}

void *worker(void *p)
{
    pthread_mutex_lock(&stats_lock);
    bump();
    pthread_mutex_unlock(&stats_lock);
    return p;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
