#include <assert.h>
#include <pthread.h>
int c;
pthread_mutex_t m;
void *w(void *a)
{
    (void)a;
    pthread_mutex_lock(&m);
    c++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void)
{
    pthread_t t[3];
    pthread_mutex_init(&m, 0);
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, w, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(c == 3);
    return 0;
}
