#include <assert.h>
#include <pthread.h>
#include <stdint.h>
void *inc(void *a) { return (void *)((intptr_t)a + 1); }
void *quit(void *a) { pthread_exit((void *)((intptr_t)a * 2)); }
int main(void)
{
    pthread_t t, u;
    void *r, *s;
    pthread_create(&t, 0, inc, (void *)41);
    pthread_create(&u, 0, quit, (void *)21);
    pthread_join(t, &r);
    pthread_join(u, &s);
    assert((intptr_t)r == 42 && (intptr_t)s == 42);
    return 0;
}
