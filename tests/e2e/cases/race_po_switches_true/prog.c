/* The two threads play ping-pong on atomic flags (atomic_load and
 * atomic_store: a plain access to an _Atomic object is a plain one here): the accesses to c come
 * only after the order A1 B1 A2 B2 A3, four context switches (the shape of
 * SV-COMP's fib_bench, beyond KISS's reach). They hold a lock: no race.
 * -DBUG drops the lock: a data race on c. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int a, b;
int c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#ifdef BUG
#define LOCK()
#define UNLOCK()
#else
#define LOCK() pthread_mutex_lock(&m)
#define UNLOCK() pthread_mutex_unlock(&m)
#endif

void *ta(void *p)
{
    (void)p;
    atomic_store(&a, 1);
    if (atomic_load(&b) == 1) {
        atomic_store(&a, 2);
        if (atomic_load(&b) == 2) {
            atomic_store(&a, 3);
            LOCK();
            c = 1;
            UNLOCK();
        }
    }
    return 0;
}

void *tb(void *p)
{
    (void)p;
    if (atomic_load(&a) == 1) {
        atomic_store(&b, 1);
        if (atomic_load(&a) == 2) {
            atomic_store(&b, 2);
            if (atomic_load(&a) == 3) {
                LOCK();
                c = 2;
                UNLOCK();
            }
        }
    }
    return 0;
}

int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, ta, 0);
    pthread_create(&y, 0, tb, 0);
    return 0;
}
