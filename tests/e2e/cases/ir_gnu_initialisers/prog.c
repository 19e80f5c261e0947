/* Brace elision, {0}, designators written by a macro, nested designators, compound literals. */
#include <pthread.h>
struct inner { int a, b; };
struct outer { struct inner i; int c; pthread_mutex_t m; };
#define S { .c = 3 }
struct outer gz = {0};
struct outer gs = S;
int arr[4][2] = { 1, 2, 3, 4 };
struct outer *gp = &(struct outer){ .c = 5 };
int main(void) {
    struct outer x = {0};
    struct outer y = S;
    struct outer z = { 1, 2, 3 };
    struct inner w[2] = { [1] = { .b = 4 }, [0].a = 1 };
    int q[] = { [3] = 1 };
    x = (struct outer){ .c = 1 };
    return x.c + y.c + z.i.a + w[1].b + q[3] + (int)sizeof q;
}
