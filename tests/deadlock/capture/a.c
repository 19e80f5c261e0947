#include "locks.h"
pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int counter;

void take_a_then_b(void)
{
    pthread_mutex_lock(&lock_a);
    pthread_mutex_lock(&lock_b);
    counter++;
    pthread_mutex_unlock(&lock_b);
    pthread_mutex_unlock(&lock_a);
}
