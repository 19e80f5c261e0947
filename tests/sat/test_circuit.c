/* Unit tests for sat/solver and sat/circuit: constant folding, structural
 * hashing, and that every gate equals its function under the solver. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sat/circuit.h"

static void test_constants_fold(void **state)
{
    (void)state;
    sat_solver *s = sat_solver_new();
    sat_circuit c;
    sat_circuit_init(&c, s);
    int a = sat_circuit_var(&c);
    assert_int_equal(sat_and2(&c, a, SAT_TRUE), a);
    assert_int_equal(sat_and2(&c, a, SAT_FALSE), SAT_FALSE);
    assert_int_equal(sat_or2(&c, a, SAT_TRUE), SAT_TRUE);
    assert_int_equal(sat_or2(&c, a, SAT_FALSE), a);
    assert_int_equal(sat_and2(&c, a, -a), SAT_FALSE);
    assert_int_equal(sat_or2(&c, a, -a), SAT_TRUE);
    assert_int_equal(sat_and2(&c, a, a), a);
    assert_int_equal(sat_and(&c, NULL, 0), SAT_TRUE);
    assert_int_equal(sat_or(&c, NULL, 0), SAT_FALSE);
    assert_int_equal(sat_not(SAT_TRUE), SAT_FALSE);
    assert_int_equal(c.ngates, 0);
    sat_circuit_free(&c);
    sat_solver_free(s);
}

static void test_structural_hashing(void **state)
{
    (void)state;
    sat_solver *s = sat_solver_new();
    sat_circuit c;
    sat_circuit_init(&c, s);
    int a = sat_circuit_var(&c), b = sat_circuit_var(&c), d = sat_circuit_var(&c);
    int g1 = sat_and2(&c, a, b);
    int g2 = sat_and2(&c, b, a);
    assert_int_equal(g1, g2);
    int lits[3] = { d, a, b };
    int g3 = sat_and(&c, lits, 3);
    assert_int_not_equal(g3, g1);
    assert_int_equal(c.ngates, 2);
    assert_true(c.hits >= 1);
    sat_circuit_free(&c);
    sat_solver_free(s);
}

/* Every assignment of three inputs: the gates follow them exactly. */
static void test_gates_equal_their_function(void **state)
{
    (void)state;
    for (int m = 0; m < 8; m++) {
        sat_solver *s = sat_solver_new();
        sat_circuit c;
        sat_circuit_init(&c, s);
        int v[3];
        for (int i = 0; i < 3; i++)
            v[i] = sat_circuit_var(&c);
        int and3 = sat_and(&c, v, 3);
        int or3 = sat_or(&c, v, 3);
        int iff = sat_iff(&c, v[0], v[1]);
        int imp = sat_implies(&c, v[1], v[2]);
        for (int i = 0; i < 3; i++)
            sat_assume(s, (m >> i) & 1 ? v[i] : -v[i]);
        assert_int_equal(sat_solve(s), SAT_SAT);
        bool x = m & 1, y = (m >> 1) & 1, z = (m >> 2) & 1;
        assert_int_equal(sat_value(s, and3), x && y && z);
        assert_int_equal(sat_value(s, or3), x || y || z);
        assert_int_equal(sat_value(s, iff), x == y);
        assert_int_equal(sat_value(s, imp), !y || z);
        assert_true(sat_value(s, SAT_TRUE));
        sat_circuit_free(&c);
        sat_solver_free(s);
    }
}

static void test_unsat_and_assumptions(void **state)
{
    (void)state;
    sat_solver *s = sat_solver_new();
    sat_circuit c;
    sat_circuit_init(&c, s);
    int a = sat_circuit_var(&c), b = sat_circuit_var(&c);
    sat_assert(&c, sat_or2(&c, a, b));
    sat_assume(s, -a);
    sat_assume(s, -b);
    assert_int_equal(sat_solve(s), SAT_UNSAT);
    assert_true(sat_failed(s, -a) || sat_failed(s, -b));
    assert_int_equal(sat_solve(s), SAT_SAT); /* assumptions are gone */
    assert_true(sat_num_clauses(s) >= 4);
    assert_int_equal(sat_num_solves(s), 2);
    sat_circuit_free(&c);
    sat_solver_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants_fold),
        cmocka_unit_test(test_structural_hashing),
        cmocka_unit_test(test_gates_equal_their_function),
        cmocka_unit_test(test_unsat_and_assumptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
