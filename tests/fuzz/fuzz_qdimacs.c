/* libFuzzer harness for the QDIMACS reader (sat/qbf_io) and the QBF solver
 * behind it: the bytes are read as QDIMACS; when they parse, the query is
 * written back and must read back to the same text, and a small query
 * (at most 14 variables, 300 clauses) is solved with an iteration budget
 * and must agree with brute-force expansion. Any crash, leak, sanitizer
 * report or disagreement (abort) is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../sat/qbf_random.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "sat/qbf.h"
#include "sat/qbf_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    base_diag diag;
    base_diag_init(&diag);
    sat_qbf *q = sat_qbf_read_qdimacs("fuzz.qdimacs", (const char *)data, size, &diag);
    if (!q) {
        if (!base_diag_has_errors(&diag))
            abort(); /* a rejection always says why */
        base_diag_free(&diag);
        return 0;
    }
    base_strbuf a = { 0 }, b = { 0 };
    sat_qbf_write_qdimacs(q, &a);
    sat_qbf *r = sat_qbf_read_qdimacs("again.qdimacs", a.data, a.len, &diag);
    if (!r)
        abort();
    sat_qbf_write_qdimacs(r, &b);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
        abort();
    base_strbuf_clear(&b);
    sat_qbf_write_qcir(q, &b);
    if (sat_qbf_max_var(q) <= 14 && sat_qbf_num_clauses(q) <= 300) {
        sat_qbf_set_budget(q, 20000);
        sat_result res = sat_qbf_solve(q);
        if (res == SAT_UNKNOWN)
            abort(); /* 14 variables never need 20000 iterations */
        if ((res == SAT_SAT) != qbf_brute(q, NULL))
            abort();
    }
    sat_qbf_free(r);
    sat_qbf_free(q);
    base_strbuf_free(&a);
    base_strbuf_free(&b);
    base_diag_free(&diag);
    return 0;
}
