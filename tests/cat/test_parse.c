/* Unit tests for cat/parse: operator precedence and associativity as
 * herd's grammar has them, the binding forms, the instructions, and the
 * error messages with their file:line:col. Expressions are printed back
 * fully parenthesised and compared. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/strbuf.h"
#include "cat/model.h"
#include "cat/parse.h"

static void show(const cat_expr *e, base_strbuf *b)
{
    static const char *const bin[] = {
        [CAT_E_UNION] = "|", [CAT_E_INTER] = "&", [CAT_E_DIFF] = "\\", [CAT_E_SEQ] = ";",
        [CAT_E_PROD] = "*", [CAT_E_ADD] = "++",
    };
    switch (e->kind) {
    case CAT_E_VAR: base_strbuf_puts(b, e->name); return;
    case CAT_E_EMPTY: base_strbuf_puts(b, "0"); return;
    case CAT_E_UNIV: base_strbuf_puts(b, "_"); return;
    case CAT_E_TAG: base_strbuf_printf(b, "'%s", e->name); return;
    case CAT_E_UNION: case CAT_E_INTER: case CAT_E_DIFF: case CAT_E_SEQ: case CAT_E_PROD:
    case CAT_E_ADD:
        base_strbuf_putc(b, '(');
        show(e->a, b);
        base_strbuf_printf(b, " %s ", bin[e->kind]);
        show(e->b, b);
        base_strbuf_putc(b, ')');
        return;
    case CAT_E_STAR: show(e->a, b); base_strbuf_puts(b, "*"); return;
    case CAT_E_PLUS: show(e->a, b); base_strbuf_puts(b, "+"); return;
    case CAT_E_OPT: show(e->a, b); base_strbuf_puts(b, "?"); return;
    case CAT_E_INV: show(e->a, b); base_strbuf_puts(b, "^-1"); return;
    case CAT_E_COMP: base_strbuf_puts(b, "~"); show(e->a, b); return;
    case CAT_E_TOID: base_strbuf_puts(b, "["); show(e->a, b); base_strbuf_puts(b, "]"); return;
    case CAT_E_APP:
        base_strbuf_putc(b, '{');
        show(e->a, b);
        base_strbuf_putc(b, ' ');
        show(e->b, b);
        base_strbuf_putc(b, '}');
        return;
    case CAT_E_TUPLE:
        base_strbuf_putc(b, '<');
        for (uint32_t i = 0; i < e->nitems; i++) {
            if (i)
                base_strbuf_puts(b, ", ");
            show(e->items[i], b);
        }
        base_strbuf_putc(b, '>');
        return;
    case CAT_E_FUN:
        base_strbuf_printf(b, "fun/%u ", e->params.n);
        show(e->a, b);
        return;
    default:
        base_strbuf_printf(b, "#%d", (int)e->kind);
        return;
    }
}

/* Parses "let x = SRC" and returns the rhs printed. */
static void expect_expr(const char *src, const char *want)
{
    base_arena a;
    base_arena_init(&a);
    base_diag d;
    base_diag_init(&d);
    base_strbuf text = { 0 }, got = { 0 };
    base_strbuf_printf(&text, "let x = %s", src);
    cat_file *f = cat_parse(&a, "t.cat", text.data, text.len, &d);
    if (!f) {
        char msg[256];
        base_diag_format(&d.msgs[0], msg, sizeof msg);
        fail_msg("%s: %s", src, msg);
    }
    assert_int_equal(f->body.n, 1);
    show(f->body.v[0]->binds[0].rhs, &got);
    if (strcmp(got.data, want) != 0)
        fail_msg("%s: got %s, wanted %s", src, got.data, want);
    base_strbuf_free(&text);
    base_strbuf_free(&got);
    base_diag_free(&d);
    base_arena_free(&a);
}

static void expect_error(const char *src, const char *want)
{
    base_arena a;
    base_arena_init(&a);
    base_diag d;
    base_diag_init(&d);
    cat_file *f = cat_parse(&a, "t.cat", src, strlen(src), &d);
    if (f)
        fail_msg("no error for: %s", src);
    assert_true(d.count == 1);
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    if (strcmp(msg, want) != 0)
        fail_msg("for %s: got '%s', wanted '%s'", src, msg, want);
    base_diag_free(&d);
    base_arena_free(&a);
}

static void test_precedence(void **state)
{
    (void)state;
    expect_expr("a | b ; c", "(a | (b ; c))");
    expect_expr("a ; b | c", "((a ; b) | c)");
    expect_expr("a & b ; c", "((a & b) ; c)");
    expect_expr("a \\ b & c", "(a \\ (b & c))");
    expect_expr("a \\ b \\ c", "((a \\ b) \\ c)");
    expect_expr("a ; b ; c", "(a ; (b ; c))");
    expect_expr("a | b | c", "(a | (b | c))");
    expect_expr("a \\ b ; c", "((a \\ b) ; c)");
    expect_expr("W * R & po", "((W * R) & po)");
    expect_expr("po & W * R", "(po & (W * R))");
    expect_expr("~a | b", "(~a | b)");
    expect_expr("~a*", "~a*");
    expect_expr("a ; b*", "(a ; b*)");
    expect_expr("(a | b)* ; c", "((a | b)* ; c)");
    expect_expr("a* | b", "(a* | b)");
    expect_expr("rf^-1 ; co", "(rf^-1 ; co)");
    expect_expr("r+ ; r?", "(r+ ; r?)");
    expect_expr("[W] ; po ; [R]", "([W] ; (po ; [R]))");
    expect_expr("po-loc | co0", "(po-loc | co0)");
    expect_expr("_ * B", "(_ * B)");
    expect_expr("domain r | range r", "({domain r} | {range r})");
    expect_expr("f(a, b) ; g x y", "({f <a, b>} ; {{g x} y})");
    expect_expr("fencerel(MFENCE) & 0", "({fencerel MFENCE} & 0)");
    expect_expr("fun (a, b) -> a | b", "fun/2 (a | b)");
    expect_expr("fun x -> x", "fun/1 x");
    expect_expr("{} ++ s", "(0 ++ s)");
    expect_expr("a, b", "<a, b>");
}

static void test_instructions(void **state)
{
    (void)state;
    const char *src =
        "X86 TSO\n"
        "(* a (* nested *) comment *)\n"
        "# a line comment\n"
        "let f(x) = x and g y = y\n"
        "let rec a = b | po and b = a ; a\n"
        "acyclic a as name\n"
        "~irreflexive b\n"
        "flag ~empty a as f\n"
        "show a, b\n"
        "unshow a\n"
        "include \"x.cat\"\n"
        "procedure p(x, y) = empty x end\n"
        "call p(a, b)\n"
        "with co from g(0)\n"
        "enum E = 'a || 'b\n"
        "instructions R[{'a}]\n"
        "if \"v\" || \"w\" let z = 0 else let z = a end\n";
    base_arena a;
    base_arena_init(&a);
    base_diag d;
    base_diag_init(&d);
    cat_file *f = cat_parse(&a, "t.cat", src, strlen(src), &d);
    assert_non_null(f);
    assert_string_equal(f->title, "TSO");
    static const cat_ikind kinds[] = { CAT_I_LET, CAT_I_REC, CAT_I_CHECK, CAT_I_CHECK, CAT_I_CHECK,
                                       CAT_I_SHOW, CAT_I_SHOW, CAT_I_INCLUDE, CAT_I_PROC, CAT_I_CALL,
                                       CAT_I_WITHFROM, CAT_I_ENUM, CAT_I_EVENTS, CAT_I_VARIANT };
    assert_int_equal(f->body.n, sizeof kinds / sizeof kinds[0]);
    for (uint32_t i = 0; i < f->body.n; i++)
        assert_int_equal(f->body.v[i]->kind, kinds[i]);
    assert_int_equal(f->body.v[0]->nbinds, 2);
    assert_int_equal(f->body.v[1]->nbinds, 2);
    assert_string_equal(f->body.v[2]->name, "name");
    assert_true(f->body.v[3]->negated);
    assert_int_equal(f->body.v[3]->test, CAT_T_IRREFLEXIVE);
    assert_int_equal(f->body.v[4]->check, CAT_C_FLAG);
    assert_string_equal(f->body.v[7]->file, "x.cat");
    assert_int_equal(f->body.v[11]->ntags, 2);
    assert_false(f->body.v[13]->negated); /* no variant is set */
    assert_int_equal(f->body.v[13]->body.n, 1);
    assert_int_equal(f->body.v[13]->body2.n, 1);
    base_diag_free(&d);
    base_arena_free(&a);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("acyclic po |", "t.cat:1:13: error: expected an expression, found end of file");
    expect_error("let x = (po", "t.cat:1:12: error: expected ')', found end of file");
    expect_error("let = po", "t.cat:1:5: error: expected a name to bind, found '='");
    expect_error("acyclic po\n  (* open", "t.cat:2:3: error: unterminated comment");
    expect_error("let x = 12", "t.cat:1:9: error: unexpected number (only 0, the empty relation, is a constant)");
    expect_error("let x = po ^ 2", "t.cat:1:12: error: '^' must be followed by -1 (inverse)");
    expect_error("let x = \"open", "t.cat:1:9: error: unterminated string");
    expect_error("acyclic po $", "t.cat:1:12: error: unexpected character '$'");
    expect_error("let x = a * b * c", "t.cat:1:15: error: write (a * b) * c: the product is not associative");
    expect_error("let rec x = po when empty x", "t.cat:1:16: error: unsupported: 'let rec ... when'");
    expect_error("let x = po\n)", "t.cat:2:1: error: expected an instruction (let, acyclic, "
                 "irreflexive, empty, show, include, ...), found ')'");
    expect_error("let x = po\nlet y", "t.cat:2:6: error: expected '=', found end of file");
    expect_error("show po as", "t.cat:1:11: error: expected a name, found end of file");
    expect_error("acyclic po as 0", "t.cat:1:15: error: expected a name, found '0'");
    expect_error("let x = 0 acyclic", "t.cat:1:18: error: expected an expression, found end of file");
}

/* cat_check_text lowers too: names must be bound, constructs supported. */
static void test_check_text(void **state)
{
    (void)state;
    base_diag d;
    base_diag_init(&d);
    const char *ok = "include \"cos.cat\"\nlet hb = (po | rf)+\nirreflexive hb ; (co | fr)\n";
    assert_true(cat_check_text("t.cat", ok, strlen(ok), &d));
    const char *bad = "let s = match po with || 'a -> 0 || _ -> po end\nacyclic s\n";
    assert_false(cat_check_text("t.cat", bad, strlen(bad), &d));
    char msg[256];
    base_diag_format(&d.msgs[0], msg, sizeof msg);
    assert_string_equal(msg, "t.cat:1:26: error: unsupported: a tag or alternative pattern in 'match'");
    base_diag_free(&d);
}

/* -variant names decide `if "name"` (without case), in instructions and
 * expressions; cat/variant.h says which names ravel accepts. */
static void test_variants(void **state)
{
    (void)state;
    const char *src = "if \"ETS2\" && not \"eis\" let z = 0 else let z = po end\n"
                      "let y = if \"ets3\" || (\"exs\") then po else 0\n";
    static const char *const names[] = { "ets2", "EXS" };
    cat_variants v = { names, 2 };
    base_arena a;
    base_arena_init(&a);
    base_diag d;
    base_diag_init(&d);
    cat_file *f = cat_parse_variants(&a, "t.cat", src, strlen(src), &v, &d);
    assert_non_null(f);
    assert_true(f->body.v[0]->negated); /* the condition holds: the first body */
    assert_int_equal(f->body.v[1]->binds[0].rhs->nitems, 1);
    cat_file *g = cat_parse(&a, "t.cat", src, strlen(src), &d);
    assert_non_null(g);
    assert_false(g->body.v[0]->negated);
    assert_int_equal(g->body.v[1]->binds[0].rhs->nitems, 0);
    const char *why = NULL;
    assert_true(cat_variant_supported("ETS2", &why));
    assert_false(cat_variant_supported("mixed", &why));
    assert_non_null(strstr(why, "other events"));
    assert_false(cat_variant_supported("no-such-variant", &why));
    assert_non_null(strstr(why, "not one of"));
    base_diag_free(&d);
    base_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_instructions),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_check_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
