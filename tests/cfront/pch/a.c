/* a.c: main; the locks. The first line that is not a comment is the
 * shared #include. */
#include "proj.h"

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    pthread_t t[3];
    pthread_create(&t[0], NULL, worker_a, NULL);
    pthread_create(&t[1], NULL, worker_b, NULL);
    pthread_create(&t[2], NULL, worker_c, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("%s\n", __FILE__);
    return 0;
}
