/* The header every unit of this project begins with (a shared PCH). */
#ifndef PROJ_H
#define PROJ_H
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inner.h"

extern pthread_mutex_t m1, m2;

/* locks taken in a header's inline functions: their bodies matter */
static inline void take_both(pthread_mutex_t *a, pthread_mutex_t *b)
{
    pthread_mutex_lock(a);
    pthread_mutex_lock(b);
}

static inline void drop_both(pthread_mutex_t *a, pthread_mutex_t *b)
{
    pthread_mutex_unlock(b);
    pthread_mutex_unlock(a);
}

static inline void unlockp(pthread_mutex_t **m)
{
    pthread_mutex_unlock(*m);
}

void *worker_a(void *arg);
void *worker_b(void *arg);
void *worker_c(void *arg);
int count_items(struct item *it);
#endif
