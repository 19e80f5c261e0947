/* Struct fields are separate targets (the address compared is &d.f), an
 * atomic section records nothing, and an assertion becomes an assumption. */
#include <assert.h>
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
struct dev { int count; int flag; } d;
void *w(void *a)
{
    d.count = 1;
    __VERIFIER_atomic_begin();
    d.flag = d.flag + 1;
    __VERIFIER_atomic_end();
    return a;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    assert(d.flag >= 0);
    return 0;
}
