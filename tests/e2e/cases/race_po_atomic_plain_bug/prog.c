/* The twin of race_po_atomic_plain_true: flag is a plain int, so its two
   accesses race. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
int flag;
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
