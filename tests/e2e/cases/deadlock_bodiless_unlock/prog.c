/* The writer hands its locked mutex to put_and_release(), defined in
 * another library (no body here), which may unlock it. The analysis
 * assumes it does not, finds the cycle a -> b -> a with the reader, and
 * says what it assumed instead of taking it silently. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int log_len;

void put_and_release(pthread_mutex_t *m, int value);

static void *writer(void *arg)
{
    pthread_mutex_lock(&a);
    put_and_release(&a, 1);
    pthread_mutex_lock(&b);
    log_len++;
    pthread_mutex_unlock(&b);
    return arg;
}

static void *reader(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    log_len = 0;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, writer, 0);
    pthread_create(&t2, 0, reader, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
