/* check: named checks and their selectors (see check.h). */
#include "logic/check.h"

#include <stdio.h>
#include <string.h>

const logic_formula *logic_check_named(logic_builder *b, const char *name, const logic_formula *f)
{
    logic_check *c = base_arena_alloc(&b->arena, sizeof *c);
    c->f = f;
    c->name = base_arena_strdup(&b->arena, name);
    c->next = b->checks;
    b->checks = c;
    b->nchecks++;
    return f;
}

const char *logic_check_name(const logic_builder *b, const logic_formula *f)
{
    for (const logic_check *c = b->checks; c; c = c->next)
        if (c->f == f)
            return c->name;
    return NULL;
}

typedef struct relax_state {
    logic_builder *b;
    logic_relaxed *out;
    uint32_t cap;
} relax_state;

static const logic_formula *relax(relax_state *rs, const logic_formula *f)
{
    logic_builder *b = rs->b;
    const char *name = logic_check_name(b, f);
    if (name) {
        logic_relaxed *o = rs->out;
        for (uint32_t i = 0; i < o->n; i++)
            if (strcmp(o->names[i], name) == 0) {
                /* Two checks of one name (cat lets a name repeat): tell them apart. */
                char buf[128];
                snprintf(buf, sizeof buf, "%s#%u", name, o->n + 1);
                name = base_arena_strdup(&b->arena, buf);
                break;
            }
        if (o->n == rs->cap) {
            uint32_t cap = rs->cap ? rs->cap * 2 : 8;
            const logic_sovar **sel = base_arena_alloc(&b->arena, cap * sizeof *sel);
            const char **names = base_arena_alloc(&b->arena, cap * sizeof *names);
            if (o->n) {
                memcpy(sel, o->sel, o->n * sizeof *sel);
                memcpy(names, o->names, o->n * sizeof *names);
            }
            o->sel = sel, o->names = names, rs->cap = cap;
        }
        logic_sovar *s = logic_new_sovar(b, name, 1);
        o->sel[o->n] = s;
        o->names[o->n] = name;
        o->n++;
        return logic_implies(b, logic_sov1(b, s, logic_const(0)), f);
    }
    if (f->kind == LOGIC_AND) {
        const logic_formula **kids = base_arena_alloc(&b->arena, (f->nkids ? f->nkids : 1) * sizeof *kids);
        for (uint32_t i = 0; i < f->nkids; i++)
            kids[i] = relax(rs, f->kids[i]);
        return logic_and(b, kids, f->nkids);
    }
    if (f->kind == LOGIC_SO_EXISTS)
        return logic_so_exists(b, f->sov, relax(rs, f->kids[0]));
    return f;
}

void logic_checks_relax(logic_builder *b, const logic_formula *f, logic_relaxed *out)
{
    memset(out, 0, sizeof *out);
    relax_state rs = { .b = b, .out = out };
    const logic_formula *g = relax(&rs, f);
    for (uint32_t i = out->n; i-- > 0;)
        g = logic_so_exists(b, out->sel[i], g);
    out->f = g;
}
