/* A nondeterministic pointer may point anywhere: po claims nothing. */
#include <pthread.h>

extern void *__VERIFIER_nondet_pointer(void);
int x;

void *worker(void *arg)
{
    int *p = __VERIFIER_nondet_pointer();
    *p = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    x = 2;
    return 0;
}
