/* Every access to x is under m and ro is only read: checks are emitted,
 * and recording a pending access stops the thread (raise). */
#include <pthread.h>
int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int ro = 3;
void *w(void *a) { pthread_mutex_lock(&m); x = x + ro; pthread_mutex_unlock(&m); return a; }
int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, w, 0); pthread_mutex_lock(&m); x = ro; pthread_mutex_unlock(&m); pthread_join(t1, 0); pthread_join(t2, 0); return x; }
