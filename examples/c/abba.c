/* Two threads take two locks in opposite orders: each can hold one and
 * wait for the other forever. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int balance;

void *transfer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    balance++;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return NULL;
}

void *audit(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    balance--;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, NULL, transfer, NULL);
    pthread_create(&t2, NULL, audit, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return balance;
}
