#include <assert.h>
#include <pthread.h>
pthread_mutex_t m;
int main(void)
{
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &at);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m); /* errorcheck: fails with EDEADLK and returns */
    assert(0);
    return 0;
}
