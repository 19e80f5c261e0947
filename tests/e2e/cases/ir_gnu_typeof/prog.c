/* typeof, __typeof__ and __auto_type (the container_of idiom): the types they stand for. */
#include <stddef.h>
#include <pthread.h>
#define container_of(ptr, type, member) ({ const typeof(((type *)0)->member) *__mptr = (ptr); (type *)((char *)__mptr - offsetof(type, member)); })
struct opts { int a; };
struct thread_data { int id; struct opts o; pthread_mutex_t m; };
int get(struct opts *o) {
    struct thread_data *td = container_of(o, struct thread_data, o);
    __typeof__(td->id) x = td->id;
    __auto_type y = x + 1;
    return y;
}
