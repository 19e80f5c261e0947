/* structure: a finite relational structure, the "A" of A |= phi.
 *
 * The universe is {0, ..., n-1}. Each named relation has arity 1 or 2 and
 * is stored as a dense bit set of n^arity bits. The litmus front end fills
 * one from an event structure (see logic/vocab.h for the names it
 * provides); models look relations up by name.
 *
 * Invariant: relation names are unique; bits outside [0, n^arity) are 0. */
#ifndef RAVEL_LOGIC_STRUCTURE_H
#define RAVEL_LOGIC_STRUCTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct logic_relation {
    char *name;
    uint32_t arity; /* 1 or 2 */
    uint64_t *bits;
} logic_relation;

typedef struct logic_structure {
    uint32_t n;
    logic_relation *rels;
    uint32_t nrels, cap;
} logic_structure;

void logic_structure_init(logic_structure *s, uint32_t n);
void logic_structure_free(logic_structure *s);
/* Adds an empty relation; returns its index. The name must be new. */
uint32_t logic_structure_add(logic_structure *s, const char *name, uint32_t arity);
/* Index of the relation, or -1 when the structure has none of that name. */
int logic_structure_find(const logic_structure *s, const char *name);
void logic_rel_set1(logic_structure *s, uint32_t rel, uint32_t a);
void logic_rel_set2(logic_structure *s, uint32_t rel, uint32_t a, uint32_t b);
bool logic_rel_get1(const logic_structure *s, uint32_t rel, uint32_t a);
bool logic_rel_get2(const logic_structure *s, uint32_t rel, uint32_t a, uint32_t b);

static inline bool logic_bit_get(const uint64_t *bits, size_t i)
{
    return (bits[i >> 6] >> (i & 63)) & 1;
}
static inline void logic_bit_set(uint64_t *bits, size_t i)
{
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

#endif
