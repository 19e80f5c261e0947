/* cemit: see cemit.h. Declarators are built inside out: a pointer wraps
 * its declarator in `*`, parenthesised when an array or function suffix
 * follows; an array appends `[n]`; a function appends `(params)`. Struct
 * and union bodies are emitted after everything they contain by value. */
#include "cemit/cemit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/intern.h"
#include "base/vec.h"

typedef struct cem {
    base_strbuf *out;
    const ir_program *p;
    BASE_VEC(const ir_type *) records; /* every struct/union, numbered */
    base_hashmap record_ids;           /* type pointer -> index + 1 */
    base_hashmap emitted;              /* record index -> 1 once its body is out */
    base_hashmap nondets;              /* nondet type suffix symbol -> 1 */
} cem;

/* --- names --- */

static void c_name(base_strbuf *o, const char *s)
{
    if ((s[0] >= '0' && s[0] <= '9') || !s[0])
        base_strbuf_putc(o, '_');
    for (; *s; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        base_strbuf_puts(o, ok ? (char[]){ c, 0 } : (c == '.' ? "__" : "_"));
    }
}

static bool reserved_func(const char *n)
{
    return strcmp(n, "main") == 0 || strcmp(n, "reach_error") == 0 ||
           strncmp(n, "__VERIFIER_", 11) == 0;
}

static void func_name(cem *e, const ir_func *f)
{
    const char *n = base_sym_str(e->p->syms, f->name);
    if (reserved_func(n))
        base_strbuf_puts(e->out, "user_");
    c_name(e->out, n);
}

/* --- types --- */

static uint32_t record_id(cem *e, const ir_type *t)
{
    uint64_t id;
    if (base_hashmap_get(&e->record_ids, (uint64_t)(uintptr_t)t, &id))
        return (uint32_t)id - 1;
    /* records are nominal by tag: reuse one of the same tag */
    for (size_t i = 0; t->tag && i < e->records.len; i++)
        if (e->records.data[i]->tag == t->tag && e->records.data[i]->kind == t->kind) {
            base_hashmap_put(&e->record_ids, (uint64_t)(uintptr_t)t, i + 1);
            return (uint32_t)i;
        }
    base_vec_push(&e->records, t);
    base_hashmap_put(&e->record_ids, (uint64_t)(uintptr_t)t, e->records.len);
    return (uint32_t)e->records.len - 1;
}

static const char *int_name(const ir_type *t)
{
    if (t->bits == 1)
        return "_Bool";
    switch (t->bits) {
    case 8: return t->is_signed ? "signed char" : "unsigned char";
    case 16: return t->is_signed ? "short" : "unsigned short";
    case 32: return t->is_signed ? "int" : "unsigned int";
    case 64: return t->is_signed ? "long long" : "unsigned long long";
    case 128: return t->is_signed ? "__int128" : "unsigned __int128";
    default: return t->is_signed ? "int" : "unsigned int";
    }
}

static void declare(cem *e, base_strbuf *o, const ir_type *t, const char *decl);

/* The base type's text (what stands left of the declarator). */
static void base_type(cem *e, base_strbuf *o, const ir_type *t)
{
    switch (t->kind) {
    case IR_T_VOID: base_strbuf_puts(o, "void"); return;
    case IR_T_INT: base_strbuf_puts(o, int_name(t)); return;
    case IR_T_FLOAT:
        base_strbuf_puts(o, t->bits == 32 ? "float" : t->bits == 64 ? "double" : "long double");
        return;
    case IR_T_STRUCT:
    case IR_T_UNION:
        base_strbuf_printf(o, "%s r%u_", t->kind == IR_T_STRUCT ? "struct" : "union", record_id(e, t));
        if (t->tag)
            c_name(o, base_sym_str(e->p->syms, t->tag));
        return;
    case IR_T_MUTEX: base_strbuf_printf(o, "unsigned char"); return; /* never after kiss */
    default: base_strbuf_puts(o, "int"); return;
    }
}

static void declare(cem *e, base_strbuf *o, const ir_type *t, const char *decl)
{
    base_strbuf d = { 0 };
    switch (t ? t->kind : IR_T_VOID) {
    case IR_T_PTR: {
        const ir_type *to = t->to;
        bool wrap = to && (to->kind == IR_T_ARRAY || to->kind == IR_T_FUNC);
        base_strbuf_printf(&d, wrap ? "(*%s)" : "*%s", decl);
        declare(e, o, to ? to : t, base_strbuf_cstr(&d));
        break;
    }
    case IR_T_ARRAY:
        base_strbuf_printf(&d, "%s[%" PRIu64 "]", decl, t->count ? t->count : 1);
        declare(e, o, t->to, base_strbuf_cstr(&d));
        break;
    case IR_T_FUNC:
        base_strbuf_printf(&d, "%s(", decl);
        for (uint32_t i = 0; i < t->nparams; i++) {
            if (i)
                base_strbuf_puts(&d, ", ");
            declare(e, &d, t->params[i], "");
        }
        if (t->variadic)
            base_strbuf_puts(&d, t->nparams ? ", ..." : "");
        else if (!t->nparams)
            base_strbuf_puts(&d, "void");
        base_strbuf_putc(&d, ')');
        declare(e, o, t->to, base_strbuf_cstr(&d));
        break;
    default:
        base_type(e, o, t ? t : NULL);
        if (*decl)
            base_strbuf_printf(o, " %s", decl);
        break;
    }
    base_strbuf_free(&d);
}

static void type_name(cem *e, base_strbuf *o, const ir_type *t)
{
    declare(e, o, t, "");
}

/* Registers every record reachable from t. */
static void collect_type(cem *e, const ir_type *t, int depth)
{
    if (!t || depth > 64)
        return;
    switch (t->kind) {
    case IR_T_PTR:
    case IR_T_ARRAY: collect_type(e, t->to, depth + 1); return;
    case IR_T_FUNC:
        collect_type(e, t->to, depth + 1);
        for (uint32_t i = 0; i < t->nparams; i++)
            collect_type(e, t->params[i], depth + 1);
        return;
    case IR_T_STRUCT:
    case IR_T_UNION: {
        uint64_t id;
        if (base_hashmap_get(&e->record_ids, (uint64_t)(uintptr_t)t, &id))
            return;
        record_id(e, t);
        for (uint32_t i = 0; i < t->nfields; i++)
            collect_type(e, t->fields[i].type, depth + 1);
        return;
    }
    default: return;
    }
}

static void collect_expr(cem *e, const ir_expr *x)
{
    if (!x)
        return;
    collect_type(e, x->type, 0);
    collect_expr(e, x->a);
    collect_expr(e, x->b);
    collect_expr(e, x->c);
}

static void emit_record(cem *e, uint32_t id);

/* Emits the bodies of the records t holds by value. */
static void need_complete(cem *e, const ir_type *t)
{
    while (t && t->kind == IR_T_ARRAY)
        t = t->to;
    if (t && (t->kind == IR_T_STRUCT || t->kind == IR_T_UNION))
        emit_record(e, record_id(e, t));
}

static void emit_record(cem *e, uint32_t id)
{
    uint64_t done;
    if (base_hashmap_get(&e->emitted, id, &done))
        return;
    base_hashmap_put(&e->emitted, id, 1);
    const ir_type *t = e->records.data[id];
    for (uint32_t i = 0; i < t->nfields; i++)
        need_complete(e, t->fields[i].type);
    base_type(e, e->out, t);
    if (!t->nfields) {
        base_strbuf_puts(e->out, " { char incomplete; };\n");
        return;
    }
    base_strbuf_puts(e->out, " {\n");
    for (uint32_t i = 0; i < t->nfields; i++) {
        base_strbuf name = { 0 };
        if (t->fields[i].name)
            c_name(&name, base_sym_str(e->p->syms, t->fields[i].name));
        else
            base_strbuf_printf(&name, "anon%u", i);
        base_strbuf_puts(e->out, "    ");
        declare(e, e->out, t->fields[i].type, base_strbuf_cstr(&name));
        if (t->fields[i].bit_width)
            base_strbuf_printf(e->out, " : %u", t->fields[i].bit_width);
        base_strbuf_puts(e->out, ";\n");
        base_strbuf_free(&name);
    }
    base_strbuf_puts(e->out, "};\n");
}

/* --- expressions --- */

static const char *nondet_suffix(const ir_type *t)
{
    if (t->kind == IR_T_PTR)
        return "pointer";
    if (t->kind == IR_T_FLOAT)
        return t->bits == 32 ? "float" : "double";
    if (t->bits == 1)
        return "bool";
    switch (t->bits) {
    case 8: return t->is_signed ? "char" : "uchar";
    case 16: return t->is_signed ? "short" : "ushort";
    case 64: return t->is_signed ? "longlong" : "ulonglong";
    default: return t->is_signed ? "int" : "uint";
    }
}

static void expr(cem *e, const ir_expr *x);

static void cast_to(cem *e, const ir_type *t)
{
    base_strbuf_putc(e->out, '(');
    type_name(e, e->out, t);
    base_strbuf_putc(e->out, ')');
}

static void field_name(cem *e, const ir_type *agg, uint32_t i)
{
    if (agg->fields[i].name)
        c_name(e->out, base_sym_str(e->p->syms, agg->fields[i].name));
    else
        base_strbuf_printf(e->out, "anon%u", i);
}

static void c_string(base_strbuf *o, const char *s)
{
    base_strbuf_putc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            base_strbuf_printf(o, "\\%c", c);
        else if (c < 32 || c >= 127)
            base_strbuf_printf(o, "\\%03o", c);
        else
            base_strbuf_putc(o, (char)c);
    }
    base_strbuf_putc(o, '"');
}

static void expr(cem *e, const ir_expr *x)
{
    base_strbuf *o = e->out;
    static const char *const ops[] = {
        [IR_OP_NEG] = "-", [IR_OP_BITNOT] = "~", [IR_OP_LNOT] = "!", [IR_OP_ADD] = "+",
        [IR_OP_SUB] = "-", [IR_OP_MUL] = "*", [IR_OP_DIV] = "/", [IR_OP_MOD] = "%",
        [IR_OP_SHL] = "<<", [IR_OP_SHR] = ">>", [IR_OP_AND] = "&", [IR_OP_OR] = "|",
        [IR_OP_XOR] = "^", [IR_OP_LAND] = "&&", [IR_OP_LOR] = "||", [IR_OP_EQ] = "==",
        [IR_OP_NE] = "!=", [IR_OP_LT] = "<", [IR_OP_LE] = "<=", [IR_OP_GT] = ">",
        [IR_OP_GE] = ">=", [IR_OP_PTR_ADD] = "+", [IR_OP_PTR_DIFF] = "-",
    };
    switch (x->kind) {
    case IR_E_CONST:
        base_strbuf_putc(o, '(');
        cast_to(e, x->type);
        if (x->type->kind == IR_T_FLOAT)
            base_strbuf_printf(o, "%.17g", x->fvalue);
        else if (x->type->kind == IR_T_INT && !x->type->is_signed)
            base_strbuf_printf(o, "%" PRIu64 "ULL", (uint64_t)x->value);
        else if (x->value == INT64_MIN)
            base_strbuf_puts(o, "(-9223372036854775807LL - 1)");
        else
            base_strbuf_printf(o, "%" PRId64 "LL", x->value);
        base_strbuf_putc(o, ')');
        return;
    case IR_E_VAR: c_name(o, base_sym_str(e->p->syms, x->var->name)); return;
    case IR_E_DEREF: base_strbuf_puts(o, "(*"); expr(e, x->a); base_strbuf_putc(o, ')'); return;
    case IR_E_FIELD:
        base_strbuf_putc(o, '(');
        expr(e, x->a);
        base_strbuf_puts(o, ").");
        field_name(e, x->a->type, x->field);
        return;
    case IR_E_INDEX:
        base_strbuf_putc(o, '(');
        expr(e, x->a);
        base_strbuf_puts(o, ")[");
        expr(e, x->b);
        base_strbuf_putc(o, ']');
        return;
    case IR_E_ADDR: base_strbuf_puts(o, "(&"); expr(e, x->a); base_strbuf_putc(o, ')'); return;
    case IR_E_FUNC: func_name(e, x->func); return;
    case IR_E_STRING:
        base_strbuf_putc(o, '(');
        cast_to(e, x->type);
        c_string(o, x->string);
        base_strbuf_putc(o, ')');
        return;
    case IR_E_UNARY:
        base_strbuf_putc(o, '(');
        cast_to(e, x->type);
        base_strbuf_printf(o, "(%s", ops[x->op]);
        expr(e, x->a);
        base_strbuf_puts(o, "))");
        return;
    case IR_E_BINARY:
        base_strbuf_putc(o, '(');
        if (x->op != IR_OP_PTR_ADD)
            cast_to(e, x->type);
        base_strbuf_putc(o, '(');
        expr(e, x->a);
        base_strbuf_printf(o, " %s ", ops[x->op]);
        expr(e, x->b);
        base_strbuf_puts(o, "))");
        return;
    case IR_E_CAST:
        base_strbuf_putc(o, '(');
        cast_to(e, x->type);
        base_strbuf_putc(o, '(');
        expr(e, x->a);
        base_strbuf_puts(o, "))");
        return;
    case IR_E_ITE:
        base_strbuf_putc(o, '(');
        expr(e, x->a);
        base_strbuf_puts(o, " ? ");
        expr(e, x->b);
        base_strbuf_puts(o, " : ");
        expr(e, x->c);
        base_strbuf_putc(o, ')');
        return;
    case IR_E_NONDET: {
        const char *suf = nondet_suffix(x->type);
        base_hashmap_put(&e->nondets, base_intern_cstr(e->p->syms, suf), 1);
        base_strbuf_putc(o, '(');
        cast_to(e, x->type);
        base_strbuf_printf(o, "__VERIFIER_nondet_%s())", suf);
        return;
    }
    }
}

/* --- statements --- */

static bool aggregate(const ir_type *t)
{
    return t->kind == IR_T_STRUCT || t->kind == IR_T_UNION || t->kind == IR_T_ARRAY;
}

static void stmt(cem *e, const ir_func *f, const ir_stmt *s)
{
    base_strbuf *o = e->out;
    switch (s->kind) {
    case IR_S_ASSIGN:
        if (aggregate(s->lhs->type) && s->rhs->kind == IR_E_CONST) {
            base_strbuf_puts(o, "__builtin_memset(&");
            expr(e, s->lhs);
            base_strbuf_puts(o, ", 0, sizeof(");
            expr(e, s->lhs);
            base_strbuf_puts(o, "));");
        } else if (s->lhs->type->kind == IR_T_ARRAY) {
            base_strbuf_puts(o, "__builtin_memcpy(&");
            expr(e, s->lhs);
            base_strbuf_puts(o, ", &");
            expr(e, s->rhs);
            base_strbuf_puts(o, ", sizeof(");
            expr(e, s->lhs);
            base_strbuf_puts(o, "));");
        } else {
            expr(e, s->lhs);
            base_strbuf_puts(o, " = ");
            expr(e, s->rhs);
            base_strbuf_putc(o, ';');
        }
        return;
    case IR_S_CALL:
    case IR_S_ASYNC:
        if (s->lhs) {
            expr(e, s->lhs);
            base_strbuf_puts(o, " = ");
            cast_to(e, s->lhs->type);
        }
        if (s->callee->kind == IR_E_FUNC) {
            expr(e, s->callee);
        } else {
            base_strbuf_puts(o, "(*");
            expr(e, s->callee);
            base_strbuf_putc(o, ')');
        }
        base_strbuf_putc(o, '(');
        for (uint32_t i = 0; i < s->nargs; i++) {
            if (i)
                base_strbuf_puts(o, ", ");
            expr(e, s->args[i]);
        }
        base_strbuf_puts(o, ");");
        return;
    case IR_S_RETURN:
        base_strbuf_puts(o, "return");
        if (s->rhs && f->type->to->kind != IR_T_VOID) {
            base_strbuf_putc(o, ' ');
            if (aggregate(f->type->to) && s->rhs->kind == IR_E_CONST) {
                base_strbuf_putc(o, '(');
                cast_to(e, f->type->to);
                base_strbuf_puts(o, "{0})");
            } else {
                expr(e, s->rhs);
            }
        }
        base_strbuf_putc(o, ';');
        return;
    case IR_S_GOTO:
        if (s->ntargets > 1) {
            base_strbuf_puts(o, "switch (__VERIFIER_nondet_int()) {");
            base_hashmap_put(&e->nondets, base_intern_cstr(e->p->syms, "int"), 1);
            for (uint32_t i = 0; i + 1 < s->ntargets; i++)
                base_strbuf_printf(o, " case %u: goto L%u;", i, s->targets[i]);
            base_strbuf_printf(o, " default: goto L%u; }", s->targets[s->ntargets - 1]);
            return;
        }
        if (s->rhs) {
            base_strbuf_puts(o, "if (");
            expr(e, s->rhs);
            base_strbuf_puts(o, ") ");
        }
        base_strbuf_printf(o, "goto L%u;", s->targets[0]);
        return;
    case IR_S_ASSUME:
        base_strbuf_puts(o, "__VERIFIER_assume(");
        expr(e, s->rhs);
        base_strbuf_puts(o, " != 0);");
        return;
    case IR_S_ASSERT:
        base_strbuf_puts(o, "if (!(");
        expr(e, s->rhs);
        base_strbuf_puts(o, ")) reach_error();");
        if (s->message) {
            base_strbuf_puts(o, " /* ");
            for (const char *m = s->message; *m; m++)
                if (!(m[0] == '*' && m[1] == '/'))
                    base_strbuf_putc(o, *m);
            base_strbuf_puts(o, " */");
        }
        return;
    case IR_S_ALLOC:
        expr(e, s->lhs);
        base_strbuf_puts(o, " = ");
        cast_to(e, s->lhs->type);
        base_strbuf_puts(o, s->zeroed ? "__builtin_calloc(" : "__builtin_malloc(");
        expr(e, s->rhs);
        base_strbuf_puts(o, s->zeroed ? ", 1);" : ");");
        return;
    case IR_S_FREE:
        base_strbuf_puts(o, "__builtin_free(");
        expr(e, s->rhs);
        base_strbuf_puts(o, ");");
        return;
    default:
        base_strbuf_puts(o, ";"); /* no meaning in a sequential program */
        return;
    }
}

static void func_decl(cem *e, const ir_func *f, bool with_names)
{
    base_strbuf d = { 0 };
    base_strbuf saved = *e->out;
    *e->out = d;
    func_name(e, f);
    base_strbuf_putc(e->out, '(');
    const ir_type *ft = f->type;
    for (uint32_t i = 0; i < ft->nparams; i++) {
        if (i)
            base_strbuf_puts(e->out, ", ");
        base_strbuf pn = { 0 };
        if (with_names && i < f->nparams)
            c_name(&pn, base_sym_str(e->p->syms, f->params[i]->name));
        declare(e, e->out, ft->params[i], base_strbuf_cstr(&pn));
        base_strbuf_free(&pn);
    }
    if (ft->variadic && ft->nparams)
        base_strbuf_puts(e->out, ", ...");
    else if (!ft->nparams && !ft->variadic)
        base_strbuf_puts(e->out, "void");
    base_strbuf_putc(e->out, ')');
    d = *e->out;
    *e->out = saved;
    declare(e, e->out, ft->to, base_strbuf_cstr(&d));
    base_strbuf_free(&d);
}

static void function(cem *e, const ir_func *f)
{
    func_decl(e, f, true);
    base_strbuf_puts(e->out, "\n{\n");
    for (uint32_t i = 0; i < f->nlocals; i++) {
        base_strbuf n = { 0 };
        c_name(&n, base_sym_str(e->p->syms, f->locals[i]->name));
        base_strbuf_puts(e->out, "    ");
        declare(e, e->out, f->locals[i]->type, base_strbuf_cstr(&n));
        base_strbuf_puts(e->out, ";\n");
        base_strbuf_free(&n);
    }
    bool *target = calloc(f->nstmts + 1, sizeof *target);
    for (uint32_t i = 0; i < f->nstmts; i++)
        for (uint32_t t = 0; t < f->stmts[i].ntargets; t++)
            target[f->stmts[i].targets[t] <= f->nstmts ? f->stmts[i].targets[t] : f->nstmts] = true;
    for (uint32_t i = 0; i < f->nstmts; i++) {
        if (target[i])
            base_strbuf_printf(e->out, "L%u:", i);
        base_strbuf_puts(e->out, "    ");
        stmt(e, f, &f->stmts[i]);
        if (f->stmts[i].loc.line)
            base_strbuf_printf(e->out, " /* line %u */", f->stmts[i].loc.line);
        base_strbuf_putc(e->out, '\n');
    }
    if (target[f->nstmts])
        base_strbuf_printf(e->out, "L%u:;\n", f->nstmts);
    free(target);
    base_strbuf_puts(e->out, "}\n\n");
}

void cemit_program(base_strbuf *out, const ir_program *p, const ir_func *entry)
{
    cem e = { .out = out, .p = p };
    base_hashmap_init(&e.record_ids);
    base_hashmap_init(&e.emitted);
    base_hashmap_init(&e.nondets);
    for (uint32_t i = 0; i < p->nglobals; i++)
        collect_type(&e, p->globals[i]->type, 0);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        collect_type(&e, f->type, 0);
        for (uint32_t i = 0; i < f->nlocals; i++)
            collect_type(&e, f->locals[i]->type, 0);
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            collect_expr(&e, s->lhs);
            collect_expr(&e, s->rhs);
            collect_expr(&e, s->callee);
            for (uint32_t a = 0; a < s->nargs; a++)
                collect_expr(&e, s->args[a]);
        }
    }
    base_strbuf body = { 0 }; /* functions first, so the nondet calls are known */
    base_strbuf *real = e.out;
    e.out = &body;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++)
        if (p->funcs[fi]->has_body)
            function(&e, p->funcs[fi]);
    e.out = real;

    base_strbuf_puts(out, "/* Generated by `ravel seq`: a sequential program that simulates the\n"
                          " * concurrent one under a nondeterministic scheduler (KISS). */\n");
    base_strbuf_puts(out, "extern void reach_error(void);\nextern void __VERIFIER_assume(int);\n");
    for (size_t i = 0; i < e.records.len; i++) {
        base_type(&e, out, e.records.data[i]);
        base_strbuf_puts(out, ";\n");
    }
    for (size_t i = 0; i < e.records.len; i++)
        emit_record(&e, (uint32_t)i);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        if (!f->has_body)
            base_strbuf_puts(out, "extern ");
        func_decl(&e, f, false);
        base_strbuf_puts(out, ";\n");
    }
    for (uint32_t i = 0; i < p->nglobals; i++) {
        base_strbuf n = { 0 };
        c_name(&n, base_sym_str(p->syms, p->globals[i]->name));
        declare(&e, out, p->globals[i]->type, base_strbuf_cstr(&n));
        base_strbuf_puts(out, ";\n");
        base_strbuf_free(&n);
    }
    /* the nondet functions used (collected while the bodies were printed) */
    for (size_t i = 0; i < e.nondets.cap; i++) {
        if (e.nondets.keys[i] == BASE_HASHMAP_EMPTY)
            continue;
        const char *suf = base_sym_str(p->syms, (base_sym)e.nondets.keys[i]);
        static const struct { const char *suf, *type; } types[] = {
            { "pointer", "void *" }, { "float", "float" }, { "double", "double" },
            { "bool", "_Bool" }, { "char", "char" }, { "uchar", "unsigned char" },
            { "short", "short" }, { "ushort", "unsigned short" }, { "longlong", "long long" },
            { "ulonglong", "unsigned long long" }, { "int", "int" }, { "uint", "unsigned int" },
        };
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
            if (strcmp(types[t].suf, suf) == 0)
                base_strbuf_printf(out, "extern %s __VERIFIER_nondet_%s(void);\n", types[t].type, suf);
    }
    base_strbuf_putc(out, '\n');
    base_strbuf_put(out, body.data ? body.data : "", body.len);
    base_strbuf_free(&body);
    base_strbuf_puts(out, "int main(void)\n{\n");
    if (p->init && p->init->has_body) {
        base_strbuf_puts(out, "    ");
        func_name(&e, p->init);
        base_strbuf_puts(out, "();\n");
    }
    base_strbuf_puts(out, "    ");
    func_name(&e, entry);
    base_strbuf_puts(out, "();\n    return 0;\n}\n");
    base_vec_free(&e.records);
    base_hashmap_free(&e.record_ids);
    base_hashmap_free(&e.emitted);
    base_hashmap_free(&e.nondets);
}
