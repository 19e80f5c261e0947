/* The twin of deadlock_fnptr_interface: the worker calls the store's Write
 * (store_query assigned it store_write, which takes b) while it holds a;
 * the flusher takes b then a: a deadlock, found through the interface
 * filled by a query function called through a pointer. */
#include "../deadlock_fnptr_interface/objs.h" /* its objects */

static struct log_if log;
static struct store_if store;
struct module { void (*action)(long); };
static struct module mod;

static void mod_idle(long n) { count += (int)n; }

static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    store.Write(1);
    pthread_mutex_unlock(&a);
    log.Write(2);
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
