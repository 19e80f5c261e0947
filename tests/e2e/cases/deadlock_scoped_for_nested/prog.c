/* The twin of deadlock_scoped_for: t2 now takes a inside its block on b.
 * The cycle is found (the second block on a in t1 erases nothing), as a
 * "must" (the guard makes each lock held on every path in its block), and
 * in the right direction: t1 holds a and waits for b. */
#include <pthread.h>

#define sync_on(m)                                                             \
    for (unsigned int sync_i_ = (pthread_mutex_lock(m), 0); sync_i_ == 0;      \
         (pthread_mutex_unlock(m), ++sync_i_))

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int x;

static void *t1(void *arg)
{
    sync_on(&a) {
        sync_on(&b) {
            x++;
        }
    }
    sync_on(&a) {
        x--;
    }
    return arg;
}

static void *t2(void *arg)
{
    sync_on(&b) {
        sync_on(&a) {
            x--;
        }
    }
    return arg;
}

int main(void)
{
    pthread_t p, q;
    pthread_create(&p, 0, t1, 0);
    pthread_create(&q, 0, t2, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
