/* check_po_lock_result_bounded without the test of the lock's result:
 * every increment is under the lock, and po proves the assertion. */
#include <assert.h>
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    assert(x == 2);
    return 0;
}
