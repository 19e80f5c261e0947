/* item_lock(hv) as memcached writes it: an element of an array of mutexes
 * at an index computed at run time. Both threads take "some element" and
 * the global in opposite orders; the report says the lock is array-wide
 * (it is a deadlock only when both pick the same element). */
#include <pthread.h>

pthread_mutex_t item_locks[16];
pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned hashes[2] = { 3, 5 };

static void item_lock(unsigned hv) { pthread_mutex_lock(&item_locks[hv % 16]); }
static void item_unlock(unsigned hv) { pthread_mutex_unlock(&item_locks[hv % 16]); }

void *writer(void *arg) {
    item_lock(hashes[0]);
    pthread_mutex_lock(&stats_lock);
    pthread_mutex_unlock(&stats_lock);
    item_unlock(hashes[0]);
    return 0;
}

void *reporter(void *arg) {
    pthread_mutex_lock(&stats_lock);
    item_lock(hashes[1]);
    item_unlock(hashes[1]);
    pthread_mutex_unlock(&stats_lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    for (int i = 0; i < 16; i++)
        pthread_mutex_init(&item_locks[i], 0);
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reporter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
