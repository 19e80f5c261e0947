/* A recursive mutex (set up with attributes, and a static initialiser) may
 * be taken again by its owner; a plain one may not. */
#define _GNU_SOURCE
#include <pthread.h>

pthread_mutex_t rec;
pthread_mutex_t rec2 = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int depth;

static void enter(void)
{
    pthread_mutex_lock(&rec);
    pthread_mutex_lock(&rec2);
    depth++;
}

static void leave(void)
{
    depth--;
    pthread_mutex_unlock(&rec2);
    pthread_mutex_unlock(&rec);
}

void *worker(void *p)
{
    enter();
    enter();
    leave();
    leave();
    return p;
}

int main(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rec, &attr);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
