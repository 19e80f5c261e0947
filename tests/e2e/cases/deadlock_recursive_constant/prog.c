/* A function that branches on its parameter and calls itself with a
 * constant (as coreutils' sortlines does): specialising it to the constant
 * analyses it again, which meets the same call; the nesting is bounded
 * (it used to recurse until the stack overflowed). */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int items;

static void walk(int mode, int n) {
    if (n <= 0)
        return;
    if (mode) {
        pthread_mutex_lock(&a);
        items++;
        pthread_mutex_unlock(&a);
    }
    walk(1, n - 1);
}

void *worker(void *arg) {
    pthread_mutex_lock(&b);
    walk(1, items);
    pthread_mutex_unlock(&b);
    return 0;
}

void *other(void *arg) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

int main(void) {
    pthread_t t, u;
    pthread_create(&t, 0, worker, 0);
    pthread_create(&u, 0, other, 0);
    pthread_join(t, 0);
    pthread_join(u, 0);
    return 0;
}
