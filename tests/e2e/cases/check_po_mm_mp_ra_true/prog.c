#include <assert.h>
#include <pthread.h>
/* Message passing under release/acquire (every access is one): reading the
 * flag's 1 makes the data's write visible. */
int data, flag, r1, r2;
void *producer(void *a) { (void)a; data = 1; flag = 1; return 0; }
void *consumer(void *a) { (void)a; r1 = flag; r2 = data; return 0; }
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(r1 == 1 && r2 == 0));
    return 0;
}
