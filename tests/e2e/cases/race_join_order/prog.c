#include <pthread.h>

int data;

void *producer(void *arg)
{
    data = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    pthread_join(t, 0);
    data = data + 1; /* after the join: ordered, no race */
    return data;
}
