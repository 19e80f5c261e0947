/* Each thread gets its two locks through the fields of a job object that
 * main fills in just before starting it; the thread argument points to
 * the job. Both jobs order a before b: no deadlock. */
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int moved;
struct job { pthread_mutex_t *from, *to; };
static void *transfer(void *arg)
{
    struct job *j = arg;
    pthread_mutex_lock(j->from);
    pthread_mutex_lock(j->to);
    moved++;
    pthread_mutex_unlock(j->to);
    pthread_mutex_unlock(j->from);
    return arg;
}
int main(void)
{
    pthread_t t1, t2;
    struct job j1, j2;
    j1.from = &a;
    j1.to = &b;
    pthread_create(&t1, 0, transfer, &j1);
    j2.from = &a;
    j2.to = &b;
    pthread_create(&t2, 0, transfer, &j2);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
