#include "ir/ir_check.h"

static unsigned check_expr(const ir_program *p, const ir_stmt *s, const ir_expr *e, base_diag *d)
{
    (void)p;
    if (!e)
        return 0;
    unsigned n = 0;
    if (!e->type) {
        base_diag_error(d, s->loc, "internal: IR expression without a type");
        return 1;
    }
    switch (e->kind) {
    case IR_E_DEREF:
        if (!e->a->type || e->a->type->kind != IR_T_PTR) {
            base_diag_error(d, s->loc, "internal: IR dereference of a non-pointer");
            n++;
        }
        break;
    case IR_E_ADDR:
        if (!ir_is_lvalue(e->a)) {
            base_diag_error(d, s->loc, "internal: IR address of a non-lvalue");
            n++;
        }
        break;
    case IR_E_FIELD:
        if (!e->a->type || (e->a->type->kind != IR_T_STRUCT && e->a->type->kind != IR_T_UNION) ||
            e->field >= e->a->type->nfields) {
            base_diag_error(d, s->loc, "internal: IR field of a non-aggregate or no such field");
            n++;
        }
        break;
    case IR_E_BINARY:
        if (e->op >= IR_OP_ADD && e->op <= IR_OP_XOR && e->b &&
            !ir_type_eq(e->a->type, e->b->type) && e->op != IR_OP_SHL && e->op != IR_OP_SHR) {
            base_diag_error(d, s->loc, "internal: IR arithmetic on operands of different types");
            n++;
        }
        break;
    default:
        break;
    }
    return n + check_expr(p, s, e->a, d) + check_expr(p, s, e->b, d) + check_expr(p, s, e->c, d);
}

unsigned ir_check(const ir_program *p, base_diag *d)
{
    unsigned n = 0;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (!s->loc.file) {
                base_diag_error(d, s->loc, "internal: IR statement %u of %s has no source location",
                                i, base_sym_str(p->syms, f->name));
                n++;
            }
            if (s->kind == IR_S_GOTO) {
                if (s->ntargets == 0) {
                    base_diag_error(d, s->loc, "internal: IR goto without a target");
                    n++;
                }
                for (uint32_t k = 0; k < s->ntargets; k++)
                    if (s->targets[k] > f->nstmts) {
                        base_diag_error(d, s->loc, "internal: IR goto to statement %u of %u",
                                        s->targets[k], f->nstmts);
                        n++;
                    }
            }
            if (s->kind == IR_S_ASSIGN) {
                if (!s->lhs || !ir_is_lvalue(s->lhs)) {
                    base_diag_error(d, s->loc, "internal: IR assignment to a non-lvalue");
                    n++;
                } else if (!s->rhs || !ir_type_eq(s->lhs->type, s->rhs->type)) {
                    base_diag_error(d, s->loc, "internal: IR assignment between different types");
                    n++;
                }
            }
            if (s->rhs && s->rhs->kind == IR_E_NONDET && s->kind != IR_S_ASSIGN) {
                base_diag_error(d, s->loc, "internal: IR nondet value outside an assignment");
                n++;
            }
            n += check_expr(p, s, s->lhs, d) + check_expr(p, s, s->rhs, d) +
                 check_expr(p, s, s->callee, d);
            for (uint32_t k = 0; k < s->nargs; k++)
                n += check_expr(p, s, s->args[k], d);
        }
    }
    return n;
}
