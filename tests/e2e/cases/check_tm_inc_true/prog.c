/* Tickets: every worker, holding the lock, takes the counter's value and
 * stores one more (unless that would wrap around), then, without the lock,
 * checks that the counter is past its ticket. Every write to the counter
 * is non-decreasing, so the ticket stays below it. Workers are created
 * without end: no unwinding bound proves it. */
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
    ticket = counter;
    counter = ticket + 1;
    pthread_mutex_unlock(&lock);
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
