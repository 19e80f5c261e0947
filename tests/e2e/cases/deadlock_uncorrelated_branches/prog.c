/* Like deadlock_correlated_branches, but the second release tests another
 * flag: when needs_lock is set and verbose is not, crawler still holds
 * inner when it takes outer again, a deadlock with other. */
#include <pthread.h>
#include <stdbool.h>

struct mod { bool needs_lock, verbose; };
struct crawler_mod { struct mod *mod; } active;
pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
int work;

static void eval_item(int x) { work += x; }

void *crawler(void *arg) {
    pthread_mutex_lock(&outer);
    for (int i = 0; i < 10; i++) {
        pthread_mutex_lock(&inner);
        if (!active.mod->needs_lock)
            pthread_mutex_unlock(&inner);
        eval_item(i);
        if (active.mod->verbose)
            pthread_mutex_unlock(&inner);
        pthread_mutex_unlock(&outer);
        pthread_mutex_lock(&outer);
    }
    pthread_mutex_unlock(&outer);
    return 0;
}

void *other(void *arg) {
    pthread_mutex_lock(&outer);
    pthread_mutex_lock(&inner);
    pthread_mutex_unlock(&inner);
    pthread_mutex_unlock(&outer);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, crawler, 0);
    pthread_create(&b, 0, other, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
