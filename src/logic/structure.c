#include "logic/structure.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void logic_structure_init(logic_structure *s, uint32_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
}

void logic_structure_free(logic_structure *s)
{
    for (uint32_t i = 0; i < s->nrels; i++) {
        free(s->rels[i].name);
        free(s->rels[i].bits);
    }
    free(s->rels);
    memset(s, 0, sizeof *s);
}

uint32_t logic_structure_add(logic_structure *s, const char *name, uint32_t arity)
{
    if (s->nrels == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->rels = base_xrealloc(s->rels, base_mul_size(s->cap, sizeof *s->rels));
    }
    size_t nbits = arity == 1 ? s->n : base_mul_size(s->n, s->n);
    logic_relation *r = &s->rels[s->nrels];
    r->name = base_xstrdup(name);
    r->arity = arity;
    r->bits = base_xcalloc(nbits / 64 + 1, sizeof(uint64_t));
    return s->nrels++;
}

int logic_structure_find(const logic_structure *s, const char *name)
{
    for (uint32_t i = 0; i < s->nrels; i++)
        if (strcmp(s->rels[i].name, name) == 0)
            return (int)i;
    return -1;
}

void logic_rel_set1(logic_structure *s, uint32_t rel, uint32_t a)
{
    logic_bit_set(s->rels[rel].bits, a);
}

void logic_rel_set2(logic_structure *s, uint32_t rel, uint32_t a, uint32_t b)
{
    logic_bit_set(s->rels[rel].bits, (size_t)a * s->n + b);
}

bool logic_rel_get1(const logic_structure *s, uint32_t rel, uint32_t a)
{
    return logic_bit_get(s->rels[rel].bits, a);
}

bool logic_rel_get2(const logic_structure *s, uint32_t rel, uint32_t a, uint32_t b)
{
    return logic_bit_get(s->rels[rel].bits, (size_t)a * s->n + b);
}
