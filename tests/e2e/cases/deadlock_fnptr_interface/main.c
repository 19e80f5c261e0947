/* The worker calls the log's Write while it holds a; the flusher takes b
 * then a. By type, log.Write would also reach the store's Write and the
 * module's action, which take b: a false cycle. By where the fields were
 * assigned (log_query writes struct log_if's Write; the out-parameter
 * store can only reach fields whose address is taken), log.Write reaches
 * log_write only: no deadlock. */
#include "objs.h"

static struct log_if log;
static struct store_if store;
struct module { void (*action)(long); };
static struct module mod;

static void mod_idle(long n) { count += (int)n; }

static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    log.Write(1);
    pthread_mutex_unlock(&a);
    store.Write(2);
    mod.action(3);
    log.Flush();
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
    objs_init();
    use_obj("log", &log);
    use_obj("store", &store);
    mod.action = mod_idle;
    query_entry("action", &mod.action);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
