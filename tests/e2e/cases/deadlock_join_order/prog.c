/* The second thread is created only after the first was joined: the two
 * never run together. Threads started in a loop without a join do. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *ab(void *p)
{
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return p;
}

void *ba(void *p)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return p;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, ab, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, ba, NULL);
    pthread_join(t, NULL);
    return 0;
}
