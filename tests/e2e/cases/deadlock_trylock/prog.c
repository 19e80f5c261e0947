/* The second thread takes the locks in the other order, but with trylock
 * and backs off when it fails: it never waits, so no deadlock. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *forward(void *p)
{
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return p;
}

void *backward(void *p)
{
    for (;;) {
        pthread_mutex_lock(&b);
        if (pthread_mutex_trylock(&a) == 0) {
            pthread_mutex_unlock(&a);
            pthread_mutex_unlock(&b);
            break;
        }
        pthread_mutex_unlock(&b);
    }
    return p;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, forward, NULL);
    pthread_create(&t2, NULL, backward, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
