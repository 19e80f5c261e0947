/* Calls through function pointers list the address-taken functions of a
 * matching type; a thread started through a pointer likewise. */
#include <pthread.h>
typedef int (*op_t)(int);
int inc(int x) { return x + 1; }
int dec(int x) { return x - 1; }
int unused(int x) { return x; }
long other(long x) { return x; }
op_t table[2] = { inc, dec };
void *worker(void *a) { return a; }
int main(void)
{
    op_t f = table[1];
    int v = f(3) + table[0](4) + (*f)(5);
    long (*g)(long) = &other;
    v += (int)g(1);
    void *(*start)(void *) = worker;
    pthread_t t;
    pthread_create(&t, 0, start, 0);
    return v + unused(0);
}
