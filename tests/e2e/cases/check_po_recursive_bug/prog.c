#include <assert.h>
#include <pthread.h>
pthread_mutex_t m;
int x;
void *w(void *a)
{
    (void)a;
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m); /* recursive: taken twice */
    x++;
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    x++; /* released: a lost update */
    return 0;
}
int main(void)
{
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &at);
    pthread_t a, b;
    pthread_create(&a, 0, w, 0);
    pthread_create(&b, 0, w, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 4);
    return 0;
}
