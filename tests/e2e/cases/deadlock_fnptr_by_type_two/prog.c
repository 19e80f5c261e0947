/* As deadlock_fnptr_by_type, but both handlers take b: the call reaches
 * both by their type only, and the two dependencies a -> b (one through
 * each handler) are one; the finding must still say that a handler was
 * reached by type only (confidence may), not must. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int count;

struct ops {
    void (*handle)(int);
};

static void handle_fast(int n)
{
    pthread_mutex_lock(&b);
    count += n;
    pthread_mutex_unlock(&b);
}

static void handle_logged(int n)
{
    pthread_mutex_lock(&b);
    count += n;
    pthread_mutex_unlock(&b);
}

struct ops table[2];
int mode;

void announce(void (*h)(int));
void (*lookup_handler(int i))(int);

static void set_handler(int i) { table[i].handle = lookup_handler(i); }

static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    table[mode].handle(1);
    pthread_mutex_unlock(&a);
    return arg;
}

static void *flusher(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    count = 0;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    announce(handle_fast);
    announce(handle_logged);
    set_handler(0);
    set_handler(1);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
