#include <assert.h>
#include <pthread.h>
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x, y;
void *writer(void *a)
{
    (void)a;
    pthread_rwlock_rdlock(&l); /* a reader lock: no exclusion */
    x = x + 1;
    y = y + 1;
    pthread_rwlock_unlock(&l);
    return 0;
}
void *reader(void *a)
{
    (void)a;
    pthread_rwlock_rdlock(&l);
    int u = x, v = y;
    pthread_rwlock_unlock(&l);
    assert(u == v);
    return 0;
}
int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_create(&c, 0, reader, 0);
    return 0;
}
