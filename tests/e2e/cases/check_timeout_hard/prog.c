/* Four threads add 1 to a shared counter ten times each, without a lock:
 * updates may be lost, but the counter never exceeds 40. Every engine
 * needs far more than 2 s for that (every interleaving of 80 accesses to
 * one place), so with --timeout 2 the run must end by itself, unknown,
 * within its budget and a small slack (time_limit: 3 x the budget). */
#include <assert.h>
#include <pthread.h>

int x;

#define INC2 x = x + 1; x = x + 1;
#define INC10 INC2 INC2 INC2 INC2 INC2

void *worker(void *arg)
{
    (void)arg;
    INC10
    return 0;
}

int main(void)
{
    pthread_t t[4];
    pthread_create(&t[0], 0, worker, 0);
    pthread_create(&t[1], 0, worker, 0);
    pthread_create(&t[2], 0, worker, 0);
    pthread_create(&t[3], 0, worker, 0);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    pthread_join(t[2], 0);
    pthread_join(t[3], 0);
    assert(x <= 40);
    return 0;
}
