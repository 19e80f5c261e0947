/* A thread started through a function pointer: kiss.run dispatches on the
 * candidates' indices. */
#include <pthread.h>
int v;
void *a(void *p) { v = 1; return p; }
void *b(void *p) { v = 2; return p; }
int main(void)
{
    void *(*f)(void *) = v ? a : b;
    pthread_t t;
    pthread_create(&t, 0, f, 0);
    return v;
}
