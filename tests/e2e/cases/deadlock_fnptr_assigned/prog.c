/* Two record types with function-pointer fields of one type: the encoder
 * holds `encode`, the decoder `decode` (which takes b), and the global hook
 * holds `encode`. By type, the worker's calls through enc.code and hook
 * would reach decode while it holds a (and the flusher takes b then a).
 * Resolved by where each pointer is assigned, they reach encode only: no
 * deadlock. */
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
    enc.code = encode;
    hook = encode;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
