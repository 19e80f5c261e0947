#include "litmus/encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void set_deps(logic_structure *st, uint32_t rel, const litmus_dep *d, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        logic_rel_set2(st, rel, d[k].from, d[k].to);
}

/* herd's register-level names for models that compute their own
 * dependencies (AArch64's catdep): the ports (evstruct.h) as the sets Rreg,
 * ADDR, DATA (register reads) and BCC (branches), rf-reg, iico_data,
 * iico_ctrl, and same-instance (events of one instruction on one path);
 * LOGIC_V_SCA, the pairs of events of one single-copy-atomic access. */
static void encode_registers(const litmus_evstruct *es, logic_structure *st)
{
    uint32_t n = es->nevents;
    uint32_t rreg = logic_structure_add(st, "Rreg", 1), addr = logic_structure_add(st, "ADDR", 1);
    uint32_t data = logic_structure_add(st, "DATA", 1), bcc = logic_structure_add(st, "BCC", 1);
    uint32_t rf = logic_structure_add(st, "rf-reg", 2);
    uint32_t iico_data = logic_structure_add(st, "iico_data", 2);
    uint32_t iico_ctrl = logic_structure_add(st, "iico_ctrl", 2);
    uint32_t same = logic_structure_add(st, "same-instance", 2);
    for (uint32_t i = 0; i < n; i++) {
        char k = es->events[i].port;
        if (k == 'A' || k == 'D')
            logic_rel_set1(st, rreg, i);
        if (k)
            logic_rel_set1(st, k == 'A' ? addr : k == 'D' ? data : bcc, i);
        /* same instance: i and its ancestors of the same instruction */
        for (uint32_t p = i; p != LITMUS_NONE && es->events[p].thread == es->events[i].thread &&
                             es->events[p].instr == es->events[i].instr &&
                             es->events[i].thread != LITMUS_NONE;
             p = es->events[p].parent) {
            logic_rel_set2(st, same, p, i);
            logic_rel_set2(st, same, i, p);
        }
    }
    set_deps(st, rf, es->rfreg, es->nrfreg);
    set_deps(st, iico_data, es->iico_data, es->niico_data);
    set_deps(st, iico_ctrl, es->iico_ctrl, es->niico_ctrl);
    /* the events of one single-copy-atomic pair access, both ways (the
     * model's sm adds them to the identity) */
    uint32_t sca = logic_structure_add(st, LOGIC_V_SCA, 2);
    for (uint32_t k = 0; k < es->nsca; k++) {
        logic_rel_set2(st, sca, es->sca[k].from, es->sca[k].to);
        logic_rel_set2(st, sca, es->sca[k].to, es->sca[k].from);
    }
}

/* herd's scope relations (the test's `scopes:` tree): for each level
 * NAME, "scope:NAME" relates the events of two threads (the same one too)
 * in one instance of NAME. The empty set "scopes:tree" says the test has a
 * tree, "scopes:bad" that it has one ravel could not read. */
static void encode_scopes(const litmus_test *t, const litmus_evstruct *es, logic_structure *st)
{
    bool bad = t->scopes_bad;
    for (uint32_t p = 0; p < t->nscope_procs; p++)
        bad |= t->scope_procs[p] >= t->nthreads;
    if (bad) {
        logic_structure_add(st, "scopes:bad", 1);
        return;
    }
    if (t->nscopes == 0)
        return;
    logic_structure_add(st, "scopes:tree", 1);
    uint32_t n = es->nevents;
    bool *in = base_xcalloc(t->nthreads + 1, sizeof *in);
    base_strbuf name = { 0 };
    for (uint32_t k = 0; k < t->nscopes; k++) {
        const litmus_scope *sc = &t->scopes[k];
        base_strbuf_clear(&name);
        base_strbuf_printf(&name, "scope:%s", sc->name);
        int r = logic_structure_find(st, base_strbuf_cstr(&name));
        if (r < 0)
            r = (int)logic_structure_add(st, base_strbuf_cstr(&name), 2);
        memset(in, 0, (t->nthreads + 1) * sizeof *in);
        for (uint32_t p = sc->lo; p < sc->hi; p++)
            in[t->scope_procs[p]] = true;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t ti = es->events[i].thread;
            if (ti == LITMUS_NONE || ti >= t->nthreads || !in[ti])
                continue;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t tj = es->events[j].thread;
                if (tj != LITMUS_NONE && tj < t->nthreads && in[tj])
                    logic_rel_set2(st, (uint32_t)r, i, j);
            }
        }
    }
    base_strbuf_free(&name);
    free(in);
}

/* herd's loc2events: "locname:NAME" holds the memory events (and located
 * fences) on the location NAME. */
static void encode_locations(const litmus_test *t, const litmus_evstruct *es, logic_structure *st)
{
    base_strbuf name = { 0 };
    for (uint32_t i = 0; i < es->nevents; i++) {
        const litmus_event *e = &es->events[i];
        if ((!is_mem(e) && !e->located) || e->loc >= t->nlocs)
            continue;
        base_strbuf_clear(&name);
        base_strbuf_printf(&name, "locname:%s", base_sym_str(t->syms, t->locs[e->loc].name));
        int r = logic_structure_find(st, base_strbuf_cstr(&name));
        if (r < 0)
            r = (int)logic_structure_add(st, base_strbuf_cstr(&name), 1);
        logic_rel_set1(st, (uint32_t)r, i);
    }
    base_strbuf_free(&name);
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
        if (e->kind == LITMUS_EV_FENCE && !e->port)
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
    set_deps(st, addr, es->addr, es->naddr);
    set_deps(st, data, es->data, es->ndata);
    set_deps(st, ctrl, es->ctrl, es->nctrl);
    encode_registers(es, st);
    encode_scopes(t, es, st);
    encode_locations(t, es, st);
}
