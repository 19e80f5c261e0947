#include <assert.h>
#include <pthread.h>
pthread_mutex_t m;
int main(void)
{
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutex_init(&m, &at); /* a normal mutex */
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m); /* blocks for ever */
    assert(0);
    return 0;
}
