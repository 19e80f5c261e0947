/* The twin of check_po_dekker_rounds_true: after waiting for its turn thr1
 * does not raise its flag again, sees thr0 between its two rounds, and
 * both enter. */
#include <pthread.h>
#include <assert.h>
int flag0, flag1, turn, inside;
void *thr0(void *a) {
    for (int i = 0; i < 2; i++) {
        flag0 = 1;
        while (flag1) {
            if (turn != 0) {
                flag0 = 0;
                while (turn != 0) {}
                flag0 = 1;
            }
        }
        inside++; assert(inside == 1); inside--;
        turn = 1;
        flag0 = 0;
    }
    return 0;
}
void *thr1(void *a) {
    flag1 = 1;
    while (flag0) {
        if (turn != 1) {
            flag1 = 0;
            while (turn != 1) {}
            /* the bug: flag1 = 1; is missing */
        }
    }
    inside++; assert(inside == 1); inside--;
    turn = 0;
    flag1 = 0;
    return 0;
}
int main(void) {
    pthread_t t0, t1;
    pthread_create(&t0, 0, thr0, 0);
    pthread_create(&t1, 0, thr1, 0);
    return 0;
}
