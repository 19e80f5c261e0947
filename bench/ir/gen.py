#!/usr/bin/env python3
"""Generates one large C file for the front-end bench: N modules of
structs with locks, helper functions with loops, switches and calls, and
thread entry points. usage: gen.py N > big.c  (about 60 lines per module)"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
out = ["#include <pthread.h>", "#include <stdlib.h>", ""]
for i in range(n):
    out.append(f"""struct dev{i} {{ int count; int state; pthread_mutex_t lock; int buf[8]; }};
static struct dev{i} g{i};
static int helper{i}(struct dev{i} *d, int k)
{{
    int acc = 0;
    for (int j = 0; j < 8; j++) {{
        if (d->buf[j] > k)
            acc += d->buf[j] * 2;
        else
            acc -= j;
    }}
    switch (d->state) {{
    case 0: d->state = 1; break;
    case 1: d->state = acc > 0 ? 2 : 0; break;
    default: d->state = 0;
    }}
    return acc;
}}
void *entry{i}(void *arg)
{{
    struct dev{i} *d = arg ? arg : &g{i};
    int *tmp = malloc(sizeof(int) * 4);
    pthread_mutex_lock(&d->lock);
    d->count++;
    tmp[0] = helper{i}(d, d->count);
    pthread_mutex_unlock(&d->lock);
    free(tmp);
    return NULL;
}}
""")
out.append("int main(void)\n{\n    pthread_t t;")
for i in range(0, n, max(1, n // 50)):
    out.append(f"    pthread_create(&t, NULL, entry{i}, NULL);\n    pthread_join(t, NULL);")
out.append("    return 0;\n}")
print("\n".join(out))
