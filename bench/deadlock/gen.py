#!/usr/bin/env python3
"""Generates a C code base for bench/deadlock: MODULES files of FUNCS
functions each (about 15 lines per function), with a consistent lock order
(module m's lock is held while calling into module m-1, objects' locks taken
inside helpers through struct pointers and lock wrappers) and PLANTED
deadlocks: pairs of module locks taken in opposite orders by two thread
functions. Writes DIR/mod_<m>.c, DIR/main.c, DIR/common.h and
DIR/planted.txt (the lock pairs that must be reported).

usage: gen.py DIR MODULES FUNCS PLANTED"""
import os
import random
import sys


def main():
    out, modules, funcs, planted = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rnd = random.Random(42)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "common.h"), "w") as f:
        f.write("#include <pthread.h>\n#include <stdlib.h>\n\n")
        f.write("struct obj { pthread_mutex_t lock; int v[8]; struct obj *next; };\n")
        f.write("void lock_obj(struct obj *o);\nvoid unlock_obj(struct obj *o);\n")
        for m in range(modules):
            f.write(f"extern pthread_mutex_t mod{m}_lock;\n")
            f.write(f"void *mod{m}_thread(void *arg);\n")
        for d in range(planted):
            f.write(f"void *plant{d}_a(void *arg);\nvoid *plant{d}_b(void *arg);\n")
    pairs = []
    for d in range(planted):
        a = rnd.randrange(1, modules)
        b = rnd.randrange(0, a)
        pairs.append((a, b))
    for m in range(modules):
        with open(os.path.join(out, f"mod_{m}.c"), "w") as f:
            f.write('#include "common.h"\n\n')
            for k in range(funcs):
                if m > 0:
                    f.write(f"int mod{m - 1}_api{k}(struct obj *o, int x);\n")
                f.write(f"int mod{m}_api{k}(struct obj *o, int x);\n")
            f.write(f"pthread_mutex_t mod{m}_lock = PTHREAD_MUTEX_INITIALIZER;\n")
            f.write(f"static struct obj pool{m}[16];\nstatic int counter{m};\n\n")
            for k in range(funcs):
                f.write(f"static int helper{m}_{k}(struct obj *o, int x)\n{{\n")
                f.write("    int r = 0;\n    lock_obj(o);\n")
                f.write(f"    for (int i = 0; i < 8; i++)\n        r += o->v[i] * (x + {k});\n")
                f.write(f"    o->v[x & 7] = r;\n    unlock_obj(o);\n    return r;\n}}\n\n")
                f.write(f"int mod{m}_api{k}(struct obj *o, int x)\n{{\n")
                f.write(f"    int r;\n    pthread_mutex_lock(&mod{m}_lock);\n")
                f.write(f"    counter{m}++;\n    r = helper{m}_{k}(&pool{m}[x & 15], x);\n")
                if m > 0 and k % 7 == 0:
                    callee = rnd.randrange(funcs)
                    f.write(f"    if (x > {k})\n        r += mod{m - 1}_api{callee}(o, x - 1);\n")
                f.write(f"    pthread_mutex_unlock(&mod{m}_lock);\n    return r;\n}}\n\n")
            f.write(f"void *mod{m}_thread(void *arg)\n{{\n    struct obj *o = arg;\n    int r = 0;\n")
            for k in range(0, funcs, max(1, funcs // 8)):
                f.write(f"    r += mod{m}_api{k}(o, r);\n")
            f.write("    return (void *)(long)r;\n}\n")
            for d, (a, b) in enumerate(pairs):
                if m == a:
                    f.write(f"\nvoid *plant{d}_a(void *arg)\n{{\n    pthread_mutex_lock(&mod{a}_lock);\n"
                            f"    pthread_mutex_lock(&mod{b}_lock);\n    counter{m}++;\n"
                            f"    pthread_mutex_unlock(&mod{b}_lock);\n    pthread_mutex_unlock(&mod{a}_lock);\n"
                            f"    return arg;\n}}\n")
                if m == b:
                    f.write(f"\nvoid *plant{d}_b(void *arg)\n{{\n    pthread_mutex_lock(&mod{b}_lock);\n"
                            f"    pthread_mutex_lock(&mod{a}_lock);\n    counter{m}++;\n"
                            f"    pthread_mutex_unlock(&mod{a}_lock);\n    pthread_mutex_unlock(&mod{b}_lock);\n"
                            f"    return arg;\n}}\n")
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write('#include "common.h"\n\n')
        f.write("void lock_obj(struct obj *o) { pthread_mutex_lock(&o->lock); }\n")
        f.write("void unlock_obj(struct obj *o) { pthread_mutex_unlock(&o->lock); }\n\n")
        f.write("static struct obj shared;\n\nint main(void)\n{\n")
        f.write(f"    pthread_t t[{modules + 2 * planted}];\n")
        for m in range(modules):
            f.write(f"    pthread_create(&t[{m}], NULL, mod{m}_thread, &shared);\n")
        for d in range(planted):
            f.write(f"    pthread_create(&t[{modules + 2 * d}], NULL, plant{d}_a, NULL);\n")
            f.write(f"    pthread_create(&t[{modules + 2 * d + 1}], NULL, plant{d}_b, NULL);\n")
        f.write(f"    for (int i = 0; i < {modules + 2 * planted}; i++)\n        pthread_join(t[i], NULL);\n")
        f.write("    return 0;\n}\n")
    with open(os.path.join(out, "planted.txt"), "w") as f:
        for a, b in sorted(set(pairs)):
            f.write(f"mod{b}_lock mod{a}_lock\n")


if __name__ == "__main__":
    main()
