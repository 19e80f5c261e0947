#include "litmus/encode.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "logic/vocab.h"

static bool is_mem(const litmus_event *e)
{
    return e->kind != LITMUS_EV_FENCE;
}

static bool is_write(const litmus_event *e)
{
    return e->kind == LITMUS_EV_WRITE || e->kind == LITMUS_EV_INIT;
}

void litmus_encode_structure(const litmus_test *t, const litmus_evstruct *es, logic_structure *st)
{
    uint32_t n = es->nevents;
    logic_structure_init(st, n);
    uint32_t R = logic_structure_add(st, LOGIC_V_READ, 1);
    uint32_t W = logic_structure_add(st, LOGIC_V_WRITE, 1);
    uint32_t F = logic_structure_add(st, LOGIC_V_FENCE, 1);
    uint32_t M = logic_structure_add(st, LOGIC_V_MEM, 1);
    uint32_t IW = logic_structure_add(st, LOGIC_V_INIT, 1);
    uint32_t RMWEV = logic_structure_add(st, LOGIC_V_RMWEV, 1);
    uint32_t po = logic_structure_add(st, LOGIC_V_PO, 2);
    uint32_t cf = logic_structure_add(st, LOGIC_V_CONFLICT, 2);
    uint32_t loc = logic_structure_add(st, LOGIC_V_LOC, 2);
    uint32_t in = logic_structure_add(st, LOGIC_V_INT, 2);
    uint32_t ext = logic_structure_add(st, LOGIC_V_EXT, 2);
    uint32_t rfc = logic_structure_add(st, LOGIC_V_RF_CAND, 2);
    uint32_t coc = logic_structure_add(st, LOGIC_V_CO_CAND, 2);
    uint32_t jfc = logic_structure_add(st, LOGIC_V_JF_CAND, 2);
    uint32_t addr = logic_structure_add(st, LOGIC_V_ADDR, 2);
    uint32_t data = logic_structure_add(st, LOGIC_V_DATA, 2);
    uint32_t ctrl = logic_structure_add(st, LOGIC_V_CTRL, 2);
    uint32_t rmw = logic_structure_add(st, LOGIC_V_RMW, 2);
    uint32_t located = logic_structure_add(st, LOGIC_V_LOCATED, 1);
    uint32_t diffval = logic_structure_add(st, LOGIC_V_DIFFVAL, 2);

    /* Annotation sets, one per annotation name used. */
    base_strbuf name = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        const litmus_event *e = &es->events[i];
        if (!e->annots)
            continue;
        for (uint32_t k = 0; k < e->annots->count; k++) {
            base_strbuf_clear(&name);
            base_strbuf_printf(&name, "%s%s", LOGIC_V_ANNOT_PREFIX,
                               base_sym_str(t->syms, e->annots->syms[k]));
            int r = logic_structure_find(st, base_strbuf_cstr(&name));
            if (r < 0)
                r = (int)logic_structure_add(st, base_strbuf_cstr(&name), 1);
            logic_rel_set1(st, (uint32_t)r, i);
        }
    }
    base_strbuf_free(&name);

    /* po: ancestors, by walking each event's parent chain. */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t p = es->events[i].parent; p != LITMUS_NONE; p = es->events[p].parent)
            logic_rel_set2(st, po, p, i);

    for (uint32_t i = 0; i < n; i++) {
        const litmus_event *e = &es->events[i];
        if (e->kind == LITMUS_EV_READ)
            logic_rel_set1(st, R, i);
        if (is_write(e))
            logic_rel_set1(st, W, i);
        if (e->kind == LITMUS_EV_FENCE)
            logic_rel_set1(st, F, i);
        if (is_mem(e))
            logic_rel_set1(st, M, i);
        if (e->kind == LITMUS_EV_INIT)
            logic_rel_set1(st, IW, i);
        if (e->rmw)
            logic_rel_set1(st, RMWEV, i);
        if (e->located)
            logic_rel_set1(st, located, i);
        if (e->rmw_write != LITMUS_NONE)
            logic_rel_set2(st, rmw, i, e->rmw_write);
    }
    for (uint32_t i = 0; i < n; i++) {
        const litmus_event *a = &es->events[i];
        for (uint32_t j = 0; j < n; j++) {
            const litmus_event *b = &es->events[j];
            bool same_thread = a->thread != LITMUS_NONE && a->thread == b->thread;
            bool conflict = same_thread && i != j && !logic_rel_get2(st, po, i, j) &&
                            !logic_rel_get2(st, po, j, i);
            if (conflict)
                logic_rel_set2(st, cf, i, j);
            if (same_thread)
                logic_rel_set2(st, in, i, j);
            else if (i != j)
                logic_rel_set2(st, ext, i, j);
            bool la = is_mem(a) || a->located, lb = is_mem(b) || b->located;
            if (la && lb && !litmus_value_eq(a->value, b->value))
                logic_rel_set2(st, diffval, i, j);
            if (!la || !lb || a->loc != b->loc)
                continue;
            logic_rel_set2(st, loc, i, j);
            if (!is_mem(a) || !is_mem(b))
                continue;
            bool same_value = is_write(a) && b->kind == LITMUS_EV_READ &&
                              litmus_value_eq(a->value, b->value);
            if (same_value)
                logic_rel_set2(st, jfc, i, j);
            if (conflict || i == j)
                continue;
            if (same_value)
                logic_rel_set2(st, rfc, i, j);
            if (is_write(a) && is_write(b) && b->kind != LITMUS_EV_INIT)
                logic_rel_set2(st, coc, i, j);
        }
    }
    for (uint32_t k = 0; k < es->naddr; k++)
        logic_rel_set2(st, addr, es->addr[k].from, es->addr[k].to);
    for (uint32_t k = 0; k < es->ndata; k++)
        logic_rel_set2(st, data, es->data[k].from, es->data[k].to);
    for (uint32_t k = 0; k < es->nctrl; k++)
        logic_rel_set2(st, ctrl, es->ctrl[k].from, es->ctrl[k].to);
}
