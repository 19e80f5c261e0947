/* A 32-bit program that includes <errno.h> (its asm/ headers come from
 * Debian's gcc-multilib): the front end reads it and po finds the race on
 * code. (errno itself is *__errno_location(), a pointer returned by a
 * function without a body, on which po claims nothing.) */
#include <errno.h>
#include <pthread.h>

int code;

void *worker(void *arg)
{
    code = EAGAIN;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    code = EINVAL;
    return (int)sizeof(void *);
}
