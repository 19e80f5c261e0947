#include "litmus/evstruct.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/xalloc.h"

enum { TAINT_MAX = 32, CTRL_MAX = 64, JUST_WORDS = 4 };
/* A taint entry with this bit is a pick dependency (LITMUS_OP_SEL's
 * condition): with ports it gives iico_ctrl where a plain one gives rf-reg,
 * and it is no addr, data or ctrl dependency of ravel's own. */
#define PICK 0x80000000u

/* A register's value, the read events it depends on (for addr/data
 * dependencies), and the read instructions its value was computed from
 * (its justification, for the value fixpoint: a set of global read
 * instruction numbers). */
typedef struct regval {
    litmus_value v;
    uint32_t nt;
    uint32_t t[TAINT_MAX];
    uint64_t just[JUST_WORDS];
    uint32_t sym1; /* a symbolic read's event + 1 whose value this is, else 0 */
    uint32_t src1; /* a read's event + 1 whose value this is by plain copying, else 0 */
    /* the value depends on none of the reads in t[] once herd7's own
     * simplifications of its symbolic values apply (r ^ r = 0, r == r):
     * a write of it is grounded (litmus_evstruct.wdep) */
    bool novalue;
} regval;

typedef struct state {
    regval *regs;
    uint32_t nctrl;
    uint32_t ctrl[CTRL_MAX]; /* reads the branches taken so far depend on */
    uint32_t until[CTRL_MAX]; /* per ctrl entry: the instruction where it ends, or 0 */
    uint32_t *loops;         /* per instruction: backward jumps taken */
    bool has_resv;           /* a load-reserve's reservation (LITMUS_I_SC) */
    uint32_t resv_loc, resv_ev;
    bool resv_pair;          /* ...by an exclusive pair (LDXP): also its second cell */
    uint32_t resv_loc2, resv_ev2;
} state;

typedef struct domain {
    litmus_value *vals; /* sorted */
    uint32_t n, cap;
} domain;

/* A value some write instruction may store, and the read instructions the
 * value was computed from. */
typedef struct write_site {
    uint32_t thread, instr, loc;
    litmus_value v;
    uint64_t just[JUST_WORDS];
} write_site;

typedef struct builder {
    const litmus_test *t;
    const litmus_es_limits *lim;
    litmus_evstruct *es;
    base_diag *diag;
    BASE_VEC(write_site) known; /* writes found by the previous round */
    BASE_VEC(write_site) found; /* writes found by this round */
    bool *has_loop;    /* per thread: it has a backward branch */
    domain scratch;    /* the values one read may return */
    uint64_t *scratch_just; /* per scratch value: the justification it gets */
    uint32_t scratch_just_cap;
    uint32_t *instr_base; /* per thread: global number of its first instruction */
    uint32_t total_instrs;
    bool justify;      /* justification sets are tracked (few enough reads) */
    bool *alive;
    uint32_t alive_cap;
    bool *symbolic;    /* per global instruction: a read that need not fork */
    bool any_symbolic;
    bool failed;
} builder;

static bool dom_add(domain *d, litmus_value v)
{
    uint32_t i = 0;
    while (i < d->n && litmus_value_cmp(d->vals[i], v) < 0)
        i++;
    if (i < d->n && litmus_value_eq(d->vals[i], v))
        return false;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 4;
        d->vals = base_xrealloc(d->vals, base_mul_size(d->cap, sizeof *d->vals));
    }
    memmove(d->vals + i + 1, d->vals + i, (d->n - i) * sizeof *d->vals);
    d->vals[i] = v;
    d->n++;
    return true;
}

static void fail(builder *b, const litmus_instr *in, const char *fmt, const char *arg)
{
    if (b->failed)
        return;
    b->failed = true;
    base_diag_error(b->diag, in ? in->loc : base_srcloc_make(b->t->file, 0, 0), fmt, arg);
}

static uint32_t new_event(builder *b, const litmus_instr *in, litmus_ev_kind k, uint32_t thread,
                          uint32_t instr, uint32_t parent)
{
    litmus_evstruct *es = b->es;
    if (es->nevents >= b->lim->max_events) {
        char num[32];
        snprintf(num, sizeof num, "%u", b->lim->max_events);
        fail(b, in, "event structure too large (more than %s events); the test has too many "
                    "reads with too many possible values", num);
        return LITMUS_NONE;
    }
    if (es->nevents == es->cap) {
        es->cap = es->cap ? es->cap * 2 : 64;
        es->events = base_xrealloc(es->events, base_mul_size(es->cap, sizeof *es->events));
    }
    litmus_event *e = &es->events[es->nevents];
    memset(e, 0, sizeof *e);
    e->kind = k;
    e->thread = thread;
    e->instr = instr;
    e->parent = parent;
    e->rmw_write = LITMUS_NONE;
    e->copy_of = LITMUS_NONE;
    e->annots = in ? &in->annots : NULL;
    return es->nevents++;
}

static void add_dep(litmus_dep **arr, uint32_t *n, uint32_t *cap, uint32_t from, uint32_t to)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *arr = base_xrealloc(*arr, base_mul_size(*cap, sizeof **arr));
    }
    (*arr)[*n].from = from;
    (*arr)[*n].to = to;
    (*n)++;
}

static void taint_union(builder *b, const litmus_instr *in, regval *dst, const regval *src)
{
    for (int w = 0; w < JUST_WORDS; w++)
        dst->just[w] |= src->just[w];
    for (uint32_t i = 0; i < src->nt; i++) {
        bool have = false;
        for (uint32_t j = 0; j < dst->nt; j++)
            have |= dst->t[j] == src->t[i];
        if (have)
            continue;
        if (dst->nt == TAINT_MAX) {
            fail(b, in, "%s: too many dependencies through one register", "unsupported");
            return;
        }
        dst->t[dst->nt++] = src->t[i];
    }
}

/* Evaluates an operand into r (value and taint). */
static void eval_operand(const state *s, const litmus_operand *o, regval *r)
{
    r->nt = 0;
    r->sym1 = 0;
    r->src1 = 0;
    r->novalue = false;
    memset(r->just, 0, sizeof r->just);
    switch (o->kind) {
    case LITMUS_OPND_REG:
        *r = s->regs[o->reg];
        break;
    case LITMUS_OPND_IMM:
        r->v = litmus_int(o->imm);
        break;
    case LITMUS_OPND_LOC:
        r->v = litmus_addr(o->loc);
        break;
    }
}

static int64_t wrap(uint64_t x) { return (int64_t)x; }

/* Are a and b the same expression over the same registers (so, in one
 * state, the same value)? */
static bool expr_same(const litmus_expr *a, const litmus_expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->op != b->op)
        return false;
    if (a->op == LITMUS_OP_NONE)
        return a->opnd.kind == b->opnd.kind &&
               (a->opnd.kind == LITMUS_OPND_REG ? a->opnd.reg == b->opnd.reg
                : a->opnd.kind == LITMUS_OPND_IMM ? a->opnd.imm == b->opnd.imm
                                                  : a->opnd.loc == b->opnd.loc);
    return expr_same(a->lhs, b->lhs) && expr_same(a->rhs, b->rhs) && expr_same(a->cond, b->cond);
}

/* An operand, or an operand's low 32 bits: evaluating it cannot fail. */
static bool expr_plain(const litmus_expr *e)
{
    return e && (e->op == LITMUS_OP_NONE || (e->op == LITMUS_OP_ZEXT32 && expr_plain(e->lhs) &&
                                            e->rhs && e->rhs->op == LITMUS_OP_NONE));
}

/* The justification of e's value (x op y): the reads the value depends on,
 * not every read its expression mentions (that is the taint: herd's
 * syntactic dependencies, which stay). The value fixpoint keeps a value out
 * of a read's own domain when the value is justified by that read; a value
 * that does not vary with the read must not be kept out: `r0 ^ r0` is 0 and
 * `r0 * 0` is 0 whatever r0 read, and with a model that does not order
 * dependencies the outcome it allows would otherwise be missed (a wrong
 * Never). A smaller justification only lets more values in. */
static void result_just(const litmus_expr *e, const regval *x, const regval *y, regval *r)
{
    bool x0 = x->v.kind == LITMUS_VAL_INT && x->v.num == 0;
    bool y0 = y->v.kind == LITMUS_VAL_INT && y->v.num == 0;
    switch (e->op) {
    case LITMUS_OP_XOR: case LITMUS_OP_SUB: case LITMUS_OP_EQ: case LITMUS_OP_NE:
    case LITMUS_OP_LT: case LITMUS_OP_LE: case LITMUS_OP_LTU:
        if (expr_same(e->lhs, e->rhs))
            memset(r->just, 0, sizeof r->just);
        break;
    case LITMUS_OP_MUL: case LITMUS_OP_AND:
        if (y0)
            memcpy(r->just, y->just, sizeof r->just);
        else if (x0)
            memcpy(r->just, x->just, sizeof r->just);
        break;
    case LITMUS_OP_SHL: case LITMUS_OP_SHR:
        if (y->v.kind == LITMUS_VAL_INT && (uint64_t)y->v.num >= 64)
            memcpy(r->just, y->just, sizeof r->just);
        break;
    case LITMUS_OP_SEXT32: case LITMUS_OP_ZEXT32: /* rhs ignored */
        memcpy(r->just, x->just, sizeof r->just);
        break;
    default:
        break;
    }
}

static void eval_expr(builder *b, const litmus_instr *in, const state *s, const litmus_expr *e,
                      regval *r)
{
    if (e->op == LITMUS_OP_NONE) {
        eval_operand(s, &e->opnd, r);
        return;
    }
    if (e->op == LITMUS_OP_SEL) {
        regval k = { 0 };
        eval_expr(b, in, s, e->cond, &k);
        if (k.v.kind == LITMUS_VAL_UNDEF)
            fail(b, in, "%s: a value computed from an instruction (only compares of instructions for equality are modelled)", "unsupported");
        bool yes = !(k.v.kind == LITMUS_VAL_INT && k.v.num == 0);
        eval_expr(b, in, s, yes ? e->lhs : e->rhs, r);
        /* two plain operands (or their low halves) of one value: it does not vary with the
         * condition, so the condition's reads are no justification of it
         * (they stay a pick dependency) */
        bool same = false;
        if (expr_plain(e->lhs) && expr_plain(e->rhs)) {
            regval other = { 0 };
            eval_expr(b, in, s, yes ? e->rhs : e->lhs, &other);
            same = litmus_value_eq(other.v, r->v);
        }
        for (uint32_t i = 0; i < k.nt; i++)
            k.t[i] |= PICK;
        k.sym1 = 0;
        if (same)
            memset(k.just, 0, sizeof k.just);
        taint_union(b, in, r, &k);
        r->src1 = 0;
        return;
    }
    regval x = { 0 }, y = { 0 };
    eval_expr(b, in, s, e->lhs, &x);
    eval_expr(b, in, s, e->rhs, &y);
    *r = x;
    r->src1 = 0;
    taint_union(b, in, r, &y);
    result_just(e, &x, &y, r);
    /* herd7's symbolic values (lib/symbValue.ml): s + 0, 0 + s, s | 0 and
     * 0 | s are s (a copy); s ^ s and s == s are constants */
    bool x0 = x.v.kind == LITMUS_VAL_INT && x.v.num == 0 && x.nt == 0;
    bool y0 = y.v.kind == LITMUS_VAL_INT && y.v.num == 0 && y.nt == 0;
    if ((e->op == LITMUS_OP_ADD || e->op == LITMUS_OP_OR) && (x0 || y0))
        r->src1 = x0 ? y.src1 : x.src1;
    r->novalue = ((x.nt == 0 || x.novalue) && (y.nt == 0 || y.novalue)) ||
                 ((e->op == LITMUS_OP_XOR || e->op == LITMUS_OP_EQ) && expr_same(e->lhs, e->rhs));
    if (x.v.kind == LITMUS_VAL_UNDEF || y.v.kind == LITMUS_VAL_UNDEF) {
        r->v.kind = LITMUS_VAL_UNDEF; /* refused where it is used */
        r->v.loc = 0;
        r->v.num = 0;
        return;
    }
    if ((e->op == LITMUS_OP_ZEXT32 || e->op == LITMUS_OP_SEXT32) && x.v.kind == LITMUS_VAL_INSTR)
        return; /* an instruction is kept whole */
    if (e->op == LITMUS_OP_EQ || e->op == LITMUS_OP_NE) {
        bool eq = litmus_value_eq(x.v, y.v);
        r->v = litmus_int(e->op == LITMUS_OP_EQ ? eq : !eq);
        return;
    }
    if (e->op == LITMUS_OP_ZEXT32 && x.v.kind == LITMUS_VAL_ADDR)
        return; /* an address is kept whole, as before widths were read */
    if (x.v.kind == LITMUS_VAL_INSTR || y.v.kind == LITMUS_VAL_INSTR) {
        r->v.kind = LITMUS_VAL_UNDEF; /* CMP's flags but Z (EQ above): refused where used */
        r->v.loc = 0;
        r->v.num = 0;
        return;
    }
    if (x.v.kind == LITMUS_VAL_ADDR || y.v.kind == LITMUS_VAL_ADDR) {
        if (e->op == LITMUS_OP_SUB && x.v.kind == LITMUS_VAL_ADDR && y.v.kind == LITMUS_VAL_INT) {
            r->v = x.v;
            r->v.num = wrap((uint64_t)x.v.num - (uint64_t)y.v.num);
            return;
        }
        if (e->op == LITMUS_OP_ADD && (x.v.kind != y.v.kind)) {
            litmus_value a = x.v.kind == LITMUS_VAL_ADDR ? x.v : y.v;
            litmus_value k = x.v.kind == LITMUS_VAL_ADDR ? y.v : x.v;
            a.num = wrap((uint64_t)a.num + (uint64_t)k.num);
            r->v = a;
            return;
        }
        fail(b, in, "%s: arithmetic on an address other than address + integer", "unsupported");
        r->v = litmus_int(0);
        return;
    }
    uint64_t a = (uint64_t)x.v.num, c = (uint64_t)y.v.num, v = 0;
    switch (e->op) {
    case LITMUS_OP_ADD: v = a + c; break;
    case LITMUS_OP_SUB: v = a - c; break;
    case LITMUS_OP_MUL: v = a * c; break;
    case LITMUS_OP_XOR: v = a ^ c; break;
    case LITMUS_OP_AND: v = a & c; break;
    case LITMUS_OP_OR: v = a | c; break;
    case LITMUS_OP_LT: v = x.v.num < y.v.num; break;
    case LITMUS_OP_LE: v = x.v.num <= y.v.num; break;
    case LITMUS_OP_SHL: v = c >= 64 ? 0 : a << c; break;
    case LITMUS_OP_SHR: v = c >= 64 ? 0 : a >> c; break;
    case LITMUS_OP_SEXT32: v = (uint64_t)(int64_t)(int32_t)(uint32_t)a; break;
    case LITMUS_OP_ZEXT32: v = a & 0xffffffffu; break;
    case LITMUS_OP_LTU: v = a < c; break;
    case LITMUS_OP_ASR: v = (uint64_t)(c >= 64 ? (x.v.num < 0 ? -1 : 0) : x.v.num >> c); break;
    default: break;
    }
    r->v = litmus_int(wrap(v));
}

/* Resolves address ad of instruction in to a location; taint receives what
 * it depends on. */
static uint32_t eval_addr_of(builder *b, const litmus_instr *in, const litmus_address *ad,
                             const state *s, regval *taint)
{
    regval base = { 0 };
    eval_operand(s, &ad->base, &base);
    *taint = base;
    litmus_value a = base.v;
    if (ad->has_offset) {
        regval off = { 0 };
        eval_operand(s, &ad->offset, &off);
        taint_union(b, in, taint, &off);
        if (off.v.kind != LITMUS_VAL_INT) {
            fail(b, in, "%s: an address offset must be an integer", "unsupported");
            return LITMUS_NONE;
        }
        a.num = wrap((uint64_t)a.num + (uint64_t)off.v.num);
    }
    if (a.kind != LITMUS_VAL_ADDR) {
        fail(b, in, a.kind == LITMUS_VAL_INT ? "%s: this access uses an integer as an address"
                                            : "%s: this access uses an instruction as an address",
             "unsupported");
        return LITMUS_NONE;
    }
    const litmus_location *arr = &b->t->locs[a.loc];
    if (a.num != 0 && arr->cells > 1 && arr->cell_size > 0 && a.num > 0 &&
        a.num % arr->cell_size == 0 && a.num / arr->cell_size < arr->cells) /* an array's cell */
        return a.loc + (uint32_t)(a.num / arr->cell_size);
    if (a.num != 0) {
        fail(b, in, "unsupported: address %s plus a non-zero offset is not a location of the test",
             base_sym_str(b->t->syms, b->t->locs[a.loc].name));
        return LITMUS_NONE;
    }
    return a.loc;
}

static uint32_t eval_address(builder *b, const litmus_instr *in, const state *s, regval *taint)
{
    return eval_addr_of(b, in, &in->addr, s, taint);
}

/* A value written to loc, as its type takes it (litmus_location.typed). */
static litmus_value loc_typed(const builder *b, uint32_t loc, litmus_value v)
{
    const litmus_location *l = &b->t->locs[loc];
    return l->typed ? litmus_typed_value((litmus_reg_type)l->type, v) : v;
}

static void deps_for(builder *b, uint32_t ev, const regval *addr, const regval *data,
                     const state *s)
{
    litmus_evstruct *es = b->es;
    if (addr)
        for (uint32_t i = 0; i < addr->nt; i++)
            if (!(addr->t[i] & PICK))
                add_dep(&es->addr, &es->naddr, &es->addr_cap, addr->t[i], ev);
    if (data)
        for (uint32_t i = 0; i < data->nt; i++)
            if (!(data->t[i] & PICK))
                add_dep(&es->data, &es->ndata, &es->data_cap, data->t[i], ev);
    for (uint32_t i = 0; i < s->nctrl; i++)
        add_dep(&es->ctrl, &es->nctrl, &es->ctrl_cap, s->ctrl[i], ev);
}

/* The reads r's value depends on are used by an operation right after
 * event `at` (litmus_evstruct.vuse). */
static void mark_used(builder *b, const regval *r, uint32_t at)
{
    litmus_evstruct *es = b->es;
    for (uint32_t i = 0; i < r->nt && at != LITMUS_NONE; i++)
        add_dep(&es->vuse, &es->nvuse, &es->vuse_cap, r->t[i] & ~PICK, at);
}

/* A write event ev stores val: a copy of a read's value, or a value
 * computed from the reads it depends on. */
static void note_copy(builder *b, uint32_t ev, const regval *val)
{
    if (val->src1) {
        b->es->events[ev].copy_of = val->src1 - 1;
    } else {
        mark_used(b, val, ev);
        /* a pick (a select's condition) chooses between values, none of
         * which it computes: no value dependency */
        litmus_evstruct *es = b->es;
        for (uint32_t i = 0; i < val->nt && ev != LITMUS_NONE && !val->novalue; i++)
            if (!(val->t[i] & PICK))
                add_dep(&es->wdep, &es->nwdep, &es->wdep_cap, val->t[i], ev);
    }
}

/* Before an access or a branch (lim->ports): a port event standing for the
 * registers `r` carries, when they depend on reads. Returns the new parent. */
static uint32_t port(builder *b, const litmus_instr *in, uint32_t thread, uint32_t pc,
                     uint32_t parent, const regval *r, char kind)
{
    if (!b->lim->ports || !r || r->nt == 0)
        return parent;
    uint32_t ev = new_event(b, in, LITMUS_EV_FENCE, thread, pc, parent);
    if (ev == LITMUS_NONE)
        return LITMUS_NONE;
    litmus_evstruct *es = b->es;
    es->events[ev].port = kind;
    es->events[ev].annots = NULL;
    for (uint32_t i = 0; i < r->nt; i++) {
        if (r->t[i] & PICK)
            add_dep(&es->iico_ctrl, &es->niico_ctrl, &es->iico_ctrl_cap, r->t[i] & ~PICK, ev);
        else
            add_dep(&es->rfreg, &es->nrfreg, &es->rfreg_cap, r->t[i], ev);
    }
    return ev;
}

/* The access ev's ports: the address and data ports among the events of
 * its instruction before it (an rmw's write shares its read's address). */
static void port_links(builder *b, uint32_t ev)
{
    litmus_evstruct *es = b->es;
    for (uint32_t p = es->events[ev].parent; p != LITMUS_NONE &&
                                              es->events[p].instr == es->events[ev].instr &&
                                              es->events[p].thread == es->events[ev].thread;
         p = es->events[p].parent)
        if (es->events[p].port == 'A' || (es->events[p].port == 'D' && p == es->events[ev].parent))
            add_dep(&es->iico_data, &es->niico_data, &es->iico_data_cap, p, ev);
}

static state *state_copy(const litmus_thread *th, const state *s)
{
    state *c = base_xmalloc(sizeof *c);
    *c = *s;
    c->regs = base_xmalloc(base_mul_size(th->nregs ? th->nregs : 1, sizeof *c->regs));
    memcpy(c->regs, s->regs, th->nregs * sizeof *c->regs);
    c->loops = base_xmalloc(base_mul_size(th->ninstrs ? th->ninstrs : 1, sizeof *c->loops));
    memcpy(c->loops, s->loops, th->ninstrs * sizeof *c->loops);
    return c;
}

static void state_free(state *s)
{
    free(s->regs);
    free(s->loops);
    free(s);
}

static void mark_alive(builder *b, uint32_t ev)
{
    while (ev != LITMUS_NONE && !b->alive[ev]) {
        b->alive[ev] = true;
        ev = b->es->events[ev].parent;
    }
}

static void ensure_alive_cap(builder *b)
{
    if (b->es->nevents > b->alive_cap) {
        uint32_t ncap = b->alive_cap ? b->alive_cap : 256;
        while (ncap < b->es->nevents)
            ncap *= 2;
        b->alive = base_xrealloc(b->alive, ncap);
        memset(b->alive + b->alive_cap, 0, ncap - b->alive_cap);
        b->alive_cap = ncap;
    }
}

static void record_path(builder *b, uint32_t thread, const state *s, uint32_t last)
{
    litmus_evstruct *es = b->es;
    const litmus_thread *th = &b->t->threads[thread];
    if (es->npaths == es->paths_cap) {
        es->paths_cap = es->paths_cap ? es->paths_cap * 2 : 16;
        es->paths = base_xrealloc(es->paths, base_mul_size(es->paths_cap, sizeof *es->paths));
    }
    litmus_path *p = &es->paths[es->npaths++];
    p->thread = thread;
    p->last = last;
    p->fault = false;
    p->regs = base_xmalloc(base_mul_size(th->nregs ? th->nregs : 1, sizeof *p->regs));
    p->sym = NULL;
    p->src = base_xmalloc(base_mul_size(th->nregs ? th->nregs : 1, sizeof *p->src));
    for (uint32_t r = 0; r < th->nregs; r++)
        p->src[r] = s->regs[r].src1 ? s->regs[r].src1 - 1 : LITMUS_NONE;
    if (b->any_symbolic) {
        p->sym = base_xmalloc(base_mul_size(th->nregs ? th->nregs : 1, sizeof *p->sym));
        for (uint32_t r = 0; r < th->nregs; r++)
            p->sym[r] = s->regs[r].sym1 ? s->regs[r].sym1 - 1 : LITMUS_NONE;
    }
    for (uint32_t r = 0; r < th->nregs; r++)
        p->regs[r] = litmus_reg_value(th, r, s->regs[r].v);
    for (uint32_t i = 0; i < b->t->nobs; i++) {
        const litmus_observable *o = &b->t->obs[i];
        if (o->is_reg && o->thread == thread && p->regs[o->reg].kind == LITMUS_VAL_UNDEF)
            fail(b, NULL, "%s: a value computed from an instruction (only compares of instructions for equality are modelled)", "unsupported");
    }
    ensure_alive_cap(b);
    mark_alive(b, last);
}

static bool site_eq(const write_site *a, const write_site *c)
{
    return a->thread == c->thread && a->instr == c->instr && a->loc == c->loc &&
           litmus_value_eq(a->v, c->v) && memcmp(a->just, c->just, sizeof a->just) == 0;
}

static void note_write(builder *b, uint32_t thread, uint32_t instr, uint32_t loc,
                       const regval *val)
{
    if (b->t->locs[loc].code) /* herd's -variant self, which ravel does not model */
        fail(b, &b->t->threads[thread].instrs[instr],
             "%s: a store to code (self-modifying code)", "unsupported");
    if (val->v.kind == LITMUS_VAL_UNDEF)
        fail(b, &b->t->threads[thread].instrs[instr], "%s: a value computed from an instruction (only compares of instructions for equality are modelled)", "unsupported");
    write_site w = { thread, instr, loc, val->v, { 0 } };
    if (b->justify)
        memcpy(w.just, val->just, sizeof w.just);
    for (size_t i = 0; i < b->found.len; i++)
        if (site_eq(&b->found.data[i], &w))
            return;
    base_vec_push(&b->found, w);
}

/* The values the read at (thread, instr) of loc may return, each with the
 * justification the read's register gets: the initial value, and what a
 * write stores unless
 *  - the write is its own thread's and po-after it (every model ravel has
 *    respects coherence per location), or
 *  - the value was computed from this very read instruction (in one
 *    execution a loop-free instruction reads once, so a value cannot
 *    justify itself).
 * This is what makes `rmw x := x + 1` in two threads converge on {0,1,2}.
 * In a thread with loops neither exclusion applies, nor under
 * lim->every_write_value (jr: a read may be justified by a write of any
 * branch, its own thread's later writes and values computed from it
 * included). A value reachable
 * through several writes gets the intersection of their justifications. */
/* May the read at (thread, instr) of loc return what write site w stores? */
static bool site_visible(const builder *b, const write_site *w, uint32_t thread, uint32_t instr,
                         uint32_t loc)
{
    if (w->loc != loc)
        return false;
    if (b->has_loop[thread] || b->lim->every_write_value)
        return true;
    if (w->thread == thread && w->instr >= instr)
        return false;
    uint32_t me = b->instr_base[thread] + instr;
    return !(b->justify && (w->just[me / 64] >> (me % 64) & 1));
}

static const domain *read_domain(builder *b, uint32_t thread, uint32_t instr, uint32_t loc)
{
    domain *d = &b->scratch;
    d->n = 0;
    uint32_t me = b->instr_base[thread] + instr;
    /* Pass 1: the values; pass 2: their justifications. */
    dom_add(d, b->t->locs[loc].init);
    for (size_t i = 0; i < b->known.len; i++)
        if (site_visible(b, &b->known.data[i], thread, instr, loc))
            dom_add(d, b->known.data[i].v);
    if (d->n > b->scratch_just_cap) {
        b->scratch_just_cap = d->n * 2;
        b->scratch_just = base_xrealloc(b->scratch_just,
            base_mul_size(b->scratch_just_cap, JUST_WORDS * sizeof(uint64_t)));
    }
    for (uint32_t k = 0; k < d->n; k++) {
        uint64_t *j = b->scratch_just + (size_t)k * JUST_WORDS;
        bool first = true;
        memset(j, 0, JUST_WORDS * sizeof(uint64_t));
        /* The initial write depends on nothing: its empty set is minimal. */
        bool from_init = litmus_value_eq(d->vals[k], b->t->locs[loc].init);
        for (size_t i = 0; !from_init && i < b->known.len; i++) {
            const write_site *w = &b->known.data[i];
            if (!litmus_value_eq(w->v, d->vals[k]) || !site_visible(b, w, thread, instr, loc))
                continue;
            if (first) {
                memcpy(j, w->just, JUST_WORDS * sizeof(uint64_t));
                first = false;
            } else {
                for (int x = 0; x < JUST_WORDS; x++)
                    j[x] &= w->just[x];
            }
        }
        if (b->justify)
            j[me / 64] |= (uint64_t)1 << (me % 64);
    }
    return d;
}

/* One read event with no value of its own, whose domain is rd (see
 * evstruct.h); NONE past the event limit. */
static uint32_t symbolic_read(builder *b, const litmus_instr *in, uint32_t thread, uint32_t pc,
                              uint32_t parent, uint32_t loc, const domain *rd)
{
    uint32_t ev = new_event(b, in, LITMUS_EV_READ, thread, pc, parent);
    if (ev == LITMUS_NONE)
        return ev;
    litmus_evstruct *es = b->es;
    while (es->ndomvals + rd->n > es->domvals_cap) {
        es->domvals_cap = es->domvals_cap ? es->domvals_cap * 2 : 64;
        es->domvals = base_xrealloc(es->domvals, base_mul_size(es->domvals_cap, sizeof *es->domvals));
    }
    litmus_event *e = &es->events[ev];
    e->loc = loc;
    e->value = rd->vals[0];
    e->symbolic = true;
    e->dom_first = es->ndomvals;
    e->dom_count = rd->n;
    memcpy(es->domvals + es->ndomvals, rd->vals, rd->n * sizeof *rd->vals);
    es->ndomvals += rd->n;
    es->nsymbolic++;
    return ev;
}

static bool operand_uses(const litmus_operand *o, uint32_t reg)
{
    return o->kind == LITMUS_OPND_REG && o->reg == reg;
}

static bool expr_uses(const litmus_expr *e, uint32_t reg)
{
    if (!e)
        return false;
    if (e->op == LITMUS_OP_NONE)
        return operand_uses(&e->opnd, reg);
    return expr_uses(e->lhs, reg) || expr_uses(e->rhs, reg) || expr_uses(e->cond, reg);
}

/* Does instruction in read register reg? (An instruction this does not know
 * reads every register.) */
static bool instr_uses(const litmus_instr *in, uint32_t reg)
{
    bool addr = operand_uses(&in->addr.base, reg) ||
                (in->addr.has_offset && operand_uses(&in->addr.offset, reg)) ||
                (in->pair && (operand_uses(&in->addr2.base, reg) ||
                              (in->addr2.has_offset && operand_uses(&in->addr2.offset, reg)) ||
                              operand_uses(&in->cmp2, reg) || operand_uses(&in->value2, reg)));
    switch (in->kind) {
    case LITMUS_I_NOP:
    case LITMUS_I_FENCE:
    case LITMUS_I_CALL:
        return false;
    case LITMUS_I_READ:
        return addr;
    case LITMUS_I_WRITE:
        return addr || operand_uses(&in->value, reg);
    case LITMUS_I_RMW:
        return addr || expr_uses(in->expr, reg);
    case LITMUS_I_CAS:
        return addr || operand_uses(&in->cmp, reg) || operand_uses(&in->value, reg);
    case LITMUS_I_MOV:
        return expr_uses(in->expr, reg);
    case LITMUS_I_BRANCH:
        return in->has_reg && in->reg == reg;
    case LITMUS_I_SC:
        return addr || operand_uses(&in->value, reg);
    default:
        return true;
    }
}

/* Marks the reads that need not fork (evstruct.h): plain reads of threads
 * without loops whose register no later instruction uses. */
static void find_symbolic(builder *b)
{
    const litmus_test *t = b->t;
    b->symbolic = base_xcalloc(b->total_instrs ? b->total_instrs : 1, sizeof *b->symbolic);
    /* ports (AArch64's register events) hang off the forked reads, and a
     * load-reserve's event is what its store-conditional pairs with */
    if (b->lim->fork_all_reads || b->lim->every_write_value || b->lim->ports)
        return;
    for (uint32_t th = 0; th < t->nthreads; th++) {
        const litmus_thread *thr = &t->threads[th];
        if (b->has_loop[th])
            continue;
        for (uint32_t pc = 0; pc < thr->ninstrs; pc++) {
            const litmus_instr *in = &thr->instrs[pc];
            if (in->kind != LITMUS_I_READ || in->reserve)
                continue;
            bool used = false;
            for (uint32_t k = pc + 1; k < thr->ninstrs && !used; k++)
                used = instr_uses(&thr->instrs[k], in->reg);
            if (!used) {
                b->symbolic[b->instr_base[th] + pc] = true;
                b->any_symbolic = true;
            }
        }
    }
}

static void explore(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent);

/* The two cells of a pair access (in's addr and addr2) and the values each
 * read of them may return, with their justifications (read_domain). */
typedef struct pair_dom {
    uint32_t loc[2];
    regval at[2];
    litmus_value *vals[2];
    uint64_t *justs[2];
    uint32_t n[2];
} pair_dom;

static void pair_dom_free(pair_dom *d)
{
    for (int k = 0; k < 2; k++) {
        free(d->vals[k]);
        free(d->justs[k]);
    }
}

/* Fills d; false after an error (what: the access, for one naming the same
 * location twice). d is to be freed either way. */
static bool pair_domains(builder *b, const litmus_instr *in, uint32_t thread, uint32_t pc,
                         const state *s, pair_dom *d, const char *what)
{
    memset(d, 0, sizeof *d);
    for (int k = 0; k < 2; k++) {
        d->loc[k] = eval_addr_of(b, in, k ? &in->addr2 : &in->addr, s, &d->at[k]);
        if (d->loc[k] == LITMUS_NONE)
            return false;
        const domain *rd = read_domain(b, thread, pc, d->loc[k]);
        if (rd->n > b->lim->max_values) {
            fail(b, in, "unsupported: location '%s' may hold too many distinct values",
                 base_sym_str(b->t->syms, b->t->locs[d->loc[k]].name));
            return false;
        }
        d->n[k] = rd->n;
        d->vals[k] = base_xmalloc(base_mul_size(rd->n, sizeof *d->vals[k]));
        d->justs[k] = base_xmalloc(base_mul_size(rd->n, JUST_WORDS * sizeof(uint64_t)));
        memcpy(d->vals[k], rd->vals, rd->n * sizeof *d->vals[k]);
        memcpy(d->justs[k], b->scratch_just, rd->n * JUST_WORDS * sizeof(uint64_t));
    }
    if (d->loc[0] == d->loc[1]) {
        fail(b, in, "unsupported: %s on one location twice", what);
        return false;
    }
    return true;
}

/* The events of one single-copy-atomic pair access (herd's para_atomic:
 * LDXP's reads, STXP's writes), for the model's sm. */
static void note_sca(builder *b, uint32_t e0, uint32_t e1)
{
    add_dep(&b->es->sca, &b->es->nsca, &b->es->sca_cap, e0, e1);
}

/* An exclusive pair load (LITMUS_I_READ with pair: AArch64's LDXP): per pair
 * of values, a read of each cell (the second after the first on the path),
 * one single-copy-atomic access; the pair reserves both cells for a later
 * store-exclusive pair. */
static void explore_read_pair(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent)
{
    const litmus_thread *th = &b->t->threads[thread];
    const litmus_instr *in = &th->instrs[pc];
    pair_dom d;
    if (!pair_domains(b, in, thread, pc, s, &d, "an exclusive pair"))
        goto out;
    const uint32_t *loc = d.loc, *nvals = d.n;
    litmus_value *const *vals = d.vals;
    uint32_t ap = port(b, in, thread, pc, parent, &d.at[0], 'A');
    /* both reads anew per pair of values: each read has at most one write */
    for (uint32_t i = 0; i < nvals[0] && !b->failed; i++) {
        for (uint32_t j = 0; j < nvals[1] && !b->failed; j++) {
            uint32_t ev[2];
            for (int k = 0; k < 2; k++) {
                ev[k] = new_event(b, in, LITMUS_EV_READ, thread, pc, k ? ev[0] : ap);
                if (ev[k] == LITMUS_NONE)
                    goto out;
                b->es->events[ev[k]].loc = loc[k];
                b->es->events[ev[k]].value = vals[k][k ? j : i];
                port_links(b, ev[k]);
                deps_for(b, ev[k], &d.at[k], NULL, s);
            }
            note_sca(b, ev[0], ev[1]);
            state *c = state_copy(th, s);
            for (int k = 0; k < 2; k++) {
                regval *r = &c->regs[k ? in->reg2 : in->reg];
                memset(r, 0, sizeof *r);
                r->v = b->es->events[ev[k]].value;
                r->nt = 1;
                r->t[0] = ev[k];
                r->src1 = ev[k] + 1;
                r->novalue = false;
                memcpy(r->just, d.justs[k] + (size_t)(k ? j : i) * JUST_WORDS, sizeof r->just);
                mark_used(b, &d.at[k], ev[1]);
            }
            c->has_resv = c->resv_pair = true;
            c->resv_loc = loc[0];
            c->resv_ev = ev[0];
            c->resv_loc2 = loc[1];
            c->resv_ev2 = ev[1];
            explore(b, thread, pc + 1, c, ev[1]);
            state_free(c);
        }
    }
out:
    pair_dom_free(&d);
}

/* A store-exclusive pair (LITMUS_I_SC with pair: AArch64's STXP): the
 * failure, then, when an exclusive pair load reserved the same two cells,
 * the success: a write of each cell, one single-copy-atomic access, each in
 * rmw with the reserving read of its cell. */
static void explore_sc_pair(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent)
{
    const litmus_thread *th = &b->t->threads[thread];
    const litmus_instr *in = &th->instrs[pc];
    regval at[2], val[2];
    memset(at, 0, sizeof at);
    memset(val, 0, sizeof val);
    uint32_t loc[2];
    for (int k = 0; k < 2; k++) {
        loc[k] = eval_addr_of(b, in, k ? &in->addr2 : &in->addr, s, &at[k]);
        if (loc[k] == LITMUS_NONE)
            return;
        eval_operand(s, k ? &in->value2 : &in->value, &val[k]);
    }
    if (s->has_resv && s->resv_loc == loc[0] && !s->resv_pair) {
        fail(b, in, "%s: a store-exclusive pair after a single exclusive load", "unsupported");
        return;
    }
    bool can_succeed = s->has_resv && s->resv_pair && s->resv_loc == loc[0] &&
                       s->resv_loc2 == loc[1];
    for (int ok = 0; ok <= (can_succeed ? 1 : 0) && !b->failed; ok++) {
        state *c = state_copy(th, s);
        c->has_resv = c->resv_pair = false;
        if (in->ok_reg != UINT32_MAX) {
            regval *okr = &c->regs[in->ok_reg];
            memset(okr, 0, sizeof *okr);
            okr->v = litmus_int(ok ? 0 : 1);
        }
        uint32_t last;
        if (!ok) {
            /* the failure: an event of its own, as for a single one */
            last = new_event(b, in, LITMUS_EV_FENCE, thread, pc, parent);
            if (last != LITMUS_NONE) {
                b->es->events[last].annots = &in->fail_annots;
                deps_for(b, last, NULL, NULL, c);
            }
        } else {
            uint32_t rd[2] = { s->resv_ev, s->resv_ev2 }, w[2] = { LITMUS_NONE, LITMUS_NONE };
            last = port(b, in, thread, pc, parent, &at[0], 'A');
            for (int k = 0; k < 2 && !b->failed; k++) {
                if (b->es->events[rd[k]].rmw_write != LITMUS_NONE) {
                    fail(b, in, "%s: two store-conditionals paired with one load-reserve",
                         "unsupported");
                    break;
                }
                uint32_t wp = port(b, in, thread, pc, last, &val[k], 'D');
                if (b->failed)
                    break;
                w[k] = new_event(b, in, LITMUS_EV_WRITE, thread, pc, wp);
                if (w[k] == LITMUS_NONE)
                    break;
                litmus_event *we = &b->es->events[w[k]];
                we->loc = loc[k];
                we->value = val[k].v = loc_typed(b, loc[k], val[k].v);
                b->es->events[rd[k]].rmw_write = w[k];
                port_links(b, w[k]);
                deps_for(b, w[k], &at[k], &val[k], c);
                note_write(b, thread, pc, loc[k], &val[k]);
                mark_used(b, &at[k], w[k]);
                note_copy(b, w[k], &val[k]);
                last = w[k];
            }
            if (!b->failed)
                note_sca(b, w[0], w[1]);
        }
        if (!b->failed && last != LITMUS_NONE)
            explore(b, thread, pc + 1, c, last);
        state_free(c);
    }
}

/* A store-conditional (LITMUS_I_SC): the failure, then the success when
 * the reservation is on the same location; each continues the thread. */
static void explore_sc(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent)
{
    const litmus_thread *th = &b->t->threads[thread];
    const litmus_instr *in = &th->instrs[pc];
    if (in->pair) {
        explore_sc_pair(b, thread, pc, s, parent);
        return;
    }
    regval at = { 0 }, val = { 0 };
    uint32_t loc = eval_address(b, in, s, &at);
    if (loc == LITMUS_NONE)
        return;
    if (s->has_resv && s->resv_loc == loc && s->resv_pair) {
        fail(b, in, "%s: a single store-exclusive after an exclusive pair load",
             "unsupported");
        return;
    }
    eval_operand(s, &in->value, &val);
    bool can_succeed = s->has_resv && s->resv_loc == loc;
    for (int ok = 0; ok <= (can_succeed ? 1 : 0) && !b->failed; ok++) {
        state *c = state_copy(th, s);
        c->has_resv = false;
        if (in->ok_reg != UINT32_MAX) {
            regval *okr = &c->regs[in->ok_reg];
            memset(okr, 0, sizeof *okr);
            okr->v = litmus_int(ok ? 0 : 1);
        }
        uint32_t last = parent;
        if (!ok) {
            /* the failure is an event of its own (a fence with no
             * annotation), so that its path ends at an event unique to it */
            uint32_t f = new_event(b, in, LITMUS_EV_FENCE, thread, pc, parent);
            if (f == LITMUS_NONE) {
                state_free(c);
                return;
            }
            b->es->events[f].annots = &in->fail_annots;
            deps_for(b, f, NULL, NULL, c);
            last = f;
        } else {
            uint32_t pp = port(b, in, thread, pc, parent, &at, 'A');
            if (!b->failed)
                pp = port(b, in, thread, pc, pp, &val, 'D');
            if (b->failed) {
                state_free(c);
                return;
            }
            parent = pp;
            litmus_event *re = &b->es->events[s->resv_ev];
            if (re->rmw_write != LITMUS_NONE) {
                fail(b, in, "%s: two store-conditionals paired with one load-reserve",
                     "unsupported");
                state_free(c);
                return;
            }
            uint32_t w = new_event(b, in, LITMUS_EV_WRITE, thread, pc, parent);
            if (w == LITMUS_NONE) {
                state_free(c);
                return;
            }
            litmus_event *we = &b->es->events[w];
            we->loc = loc;
            we->value = val.v = loc_typed(b, loc, val.v);
            b->es->events[s->resv_ev].rmw_write = w;
            port_links(b, w);
            deps_for(b, w, &at, &val, c);
            note_write(b, thread, pc, loc, &val);
            mark_used(b, &at, w);
            note_copy(b, w, &val);
            last = w;
        }
        explore(b, thread, pc + 1, c, last);
        state_free(c);
    }
}

/* A compare-and-swap pair (LITMUS_I_CAS with pair: AArch64's CASP): per
 * pair of values read, the success (both equal the expected ones: two
 * reads, then two writes, each write in an rmw with the read of its own
 * location) or the failure (two reads with fail_annots). */
static void explore_casp(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent)
{
    const litmus_thread *th = &b->t->threads[thread];
    const litmus_instr *in = &th->instrs[pc];
    regval cmp[2];
    memset(cmp, 0, sizeof cmp);
    for (int k = 0; k < 2; k++)
        eval_operand(s, k ? &in->cmp2 : &in->cmp, &cmp[k]);
    pair_dom d;
    if (!pair_domains(b, in, thread, pc, s, &d, "a compare-and-swap pair"))
        goto out;
    const uint32_t *loc = d.loc, *nvals = d.n;
    litmus_value *const *vals = d.vals;
    uint64_t *const *justs = d.justs;
    regval *at = d.at;
    parent = port(b, in, thread, pc, parent, &at[0], 'A');
    /* o: the outcome (o % 2: 0 the success) and herd's variant of it (o / 2,
     * litmus_instr.alt_deps: a success's old values from the compared
     * registers; a failure's write back of the values read) */
    for (int o = 0; o < 4 && !b->failed; o++) {
        bool ok = o % 2 == 0, alt = o / 2;
        if (alt && !in->alt_deps)
            continue;
        bool wb = alt && !ok;
        for (uint32_t i = 0; i < nvals[0] && !b->failed; i++) {
            bool eq0 = litmus_value_eq(vals[0][i], cmp[0].v);
            if (ok && !eq0)
                continue;
            /* the first read, made on the first second value that fits (a
             * write back pairs it with one write: one per second value) */
            uint32_t r0 = LITMUS_NONE;
            for (uint32_t j = 0; j < nvals[1] && !b->failed; j++) {
                bool eq1 = litmus_value_eq(vals[1][j], cmp[1].v);
                if (ok ? !eq1 : eq0 && eq1)
                    continue;
                if (r0 == LITMUS_NONE || wb) {
                    r0 = new_event(b, in, LITMUS_EV_READ, thread, pc, parent);
                    if (r0 == LITMUS_NONE)
                        goto out;
                    litmus_event *e0 = &b->es->events[r0];
                    e0->loc = loc[0];
                    e0->value = vals[0][i];
                    e0->rmw = ok || wb;
                    if (!ok)
                        e0->annots = &in->fail_annots;
                    port_links(b, r0);
                    deps_for(b, r0, &at[0], NULL, s);
                }
                uint32_t ev[2] = { r0, LITMUS_NONE };
                ev[1] = new_event(b, in, LITMUS_EV_READ, thread, pc, r0);
                if (ev[1] == LITMUS_NONE)
                    goto out;
                state *c = state_copy(th, s);
                litmus_event *e1 = &b->es->events[ev[1]];
                e1->loc = loc[1];
                e1->value = vals[1][j];
                e1->rmw = ok || wb;
                if (!ok)
                    e1->annots = &in->fail_annots;
                port_links(b, ev[1]);
                deps_for(b, ev[1], &at[1], NULL, s);
                for (int k = 0; k < 2; k++) {
                    const litmus_event *re = &b->es->events[ev[k]];
                    regval *r = &c->regs[k ? in->reg2 : in->reg];
                    memset(r, 0, sizeof *r);
                    r->v = re->value;
                    r->nt = 1;
                    r->t[0] = ev[k];
                    r->src1 = ev[k] + 1;
                    if (ok && alt) { /* from the compared register, a pick on the read */
                        r->nt = 0;
                        for (uint32_t q = 0; q < cmp[k].nt && r->nt < TAINT_MAX - 1; q++)
                            r->t[r->nt++] = cmp[k].t[q];
                        r->t[r->nt++] = ev[k] | PICK;
                        r->src1 = cmp[k].src1;
                        r->sym1 = cmp[k].sym1;
                    }
                    r->novalue = ok && alt && cmp[k].novalue;
                    memcpy(r->just, justs[k] + (size_t)(k ? j : i) * JUST_WORDS, sizeof r->just);
                    /* the compares, and the addresses */
                    mark_used(b, r, ev[1]);
                    mark_used(b, &cmp[k], ev[1]);
                    mark_used(b, &at[k], ev[1]);
                }
                uint32_t last = ev[1];
                for (int k = 0; (ok || wb) && k < 2 && !b->failed; k++) {
                    regval val = { 0 };
                    if (wb) { /* the value read, a copy of it */
                        val.v = b->es->events[ev[k]].value;
                        val.src1 = ev[k] + 1;
                    } else {
                        eval_operand(s, k ? &in->value2 : &in->value, &val);
                    }
                    uint32_t wp = port(b, in, thread, pc, last, &val, 'D');
                    if (b->failed)
                        break;
                    uint32_t w = new_event(b, in, LITMUS_EV_WRITE, thread, pc, wp);
                    if (w == LITMUS_NONE)
                        break;
                    litmus_event *we = &b->es->events[w];
                    we->loc = loc[k];
                    we->value = val.v = loc_typed(b, loc[k], val.v);
                    we->rmw = true;
                    if (in->has_wannots)
                        we->annots = &in->wannots;
                    port_links(b, w);
                    /* written only when both compares hold: herd's pick
                     * dependency on the compared registers and the reads */
                    for (int q = 0; b->lim->ports && q < 2; q++) {
                        for (uint32_t t = 0; t < cmp[q].nt; t++)
                            add_dep(&b->es->iico_ctrl, &b->es->niico_ctrl, &b->es->iico_ctrl_cap,
                                    cmp[q].t[t] & ~PICK, w);
                        add_dep(&b->es->iico_ctrl, &b->es->niico_ctrl, &b->es->iico_ctrl_cap,
                                ev[q], w);
                    }
                    if (b->lim->ports && wb) /* whose value it writes */
                        add_dep(&b->es->iico_data, &b->es->niico_data, &b->es->iico_data_cap,
                                ev[k], w);
                    b->es->events[ev[k]].rmw_write = w; /* one j per read: one write */
                    deps_for(b, w, &at[k], &val, c);
                    note_write(b, thread, pc, loc[k], &val);
                    note_copy(b, w, &val);
                    last = w;
                }
                if (!b->failed)
                    explore(b, thread, pc + 1, c, last);
                state_free(c);
            }
        }
    }
out:
    pair_dom_free(&d);
}

/* Runs thread `thread` from pc in state s (which it may change) after event
 * `parent`. */
static void explore(builder *b, uint32_t thread, uint32_t pc, state *s, uint32_t parent)
{
    const litmus_thread *th = &b->t->threads[thread];
    while (!b->failed) {
        for (uint32_t i = 0; i < s->nctrl;) { /* control dependencies that end here */
            if (s->until[i] == pc && pc != 0) {
                s->ctrl[i] = s->ctrl[--s->nctrl];
                s->until[i] = s->until[s->nctrl];
            } else {
                i++;
            }
        }
        if (pc >= th->ninstrs) {
            record_path(b, thread, s, parent);
            return;
        }
        const litmus_instr *in = &th->instrs[pc];
        switch (in->kind) {
        case LITMUS_I_NOP:
            pc++;
            break;
        case LITMUS_I_MOV: {
            regval r = { 0 };
            eval_expr(b, in, s, in->expr, &r);
            if (in->expr->op != LITMUS_OP_NONE && !r.src1 && !r.novalue)
                mark_used(b, &r, parent); /* no equation left: a copy, a constant */
            s->regs[in->reg] = r;
            pc++;
            break;
        }
        case LITMUS_I_FENCE:
        case LITMUS_I_CALL: {
            regval at = { 0 }, val = { 0 };
            uint32_t loc = LITMUS_NONE;
            if (in->kind == LITMUS_I_FENCE && in->located) {
                loc = eval_address(b, in, s, &at);
                if (loc == LITMUS_NONE)
                    return;
                eval_operand(s, &in->value, &val);
                mark_used(b, &at, parent);
                mark_used(b, &val, parent);
            }
            for (int alt = in->choice ? 1 : 2; alt >= 0 && !b->failed; alt--) {
                /* alt 2: the one event; 1, 0: a choice's two (ok_reg := alt) */
                uint32_t ev = new_event(b, in, LITMUS_EV_FENCE, thread, pc, parent);
                if (ev == LITMUS_NONE)
                    return;
                if (alt == 0)
                    b->es->events[ev].annots = &in->fail_annots;
                if (loc != LITMUS_NONE) {
                    b->es->events[ev].located = true;
                    b->es->events[ev].loc = loc;
                    b->es->events[ev].value = val.v;
                }
                if (alt == 2) {
                    deps_for(b, ev, loc != LITMUS_NONE ? &at : NULL, NULL, s);
                    parent = ev;
                    break;
                }
                state *c = state_copy(th, s);
                deps_for(b, ev, loc != LITMUS_NONE ? &at : NULL, NULL, c);
                regval *okr = &c->regs[in->ok_reg];
                memset(okr, 0, sizeof *okr);
                okr->v = litmus_int(alt);
                explore(b, thread, pc + 1, c, ev);
                state_free(c);
            }
            if (in->choice)
                return;
            pc++;
            break;
        }
        case LITMUS_I_WRITE: {
            regval at = { 0 }, val = { 0 };
            uint32_t loc = eval_address(b, in, s, &at);
            if (loc == LITMUS_NONE)
                return;
            eval_operand(s, &in->value, &val);
            parent = port(b, in, thread, pc, parent, &at, 'A');
            if (!b->failed)
                parent = port(b, in, thread, pc, parent, &val, 'D');
            if (b->failed)
                return;
            uint32_t ev = new_event(b, in, LITMUS_EV_WRITE, thread, pc, parent);
            if (ev == LITMUS_NONE)
                return;
            port_links(b, ev);
            b->es->events[ev].loc = loc;
            b->es->events[ev].value = val.v = loc_typed(b, loc, val.v);
            deps_for(b, ev, &at, &val, s);
            note_write(b, thread, pc, loc, &val);
            mark_used(b, &at, parent);
            note_copy(b, ev, &val);
            parent = ev;
            pc++;
            break;
        }
        case LITMUS_I_READ:
        case LITMUS_I_RMW:
        case LITMUS_I_CAS: {
            if (in->kind == LITMUS_I_CAS && in->pair) {
                explore_casp(b, thread, pc, s, parent);
                return;
            }
            if (in->kind == LITMUS_I_READ && in->pair) {
                explore_read_pair(b, thread, pc, s, parent);
                return;
            }
            regval at = { 0 };
            uint32_t loc = eval_address(b, in, s, &at);
            if (loc == LITMUS_NONE)
                return;
            const domain *rd = read_domain(b, thread, pc, loc);
            if (rd->n > b->lim->max_values) {
                fail(b, in, "unsupported: location '%s' may hold too many distinct values",
                     base_sym_str(b->t->syms, b->t->locs[loc].name));
                return;
            }
            if (b->symbolic[b->instr_base[thread] + pc]) {
                uint32_t ev = symbolic_read(b, in, thread, pc, parent, loc, rd);
                if (ev == LITMUS_NONE)
                    return;
                deps_for(b, ev, &at, NULL, s);
                regval *r = &s->regs[in->reg];
                memset(r, 0, sizeof *r);
                r->v = litmus_int(0); /* never looked at: the path's sym says */
                r->sym1 = ev + 1;
                r->src1 = ev + 1;
                r->novalue = false;
                mark_used(b, &at, parent);
                parent = ev;
                pc++;
                break;
            }
            /* Copy: the recursion below reuses the scratch domain. */
            litmus_value *vals = base_xmalloc(base_mul_size(rd->n, sizeof *vals));
            uint64_t *justs = base_xmalloc(base_mul_size(rd->n, JUST_WORDS * sizeof(uint64_t)));
            uint32_t nvals = rd->n;
            memcpy(vals, rd->vals, nvals * sizeof *vals);
            memcpy(justs, b->scratch_just, nvals * JUST_WORDS * sizeof(uint64_t));
            /* A CAS compares with cmp: per value read it succeeds (an rmw)
             * or fails (a read with fail_annots), or both when weak. */
            regval cmp = { 0 };
            if (in->kind == LITMUS_I_CAS)
                eval_operand(s, &in->cmp, &cmp);
            if (cmp.v.kind == LITMUS_VAL_UNDEF)
                fail(b, in, "%s: a value computed from an instruction (only compares of instructions for equality are modelled)", "unsupported");
            parent = port(b, in, thread, pc, parent, &at, 'A');
            if (b->failed) {
                free(vals);
                free(justs);
                return;
            }
            /* k: the value read (k / 4), the outcome (k % 2: 0 a write) and
             * herd's variant of it (k / 2 % 2, litmus_instr.alt_deps) */
            for (uint32_t k = 0; k < 4 * nvals && !b->failed; k++) {
                uint32_t i = k / 4;
                bool writes = in->kind == LITMUS_I_RMW;
                bool alt = k / 2 % 2;
                if (alt && !(in->kind == LITMUS_I_CAS && in->alt_deps))
                    continue;
                if (in->kind == LITMUS_I_CAS) {
                    bool eq = litmus_value_eq(vals[i], cmp.v);
                    writes = k % 2 == 0;
                    if ((writes && !eq) || (!writes && eq && !in->weak))
                        continue;
                } else if (k % 2) {
                    continue;
                }
                bool wb = alt && !writes; /* a failed compare writing back what it read */
                uint32_t before = parent;
                if (writes && in->fence_annots.count) {
                    /* herd's {mb} read-modify-writes: a fence on each side */
                    before = new_event(b, in, LITMUS_EV_FENCE, thread, pc, parent);
                    if (before == LITMUS_NONE)
                        break;
                    b->es->events[before].annots = &in->fence_annots;
                    deps_for(b, before, NULL, NULL, s);
                }
                uint32_t ev = new_event(b, in, LITMUS_EV_READ, thread, pc, before);
                if (ev == LITMUS_NONE)
                    break;
                b->es->events[ev].loc = loc;
                b->es->events[ev].value = vals[i];
                b->es->events[ev].rmw = writes || wb || (in->kind == LITMUS_I_CAS && in->fail_rmw);
                port_links(b, ev);
                if (in->kind == LITMUS_I_CAS && !writes)
                    b->es->events[ev].annots = &in->fail_annots;
                deps_for(b, ev, &at, NULL, s);
                state *c = state_copy(th, s);
                regval *r = &c->regs[in->reg];
                r->v = vals[i];
                r->nt = 1;
                r->t[0] = ev;
                r->sym1 = 0;
                r->src1 = ev + 1;
                r->novalue = false;
                memcpy(r->just, justs + (size_t)i * JUST_WORDS, sizeof r->just);
                mark_used(b, &at, ev);
                if (in->kind == LITMUS_I_CAS) { /* the compare */
                    mark_used(b, r, ev);
                    mark_used(b, &cmp, ev);
                }
                if (in->reserve) {
                    c->has_resv = true;
                    c->resv_loc = loc;
                    c->resv_ev = ev;
                    c->resv_pair = false;
                }
                if (writes && alt) {
                    /* herd's DataFromRRs: the old value (equal to the compared
                     * one) comes from the compared register; a pick
                     * dependency on the read */
                    r->nt = 0;
                    for (uint32_t q = 0; q < cmp.nt && r->nt < TAINT_MAX - 1; q++)
                        r->t[r->nt++] = cmp.t[q];
                    r->t[r->nt++] = ev | PICK;
                    r->src1 = cmp.src1;
                    r->sym1 = cmp.sym1;
                    r->novalue = cmp.novalue;
                }
                if (in->kind == LITMUS_I_CAS && in->ok_reg != in->reg) {
                    /* success depends on the value read, as the value does */
                    regval *okr = &c->regs[in->ok_reg];
                    *okr = *r;
                    okr->v = litmus_int(writes);
                    okr->src1 = 0;
                }
                uint32_t last = ev;
                if (writes || wb) {
                    regval val = { 0 };
                    if (wb) { /* the value read, a copy of it */
                        val.v = vals[i];
                        val.src1 = ev + 1;
                    } else if (in->kind == LITMUS_I_CAS)
                        eval_operand(c, &in->value, &val);
                    else
                        eval_expr(b, in, c, in->expr, &val);
                    if (in->kind != LITMUS_I_CAS && in->expr->op != LITMUS_OP_NONE)
                        mark_used(b, &val, ev);
                    /* the write's data port: what the stored value depends
                     * on besides this read (same instance, not a dependency) */
                    regval dv = val;
                    uint32_t k2 = 0;
                    for (uint32_t q = 0; q < dv.nt; q++)
                        if (dv.t[q] != ev)
                            dv.t[k2++] = dv.t[q];
                    dv.nt = k2;
                    uint32_t wp = port(b, in, thread, pc, ev, &dv, 'D');
                    if (b->failed) {
                        state_free(c);
                        break;
                    }
                    uint32_t w = new_event(b, in, LITMUS_EV_WRITE, thread, pc, wp);
                    if (w == LITMUS_NONE) {
                        state_free(c);
                        break;
                    }
                    litmus_event *we = &b->es->events[w];
                    we->loc = loc;
                    we->value = val.v = loc_typed(b, loc, val.v);
                    we->rmw = true;
                    if (in->has_wannots)
                        we->annots = &in->wannots;
                    port_links(b, w);
                    /* a CAS writes only when the compare holds: herd's
                     * pick dependency (iico_ctrl) on what the compared
                     * register depends on */
                    for (uint32_t q = 0; b->lim->ports && in->kind == LITMUS_I_CAS && q < cmp.nt; q++)
                        add_dep(&b->es->iico_ctrl, &b->es->niico_ctrl, &b->es->iico_ctrl_cap,
                                cmp.t[q] & ~PICK, w);
                    if (b->lim->ports && in->kind == LITMUS_I_CAS) /* and on the value read */
                        add_dep(&b->es->iico_ctrl, &b->es->niico_ctrl, &b->es->iico_ctrl_cap,
                                ev, w);
                    if (b->lim->ports && wb) /* whose value it writes */
                        add_dep(&b->es->iico_data, &b->es->niico_data, &b->es->iico_data_cap,
                                ev, w);
                    b->es->events[ev].rmw_write = w;
                    if (in->wannots.count)
                        we->annots = &in->wannots;
                    deps_for(b, w, &at, &val, c);
                    note_write(b, thread, pc, loc, &val);
                    note_copy(b, w, &val);
                    last = w;
                    if (in->fence_annots.count) {
                        uint32_t f = new_event(b, in, LITMUS_EV_FENCE, thread, pc, w);
                        if (f == LITMUS_NONE) {
                            state_free(c);
                            break;
                        }
                        b->es->events[f].annots = &in->fence_annots;
                        deps_for(b, f, NULL, NULL, c);
                        last = f;
                    }
                }
                explore(b, thread, pc + 1, c, last);
                state_free(c);
            }
            free(vals);
            free(justs);
            return;
        }
        case LITMUS_I_SC:
            explore_sc(b, thread, pc, s, parent);
            return;
        case LITMUS_I_BRANCH: {
            bool taken = true;
            uint32_t target = in->target;
            if (in->has_reg) {
                const regval *r = &s->regs[in->reg];
                taken = in->indirect || !(r->v.kind == LITMUS_VAL_INT && r->v.num == 0);
                if (r->v.kind == LITMUS_VAL_UNDEF) {
                    fail(b, in, "%s: a value computed from an instruction (only compares of instructions for equality are modelled)", "unsupported");
                    return;
                }
                mark_used(b, r, parent);
                if (in->indirect) { /* a branch to the code address r holds */
                    const litmus_location *l = r->v.kind == LITMUS_VAL_ADDR ? &b->t->locs[r->v.loc] : NULL;
                    if (!l || !l->code || r->v.num != 0) {
                        /* the thread stops here; litmus_simulate answers only
                         * when no consistent execution takes this path */
                        if (b->lim->ports) {
                            uint32_t bp = port(b, in, thread, pc, parent, r, 'B');
                            if (b->failed)
                                return;
                            parent = bp;
                        }
                        record_path(b, thread, s, parent);
                        b->es->paths[b->es->npaths - 1].fault = true;
                        b->es->nfault_paths++;
                        return;
                    }
                    target = l->code_targets[thread];
                }
                for (uint32_t i = 0; i < r->nt; i++) {
                    if (r->t[i] & PICK)
                        continue; /* no ctrl of ravel's own (ports: the cat's) */
                    bool have = false;
                    for (uint32_t j = 0; j < s->nctrl; j++) {
                        if (s->ctrl[j] != r->t[i])
                            continue;
                        have = true; /* it lasts as long as its longest cause */
                        if (s->until[j] != 0 && (in->ctrl_until == 0 || in->ctrl_until > s->until[j]))
                            s->until[j] = in->ctrl_until;
                    }
                    if (have)
                        continue;
                    if (s->nctrl == CTRL_MAX) {
                        fail(b, in, "%s: too many control dependencies", "unsupported");
                        return;
                    }
                    s->until[s->nctrl] = in->ctrl_until;
                    s->ctrl[s->nctrl++] = r->t[i];
                }
            }
            if (in->has_reg && b->lim->ports) {
                uint32_t bp = port(b, in, thread, pc, parent, &s->regs[in->reg], 'B');
                if (b->failed)
                    return;
                parent = bp;
            }
            if (!taken) {
                pc++;
                break;
            }
            if (target <= pc) {
                if (++s->loops[pc] > b->lim->unroll) {
                    b->es->dropped_paths = true;
                    return;
                }
            }
            pc = target;
            break;
        }
        }
    }
}

static void reset_events(litmus_evstruct *es)
{
    for (uint32_t i = 0; i < es->npaths; i++) {
        free(es->paths[i].regs);
        free(es->paths[i].sym);
        free(es->paths[i].src);
    }
    es->npaths = 0;
    es->nevents = 0;
    es->ndomvals = 0;
    es->nsymbolic = 0;
    es->naddr = es->ndata = es->nctrl = 0;
    es->nrfreg = es->niico_data = es->niico_ctrl = es->nsca = es->nvuse = 0;
    es->nwdep = 0;
    es->dropped_paths = false;
    es->nfault_paths = 0;
}

/* One round: unfold every thread with the current domains. */
static void unfold(builder *b)
{
    const litmus_test *t = b->t;
    litmus_evstruct *es = b->es;
    reset_events(es);
    for (uint32_t l = 0; l < t->nlocs; l++) {
        uint32_t ev = new_event(b, NULL, LITMUS_EV_INIT, LITMUS_NONE, 0, LITMUS_NONE);
        if (ev == LITMUS_NONE)
            return;
        es->events[ev].loc = l;
        es->events[ev].value = t->locs[l].init;
        es->init_of_loc[l] = ev;
    }
    for (uint32_t th = 0; th < t->nthreads && !b->failed; th++) {
        const litmus_thread *thr = &t->threads[th];
        state s = { 0 };
        s.regs = base_xcalloc(thr->nregs ? thr->nregs : 1, sizeof *s.regs);
        for (uint32_t r = 0; r < thr->nregs; r++)
            s.regs[r].v = litmus_int(0);
        for (uint32_t i = 0; i < thr->ninits; i++)
            s.regs[thr->inits[i].reg].v = thr->inits[i].value;
        s.loops = base_xcalloc(thr->ninstrs ? thr->ninstrs : 1, sizeof *s.loops);
        explore(b, th, 0, &s, LITMUS_NONE);
        free(s.regs);
        free(s.loops);
    }
}

/* Drops events on no complete path and renumbers the rest. */
static void compact(builder *b)
{
    litmus_evstruct *es = b->es;
    ensure_alive_cap(b);
    uint32_t *map = base_xmalloc(base_mul_size(es->nevents ? es->nevents : 1, sizeof *map));
    uint32_t n = 0;
    for (uint32_t i = 0; i < es->nevents; i++) {
        bool keep = es->events[i].kind == LITMUS_EV_INIT || b->alive[i];
        map[i] = keep ? n : LITMUS_NONE;
        if (keep)
            es->events[n++] = es->events[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        litmus_event *e = &es->events[i];
        if (e->parent != LITMUS_NONE)
            e->parent = map[e->parent];
        if (e->rmw_write != LITMUS_NONE)
            e->rmw_write = map[e->rmw_write];
        if (e->copy_of != LITMUS_NONE)
            e->copy_of = map[e->copy_of];
    }
    litmus_dep *lists[9] = { es->addr, es->data, es->ctrl, es->rfreg, es->iico_data, es->iico_ctrl,
                             es->sca, es->vuse, es->wdep };
    uint32_t *counts[9] = { &es->naddr, &es->ndata, &es->nctrl, &es->nrfreg, &es->niico_data,
                            &es->niico_ctrl, &es->nsca, &es->nvuse, &es->nwdep };
    for (int k = 0; k < 9; k++) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < *counts[k]; i++) {
            uint32_t f = map[lists[k][i].from], t = map[lists[k][i].to];
            if (f != LITMUS_NONE && t != LITMUS_NONE) {
                lists[k][m].from = f;
                lists[k][m].to = t;
                m++;
            }
        }
        *counts[k] = m;
    }
    for (uint32_t i = 0; i < es->npaths; i++) {
        litmus_path *p = &es->paths[i];
        if (p->last != LITMUS_NONE)
            p->last = map[p->last];
        for (uint32_t r = 0; p->sym && r < b->t->threads[p->thread].nregs; r++)
            if (p->sym[r] != LITMUS_NONE)
                p->sym[r] = map[p->sym[r]];
        for (uint32_t r = 0; r < b->t->threads[p->thread].nregs; r++)
            if (p->src[r] != LITMUS_NONE)
                p->src[r] = map[p->src[r]];
    }
    for (uint32_t l = 0; l < b->t->nlocs; l++)
        es->init_of_loc[l] = map[es->init_of_loc[l]];
    es->nevents = n;
    free(map);
}

/* Is there a cycle of locations l0 -> l1 -> ... -> l0, where l -> m when
 * some write of m stores a copy of a read of l, or a value computed from
 * it (litmus_evstruct.copy_cycle)? A computed write's edge back to its own
 * location is left out (`x = x + 1`, an rmw's write: coherence orders the
 * read before the write, so it reads an older value). Kahn's algorithm: a
 * cycle is what remains after peeling off the locations no edge enters. */
static bool find_copy_cycle(const litmus_test *t, const litmus_evstruct *es)
{
    uint32_t n = t->nlocs, nedges = 0;
    litmus_dep *edges = base_xmalloc(base_mul_size((size_t)es->nevents + es->nwdep + 1, sizeof *edges));
    uint32_t *indeg = base_xcalloc(n ? n : 1, sizeof *indeg);
    for (uint32_t i = 0; i < es->nevents + es->nwdep; i++) {
        uint32_t r, wi;
        if (i < es->nevents) {
            if (es->events[i].kind != LITMUS_EV_WRITE || es->events[i].copy_of == LITMUS_NONE)
                continue;
            r = es->events[i].copy_of, wi = i;
        } else {
            r = es->wdep[i - es->nevents].from, wi = es->wdep[i - es->nevents].to;
            if (es->events[r].loc == es->events[wi].loc)
                continue;
        }
        edges[nedges].from = es->events[r].loc;
        edges[nedges].to = es->events[wi].loc;
        indeg[es->events[wi].loc]++;
        nedges++;
    }
    uint32_t *queue = base_xmalloc(base_mul_size(n ? n : 1, sizeof *queue));
    uint32_t head = 0, tail = 0, peeled = 0;
    for (uint32_t l = 0; l < n; l++)
        if (indeg[l] == 0)
            queue[tail++] = l;
    while (head < tail) {
        uint32_t l = queue[head++];
        peeled++;
        for (uint32_t k = 0; k < nedges; k++)
            if (edges[k].from == l && --indeg[edges[k].to] == 0)
                queue[tail++] = edges[k].to;
    }
    free(queue);
    free(indeg);
    free(edges);
    return peeled < n;
}

bool litmus_evstruct_build(const litmus_test *t, const litmus_es_limits *lim,
                           litmus_evstruct *es, base_diag *diag)
{
    memset(es, 0, sizeof *es);
    es->unroll = lim->unroll;
    es->init_of_loc = base_xcalloc(t->nlocs ? t->nlocs : 1, sizeof *es->init_of_loc);
    builder b = { .t = t, .lim = lim, .es = es, .diag = diag };
    b.has_loop = base_xcalloc(t->nthreads ? t->nthreads : 1, sizeof *b.has_loop);
    b.instr_base = base_xcalloc(t->nthreads ? t->nthreads : 1, sizeof *b.instr_base);
    uint32_t total = 0;
    for (uint32_t th = 0; th < t->nthreads; th++) {
        b.instr_base[th] = total;
        total += t->threads[th].ninstrs;
    }
    b.total_instrs = total;
    b.justify = total <= JUST_WORDS * 64;
    for (uint32_t th = 0; th < t->nthreads; th++)
        for (uint32_t i = 0; i < t->threads[th].ninstrs; i++)
            if (t->threads[th].instrs[i].kind == LITMUS_I_BRANCH &&
                (t->threads[th].instrs[i].target <= i || t->threads[th].instrs[i].indirect))
                b.has_loop[th] = true;
    find_symbolic(&b);

    /* Fixpoint: the values reads may return grow with what writes store. */
    for (int round = 0; !b.failed; round++) {
        if (round == 64) {
            fail(&b, NULL, "%s: the values written do not converge (a loop keeps computing "
                           "new values)", "unsupported");
            break;
        }
        b.found.len = 0;
        if (b.alive)
            memset(b.alive, 0, b.alive_cap);
        unfold(&b);
        bool changed = b.found.len != b.known.len;
        for (size_t i = 0; i < b.found.len && !changed; i++) {
            bool have = false;
            for (size_t k = 0; k < b.known.len && !have; k++)
                have = site_eq(&b.found.data[i], &b.known.data[k]);
            changed = !have;
        }
        if (!changed)
            break;
        /* Keep every site seen so far: the set only grows, so this ends. */
        for (size_t i = 0; i < b.found.len; i++) {
            bool have = false;
            for (size_t k = 0; k < b.known.len && !have; k++)
                have = site_eq(&b.found.data[i], &b.known.data[k]);
            if (!have)
                base_vec_push(&b.known, b.found.data[i]);
        }
    }
    if (!b.failed) {
        compact(&b);
        es->copy_cycle = find_copy_cycle(t, es);
    }
    base_vec_free(&b.known);
    base_vec_free(&b.found);
    free(b.scratch.vals);
    free(b.has_loop);
    free(b.symbolic);
    free(b.instr_base);
    free(b.scratch_just);
    free(b.alive);
    if (b.failed) {
        litmus_evstruct_free(es);
        return false;
    }
    return true;
}

void litmus_evstruct_free(litmus_evstruct *es)
{
    for (uint32_t i = 0; i < es->npaths; i++) {
        free(es->paths[i].regs);
        free(es->paths[i].sym);
        free(es->paths[i].src);
    }
    free(es->paths);
    free(es->domvals);
    free(es->events);
    free(es->addr);
    free(es->data);
    free(es->ctrl);
    free(es->rfreg);
    free(es->iico_data);
    free(es->iico_ctrl);
    free(es->sca);
    free(es->vuse);
    free(es->wdep);
    free(es->init_of_loc);
    memset(es, 0, sizeof *es);
}

bool litmus_event_may_read(const litmus_evstruct *es, const litmus_event *e, litmus_value v)
{
    if (!e->symbolic)
        return litmus_value_eq(e->value, v);
    for (uint32_t k = 0; k < e->dom_count; k++)
        if (litmus_value_eq(es->domvals[e->dom_first + k], v))
            return true;
    return false;
}
