#include <assert.h>
#include <pthread.h>
int x;
void *w(void *a) { (void)a; x = 1; return 0; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    pthread_join(t, 0); /* orders the write before the read */
    assert(x == 1);
    return 0;
}
