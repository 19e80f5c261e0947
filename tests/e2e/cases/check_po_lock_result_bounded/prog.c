/* The program tests pthread_mutex_lock's result: the error branch
 * increments x without the lock, which would lose an update. ravel takes a
 * blocking lock to succeed (POSIX), so no interleaving fails the
 * assertion; SV-COMP's tasks may let the lock fail, so the answer is no
 * proof (the twin check_po_lock_result_true ignores the result: true). */
#include <assert.h>
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    if (pthread_mutex_lock(&m)) {
        x = x + 1; /* reached only when the lock fails */
        return 0;
    }
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
