#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_assume(int);
int x;
void *w(void *a)
{
    (void)a;
    __VERIFIER_assume(x == 5); /* never holds: this thread stops here */
    return 0;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    x = 1;
    assert(x == 2);
    return 0;
}
