/* __attribute__((cleanup)): the call at every exit of the variable's block (end, break, continue, goto out, return). */
#include <pthread.h>
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void unlockp(pthread_mutex_t **m) { pthread_mutex_unlock(*m); }
#define _cleanup_(f) __attribute__((cleanup(f)))
int g;
int f(int n) {
    _cleanup_(unlockp) pthread_mutex_t *m = &mu;
    pthread_mutex_lock(m);
    for (int i = 0; i < n; i++) {
        pthread_mutex_t *m2 __attribute__((cleanup(unlockp))) = &mu;
        if (i == 3) break;
        if (i == 4) goto out;
        if (i == 5) continue;
        g++;
    }
    if (n) return g;
out:
    return 0;
}
