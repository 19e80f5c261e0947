/* A shared counter: the increment is split into a read and a write with a
 * scheduling point between (the lost update), lock/unlock become
 * operations on ravel_sync, create puts the thread in ts. */
#include <pthread.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *a) { pthread_mutex_lock(&m); count++; pthread_mutex_unlock(&m); return a; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, inc, 0);
    pthread_join(t, 0);
    return count;
}
