/* The tickets of check_tm_inc_true, and one thread that, holding the
 * lock, takes the counter back by one: a worker's check after it fails. */
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

void *undo(void *arg)
{
    pthread_mutex_lock(&lock);
    if (counter > 0)
        counter = counter - 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, undo, 0);
    while (1)
        pthread_create(&t, 0, worker, 0);
}
