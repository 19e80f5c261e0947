#include <assert.h>
#include <pthread.h>
/* main returns without joining: the thread may still run before that. */
int x;
void *w(void *a) { (void)a; assert(x == 0); return 0; }
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    x = 1;
    return 0;
}
