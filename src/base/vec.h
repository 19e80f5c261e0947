/* vec: growable arrays as a typed macro family.
 *
 *     BASE_VEC(int) v = {0};
 *     base_vec_push(&v, 3);
 *     for (size_t i = 0; i < v.len; i++) use(v.data[i]);
 *     base_vec_free(&v);
 *
 * Invariant: len <= cap; data is NULL exactly when cap == 0. A zeroed vec is
 * a valid empty vec. */
#ifndef RAVEL_BASE_VEC_H
#define RAVEL_BASE_VEC_H

#include <stddef.h>
#include <stdlib.h>

#include "base/xalloc.h"

#define BASE_VEC(T) struct { T *data; size_t len, cap; }

/* Makes room for at least `need` elements of `elem` bytes. */
void base_vec_reserve_raw(void **data, size_t *cap, size_t need, size_t elem);

#define base_vec_reserve(v, n) \
    base_vec_reserve_raw((void **)&(v)->data, &(v)->cap, (n), sizeof *(v)->data)

#define base_vec_push(v, x)                                   \
    do {                                                      \
        if ((v)->len == (v)->cap)                             \
            base_vec_reserve((v), (v)->len + 1);              \
        (v)->data[(v)->len++] = (x);                          \
    } while (0)

#define base_vec_pop(v) ((v)->data[--(v)->len])
#define base_vec_last(v) ((v)->data[(v)->len - 1])
#define base_vec_clear(v) ((v)->len = 0)
#define base_vec_free(v)                                      \
    do {                                                      \
        free((v)->data);                                      \
        (v)->data = NULL;                                     \
        (v)->len = (v)->cap = 0;                              \
    } while (0)

#endif
