/* _Static_assert, bit-fields, a flexible array member, a VLA and its sizeof, _Generic, __thread, K&R definitions. */
#include <pthread.h>
#include <stdlib.h>
_Static_assert(sizeof(int) == 4, "int");
struct bf { unsigned a : 3; unsigned b : 5; int c; };
struct fam { int n; int d[]; };
__thread int tl;
static void unlockit(pthread_mutex_t **m) { pthread_mutex_unlock(*m); }
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int kr(a, b) int a; char *b; { return a + *b; }
int f(int n) {
    struct bf x = { 1, 2, 3 };
    x.a = 5;
    int vla[n];
    vla[0] = x.a;
    struct fam *p = malloc(sizeof *p + 4 * sizeof(int));
    p->d[1] = _Generic(n, int: 1, default: 2);
    {
        pthread_mutex_t *m __attribute__((cleanup(unlockit))) = &mu;
        pthread_mutex_lock(m);
        tl++;
    }
    return vla[0] + p->d[1] + (int)sizeof vla;
}
