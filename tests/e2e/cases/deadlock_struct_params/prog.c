/* Locks in struct fields reached through parameters: transfer(a, b) and
 * transfer(b, a) at the same time deadlock. */
#include <pthread.h>

struct account {
    long balance;
    pthread_mutex_t lock;
};

struct account alice = { 100, PTHREAD_MUTEX_INITIALIZER };
struct account bob = { 100, PTHREAD_MUTEX_INITIALIZER };

static void transfer(struct account *from, struct account *to, long amount)
{
    pthread_mutex_lock(&from->lock);
    pthread_mutex_lock(&to->lock);
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
