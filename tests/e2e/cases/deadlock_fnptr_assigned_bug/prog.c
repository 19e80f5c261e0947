/* The twin of deadlock_fnptr_assigned: main stores `decode` in the
 * encoder's field, so the worker's call through enc.code takes b while it
 * holds a: the cycle with the flusher is found, and as a "must" (the
 * callee comes from an assignment, not from its type). */
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int count;
struct encoder { void (*code)(int); };
struct decoder { void (*code)(int); };
static void encode(int n) { count += n; }
static void decode(int n)
{
    pthread_mutex_lock(&b);
    count -= n;
    pthread_mutex_unlock(&b);
}
struct encoder enc;
struct decoder dec = { decode };
void (*hook)(int);
static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    enc.code(1);
    hook(2);
    pthread_mutex_unlock(&a);
    dec.code(3);
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
    enc.code = decode;
    hook = encode;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
