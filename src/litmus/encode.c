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
    logic_vocab v;
    logic_vocab_add(st, &v);
    uint32_t R = v.R, W = v.W, F = v.F, M = v.M, IW = v.IW, RMWEV = v.RMWEV, po = v.po;
    uint32_t cf = v.conflict, loc = v.loc, in = v.in, ext = v.ext, rfc = v.rf_cand, coc = v.co_cand;
    uint32_t jfc = v.jf_cand, addr = v.addr, data = v.data, ctrl = v.ctrl, rmw = v.rmw;

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
            if (!is_mem(a) || !is_mem(b) || a->loc != b->loc)
                continue;
            logic_rel_set2(st, loc, i, j);
            bool same_value = is_write(a) && b->kind == LITMUS_EV_READ &&
                              litmus_event_may_read(es, b, a->value);
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
