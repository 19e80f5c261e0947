#include <string.h>
#include "objs.h"

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int count;

static void log_write(int n) { count += n; }
static void log_flush(void) { count = 0; }

/* the store's Write has the type of the log's, and takes b */
static void store_write(int n)
{
    pthread_mutex_lock(&b);
    count -= n;
    pthread_mutex_unlock(&b);
}

static void mod_action(long n)
{
    pthread_mutex_lock(&b);
    count *= n;
    pthread_mutex_unlock(&b);
}

static int log_query(struct log_if *p)
{
    p->Write = log_write;
    p->Flush = log_flush;
    return 0;
}

static int store_query(struct store_if *p)
{
    p->Write = store_write;
    return 0;
}

struct obj_info { const char *name; int (*query)(void *); };
static struct obj_info objs[2];

static void register_obj(int i, const char *name, int (*query)(void *))
{
    objs[i].name = name;
    objs[i].query = query;
}

void objs_init(void)
{
    register_obj(0, "log", (int (*)(void *))log_query);
    register_obj(1, "store", (int (*)(void *))store_query);
}

int use_obj(const char *name, void *ifp)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(objs[i].name, name) == 0)
            return objs[i].query(ifp);
    return -1;
}

int query_entry(const char *name, void (**entry)(long))
{
    if (strcmp(name, "action") != 0)
        return -1;
    *entry = mod_action;
    return 0;
}
