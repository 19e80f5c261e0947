/* Three threads, three locks, each pair in a consistent order: only the
 * cycle of all three deadlocks. */
#include <pthread.h>

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m3 = PTHREAD_MUTEX_INITIALIZER;

static void pair(pthread_mutex_t *first, pthread_mutex_t *second)
{
    pthread_mutex_lock(first);
    pthread_mutex_lock(second);
    pthread_mutex_unlock(second);
    pthread_mutex_unlock(first);
}

void *t12(void *p) { pair(&m1, &m2); return p; }
void *t23(void *p) { pair(&m2, &m3); return p; }
void *t31(void *p) { pair(&m3, &m1); return p; }

int main(void)
{
    pthread_t t[3];
    pthread_create(&t[0], NULL, t12, NULL);
    pthread_create(&t[1], NULL, t23, NULL);
    pthread_create(&t[2], NULL, t31, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
