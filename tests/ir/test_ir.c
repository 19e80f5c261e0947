/* Unit tests for ir: build the KISS example of a two-thread counter by hand,
 * print it, and check that ir_check accepts it and rejects broken programs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "ir/ir.h"
#include "ir/ir_check.h"
#include "ir/ir_print.h"

static base_srcloc at(uint32_t line)
{
    return base_srcloc_make("c.c", line, 1);
}

/* int count; mutex m;
 * void worker(void) { lock(&m); count = count + 1; unlock(&m); }
 * int main(void) { async worker(); if (nondet) goto 3; count = 0; assert(count >= 0); } */
static void build(ir_program *p)
{
    const ir_type *i32 = ir_type_int(p, 32, true), *b = ir_type_int(p, 1, false);
    const ir_type *v = ir_type_void(p);
    ir_var *count = ir_add_global(p, "count", i32, at(1));
    ir_var *m = ir_add_global(p, "m", ir_type_mutex(p), at(2));
    ir_func *worker = ir_add_func(p, "worker", ir_type_func(p, v, NULL, 0, false), at(3));
    uint32_t s = ir_emit(p, worker, IR_S_LOCK, at(4));
    worker->stmts[s].rhs = ir_addr(p, ir_var_ref(p, m));
    s = ir_emit(p, worker, IR_S_ASSIGN, at(5));
    worker->stmts[s].lhs = ir_var_ref(p, count);
    worker->stmts[s].rhs = ir_binary(p, IR_OP_ADD, i32, ir_var_ref(p, count), ir_const(p, i32, 1));
    s = ir_emit(p, worker, IR_S_UNLOCK, at(6));
    worker->stmts[s].rhs = ir_addr(p, ir_var_ref(p, m));
    ir_emit(p, worker, IR_S_RETURN, at(7));

    ir_func *mainf = ir_add_func(p, "main", ir_type_func(p, i32, NULL, 0, false), at(8));
    ir_var *c = ir_add_local(p, mainf, "c", b, at(8));
    s = ir_emit(p, mainf, IR_S_ASYNC, at(9));
    mainf->stmts[s].callee = ir_func_ref(p, worker);
    s = ir_emit(p, mainf, IR_S_ASSIGN, at(10));
    mainf->stmts[s].lhs = ir_var_ref(p, c);
    mainf->stmts[s].rhs = ir_nondet(p, b);
    s = ir_emit(p, mainf, IR_S_GOTO, at(10));
    mainf->stmts[s].rhs = ir_var_ref(p, c);
    static uint32_t to4[] = { 4 };
    mainf->stmts[s].targets = to4;
    mainf->stmts[s].ntargets = 1;
    s = ir_emit(p, mainf, IR_S_ASSIGN, at(11));
    mainf->stmts[s].lhs = ir_var_ref(p, count);
    mainf->stmts[s].rhs = ir_const(p, i32, 0);
    s = ir_emit(p, mainf, IR_S_ASSERT, at(12));
    mainf->stmts[s].rhs = ir_binary(p, IR_OP_GE, b, ir_var_ref(p, count), ir_const(p, i32, 0));
}

static void test_print_and_check(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    build(&p);
    base_strbuf out = { 0 };
    ir_print_program(&out, &p);
    assert_string_equal(base_strbuf_cstr(&out),
        "global i32 count;\n"
        "global mutex m;\n"
        "func worker() -> void {\n"
        "    0: lock[mutex](&m)  // line 4\n"
        "    1: count = (count + 1)  // line 5\n"
        "    2: unlock[mutex](&m)  // line 6\n"
        "    3: return  // line 7\n"
        "}\n"
        "func main() -> i32 {\n"
        "  local bool c;\n"
        "    0: async worker()  // line 9\n"
        "    1: c = nondet_bool()  // line 10\n"
        "    2: if c goto 4  // line 10\n"
        "    3: count = 0  // line 11\n"
        "    4: assert((count >= 0))  // line 12\n"
        "}\n");
    assert_true(p.globals[1]->address_taken);
    assert_false(p.globals[0]->address_taken);
    base_diag d;
    base_diag_init(&d);
    assert_int_equal(ir_check(&p, &d), 0);
    base_diag_free(&d);
    base_strbuf_free(&out);
    ir_program_free(&p);
    base_intern_free(&syms);
}

static void test_check_rejects(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    build(&p);
    ir_func *mainf = p.funcs[1];
    static uint32_t bad[] = { 99 };
    mainf->stmts[2].targets = bad;                    /* a jump to nowhere */
    mainf->stmts[3].rhs = ir_const(&p, ir_type_int(&p, 8, false), 0); /* u8 into i32 */
    base_diag d;
    base_diag_init(&d);
    assert_int_equal(ir_check(&p, &d), 2);
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "c.c:10:1: error: internal: IR goto to statement 99 of 5");
    base_diag_format(&d.msgs[1], msg, sizeof msg);
    assert_string_equal(msg, "c.c:11:1: error: internal: IR assignment between different types");
    base_diag_free(&d);
    ir_program_free(&p);
    base_intern_free(&syms);
}

static void test_access_paths_print_as_c(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    ir_type *dev = BASE_ARENA_NEW(&p.arena, ir_type);
    dev->kind = IR_T_STRUCT;
    dev->tag = base_intern_cstr(&syms, "dev");
    dev->nfields = 2;
    dev->fields = BASE_ARENA_ARRAY(&p.arena, ir_field, 2);
    dev->fields[0].name = base_intern_cstr(&syms, "count");
    dev->fields[0].type = ir_type_int(&p, 32, true);
    dev->fields[1].name = base_intern_cstr(&syms, "lock");
    dev->fields[1].type = ir_type_mutex(&p);
    ir_var *d = ir_add_global(&p, "d", ir_type_ptr(&p, dev), at(1));
    ir_expr *f = BASE_ARENA_NEW(&p.arena, ir_expr);
    f->kind = IR_E_FIELD;
    f->type = dev->fields[1].type;
    f->a = ir_deref(&p, ir_var_ref(&p, d));
    f->field = 1;
    base_strbuf out = { 0 };
    ir_print_expr(&out, &p, ir_addr(&p, f));
    assert_string_equal(base_strbuf_cstr(&out), "&d->lock");
    base_strbuf_free(&out);
    ir_program_free(&p);
    base_intern_free(&syms);
}

static void test_type_bytes(void **state)
{
    (void)state;
    base_intern_pool syms;
    base_intern_init(&syms);
    ir_program p;
    ir_program_init(&p, &syms);
    assert_int_equal(ir_type_bytes(ir_type_int(&p, 32, true), 8), 4);
    assert_int_equal(ir_type_bytes(ir_type_int(&p, 1, false), 8), 1); /* _Bool */
    assert_int_equal(ir_type_bytes(ir_type_int(&p, 64, false), 4), 8);
    const ir_type *vp = ir_type_ptr(&p, ir_type_void(&p));
    assert_int_equal(ir_type_bytes(vp, 8), 8);
    assert_int_equal(ir_type_bytes(vp, 4), 4); /* ILP32 */
    assert_int_equal(ir_type_bytes(ir_type_void(&p), 8), 1);
    ir_type *a = BASE_ARENA_NEW(&p.arena, ir_type);
    a->kind = IR_T_ARRAY;
    a->to = ir_type_int(&p, 16, true);
    a->count = 5;
    a->size = 10;
    assert_int_equal(ir_type_bytes(a, 8), 10);
    ir_program_free(&p);
    base_intern_free(&syms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_and_check),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_access_paths_print_as_c),
        cmocka_unit_test(test_type_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
