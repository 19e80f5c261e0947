/* One pool, allocated by main, reaches the worker as its thread argument
 * and the reporter through a global main set just before the starts. The
 * two threads must name its locks alike for the cycle to be seen (they
 * were named by the worker's path and by the global, two names): the
 * worker takes lock then stats, the reporter stats then lock. */
#include <pthread.h>
#include <stdlib.h>
struct pool { pthread_mutex_t lock; pthread_mutex_t stats; int jobs; };
struct pool *g_pool;
static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    pthread_mutex_lock(&p->stats);
    p->jobs--;
    pthread_mutex_unlock(&p->stats);
    pthread_mutex_unlock(&p->lock);
    return 0;
}
static void *reporter(void *arg)
{
    struct pool *p = g_pool;
    pthread_mutex_lock(&p->stats);
    pthread_mutex_lock(&p->lock);
    p->jobs = 0;
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&p->stats);
    return arg;
}
int main(void)
{
    pthread_t t1, t2;
    struct pool *p = malloc(sizeof *p);
    pthread_mutex_init(&p->lock, 0);
    pthread_mutex_init(&p->stats, 0);
    g_pool = p;
    pthread_create(&t1, 0, worker, p);
    pthread_create(&t2, 0, reporter, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
