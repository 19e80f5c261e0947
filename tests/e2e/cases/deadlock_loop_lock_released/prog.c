/* The twin of deadlock_loop_lock without the bug, and loops that take a
 * lock without releasing it on every path back, correctly: the unlock on
 * the `continue` path; a retry loop whose unlock is on the path that goes
 * round; an unlock in a helper; a wait inside the critical section (its
 * re-take is no new acquisition); a different element of an array in
 * each iteration; a lock taken once before `break`. No self-deadlock. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t slots[8];
pthread_cond_t more = PTHREAD_COND_INITIALIZER;
int items[100], busy, avail;
long total;

static void release(void) { pthread_mutex_unlock(&m); }

static void *summer(void *arg)
{
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&m);
        if (items[i] == 0) {
            pthread_mutex_unlock(&m);
            continue;
        }
        total += items[i];
        pthread_mutex_unlock(&m);
    }
    int again;
    do {
        pthread_mutex_lock(&m);
        again = busy;
        if (again)
            pthread_mutex_unlock(&m);
    } while (again);
    release();
    for (int i = 0; i < 10; i++) {
        pthread_mutex_lock(&m);
        total++;
        release();
    }
    for (int i = 0; i < 10; i++) {
        pthread_mutex_lock(&m);
        while (!avail)
            pthread_cond_wait(&more, &m);
        avail--;
        pthread_mutex_unlock(&m);
    }
    for (int i = 0; i < 8; i++)
        pthread_mutex_lock(&slots[i]);
    for (;;) {
        pthread_mutex_lock(&m);
        if (total > 10)
            break;
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, summer, 0);
    pthread_join(t, 0);
    return 0;
}
