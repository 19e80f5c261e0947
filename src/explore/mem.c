/* explore/mem: objects, addresses and the text of values (see mem.h). */
#include "explore/mem.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/intern.h"
#include "base/xalloc.h"
#include "ir/ir_print.h"

void explore_mem_init(explore_mem *m)
{
    memset(m, 0, sizeof *m);
    m->next = EXPLORE_MEM_FIRST;
    explore_obj none = { 0 };
    base_vec_push(&m->objs, none);
}

void explore_mem_free(explore_mem *m)
{
    free(m->bytes);
    free(m->gran);
    base_vec_free(&m->objs);
    memset(m, 0, sizeof *m);
}

static void grow(explore_mem *m, uint64_t need)
{
    if (need <= m->cap)
        return;
    uint64_t cap = m->cap ? m->cap : 1u << 16;
    while (cap < need)
        cap *= 2;
    m->bytes = base_xrealloc(m->bytes, cap);
    m->gran = base_xrealloc(m->gran, (cap >> 4) * sizeof *m->gran);
    memset(m->gran + (m->cap >> 4), 0, ((cap - m->cap) >> 4) * sizeof *m->gran);
    m->cap = cap;
}

void explore_mem_copy(explore_mem *m, const explore_mem *src)
{
    grow(m, src->cap);
    memcpy(m->bytes, src->bytes, src->next);
    /* granules past src->next may name objects of an earlier run: they are
     * rewritten when an object is made there, and never read before (an
     * address >= next has no object) */
    memcpy(m->gran, src->gran, ((src->next + 15) >> 4) * sizeof *m->gran);
    m->next = src->next;
    m->objs.len = 0;
    base_vec_reserve(&m->objs, src->objs.len);
    memcpy(m->objs.data, src->objs.data, src->objs.len * sizeof *src->objs.data);
    m->objs.len = src->objs.len;
}

uint32_t explore_mem_new(explore_mem *m, uint64_t size, explore_obj_kind kind)
{
    uint64_t base = (m->next + 15) & ~(uint64_t)15;
    if (size > EXPLORE_MEM_LIMIT || base + size + 32 > EXPLORE_MEM_LIMIT)
        return 0;
    uint64_t end = base + size + 16; /* the gap: one past the end and more */
    grow(m, end + 16);
    explore_obj o = { .base = base, .size = size, .kind = (uint8_t)kind, .live = true };
    base_vec_push(&m->objs, o);
    uint32_t id = (uint32_t)(m->objs.len - 1);
    for (uint64_t g = base >> 4; g <= (base + size) >> 4; g++)
        m->gran[g] = id;
    for (uint64_t g = ((base + size) >> 4) + 1; g < (end + 15) >> 4; g++)
        m->gran[g] = 0;
    m->next = end;
    return id;
}

static const char *sym(const ir_program *p, base_sym s)
{
    return base_sym_str(p->syms, s);
}

static void obj_name(const ir_program *p, base_strbuf *b, const explore_obj *o)
{
    switch (o->kind) {
    case EXPLORE_OBJ_GLOBAL: base_strbuf_puts(b, sym(p, o->var->name)); break;
    case EXPLORE_OBJ_LOCAL:
        base_strbuf_printf(b, "%s::%s", sym(p, o->func->name), sym(p, o->var->name));
        break;
    case EXPLORE_OBJ_HEAP:
        base_strbuf_printf(b, "%s@%u#%u", o->zeroed ? "calloc" : "malloc", o->line, o->serial);
        break;
    case EXPLORE_OBJ_STRING: {
        size_t len = strlen(o->text) + 1;
        base_strbuf_printf(b, "\"%.*s%s\"", 24, o->text, len > 25 ? "..." : "");
        break;
    }
    case EXPLORE_OBJ_FUNC: base_strbuf_puts(b, sym(p, o->func->name)); break;
    }
}

void explore_mem_describe(const explore_mem *m, const ir_program *p, base_strbuf *b, uint64_t a)
{
    if (a == 0) {
        base_strbuf_puts(b, "NULL");
        return;
    }
    uint32_t id = explore_mem_id(m, a);
    const explore_obj *o = &m->objs.data[id];
    if (!id || a >= o->base + (o->size ? o->size : 1)) {
        base_strbuf_printf(b, "0x%" PRIx64, a);
        return;
    }
    if (o->kind == EXPLORE_OBJ_FUNC) {
        obj_name(p, b, o);
        return;
    }
    uint64_t off = a - o->base;
    base_strbuf_putc(b, '&');
    obj_name(p, b, o);
    ir_print_offset_path(b, p, o->type, off);
}

static uint64_t le(const uint8_t *bytes, uint64_t n)
{
    uint64_t v = 0;
    for (uint64_t i = 0; i < n && i < 8; i++)
        v |= (uint64_t)bytes[i] << (8 * i);
    return v;
}

static uint64_t type_size(const ir_program *p, const ir_type *t)
{
    switch (t->kind) {
    case IR_T_INT: return t->size ? t->size : (t->bits + 7) / 8;
    case IR_T_PTR: return p->ptr_bytes ? p->ptr_bytes : 8;
    case IR_T_FLOAT: return t->size ? t->size : (t->bits + 7) / 8;
    default: return t->size ? t->size : 1;
    }
}

void explore_mem_format(const explore_mem *m, const ir_program *p, base_strbuf *b,
                        const uint8_t *bytes, uint64_t n, const ir_type *t, int depth)
{
    uint64_t bits = le(bytes, n);
    if (t->kind == IR_T_PTR || t->kind == IR_T_FUNC) {
        explore_mem_describe(m, p, b, bits);
    } else if (t->kind == IR_T_INT && t->bits <= 64) {
        uint32_t w = t->bits;
        if (w < 64)
            bits &= ((uint64_t)1 << w) - 1;
        if (w == 1)
            bits = bits != 0;
        if (t->is_signed) {
            uint64_t s = w == 64 ? 0 : (uint64_t)1 << (w - 1);
            int64_t sv = w == 64 ? (int64_t)bits : (int64_t)((bits ^ s) - s);
            base_strbuf_printf(b, "%" PRId64, sv);
        } else {
            base_strbuf_printf(b, "%" PRIu64, bits);
        }
    } else if (t->kind == IR_T_FLOAT && t->bits == 64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        base_strbuf_printf(b, "%.17g", d);
    } else if (t->kind == IR_T_FLOAT && t->bits == 32) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, sizeof f);
        base_strbuf_printf(b, "%.9g", (double)f);
    } else if (t->kind == IR_T_STRUCT && depth < 4 && n == t->size) {
        base_strbuf_puts(b, "{");
        bool first = true;
        for (uint32_t i = 0; i < t->nfields; i++) {
            const ir_field *fd = &t->fields[i];
            uint64_t fs = type_size(p, fd->type);
            if (fd->offset + fs > t->size)
                continue;
            base_strbuf_printf(b, "%s.%s = ", first ? "" : ", ",
                               fd->name ? sym(p, fd->name) : "<anon>");
            if (fd->bit_width && fd->bit_width <= 56) {
                uint64_t raw = le(bytes + fd->offset, (fd->bit_offset + fd->bit_width + 7) / 8);
                uint64_t v = (raw >> fd->bit_offset) & (((uint64_t)1 << fd->bit_width) - 1);
                if (fd->type->kind == IR_T_INT && fd->type->is_signed &&
                    (v >> (fd->bit_width - 1)) & 1)
                    v |= ~(((uint64_t)1 << fd->bit_width) - 1);
                uint8_t vb[8];
                for (int k = 0; k < 8; k++)
                    vb[k] = (uint8_t)(v >> (8 * k));
                explore_mem_format(m, p, b, vb, fs < 8 ? fs : 8, fd->type, depth + 1);
            } else {
                explore_mem_format(m, p, b, bytes + fd->offset, fs, fd->type, depth + 1);
            }
            first = false;
        }
        base_strbuf_puts(b, "}");
    } else if (t->kind == IR_T_ARRAY && t->to && t->to->size && depth < 4 && n == t->size) {
        uint64_t es = t->to->size, cnt = t->size / es;
        base_strbuf_puts(b, "{");
        for (uint64_t i = 0; i < cnt && i < 16; i++) {
            base_strbuf_puts(b, i ? ", " : "");
            explore_mem_format(m, p, b, bytes + i * es, es, t->to, depth + 1);
        }
        base_strbuf_puts(b, cnt > 16 ? ", ...}" : "}");
    } else {
        base_strbuf_puts(b, "{");
        for (uint64_t i = 0; i < n && i < 64; i++)
            base_strbuf_printf(b, "%s0x%02x", i ? ", " : "", (unsigned)bytes[i]);
        base_strbuf_puts(b, n > 64 ? ", ...}" : "}");
    }
}
