/* A function without a body reads through a pointer (strlen): its reads
 * are not modelled accesses, so no race found is no proof. */
#include <pthread.h>
#include <string.h>

char buf[8];

void *worker(void *arg)
{
    buf[0] = 'a';
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    return (int)strlen(buf);
}
