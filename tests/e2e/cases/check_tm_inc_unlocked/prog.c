/* The tickets of check_tm_inc_true with the increment outside the lock:
 * a worker that read the counter long ago stores a value below what
 * others stored since, and their checks fail. */
extern void reach_error(void);
#include <pthread.h>

unsigned counter;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    unsigned ticket;
    pthread_mutex_lock(&lock);
    if (counter == 0u - 1) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    pthread_mutex_unlock(&lock);
    ticket = counter;
    counter = ticket + 1;
    if (!(counter > ticket))
        reach_error();
    return 0;
}

int main(void)
{
    pthread_t t;
    while (1)
        pthread_create(&t, 0, worker, 0);
}
