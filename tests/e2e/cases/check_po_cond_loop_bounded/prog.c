#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *w(void *a)
{
    (void)a;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    assert(ready == 1);
    pthread_mutex_unlock(&m);
    return 0;
}
