#include <pthread.h>

struct dev {
    pthread_mutex_t lock;
    int count;  /* protected by lock */
    int stats;  /* not protected */
};

struct dev d = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };

void *worker(void *arg)
{
    pthread_mutex_lock(&d.lock);
    d.count++;
    pthread_mutex_unlock(&d.lock);
    d.stats++;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
