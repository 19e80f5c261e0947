/* A worker runs the handler a table holds. The handlers are put in the
 * table from what a function without a body returns, so where the field
 * was assigned does not tell which functions it holds, and the call
 * reaches both (their addresses are handed out) by their type (the last
 * resort). One of them takes b while the worker holds a; the flusher
 * takes b then a. The cycle is reported as a "may" that names the handler
 * reached by type only. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int count;

struct ops {
    void (*handle)(int);
};

static void handle_fast(int n) { count += n; }

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
