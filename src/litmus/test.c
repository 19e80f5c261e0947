#include "litmus/test.h"

#include <stdlib.h>
#include <string.h>

int litmus_value_cmp(litmus_value a, litmus_value b)
{
    if (a.kind != b.kind)
        return a.kind < b.kind ? -1 : 1;
    if (a.kind != LITMUS_VAL_INT && a.loc != b.loc)
        return a.loc < b.loc ? -1 : 1;
    return a.num < b.num ? -1 : a.num > b.num;
}

void litmus_test_free(litmus_test *t)
{
    if (!t)
        return;
    base_arena a = t->arena; /* t itself lives in its arena */
    base_arena_free(&a);
}

uint32_t litmus_test_find_loc(const litmus_test *t, base_sym name)
{
    for (uint32_t i = 0; i < t->nlocs; i++)
        if (t->locs[i].name == name)
            return i;
    return UINT32_MAX;
}

static const litmus_test *sort_ctx;

static int obs_cmp(const void *pa, const void *pb)
{
    const litmus_observable *a = pa, *b = pb;
    const litmus_test *t = sort_ctx;
    if (a->is_reg != b->is_reg)
        return a->is_reg ? -1 : 1;
    if (a->is_reg) {
        uint32_t pa_ = t->threads[a->thread].proc, pb_ = t->threads[b->thread].proc;
        if (pa_ != pb_)
            return pa_ < pb_ ? -1 : 1;
        return strcmp(base_sym_str(t->syms, t->threads[a->thread].regs[a->reg]),
                      base_sym_str(t->syms, t->threads[b->thread].regs[b->reg]));
    }
    if (a->shape == LITMUS_SHAPE_PLAIN && b->shape == LITMUS_SHAPE_PLAIN)
        return strcmp(base_sym_str(t->syms, t->locs[a->location].name),
                      base_sym_str(t->syms, t->locs[b->location].name));
    /* an array's cells by the array's name, whole arrays apart, in cell order */
    uint32_t ba = a->location - t->locs[a->location].cell, bb = b->location - t->locs[b->location].cell;
    int c = strcmp(base_sym_str(t->syms, t->locs[ba].name), base_sym_str(t->syms, t->locs[bb].name));
    if (c)
        return c;
    if (a->shape != b->shape)
        return a->shape < b->shape ? -1 : 1;
    return a->location < b->location ? -1 : a->location > b->location;
}

void litmus_test_sort_observables(litmus_test *t)
{
    if (t->nobs < 2)
        return;
    sort_ctx = t;
    qsort(t->obs, t->nobs, sizeof *t->obs, obs_cmp);
    uint32_t n = 1;
    for (uint32_t i = 1; i < t->nobs; i++) {
        if (obs_cmp(&t->obs[n - 1], &t->obs[i]) != 0)
            t->obs[n++] = t->obs[i];
    }
    t->nobs = n;
    sort_ctx = NULL;
}

litmus_value litmus_typed_value(litmus_reg_type type, litmus_value v)
{
    if (v.kind != LITMUS_VAL_INT)
        return v;
    uint64_t u = (uint64_t)v.num;
    switch (type) {
    case LITMUS_RT_INT: v.num = (int64_t)(int32_t)(uint32_t)u; break;
    case LITMUS_RT_UINT32: v.num = (int64_t)(u & 0xffffffffu); break;
    case LITMUS_RT_INT64:
    case LITMUS_RT_UINT64: break;
    case LITMUS_RT_INT8: v.num = (int64_t)(int8_t)(uint8_t)u; break;
    case LITMUS_RT_UINT8: v.num = (int64_t)(u & 0xffu); break;
    case LITMUS_RT_INT16: v.num = (int64_t)(int16_t)(uint16_t)u; break;
    case LITMUS_RT_UINT16: v.num = (int64_t)(u & 0xffffu); break;
    }
    return v;
}

litmus_value litmus_reg_value(const litmus_thread *th, uint32_t reg, litmus_value v)
{
    if (!th->reg_types || reg >= th->nregs)
        return v;
    return litmus_typed_value((litmus_reg_type)th->reg_types[reg], v);
}
