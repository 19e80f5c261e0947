#include "locks.h"
static int counter;

void take_b_then_a(void)
{
    pthread_mutex_lock(&lock_b);
    pthread_mutex_lock(&lock_a);
    counter--;
    pthread_mutex_unlock(&lock_a);
    pthread_mutex_unlock(&lock_b);
}

static void *worker(void *arg)
{
    take_b_then_a();
    return arg;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    take_a_then_b();
    pthread_join(t, 0);
    return 0;
}
