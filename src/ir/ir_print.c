#include "ir/ir_print.h"

#include <inttypes.h>

static const char *name(const ir_program *p, base_sym s)
{
    return base_sym_str(p->syms, s);
}

void ir_print_type(base_strbuf *out, const ir_program *p, const ir_type *t)
{
    if (!t) {
        base_strbuf_puts(out, "?");
        return;
    }
    switch (t->kind) {
    case IR_T_VOID: base_strbuf_puts(out, "void"); return;
    case IR_T_INT:
        if (t->bits == 1)
            base_strbuf_puts(out, "bool");
        else
            base_strbuf_printf(out, "%c%u", t->is_signed ? 'i' : 'u', t->bits);
        return;
    case IR_T_PTR: ir_print_type(out, p, t->to); base_strbuf_putc(out, '*'); return;
    case IR_T_ARRAY:
        ir_print_type(out, p, t->to);
        base_strbuf_printf(out, "[%" PRIu64 "]", t->count);
        return;
    case IR_T_STRUCT:
    case IR_T_UNION:
        base_strbuf_printf(out, "%s %s", t->kind == IR_T_STRUCT ? "struct" : "union",
                           t->tag ? name(p, t->tag) : "<anon>");
        return;
    case IR_T_FUNC:
        ir_print_type(out, p, t->to);
        base_strbuf_puts(out, "(");
        for (uint32_t i = 0; i < t->nparams; i++) {
            if (i)
                base_strbuf_puts(out, ", ");
            ir_print_type(out, p, t->params[i]);
        }
        base_strbuf_puts(out, t->variadic ? ", ...)" : ")");
        return;
    case IR_T_MUTEX:
        if (t->tag)
            base_strbuf_printf(out, "sync<%s>", name(p, t->tag));
        else
            base_strbuf_puts(out, "mutex");
        return;
    case IR_T_FLOAT: base_strbuf_printf(out, "f%u", t->bits); return;
    }
}

const char *ir_op_name(ir_op op)
{
    static const char *const t[] = {
        [IR_OP_NEG] = "-", [IR_OP_BITNOT] = "~", [IR_OP_LNOT] = "!", [IR_OP_ADD] = "+",
        [IR_OP_SUB] = "-", [IR_OP_MUL] = "*", [IR_OP_DIV] = "/", [IR_OP_MOD] = "%",
        [IR_OP_SHL] = "<<", [IR_OP_SHR] = ">>", [IR_OP_AND] = "&", [IR_OP_OR] = "|",
        [IR_OP_XOR] = "^", [IR_OP_LAND] = "&&", [IR_OP_LOR] = "||", [IR_OP_EQ] = "==",
        [IR_OP_NE] = "!=", [IR_OP_LT] = "<", [IR_OP_LE] = "<=", [IR_OP_GT] = ">",
        [IR_OP_GE] = ">=", [IR_OP_PTR_ADD] = "+p", [IR_OP_PTR_DIFF] = "-p",
    };
    return t[op];
}

void ir_print_expr(base_strbuf *out, const ir_program *p, const ir_expr *e)
{
    switch (e->kind) {
    case IR_E_CONST:
        if (e->type && e->type->kind == IR_T_PTR && e->value == 0)
            base_strbuf_puts(out, "NULL");
        else if (e->type && e->type->kind == IR_T_FLOAT)
            base_strbuf_printf(out, "%.17g", e->fvalue);
        else if (e->type && !ir_type_is_scalar(e->type))
            base_strbuf_puts(out, "{0}");
        else
            base_strbuf_printf(out, "%" PRId64, e->value);
        return;
    case IR_E_VAR: base_strbuf_puts(out, name(p, e->var->name)); return;
    case IR_E_DEREF:
        /* Print an access path as C does: p->f for (*p).f. */
        base_strbuf_puts(out, "*");
        ir_print_expr(out, p, e->a);
        return;
    case IR_E_FIELD: {
        /* Members of anonymous structs and unions are named as C names
         * them: o.as_int for FIELD(FIELD(o, <anon>), as_int). */
        if (!e->a->type->fields[e->field].name) {
            ir_print_expr(out, p, e->a);
            return;
        }
        const ir_expr *base = e->a;
        while (base->kind == IR_E_FIELD && !base->a->type->fields[base->field].name)
            base = base->a;
        if (base->kind == IR_E_DEREF) {
            ir_print_expr(out, p, base->a);
            base_strbuf_puts(out, "->");
        } else {
            ir_print_expr(out, p, base);
            base_strbuf_putc(out, '.');
        }
        base_strbuf_puts(out, name(p, e->a->type->fields[e->field].name));
        return;
    }
    case IR_E_INDEX:
        ir_print_expr(out, p, e->a);
        base_strbuf_putc(out, '[');
        ir_print_expr(out, p, e->b);
        base_strbuf_putc(out, ']');
        return;
    case IR_E_ADDR: base_strbuf_putc(out, '&'); ir_print_expr(out, p, e->a); return;
    case IR_E_FUNC: base_strbuf_puts(out, name(p, e->func->name)); return;
    case IR_E_STRING: base_strbuf_json_string(out, e->string); return;
    case IR_E_UNARY:
        base_strbuf_puts(out, ir_op_name(e->op));
        ir_print_expr(out, p, e->a);
        return;
    case IR_E_BINARY:
        base_strbuf_putc(out, '(');
        ir_print_expr(out, p, e->a);
        base_strbuf_printf(out, " %s ", ir_op_name(e->op));
        ir_print_expr(out, p, e->b);
        base_strbuf_putc(out, ')');
        return;
    case IR_E_CAST:
        base_strbuf_putc(out, '(');
        ir_print_type(out, p, e->type);
        base_strbuf_putc(out, ')');
        ir_print_expr(out, p, e->a);
        return;
    case IR_E_ITE:
        base_strbuf_putc(out, '(');
        ir_print_expr(out, p, e->a);
        base_strbuf_puts(out, " ? ");
        ir_print_expr(out, p, e->b);
        base_strbuf_puts(out, " : ");
        ir_print_expr(out, p, e->c);
        base_strbuf_putc(out, ')');
        return;
    case IR_E_NONDET:
        base_strbuf_puts(out, "nondet_");
        ir_print_type(out, p, e->type);
        base_strbuf_puts(out, "()");
        return;
    }
}

static const char *lock_kind(ir_lock_kind k)
{
    static const char *const t[] = { "mutex", "recursive", "errorcheck", "rdlock", "wrlock", "spin",
                                     "rwlock" };
    return t[k];
}

static void stmt(base_strbuf *out, const ir_program *p, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_S_SKIP:
        base_strbuf_puts(out, "skip");
        if (s->message)
            base_strbuf_printf(out, "  /* %s */", s->message);
        break;
    case IR_S_ASSIGN:
        ir_print_expr(out, p, s->lhs);
        base_strbuf_puts(out, " = ");
        ir_print_expr(out, p, s->rhs);
        break;
    case IR_S_CALL:
    case IR_S_ASYNC:
        if (s->lhs) {
            ir_print_expr(out, p, s->lhs);
            base_strbuf_puts(out, " = ");
        }
        if (s->kind == IR_S_ASYNC)
            base_strbuf_puts(out, "async ");
        ir_print_expr(out, p, s->callee);
        base_strbuf_putc(out, '(');
        if (s->kind == IR_S_ASYNC && s->rhs)
            ir_print_expr(out, p, s->rhs);
        for (uint32_t i = 0; i < s->nargs; i++) {
            if (i)
                base_strbuf_puts(out, ", ");
            ir_print_expr(out, p, s->args[i]);
        }
        base_strbuf_putc(out, ')');
        if (s->callee->kind != IR_E_FUNC) {
            base_strbuf_puts(out, s->ncands ? " may call {" : " may call {?");
            for (uint32_t i = 0; i < s->ncands; i++)
                base_strbuf_printf(out, "%s%s", i ? ", " : "", name(p, s->cands[i]->name));
            base_strbuf_putc(out, '}');
        }
        if (s->kind == IR_S_CALL && s->message) { /* inline assembly: its template */
            base_strbuf_putc(out, ' ');
            base_strbuf_json_string(out, s->message);
        }
        break;
    case IR_S_RETURN:
        base_strbuf_puts(out, "return");
        if (s->rhs) {
            base_strbuf_putc(out, ' ');
            ir_print_expr(out, p, s->rhs);
        }
        break;
    case IR_S_GOTO:
        if (s->rhs) {
            base_strbuf_puts(out, "if ");
            ir_print_expr(out, p, s->rhs);
            base_strbuf_putc(out, ' ');
        }
        base_strbuf_puts(out, s->ntargets > 1 ? "choice" : "goto");
        for (uint32_t i = 0; i < s->ntargets; i++)
            base_strbuf_printf(out, " %u", s->targets[i]);
        break;
    case IR_S_ASSUME:
    case IR_S_ASSERT:
        base_strbuf_puts(out, s->kind == IR_S_ASSUME ? "assume(" : "assert(");
        ir_print_expr(out, p, s->rhs);
        base_strbuf_putc(out, ')');
        if (s->message) {
            base_strbuf_putc(out, ' ');
            base_strbuf_json_string(out, s->message);
        }
        break;
    case IR_S_JOIN:
        base_strbuf_puts(out, "join(");
        ir_print_expr(out, p, s->rhs);
        if (s->nargs) {
            base_strbuf_puts(out, ", ");
            ir_print_expr(out, p, s->args[0]);
        }
        base_strbuf_putc(out, ')');
        break;
    case IR_S_THREAD_EXIT:
        base_strbuf_puts(out, "thread_exit(");
        if (s->rhs)
            ir_print_expr(out, p, s->rhs);
        base_strbuf_putc(out, ')');
        break;
    case IR_S_COND_WAIT:
    case IR_S_COND_SIGNAL:
        base_strbuf_puts(out, s->kind == IR_S_COND_WAIT ? "cond_wait("
                              : s->all ? "cond_broadcast(" : "cond_signal(");
        ir_print_expr(out, p, s->rhs);
        for (uint32_t i = 0; i < s->nargs; i++) {
            base_strbuf_puts(out, ", ");
            ir_print_expr(out, p, s->args[i]);
        }
        base_strbuf_putc(out, ')');
        break;
    case IR_S_ATOMIC_BEGIN: base_strbuf_puts(out, "atomic_begin"); break;
    case IR_S_ATOMIC_END: base_strbuf_puts(out, "atomic_end"); break;
    case IR_S_LOCK:
    case IR_S_UNLOCK:
    case IR_S_LOCK_INIT:
    case IR_S_LOCK_DESTROY:
        if (s->lhs) {
            ir_print_expr(out, p, s->lhs);
            base_strbuf_puts(out, " = ");
        }
        base_strbuf_printf(out, "%s[%s](",
                           s->kind == IR_S_LOCK ? (s->is_try ? "trylock" : "lock")
                           : s->kind == IR_S_UNLOCK ? "unlock"
                           : s->kind == IR_S_LOCK_INIT ? "lock_init" : "lock_destroy",
                           lock_kind(s->lock_kind));
        ir_print_expr(out, p, s->rhs);
        for (uint32_t i = 0; i < s->nargs; i++) {
            base_strbuf_puts(out, ", ");
            ir_print_expr(out, p, s->args[i]);
        }
        base_strbuf_putc(out, ')');
        break;
    case IR_S_ALLOC:
        ir_print_expr(out, p, s->lhs);
        base_strbuf_puts(out, s->zeroed ? " = calloc(" : " = malloc(");
        ir_print_expr(out, p, s->rhs);
        base_strbuf_putc(out, ')');
        break;
    case IR_S_FREE:
        base_strbuf_puts(out, "free(");
        ir_print_expr(out, p, s->rhs);
        base_strbuf_putc(out, ')');
        break;
    }
}

static void print_var(base_strbuf *out, const ir_program *p, const ir_var *v)
{
    ir_print_type(out, p, v->type);
    base_strbuf_printf(out, " %s", name(p, v->name));
}

const char *ir_stmt_kind_name(ir_stmt_kind k)
{
    static const char *const t[] = {
        [IR_S_SKIP] = "skip", [IR_S_ASSIGN] = "assign", [IR_S_CALL] = "call",
        [IR_S_RETURN] = "return", [IR_S_GOTO] = "goto", [IR_S_ASSUME] = "assume",
        [IR_S_ASSERT] = "assert", [IR_S_ASYNC] = "async", [IR_S_JOIN] = "join",
        [IR_S_ATOMIC_BEGIN] = "atomic_begin", [IR_S_ATOMIC_END] = "atomic_end",
        [IR_S_LOCK] = "lock", [IR_S_UNLOCK] = "unlock", [IR_S_LOCK_INIT] = "lock_init",
        [IR_S_ALLOC] = "alloc", [IR_S_FREE] = "free", [IR_S_THREAD_EXIT] = "thread_exit",
        [IR_S_LOCK_DESTROY] = "lock_destroy", [IR_S_COND_WAIT] = "cond_wait",
        [IR_S_COND_SIGNAL] = "cond_signal",
    };
    return t[k];
}

const char *ir_lock_kind_name(ir_lock_kind k)
{
    return lock_kind(k);
}

void ir_print_stmt(base_strbuf *out, const ir_program *p, const ir_stmt *s)
{
    stmt(out, p, s);
}

void ir_print_program(base_strbuf *out, const ir_program *p)
{
    ir_print_program_opts(out, p, NULL);
}

/* A function's header: `func [atomic ]NAME(T a, U b[, ...]) -> R`. */
static void func_header(base_strbuf *out, const ir_program *p, const ir_func *f)
{
    base_strbuf_printf(out, "%sfunc %s(", f->is_atomic ? "atomic " : "", name(p, f->name));
    const ir_type *ft = f->type;
    uint32_t n = f->has_body || f->nparams ? f->nparams : (ft ? ft->nparams : 0);
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            base_strbuf_puts(out, ", ");
        if (i < f->nparams)
            print_var(out, p, f->params[i]);
        else
            ir_print_type(out, p, ft->params[i]);
    }
    if (ft && ft->variadic)
        base_strbuf_puts(out, n ? ", ..." : "...");
    base_strbuf_puts(out, ") -> ");
    ir_print_type(out, p, ft ? ft->to : NULL);
}

void ir_print_program_opts(base_strbuf *out, const ir_program *p, const ir_print_opts *o)
{
    bool src = o && o->source_line;
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const ir_var *v = p->globals[i];
        base_strbuf_printf(out, "global %s%s", v->is_static ? "static " : "",
                           v->is_thread_local ? "thread_local " : "");
        print_var(out, p, v);
        base_strbuf_putc(out, ';');
        if (src && v->loc.file)
            base_strbuf_printf(out, "  // %s:%u", v->loc.file, v->loc.line);
        base_strbuf_putc(out, '\n');
    }
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        if (o && o->skip_empty_init && f == p->init && f->nstmts == 0)
            continue;
        func_header(out, p, f);
        if (!f->has_body) {
            base_strbuf_puts(out, f->not_lowered ? ";  // not lowered (see the error)\n"
                                                 : ";  // body unknown\n");
            continue;
        }
        if (src && f->loc.file && f->loc.line)
            base_strbuf_printf(out, " {  // %s:%u\n", f->loc.file, f->loc.line);
        else
            base_strbuf_puts(out, " {\n");
        for (uint32_t i = 0; i < f->nlocals; i++) {
            base_strbuf_puts(out, "  local ");
            print_var(out, p, f->locals[i]);
            base_strbuf_puts(out, ";\n");
        }
        const char *last_file = NULL;
        uint32_t last_line = 0;
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (src && s->loc.line && (s->loc.line != last_line || s->loc.file != last_file)) {
                const char *text = o->source_line(o->ctx, s->loc.file, s->loc.line);
                if (text)
                    base_strbuf_printf(out, "  // %u: %s\n", s->loc.line, text);
                last_file = s->loc.file;
                last_line = s->loc.line;
            }
            base_strbuf_printf(out, "  %3u: ", i);
            stmt(out, p, s);
            if (!src && s->loc.line)
                base_strbuf_printf(out, "  // line %u", s->loc.line);
            base_strbuf_putc(out, '\n');
        }
        base_strbuf_puts(out, "}\n");
    }
}

void ir_print_offset_path(base_strbuf *out, const ir_program *p, const ir_type *t, uint64_t off)
{
    while (t && off < t->size) {
        if (t->kind == IR_T_ARRAY && t->to && t->to->size) {
            base_strbuf_printf(out, "[%" PRIu64 "]", off / t->to->size);
            off %= t->to->size;
            t = t->to;
        } else if (t->kind == IR_T_STRUCT && off) {
            const ir_field *fd = NULL;
            for (uint32_t i = 0; i < t->nfields; i++)
                if (t->fields[i].offset <= off && off < t->fields[i].offset + t->fields[i].type->size)
                    fd = &t->fields[i];
            if (!fd || !fd->name)
                break;
            base_strbuf_printf(out, ".%s", base_sym_str(p->syms, fd->name));
            off -= fd->offset;
            t = fd->type;
        } else {
            break;
        }
    }
    if (off)
        base_strbuf_printf(out, "+%" PRIu64, off);
}
