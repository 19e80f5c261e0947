/* The tickets of check_tm_inc_true without the wraparound guard: after
 * 2^32 workers the counter goes back to 0, below the last ticket.*/
extern void reach_error(void);
#include <pthread.h>

unsigned counter;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    unsigned ticket;
    pthread_mutex_lock(&lock);
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
