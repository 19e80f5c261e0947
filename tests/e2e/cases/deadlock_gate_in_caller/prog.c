/* The inversion is in two helpers, but every caller holds the gate lock
 * `big` around them: no deadlock. */
#include <pthread.h>

pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t x = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t y = PTHREAD_MUTEX_INITIALIZER;

static void xy(void)
{
    pthread_mutex_lock(&x);
    pthread_mutex_lock(&y);
    pthread_mutex_unlock(&y);
    pthread_mutex_unlock(&x);
}

static void yx(void)
{
    pthread_mutex_lock(&y);
    pthread_mutex_lock(&x);
    pthread_mutex_unlock(&x);
    pthread_mutex_unlock(&y);
}

static void *w1(void *p)
{
    pthread_mutex_lock(&big);
    xy();
    pthread_mutex_unlock(&big);
    return p;
}

static void *w2(void *p)
{
    pthread_mutex_lock(&big);
    yx();
    pthread_mutex_unlock(&big);
    return p;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, w1, NULL);
    pthread_create(&b, NULL, w2, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
