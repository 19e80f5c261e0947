/* Peterson's mutual exclusion with a wrong turn in thr1. */
#include <pthread.h>
#include <assert.h>
int flag1, flag2, turn, x;
void *thr1(void *a) {
    flag1 = 1; turn = 0; /* the bug: gives the turn to itself */
    while (flag2 == 1 && turn == 1) {}
    x = 0; assert(x <= 0);
    flag1 = 0;
    return 0;
}
void *thr2(void *a) {
    flag2 = 1; turn = 0;
    while (flag1 == 1 && turn == 0) {}
    x = 1; assert(x >= 1);
    flag2 = 0;
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, thr1, 0);
    pthread_create(&t2, 0, thr2, 0);
    return 0;
}
