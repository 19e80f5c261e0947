/* The twin of deadlock_array_may: the sweeper counts while it still holds
 * the slot its trylock wrapper took (held on every path where the result
 * is not NULL), and the updater holds `stats` and takes a slot: the two
 * may deadlock on one slot. */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t slots[16];
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static int nswept, evict;

struct item {
    struct item *prev;
    unsigned hv;
};
static struct item *tail;

static void *slot_trylock(unsigned hv)
{
    pthread_mutex_t *l = &slots[hv & 15];
    if (pthread_mutex_trylock(l) == 0)
        return l;
    return NULL;
}

static void slot_unlock(void *l) { pthread_mutex_unlock((pthread_mutex_t *)l); }

static struct item *sweep_one(void)
{
    struct item *found = NULL;
    void *held = NULL;
    for (struct item *it = tail; it != NULL; it = it->prev) {
        if ((held = slot_trylock(it->hv)) == NULL)
            continue;
        switch (it->hv & 3) {
        case 0:
            found = it; /* stops here whatever follows */
            if (evict)
                break;
            break;
        default:
            slot_unlock(held);
            break;
        }
        if (found != NULL)
            break;
    }
    if (found != NULL)
        slot_unlock(held);
    return found;
}

static void *sweeper(void *arg)
{
    (void)arg;
    sweep_one();
    for (int i = 0; i < 100; i++) {
        void *held = slot_trylock((unsigned)i);
        if (held == NULL)
            continue;
        pthread_mutex_lock(&stats);
        nswept++;
        pthread_mutex_unlock(&stats);
        slot_unlock(held);
    }
    return NULL;
}

static void *updater(void *arg)
{
    unsigned hv = (unsigned)(size_t)arg;
    pthread_mutex_lock(&stats);
    pthread_mutex_lock(&slots[hv & 15]);
    nswept = 0;
    pthread_mutex_unlock(&slots[hv & 15]);
    pthread_mutex_unlock(&stats);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < 16; i++)
        pthread_mutex_init(&slots[i], NULL);
    pthread_create(&a, NULL, sweeper, NULL);
    pthread_create(&b, NULL, updater, (void *)7);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
