#include <pthread.h>
void *w(void *a) { return a; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    return 0;
}
