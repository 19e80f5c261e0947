/* A thread start through a wrapper whose parameter is the start function: the candidates are what callers pass (t1, t2), not every function of the type. */
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
typedef void *(*start_fn)(void *);
static int my_create(pthread_t *t, start_fn func, void *arg)
{
    return pthread_create(t, NULL, func, arg);
}
static void *t1(void *p) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return p; }
static void *t2(void *p) { pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return p; }
static void *unrelated(void *p) { return p; }
void *(*keep)(void *) = unrelated;
int main(void)
{
    pthread_t x, y;
    my_create(&x, t1, NULL);
    my_create(&y, t2, NULL);
    pthread_join(x, NULL);
    pthread_join(y, NULL);
    return 0;
}
