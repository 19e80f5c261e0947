/* The twin of deadlock_fnptr_param: the worker also runs
 * for_each(save_item) while it holds a, so for_each's call through its
 * parameter reaches save_item, which takes b: the cycle with the flusher
 * (b then a) is found. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int count, items[4];

struct list { int *data; int n; void (*destroy)(int *); };

static void count_one(int *x) { count += *x; }
static void free_item(int *x) { *x = 0; }
static void save_item(int *x)
{
    pthread_mutex_lock(&b);
    count = *x;
    pthread_mutex_unlock(&b);
}

void (*hook)(int *) = save_item;

static void for_each(int *xs, int n, void (*fn)(int *))
{
    for (int i = 0; i < n; i++)
        fn(&xs[i]);
}

static void list_init(struct list *l, int *data, int n, void (*destroy)(int *))
{
    l->data = data;
    l->n = n;
    l->destroy = destroy;
}

static void list_destroy(struct list *l)
{
    for (int i = 0; i < l->n; i++)
        l->destroy(&l->data[i]);
}

static struct list items_list;

static void *worker(void *arg)
{
    pthread_mutex_lock(&a);
    for_each(items, 4, count_one);
    for_each(items, 4, save_item);
    list_destroy(&items_list);
    pthread_mutex_unlock(&a);
    hook(&items[0]);
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
    list_init(&items_list, items, 4, free_item);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, flusher, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
