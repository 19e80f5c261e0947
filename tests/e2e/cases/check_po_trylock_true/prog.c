#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int in;
void *w(void *a)
{
    (void)a;
    if (pthread_mutex_trylock(&m) == 0) {
        in++;
        assert(in == 1);
        in--;
        pthread_mutex_unlock(&m);
    }
    return 0;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, w, 0);
    pthread_create(&b, 0, w, 0);
    return 0;
}
