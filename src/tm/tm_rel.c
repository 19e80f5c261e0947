/* tm_rel: difference-bound matrices for tm; see tm_rel.h. */
#include "tm/tm_rel.h"

#include <stddef.h>

int64_t tm_rel_add(int64_t a, int64_t b)
{
    if (a == TM_REL_INF || b == TM_REL_INF)
        return TM_REL_INF;
    int64_t s = a + b; /* both within +-TM_REL_MAX */
    if (s > TM_REL_MAX)
        return TM_REL_INF;
    return s < -TM_REL_MAX ? -TM_REL_MAX : s;
}

void tm_rel_top(int64_t *d, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            d[(size_t)i * n + j] = i == j ? 0 : TM_REL_INF;
}

bool tm_rel_join(int64_t *d, const int64_t *s, uint32_t n, bool widen)
{
    bool ch = false;
    for (size_t k = 0; k < (size_t)n * n; k++)
        if (s[k] > d[k]) {
            d[k] = widen ? TM_REL_INF : s[k];
            ch = true;
        }
    return ch;
}

void tm_rel_forget(int64_t *d, uint32_t n, uint32_t x)
{
    for (uint32_t j = 0; j < n; j++)
        if (j != x)
            d[(size_t)x * n + j] = d[(size_t)j * n + x] = TM_REL_INF;
}

void tm_rel_forget_upper(int64_t *d, uint32_t n, uint32_t x)
{
    for (uint32_t j = 0; j < n; j++)
        if (j != x)
            d[(size_t)x * n + j] = TM_REL_INF;
}

void tm_rel_assign(int64_t *d, uint32_t n, uint32_t x, uint32_t y, int64_t c)
{
    if (x == y) {
        for (uint32_t j = 0; j < n; j++)
            if (j != x) {
                d[(size_t)x * n + j] = tm_rel_add(d[(size_t)x * n + j], c);
                d[(size_t)j * n + x] = tm_rel_add(d[(size_t)j * n + x], -c);
            }
        return;
    }
    tm_rel_forget(d, n, x);
    for (uint32_t j = 0; j < n; j++)
        if (j != x && j != y) {
            d[(size_t)x * n + j] = tm_rel_add(d[(size_t)y * n + j], c);
            d[(size_t)j * n + x] = tm_rel_add(d[(size_t)j * n + y], -c);
        }
    d[(size_t)x * n + y] = c;
    d[(size_t)y * n + x] = -c;
}

bool tm_rel_constrain(int64_t *d, uint32_t n, uint32_t x, uint32_t y, int64_t c)
{
    if (tm_rel_add(d[(size_t)y * n + x], c) < 0)
        return false;
    if (c >= d[(size_t)x * n + y])
        return true;
    for (uint32_t i = 0; i < n; i++) {
        int64_t ix = d[(size_t)i * n + x];
        if (ix == TM_REL_INF)
            continue;
        for (uint32_t j = 0; j < n; j++) {
            int64_t v = tm_rel_add(tm_rel_add(ix, c), d[(size_t)y * n + j]);
            if (v < d[(size_t)i * n + j])
                d[(size_t)i * n + j] = v;
        }
    }
    return true;
}

bool tm_rel_close(int64_t *d, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++) {
            int64_t ik = d[(size_t)i * n + k];
            if (ik == TM_REL_INF)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                int64_t v = tm_rel_add(ik, d[(size_t)k * n + j]);
                if (v < d[(size_t)i * n + j])
                    d[(size_t)i * n + j] = v;
            }
        }
    for (uint32_t i = 0; i < n; i++)
        if (d[(size_t)i * n + i] < 0)
            return false;
    return true;
}
