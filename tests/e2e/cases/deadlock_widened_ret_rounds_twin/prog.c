#include <pthread.h>

/* Two functions that call each other and return what the other returns or
 * what one of five helpers returns: the set of values a summary returns
 * crosses the bound of values a local may hold (4), so without the
 * widening it shrinks and grows again from round to round and the
 * component never settles (the run was incomplete). fa also takes lb. */
static pthread_mutex_t la = PTHREAD_MUTEX_INITIALIZER, lb = PTHREAD_MUTEX_INITIALIZER;
static int setting;
static int fb(int n);
static int h0(int x) { return x * 2 + setting; }
static int h1(int x) { return x * 3 + setting; }
static int h2(int x) { return x * 4 + setting; }
static int h3(int x) { return x * 5 + setting; }
static int h4(int x) { return x * 6 + setting; }

static int fa(int n)
{
    int r = h0(n);
    if (r > 0)
        r = fb(n - 1);
    pthread_mutex_lock(&lb);
    setting = r;
    pthread_mutex_unlock(&lb);
    return r;
}

static int fb(int n)
{
    int r = fa(n - 1);
    if (n == 1)
        r = h1(n);
    if (n == 2)
        r = h2(n);
    if (n == 3)
        r = h3(n);
    if (n == 4)
        r = h4(n);
    if (r > 3)
        r = fa(n - 2);
    return r;
}

/* w1 holds la while fa takes lb */
static void *w1(void *p)
{
    (void)p;
    pthread_mutex_lock(&la);
    fa(9);
    pthread_mutex_unlock(&la);
    return 0;
}

/* w2 takes them in the same order: no deadlock */
static void *w2(void *p)
{
    (void)p;
    pthread_mutex_lock(&la);
    pthread_mutex_lock(&lb);
    setting++;
    pthread_mutex_unlock(&lb);
    pthread_mutex_unlock(&la);
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, w1, 0);
    pthread_create(&t2, 0, w2, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
