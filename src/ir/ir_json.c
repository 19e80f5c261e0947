#include "ir/ir_json.h"

#include <inttypes.h>

#include "ir/ir_print.h"

static const char *sym(const ir_program *p, base_sym s)
{
    return base_sym_str(p->syms, s);
}

static void key(base_strbuf *o, const char *k)
{
    base_strbuf_printf(o, ",\"%s\":", k);
}

static void type_str(base_strbuf *o, const ir_program *p, const ir_type *t)
{
    base_strbuf tmp = { 0 };
    ir_print_type(&tmp, p, t);
    base_strbuf_json_string(o, base_strbuf_cstr(&tmp));
    base_strbuf_free(&tmp);
}

static const char *expr_kind(ir_expr_kind k)
{
    static const char *const t[] = {
        [IR_E_CONST] = "const", [IR_E_VAR] = "var", [IR_E_DEREF] = "deref",
        [IR_E_FIELD] = "field", [IR_E_INDEX] = "index", [IR_E_ADDR] = "addr",
        [IR_E_FUNC] = "func", [IR_E_STRING] = "string", [IR_E_UNARY] = "unary",
        [IR_E_BINARY] = "binary", [IR_E_CAST] = "cast", [IR_E_ITE] = "ite",
        [IR_E_NONDET] = "nondet",
    };
    return t[k];
}

static void expr(base_strbuf *o, const ir_program *p, const ir_expr *e)
{
    if (!e) {
        base_strbuf_puts(o, "null");
        return;
    }
    base_strbuf_printf(o, "{\"kind\":\"%s\"", expr_kind(e->kind));
    key(o, "type");
    type_str(o, p, e->type);
    switch (e->kind) {
    case IR_E_CONST:
        if (e->type && e->type->kind == IR_T_FLOAT)
            base_strbuf_printf(o, ",\"value\":%.17g", e->fvalue);
        else
            base_strbuf_printf(o, ",\"value\":%" PRId64, e->value);
        break;
    case IR_E_VAR:
        key(o, "name");
        base_strbuf_json_string(o, sym(p, e->var->name));
        base_strbuf_printf(o, ",\"scope\":\"%s\"",
                           e->var->kind == IR_V_GLOBAL ? "global"
                           : e->var->kind == IR_V_PARAM ? "param" : "local");
        break;
    case IR_E_FIELD:
        key(o, "field");
        base_strbuf_json_string(o, sym(p, e->a->type->fields[e->field].name));
        break;
    case IR_E_FUNC:
        key(o, "name");
        base_strbuf_json_string(o, sym(p, e->func->name));
        break;
    case IR_E_STRING:
        key(o, "value");
        base_strbuf_json_string(o, e->string);
        break;
    case IR_E_UNARY:
    case IR_E_BINARY: {
        key(o, "op");
        base_strbuf_json_string(o, ir_op_name(e->op));
        break;
    }
    default:
        break;
    }
    if (e->a) {
        key(o, "a");
        expr(o, p, e->a);
    }
    if (e->b) {
        key(o, "b");
        expr(o, p, e->b);
    }
    if (e->c) {
        key(o, "c");
        expr(o, p, e->c);
    }
    base_strbuf_putc(o, '}');
}

static void loc(base_strbuf *o, base_srcloc l)
{
    key(o, "file");
    if (l.file)
        base_strbuf_json_string(o, l.file);
    else
        base_strbuf_puts(o, "null");
    base_strbuf_printf(o, ",\"line\":%u,\"col\":%u", l.line, l.col);
}

static void var(base_strbuf *o, const ir_program *p, const ir_var *v)
{
    base_strbuf_puts(o, "{\"name\":");
    base_strbuf_json_string(o, sym(p, v->name));
    key(o, "type");
    type_str(o, p, v->type);
    base_strbuf_printf(o, ",\"address_taken\":%s", v->address_taken ? "true" : "false");
    if (v->kind == IR_V_GLOBAL)
        base_strbuf_printf(o, ",\"static\":%s,\"thread_local\":%s",
                           v->is_static ? "true" : "false", v->is_thread_local ? "true" : "false");
    loc(o, v->loc);
    base_strbuf_putc(o, '}');
}

static void stmt(base_strbuf *o, const ir_program *p, const ir_stmt *s, uint32_t i)
{
    base_strbuf_printf(o, "{\"index\":%u,\"kind\":\"%s\"", i, ir_stmt_kind_name(s->kind));
    loc(o, s->loc);
    if (s->lhs) {
        key(o, "lhs");
        expr(o, p, s->lhs);
    }
    if (s->rhs) {
        key(o, "rhs");
        expr(o, p, s->rhs);
    }
    if (s->callee) {
        key(o, "callee");
        expr(o, p, s->callee);
    }
    if (s->nargs) {
        key(o, "args");
        base_strbuf_putc(o, '[');
        for (uint32_t k = 0; k < s->nargs; k++) {
            if (k)
                base_strbuf_putc(o, ',');
            expr(o, p, s->args[k]);
        }
        base_strbuf_putc(o, ']');
    }
    if (s->kind == IR_S_GOTO) {
        key(o, "targets");
        base_strbuf_putc(o, '[');
        for (uint32_t k = 0; k < s->ntargets; k++)
            base_strbuf_printf(o, "%s%u", k ? "," : "", s->targets[k]);
        base_strbuf_putc(o, ']');
    }
    if ((s->kind == IR_S_CALL || s->kind == IR_S_ASYNC) && s->callee &&
        s->callee->kind != IR_E_FUNC) {
        key(o, "cands");
        base_strbuf_putc(o, '[');
        for (uint32_t k = 0; k < s->ncands; k++) {
            if (k)
                base_strbuf_putc(o, ',');
            base_strbuf_json_string(o, sym(p, s->cands[k]->name));
        }
        base_strbuf_putc(o, ']');
    }
    switch (s->kind) {
    case IR_S_LOCK:
    case IR_S_UNLOCK:
    case IR_S_LOCK_INIT:
    case IR_S_LOCK_DESTROY:
        base_strbuf_printf(o, ",\"lock_kind\":\"%s\"", ir_lock_kind_name(s->lock_kind));
        if (s->kind == IR_S_LOCK)
            base_strbuf_printf(o, ",\"try\":%s", s->is_try ? "true" : "false");
        break;
    case IR_S_ALLOC: base_strbuf_printf(o, ",\"zeroed\":%s", s->zeroed ? "true" : "false"); break;
    case IR_S_COND_SIGNAL: base_strbuf_printf(o, ",\"all\":%s", s->all ? "true" : "false"); break;
    default: break;
    }
    if (s->message) {
        key(o, "message");
        base_strbuf_json_string(o, s->message);
    }
    base_strbuf text = { 0 };
    ir_print_stmt(&text, p, s);
    key(o, "text");
    base_strbuf_json_string(o, base_strbuf_cstr(&text));
    base_strbuf_free(&text);
    base_strbuf_putc(o, '}');
}

void ir_json_program(base_strbuf *o, const ir_program *p)
{
    base_strbuf_printf(o, "{\"ptr_bytes\":%u,\"globals\":[", p->ptr_bytes);
    for (uint32_t i = 0; i < p->nglobals; i++) {
        if (i)
            base_strbuf_putc(o, ',');
        var(o, p, p->globals[i]);
    }
    base_strbuf_puts(o, "],\"functions\":[");
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        if (fi)
            base_strbuf_putc(o, ',');
        base_strbuf_puts(o, "{\"name\":");
        base_strbuf_json_string(o, sym(p, f->name));
        key(o, "type");
        type_str(o, p, f->type);
        base_strbuf_printf(o, ",\"has_body\":%s,\"atomic\":%s,\"external\":%s,"
                              "\"address_taken\":%s,\"not_lowered\":%s,\"init\":%s",
                           f->has_body ? "true" : "false", f->is_atomic ? "true" : "false",
                           f->external_linkage ? "true" : "false",
                           f->address_taken ? "true" : "false", f->not_lowered ? "true" : "false",
                           f == p->init ? "true" : "false");
        loc(o, f->loc);
        base_strbuf_puts(o, ",\"params\":[");
        for (uint32_t i = 0; i < f->nparams; i++) {
            if (i)
                base_strbuf_putc(o, ',');
            var(o, p, f->params[i]);
        }
        base_strbuf_puts(o, "],\"locals\":[");
        for (uint32_t i = 0; i < f->nlocals; i++) {
            if (i)
                base_strbuf_putc(o, ',');
            var(o, p, f->locals[i]);
        }
        base_strbuf_puts(o, "],\"stmts\":[");
        for (uint32_t i = 0; i < f->nstmts; i++) {
            if (i)
                base_strbuf_putc(o, ',');
            stmt(o, p, &f->stmts[i], i);
        }
        base_strbuf_puts(o, "]}");
    }
    base_strbuf_puts(o, "]}\n");
}
