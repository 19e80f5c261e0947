/* deadlock: the entry point of the analysis (deadlock.h) — sets up the
 * interning context, runs the recursive-mutex pre-pass, the bottom-up
 * summaries (dl_summary.c) and the thread/cycle search (dl_threads.c), and
 * frees everything but the result. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/mem.h"
#include "deadlock/deadlock.h"
#include "deadlock/dl_cache.h"
#include "deadlock/dl_internal.h"

void deadlock_opts_default(deadlock_opts *o)
{
    memset(o, 0, sizeof *o);
    o->entry = DEADLOCK_ENTRY_MAIN;
}

const char *deadlock_kind_name(deadlock_kind k)
{
    switch (k) {
    case DEADLOCK_CYCLE: return "deadlock";
    case DEADLOCK_SELF: return "self-deadlock";
    case DEADLOCK_LOCK_ORDER: return "lock-order-inversion";
    }
    return "?";
}

bool dl_out_of_budget(dl_ctx *c)
{
    if (!c->deadline && !c->mem_limit)
        return false;
    double now = base_now();
    if (c->deadline && now >= c->deadline) {
        if (!c->stopped)
            c->stopped = "time";
        return true;
    }
    if (c->mem_limit && now >= c->next_mem_check) {
        c->next_mem_check = now + 0.05;
        c->mem_over = base_rss_bytes() > c->mem_limit;
        if (c->mem_over && !c->stopped)
            c->stopped = "memory";
    }
    return c->mem_over;
}

void deadlock_analyse(const ir_program *p, const deadlock_opts *o, deadlock_result *res)
{
    memset(res, 0, sizeof *res);
    dl_ctx c;
    memset(&c, 0, sizeof c);
    c.prog = p;
    c.opts = o;
    base_arena_init(&c.arena);
    base_hashmap_init(&c.paths_t.index);
    base_hashmap_init(&c.sets_t.index);
    base_hashmap_init(&c.traces_t.index);
    base_hashmap_init(&c.insts_t.index);
    base_hashmap_init(&c.atoms_t.index);
    base_hashmap_init(&c.cases_t.index);
    base_hashmap_init(&c.spec_ix);
    base_hashmap_init(&c.func_index);
    base_hashmap_init(&c.rec_locks);
    base_hashmap_init(&c.rec_fields);
    base_hashmap_init(&c.widened_instsets);
    base_hashmap_init(&c.path_classes);
    base_hashmap_init(&c.nonrec_fields);
    base_hashmap_init(&c.link_cyclic);
    base_hashmap_init(&c.type_canon);
    base_hashmap_init(&c.fnstores);
    base_hashmap_init(&c.fn_escaped);
    base_hashmap_init(&c.fn_esc_arg);
    base_hashmap_init(&c.fn_outp);
    base_hashmap_init(&c.fn_stmt_func);
    base_hashmap_init(&c.fo_exact);
    base_hashmap_init(&c.fo_cover);
    base_hashmap_init(&c.fo_copied);
    base_hashmap_init(&c.fo_fc_index);
    base_hashmap_init(&c.fo_ctor);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        base_hashmap_put(&c.func_index, (uint64_t)(uintptr_t)p->funcs[i], i);
    c.sums = base_xcalloc(p->nfuncs + 1, sizeof *c.sums);
    c.empty = dl_set(&c, NULL, 0);

    dl_prepass_recursive(&c);
    dl_cache *cache = o->cache_dir ? dl_cache_open(&c, o->cache_dir) : NULL;
    c.store = cache ? dl_cache_as_store(cache) : NULL;
    c.deadline = o->deadline;
    c.mem_limit = o->max_bytes;
    dl_summarise_all(&c);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        c.unknown_locks += c.sums[i].nunknown;
    /* the threads and cycles get a grace past the budgets */
    if (o->deadline)
        c.deadline = (c.stopped ? base_now() : o->deadline) + o->grace_s;
    c.mem_limit += c.mem_limit / 4;
    c.next_mem_check = 0;
    c.mem_over = false;
    dl_find(&c, res);
    uint32_t opaque = c.empty;
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (c.sums[i].done)
            opaque = dl_set_union(&c, opaque, c.sums[i].opaque);
    res->nassumed = dl_set_len(&c, opaque);
    res->assumed = base_xcalloc(res->nassumed + 1, sizeof *res->assumed);
    for (size_t i = 0; i < res->nassumed; i++) {
        const dl_path *fp = &c.paths.data[dl_set_data(&c, opaque)[i]];
        res->assumed[i] = base_xstrdup(base_sym_str(p->syms, p->funcs[fp->a]->name));
    }
    res->stopped = c.stopped ? c.stopped : c.unsettled ? "round" : c.cycles_cut ? "search" : NULL;
    res->funcs_unsummarised = c.funcs_unsummarised;
    res->cycles_cut = c.cycles_cut;
    res->nfuncs = p->nfuncs;
    res->unknown_locks = c.unknown_locks;
    if (cache)
        dl_cache_close(cache, res);

    for (uint32_t i = 0; i < p->nfuncs; i++)
        dl_summary_free(&c.sums[i]);
    free(c.sums);
    for (size_t i = 0; i < c.specs.len; i++) {
        dl_summary_free(&c.specs.data[i]->sum);
        free(c.specs.data[i]);
    }
    base_vec_free(&c.specs);
    base_hashmap_free(&c.spec_ix);
    free(c.scc_of);
    free(c.branches_on_param);
    dl_itab_free(&c.paths_t);
    dl_itab_free(&c.sets_t);
    dl_itab_free(&c.traces_t);
    dl_itab_free(&c.insts_t);
    dl_itab_free(&c.atoms_t);
    dl_itab_free(&c.cases_t);
    base_vec_free(&c.atoms);
    base_vec_free(&c.paths);
    base_vec_free(&c.sets);
    base_vec_free(&c.set_len);
    base_vec_free(&c.traces);
    base_vec_free(&c.insts);
    base_hashmap_free(&c.func_index);
    base_hashmap_free(&c.rec_locks);
    base_hashmap_free(&c.rec_fields);
    base_hashmap_free(&c.widened_instsets);
    base_hashmap_free(&c.path_classes);
    base_hashmap_free(&c.nonrec_fields);
    base_hashmap_free(&c.link_cyclic);
    base_hashmap_free(&c.type_canon);
    base_hashmap_free(&c.fnstores);
    base_hashmap_free(&c.fn_escaped);
    base_hashmap_free(&c.fn_esc_arg);
    base_hashmap_free(&c.fn_outp);
    base_hashmap_free(&c.fn_stmt_func);
    for (uint32_t i = 0; c.fn_callsites && i < p->nfuncs; i++)
        base_vec_free(&c.fn_callsites[i]);
    free(c.fn_callsites);
    base_hashmap_free(&c.fo_exact);
    base_hashmap_free(&c.fo_cover);
    base_hashmap_free(&c.fo_copied);
    base_hashmap_free(&c.fo_fc_index);
    base_hashmap_free(&c.fo_ctor);
    base_vec_free(&c.fo_fc);
    base_vec_free(&c.fo_cstores);
    for (uint32_t i = 0; c.fo_needs && i < p->nfuncs; i++)
        base_vec_free(&c.fo_needs[i]);
    free(c.fo_needs);
    free(c.fo_need_state);
    base_vec_free(&c.fn_unkeyed);
    base_vec_free(&c.canon_types);
    base_arena_free(&c.arena);
}

static void free_chain(deadlock_chain *ch)
{
    for (size_t i = 0; i < ch->nframes; i++) {
        free(ch->frames[i].func);
        free(ch->frames[i].file);
    }
    free(ch->frames);
}

void deadlock_result_free(deadlock_result *res)
{
    for (size_t i = 0; i < res->nfindings; i++) {
        deadlock_finding *f = &res->findings[i];
        for (size_t k = 0; k < f->nedges; k++) {
            deadlock_edge *e = &f->edges[k];
            free(e->held);
            free(e->wanted);
            free(e->thread);
            free(e->thread_start);
            free_chain(&e->start_chain);
            free_chain(&e->held_chain);
            free_chain(&e->wanted_chain);
            for (size_t g = 0; g < e->nguards; g++)
                free(e->guards[g]);
            free(e->guards);
        }
        free(f->edges);
        free(f->why);
    }
    free(res->findings);
    for (size_t i = 0; i < res->nlocks; i++)
        free(res->locks[i]);
    free(res->locks);
    free(res->gedges);
    for (size_t i = 0; i < res->nentries; i++)
        free(res->entries[i]);
    free(res->entries);
    for (size_t i = 0; i < res->nassumed; i++)
        free(res->assumed[i]);
    free(res->assumed);
    for (size_t i = 0; i < res->nlink_ordered; i++) {
        free(res->link_ordered[i].locks);
        free(res->link_ordered[i].link);
        free(res->link_ordered[i].record);
    }
    free(res->link_ordered);
    memset(res, 0, sizeof *res);
}
