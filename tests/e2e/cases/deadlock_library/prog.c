/* A library without main: any two of its entry points may run in
 * different threads at once (--entry all). */
#include <pthread.h>

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t journal = PTHREAD_MUTEX_INITIALIZER;
static int entries;

static void log_change(void)
{
    pthread_mutex_lock(&journal);
    pthread_mutex_unlock(&journal);
}

void lib_register(void)
{
    pthread_mutex_lock(&registry);
    entries++;
    log_change();
    pthread_mutex_unlock(&registry);
}

void lib_flush(void)
{
    pthread_mutex_lock(&journal);
    pthread_mutex_lock(&registry);
    entries = 0;
    pthread_mutex_unlock(&registry);
    pthread_mutex_unlock(&journal);
}
