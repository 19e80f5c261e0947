/* A lock and its unlock each under a test of a predicate function
 * (`pool_active(io)`, which only returns the truth of `io->threaded`, as
 * zstd's AIO_IOPool_threadPoolActive): the two calls stand for one read,
 * so no lock is held after the second test, and taking b there is no
 * dependency m -> b (with the flusher's b -> m it was a false cycle). */
#include <pthread.h>
struct io { int threaded; int count; pthread_mutex_t m; };
struct io g_io = { 1, 0, PTHREAD_MUTEX_INITIALIZER };
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int stats;
static int pool_active(const struct io *io) { return io->threaded != 0; }
static void submit(struct io *io)
{
    if (pool_active(io))
        pthread_mutex_lock(&io->m);
    io->count++;
    if (pool_active(io))
        pthread_mutex_unlock(&io->m);
    pthread_mutex_lock(&b);
    stats++;
    pthread_mutex_unlock(&b);
}
static void *writer(void *arg) { submit(&g_io); return arg; }
static void *flusher(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&g_io.m);
    stats = g_io.count;
    pthread_mutex_unlock(&g_io.m);
    pthread_mutex_unlock(&b);
    return arg;
}
int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, writer, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
