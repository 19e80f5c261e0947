#include <assert.h>
#include <pthread.h>
/* A counter under a mutex: unlock releases, lock acquires, so the second
 * increment sees the first under C11 too. */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;
void *inc(void *a)
{
    (void)a;
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    return 0;
}
