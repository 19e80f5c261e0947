/* The twin of deadlock_thread_arg_fields: the second job orders b before
 * a. Each thread instance sees the locks its creator put in the fields
 * (a binding of the start), so the two instances of transfer meet on a
 * and b: the deadlock is found (it was missed: the locks were named
 * `*main:j1.from` and `*main:j2.from`). A "may": it assumes the thread
 * reads the fields before main changes them. */
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int moved;
struct job { pthread_mutex_t *from, *to; };
static void *transfer(void *arg)
{
    struct job *j = arg;
    pthread_mutex_lock(j->from);
    pthread_mutex_lock(j->to);
    moved++;
    pthread_mutex_unlock(j->to);
    pthread_mutex_unlock(j->from);
    return arg;
}
int main(void)
{
    pthread_t t1, t2;
    struct job j1, j2;
    j1.from = &a;
    j1.to = &b;
    pthread_create(&t1, 0, transfer, &j1);
    j2.from = &b;
    j2.to = &a;
    pthread_create(&t2, 0, transfer, &j2);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
