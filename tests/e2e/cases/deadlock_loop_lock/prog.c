/* The loop skips empty slots with `continue` and forgets the unlock on
 * that path: the next iteration takes m again while it holds it. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int items[100];
long total;

static void *summer(void *arg)
{
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&m);
        if (items[i] == 0)
            continue;
        total += items[i];
        pthread_mutex_unlock(&m);
    }
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, summer, 0);
    pthread_join(t, 0);
    return 0;
}
