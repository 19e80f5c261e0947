/* Both threads increment inside __VERIFIER_atomic_ functions: atomic
 * accesses never race with each other. -DBUG makes main's increment
 * plain: an atomic and a plain access race. */
#include <pthread.h>

int count;

void __VERIFIER_atomic_inc(void) { count = count + 1; }

void *worker(void *arg)
{
    __VERIFIER_atomic_inc();
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
#ifdef BUG
    count = count + 1;
#else
    __VERIFIER_atomic_inc();
#endif
    return 0;
}
