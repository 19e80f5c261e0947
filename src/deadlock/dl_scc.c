#include "deadlock/dl_scc.h"

#include <stdlib.h>

#include "base/xalloc.h"

#define UNSEEN UINT32_MAX

void dl_scc(uint32_t n, dl_scc_succ succ, dl_scc_emit emit, void *ctx)
{
    uint32_t *index = base_xmalloc((n + 1) * sizeof *index), *low = base_xmalloc((n + 1) * sizeof *low);
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack), *cs_node = base_xmalloc((n + 1) * sizeof *cs_node);
    uint32_t *cs_edge = base_xmalloc((n + 1) * sizeof *cs_edge);
    bool *on = base_xcalloc(n + 1, sizeof *on);
    uint32_t counter = 0, sp = 0;
    for (uint32_t i = 0; i < n; i++)
        index[i] = UNSEEN;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != UNSEEN)
            continue;
        uint32_t depth = 1; /* the explicit call stack: cs_node, cs_edge */
        cs_node[0] = root;
        cs_edge[0] = 0;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = true;
        while (depth > 0) {
            uint32_t v = cs_node[depth - 1], w;
            if (succ(ctx, v, cs_edge[depth - 1]++, &w)) {
                if (index[w] == UNSEEN) {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    on[w] = true;
                    cs_node[depth] = w;
                    cs_edge[depth] = 0;
                    depth++;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t start = sp;
                do
                    on[stack[--start]] = false;
                while (stack[start] != v);
                emit(ctx, &stack[start], sp - start);
                sp = start;
            }
            depth--;
            if (depth > 0 && low[v] < low[cs_node[depth - 1]])
                low[cs_node[depth - 1]] = low[v];
        }
    }
    free(index);
    free(low);
    free(stack);
    free(cs_node);
    free(cs_edge);
    free(on);
}
