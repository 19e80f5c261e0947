/* explore/mem: the concrete memory of one run of the explorer.
 *
 * Memory is a byte-addressed space as bmc.h describes it: every object
 * (global, address-taken or aggregate local or parameter, malloc/calloc
 * block, string literal, function) gets its own address, 16-byte aligned,
 * with at least 16 unused bytes after it, and addresses are never reused
 * within a run. The space is backed by one host buffer indexed by the
 * address itself (addresses start at EXPLORE_MEM_FIRST).
 *
 * Invariants:
 *  - objects are numbered from 1 in increasing address order; id 0 is
 *    "no object";
 *  - gran[a >> 4] is the id of the object whose range [base, base + size]
 *    (one past the end included) meets the 16-byte granule of a, or 0; the
 *    gap after each object keeps two objects out of one granule;
 *  - an access of n bytes at a is defined exactly when the object of a is
 *    live, is not a function, and base <= a, a + n <= base + size.
 * Anything else (NULL, a dangling or freed object, outside every object)
 * is undefined behaviour, and the caller abandons the run. */
#ifndef RAVEL_EXPLORE_MEM_H
#define RAVEL_EXPLORE_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "ir/ir.h"

#define EXPLORE_MEM_FIRST 0x1000u
#define EXPLORE_MEM_LIMIT (1ull << 30) /* a run that needs more address space is abandoned */

typedef enum explore_obj_kind {
    EXPLORE_OBJ_GLOBAL, /* var */
    EXPLORE_OBJ_LOCAL,  /* var of func (a parameter or a local) */
    EXPLORE_OBJ_HEAP,   /* malloc@line#serial, calloc@line#serial */
    EXPLORE_OBJ_STRING, /* text */
    EXPLORE_OBJ_FUNC,   /* func */
} explore_obj_kind;

typedef struct explore_obj {
    uint64_t base, size;
    const ir_type *type;   /* NULL: unknown (a malloc'd block of another size, a string) */
    const ir_var *var;     /* GLOBAL, LOCAL */
    const ir_func *func;   /* LOCAL: its function; FUNC */
    const char *text;      /* STRING: the literal */
    uint32_t line, serial; /* HEAP */
    uint8_t kind;          /* explore_obj_kind */
    bool live;             /* false: freed, or its function returned */
    bool zeroed;           /* HEAP: calloc */
} explore_obj;

typedef struct explore_mem {
    uint8_t *bytes;    /* bytes[a]: the byte at address a (a < cap) */
    uint32_t *gran;    /* per 16-byte granule: the object id (see above) */
    uint64_t cap;      /* backed addresses: [0, cap) */
    uint64_t next;     /* the first address no object has used */
    BASE_VEC(explore_obj) objs; /* objs.data[0] is the "no object" entry */
} explore_mem;

void explore_mem_init(explore_mem *m);
void explore_mem_free(explore_mem *m);
/* Makes m an exact copy of src (reusing m's buffers). */
void explore_mem_copy(explore_mem *m, const explore_mem *src);
/* A new live object of size bytes (its bytes are not initialised); returns
 * its id, or 0 when the address space limit is reached. */
uint32_t explore_mem_new(explore_mem *m, uint64_t size, explore_obj_kind kind);

static inline uint32_t explore_mem_id(const explore_mem *m, uint64_t a)
{
    if (a >= m->next)
        return 0;
    uint32_t id = m->gran[a >> 4];
    if (!id)
        return 0;
    const explore_obj *o = &m->objs.data[id];
    return a >= o->base && a <= o->base + o->size ? id : 0;
}

/* Whether n >= 1 bytes at a may be read or written (see the invariants). */
static inline bool explore_mem_ok(const explore_mem *m, uint64_t a, uint64_t n)
{
    if (a >= m->next)
        return false;
    uint32_t id = m->gran[a >> 4];
    const explore_obj *o = &m->objs.data[id];
    return id && o->live && a >= o->base && n <= o->size && a - o->base <= o->size - n &&
           o->kind != EXPLORE_OBJ_FUNC;
}

/* Writes an address as bmc does: NULL, &x, &a[2].f, &malloc@3#1+5, a
 * function's name, 0x... for none. */
void explore_mem_describe(const explore_mem *m, const ir_program *p, base_strbuf *b, uint64_t a);
/* Writes a value of type t held in bytes (little endian, tsize(t) bytes) as
 * trace_value.text does. pw: pointer width in bits. */
void explore_mem_format(const explore_mem *m, const ir_program *p, base_strbuf *b,
                        const uint8_t *bytes, uint64_t n, const ir_type *t, int depth);

#endif
