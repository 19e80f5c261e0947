/* Read only through proj.h, so only through the PCH: a change here must
 * reach the unit cache. */
#ifndef INNER_H
#define INNER_H
#include <pthread.h>

struct item {
    int kind;
    union { int i; float f; };   /* anonymous members: keyed by where they are */
    union { long l; char c; };
    pthread_mutex_t lock;
};
#endif
