/* Locks taken in the order of their owners' ids: transfer(a, b) and
 * transfer(b, a) lock the same account first, so they cannot deadlock. */
#include <pthread.h>

struct account {
    int id;
    long balance;
    pthread_mutex_t lock;
};

struct account alice = { 1, 100, PTHREAD_MUTEX_INITIALIZER };
struct account bob = { 2, 100, PTHREAD_MUTEX_INITIALIZER };

static void transfer(struct account *from, struct account *to, long amount)
{
    if (from->id == to->id)
        return;
    if (from->id < to->id) {
        pthread_mutex_lock(&from->lock);
        pthread_mutex_lock(&to->lock);
    } else {
        pthread_mutex_lock(&to->lock);
        pthread_mutex_lock(&from->lock);
    }
    from->balance -= amount;
    to->balance += amount;
    pthread_mutex_unlock(&to->lock);
    pthread_mutex_unlock(&from->lock);
}

void *pay_bob(void *p) { transfer(&alice, &bob, 10); return p; }
void *pay_alice(void *p) { transfer(&bob, &alice, 10); return p; }

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, pay_bob, NULL);
    pthread_create(&b, NULL, pay_alice, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
