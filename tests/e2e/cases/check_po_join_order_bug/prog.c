#include <assert.h>
#include <pthread.h>
int x;
void *w(void *a) { (void)a; x = 1; return 0; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    /* no join: the read may come first */
    assert(x == 1);
    return 0;
}
