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
    case IR_T_MUTEX: base_strbuf_puts(out, "mutex"); return;
    }
}

static const char *op_text(ir_op op)
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
        else
            base_strbuf_printf(out, "%" PRId64, e->value);
        return;
    case IR_E_VAR: base_strbuf_puts(out, name(p, e->var->name)); return;
    case IR_E_DEREF:
        /* Print an access path as C does: p->f for (*p).f. */
        base_strbuf_puts(out, "*");
        ir_print_expr(out, p, e->a);
        return;
    case IR_E_FIELD:
        if (e->a->kind == IR_E_DEREF) {
            ir_print_expr(out, p, e->a->a);
            base_strbuf_puts(out, "->");
        } else {
            ir_print_expr(out, p, e->a);
            base_strbuf_putc(out, '.');
        }
        base_strbuf_puts(out, name(p, e->a->type->fields[e->field].name));
        return;
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
        base_strbuf_puts(out, op_text(e->op));
        ir_print_expr(out, p, e->a);
        return;
    case IR_E_BINARY:
        base_strbuf_putc(out, '(');
        ir_print_expr(out, p, e->a);
        base_strbuf_printf(out, " %s ", op_text(e->op));
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
    static const char *const t[] = { "mutex", "recursive", "errorcheck", "rdlock", "wrlock", "spin" };
    return t[k];
}

static void stmt(base_strbuf *out, const ir_program *p, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_S_SKIP: base_strbuf_puts(out, "skip"); break;
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
        break;
    case IR_S_JOIN:
        base_strbuf_puts(out, "join(");
        ir_print_expr(out, p, s->rhs);
        base_strbuf_putc(out, ')');
        break;
    case IR_S_ATOMIC_BEGIN: base_strbuf_puts(out, "atomic_begin"); break;
    case IR_S_ATOMIC_END: base_strbuf_puts(out, "atomic_end"); break;
    case IR_S_LOCK:
    case IR_S_UNLOCK:
    case IR_S_LOCK_INIT:
        if (s->lhs) {
            ir_print_expr(out, p, s->lhs);
            base_strbuf_puts(out, " = ");
        }
        base_strbuf_printf(out, "%s%s[%s](",
                           s->kind == IR_S_LOCK ? (s->is_try ? "trylock" : "lock")
                           : s->kind == IR_S_UNLOCK ? "unlock" : "lock_init",
                           "", lock_kind(s->lock_kind));
        ir_print_expr(out, p, s->rhs);
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

void ir_print_program(base_strbuf *out, const ir_program *p)
{
    for (uint32_t i = 0; i < p->nglobals; i++) {
        const ir_var *v = p->globals[i];
        base_strbuf_puts(out, "global ");
        ir_print_type(out, p, v->type);
        base_strbuf_printf(out, " %s;\n", name(p, v->name));
    }
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        base_strbuf_printf(out, "%sfunc %s", f->is_atomic ? "atomic " : "", name(p, f->name));
        base_strbuf_puts(out, f->has_body ? " {\n" : "; // body unknown\n");
        if (!f->has_body)
            continue;
        for (uint32_t i = 0; i < f->nlocals; i++) {
            base_strbuf_puts(out, "  local ");
            ir_print_type(out, p, f->locals[i]->type);
            base_strbuf_printf(out, " %s;\n", name(p, f->locals[i]->name));
        }
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            base_strbuf_printf(out, "  %3u: ", i);
            stmt(out, p, s);
            if (s->loc.line)
                base_strbuf_printf(out, "  // line %u", s->loc.line);
            base_strbuf_putc(out, '\n');
        }
        base_strbuf_puts(out, "}\n");
    }
}
