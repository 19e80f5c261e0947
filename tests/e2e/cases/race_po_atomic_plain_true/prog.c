/* A plain store and load of an _Atomic object are seq_cst atomic operations
   (C17 6.3.2.1, 6.5.16.1): they do not race, and they order data. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int flag;
int data;
void *writer(void *arg) {
    data = 42;
    flag = 1;
    return NULL;
}
void *reader(void *arg) {
    if (flag == 1)
        assert(data == 42);
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, writer, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
