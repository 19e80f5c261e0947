/* Dekker's mutual exclusion: two flags and a turn; the waiting loop has a
 * body (it lowers its flag and waits for its turn). Its iterations that
 * only test are left out (a busy wait with a body, see the manual), so the
 * loop is not cut and the answer is a proof. The twin check_po_dekker_bug
 * forgets to raise a flag. */
#include <pthread.h>
#include <assert.h>
int flag0, flag1, turn, x;
void *thr0(void *a) {
    flag0 = 1;
    while (flag1) {
        if (turn != 0) {
            flag0 = 0;
            while (turn != 0) {}
            flag0 = 1;
        }
    }
    x = 0; assert(x <= 0);
    turn = 1;
    flag0 = 0;
    return 0;
}
void *thr1(void *a) {
    flag1 = 1;
    while (flag0) {
        if (turn != 1) {
            flag1 = 0;
            while (turn != 1) {}
            flag1 = 1;
        }
    }
    x = 1; assert(x >= 1);
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
