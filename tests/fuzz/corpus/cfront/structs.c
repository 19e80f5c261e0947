/* Access paths survive lowering: s->m.lock, a[i].f, fields of anonymous
 * unions; aggregates are initialised member by member after zeroing. */
#include <pthread.h>
struct inner { int v; pthread_mutex_t lock; };
struct outer {
    int id;
    struct inner m;
    union { int as_int; float as_float; };
    int arr[3];
};
struct outer table[4];
struct outer one = { .id = 1, .arr = { 1, 2 }, .m.v = 5 };
char name[8] = "ab";
int main(void)
{
    struct outer o = { 3, { 4 } };
    struct outer *s = &o;
    int i = 1;
    s->m.v = 2;
    table[i].arr[2] = s->arr[0];
    o.as_int = 7;
    pthread_mutex_lock(&s->m.lock);
    pthread_mutex_unlock(&table[i].m.lock);
    int *q = &o.arr[1];
    q = q + 1;
    long diff = q - &o.arr[0];
    struct outer copy = o;
    return copy.id + (int)diff + name[0];
}
