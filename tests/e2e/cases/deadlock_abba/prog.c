/* ABBA: two threads take two locks in opposite orders. */
#include <pthread.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *left(void *arg)
{
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared++;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return arg;
}

static void *right(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    shared--;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, left, NULL);
    pthread_create(&t2, NULL, right, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
