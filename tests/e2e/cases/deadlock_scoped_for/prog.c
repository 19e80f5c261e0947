/* A scoped-lock `for` macro (the lock in the counter's initialiser, the
 * unlock in its step, one round of the body): the guard `i == 0`
 * correlates them, so after each block no lock is held. t1 takes a, then
 * b inside it, then a again; t2 takes b, then a, one after the other.
 * No cycle: the a taken after b's block is no edge b -> a, and the second
 * block on a is no double lock that would erase t1's a -> b. */
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
        x++;
    }
    sync_on(&a) {
        x--;
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
