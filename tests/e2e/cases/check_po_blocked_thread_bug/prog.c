#include <assert.h>
#include <pthread.h>
/* A thread blocked for ever (on a lock main never releases, on a join of
 * itself) must not hide main's failure. */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *w(void *a)
{
    (void)a;
    pthread_mutex_lock(&m);
    x = 1;
    return 0;
}
int main(void)
{
    pthread_mutex_lock(&m);
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    x = 2;
    assert(x == 1);
    pthread_join(t, 0);
    return 0;
}
