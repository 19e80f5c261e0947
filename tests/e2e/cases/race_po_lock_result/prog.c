/* The program tests pthread_mutex_lock's result: the error branch writes
 * x without the lock. ravel takes the lock to succeed (POSIX: a lock of
 * an initialised normal mutex returns 0), so it reports no race there;
 * SV-COMP's tasks may let the lock fail, so the answer is no proof. */
#include <pthread.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    if (pthread_mutex_lock(&m)) {
        x = 1; /* reached only when the lock fails */
        return 0;
    }
    x = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    x = 3;
    pthread_mutex_unlock(&m);
    return 0;
}
