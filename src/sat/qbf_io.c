#include "sat/qbf_io.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/xalloc.h"

typedef BASE_VEC(int) int_vec;

/* The closed, normalised prefix: kinds[i] and vars[off[i] .. off[i+1]). */
typedef struct prefix {
    BASE_VEC(sat_qbf_quant) kinds;
    BASE_VEC(size_t) off;
    int_vec vars;
} prefix;

static void prefix_add(prefix *p, sat_qbf_quant k, int var)
{
    if (p->kinds.len == 0 || base_vec_last(&p->kinds) != k) {
        base_vec_push(&p->kinds, k);
        base_vec_push(&p->off, p->vars.len);
    }
    base_vec_push(&p->vars, var);
}

static void prefix_build(const sat_qbf *q, prefix *p)
{
    memset(p, 0, sizeof *p);
    int maxv = sat_qbf_max_var(q);
    bool *occurs = base_xcalloc((size_t)maxv + 1, 1);
    for (size_t c = 0; c < sat_qbf_num_clauses(q); c++) {
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        for (size_t k = 0; k < n; k++)
            occurs[abs(l[k])] = true;
    }
    for (int v = 1; v <= maxv; v++)
        if (occurs[v] && sat_qbf_var_block(q, v) < 0)
            prefix_add(p, SAT_QBF_EXISTS, v);
    free(occurs);
    for (size_t b = 0; b < sat_qbf_num_blocks(q); b++) {
        const int *vars;
        size_t n;
        sat_qbf_quant k = sat_qbf_block(q, b, &vars, &n);
        for (size_t i = 0; i < n; i++)
            prefix_add(p, k, vars[i]);
    }
    base_vec_push(&p->off, p->vars.len);
}

static void prefix_free(prefix *p)
{
    base_vec_free(&p->kinds);
    base_vec_free(&p->off);
    base_vec_free(&p->vars);
}

void sat_qbf_write_qdimacs(const sat_qbf *q, base_strbuf *out)
{
    prefix p;
    prefix_build(q, &p);
    base_strbuf_printf(out, "p cnf %d %zu\n", sat_qbf_max_var(q), sat_qbf_num_clauses(q));
    for (size_t b = 0; b < p.kinds.len; b++) {
        base_strbuf_putc(out, p.kinds.data[b] == SAT_QBF_EXISTS ? 'e' : 'a');
        for (size_t i = p.off.data[b]; i < p.off.data[b + 1]; i++)
            base_strbuf_printf(out, " %d", p.vars.data[i]);
        base_strbuf_puts(out, " 0\n");
    }
    for (size_t c = 0; c < sat_qbf_num_clauses(q); c++) {
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        for (size_t k = 0; k < n; k++)
            base_strbuf_printf(out, "%d ", l[k]);
        base_strbuf_puts(out, "0\n");
    }
    prefix_free(&p);
}

void sat_qbf_write_qcir(const sat_qbf *q, base_strbuf *out)
{
    prefix p;
    prefix_build(q, &p);
    int maxv = sat_qbf_max_var(q);
    size_t nc = sat_qbf_num_clauses(q);
    /* Gates are named after the variables: clause c is gate maxv+1+c, the
     * output is gate maxv+1+nc. */
    base_strbuf_printf(out, "#QCIR-G14 %zu\n", (size_t)maxv + nc + 1);
    for (size_t b = 0; b < p.kinds.len; b++) {
        base_strbuf_puts(out, p.kinds.data[b] == SAT_QBF_EXISTS ? "exists(" : "forall(");
        for (size_t i = p.off.data[b]; i < p.off.data[b + 1]; i++)
            base_strbuf_printf(out, "%s%d", i == p.off.data[b] ? "" : ", ", p.vars.data[i]);
        base_strbuf_puts(out, ")\n");
    }
    size_t outg = (size_t)maxv + 1 + nc;
    base_strbuf_printf(out, "output(%zu)\n", outg);
    for (size_t c = 0; c < nc; c++) {
        size_t n;
        const int *l = sat_qbf_clause(q, c, &n);
        base_strbuf_printf(out, "%zu = or(", (size_t)maxv + 1 + c);
        for (size_t k = 0; k < n; k++)
            base_strbuf_printf(out, "%s%d", k ? ", " : "", l[k]);
        base_strbuf_puts(out, ")\n");
    }
    base_strbuf_printf(out, "%zu = and(", outg);
    for (size_t c = 0; c < nc; c++)
        base_strbuf_printf(out, "%s%zu", c ? ", " : "", (size_t)maxv + 1 + c);
    base_strbuf_puts(out, ")\n");
    prefix_free(&p);
}

/* --- reader --- */

typedef struct reader {
    const char *file;
    const char *s;
    size_t len, pos;
    uint32_t line;
    size_t line_start;
    base_diag *diag;
} reader;

static base_srcloc here(const reader *r)
{
    return base_srcloc_make(r->file, r->line, (uint32_t)(r->pos - r->line_start + 1));
}

/* Skips blanks (not newlines). */
static void skip_blanks(reader *r)
{
    while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' ||
                               r->s[r->pos] == '\r' || r->s[r->pos] == '\f' ||
                               r->s[r->pos] == '\v'))
        r->pos++;
}

static void next_line(reader *r)
{
    while (r->pos < r->len && r->s[r->pos] != '\n')
        r->pos++;
    if (r->pos < r->len) {
        r->pos++;
        r->line++;
        r->line_start = r->pos;
    }
}

/* Skips blanks, newlines and comment lines; returns false at the end. */
static bool skip_space(reader *r)
{
    for (;;) {
        skip_blanks(r);
        if (r->pos >= r->len)
            return false;
        char c = r->s[r->pos];
        if (c == '\n') {
            next_line(r);
            continue;
        }
        if (c == 'c' && r->pos == r->line_start) {
            next_line(r);
            continue;
        }
        return true;
    }
}

/* Reads a decimal integer (optional '-') with |value| <= limit. */
static bool read_int(reader *r, long *out, long limit)
{
    base_srcloc at = here(r);
    bool neg = false;
    size_t p = r->pos;
    if (p < r->len && r->s[p] == '-') {
        neg = true;
        p++;
    }
    if (p >= r->len || r->s[p] < '0' || r->s[p] > '9') {
        size_t e = r->pos;
        while (e < r->len && e - r->pos < 20 && r->s[e] > ' ' && (unsigned char)r->s[e] < 127)
            e++;
        if (e == r->pos)
            base_diag_error(r->diag, at, "expected a number");
        else
            base_diag_error(r->diag, at, "expected a number, found '%.*s'", (int)(e - r->pos),
                            r->s + r->pos);
        return false;
    }
    long v = 0;
    while (p < r->len && r->s[p] >= '0' && r->s[p] <= '9') {
        v = v * 10 + (r->s[p] - '0');
        if (v > limit) {
            base_diag_error(r->diag, at, "number out of range (at most %ld)", limit);
            return false;
        }
        p++;
    }
    if (p < r->len && r->s[p] > ' ') {
        base_diag_error(r->diag, at, "expected a number, found junk after the digits");
        return false;
    }
    r->pos = p;
    *out = neg ? -v : v;
    return true;
}

static bool expect_word(reader *r, const char *w)
{
    size_t n = strlen(w);
    if (r->len - r->pos >= n && memcmp(r->s + r->pos, w, n) == 0 &&
        (r->pos + n == r->len || r->s[r->pos + n] <= ' ')) {
        r->pos += n;
        return true;
    }
    return false;
}

sat_qbf *sat_qbf_read_qdimacs(const char *file, const char *text, size_t len, base_diag *diag)
{
    reader r = { file, text, len, 0, 1, 0, diag };
    if (!skip_space(&r) || !expect_word(&r, "p")) {
        base_diag_error(diag, here(&r), "expected the problem line 'p cnf VARS CLAUSES'");
        return NULL;
    }
    skip_blanks(&r);
    if (!expect_word(&r, "cnf")) {
        base_diag_error(diag, here(&r), "expected 'cnf' after 'p'");
        return NULL;
    }
    long nv, nc;
    skip_blanks(&r);
    if (!read_int(&r, &nv, SAT_QBF_IO_MAX_VARS))
        return NULL;
    skip_blanks(&r);
    if (!read_int(&r, &nc, LONG_MAX / 16))
        return NULL;
    if (nv < 0 || nc < 0) {
        base_diag_error(diag, here(&r), "negative count in the problem line");
        return NULL;
    }
    skip_blanks(&r);
    if (r.pos < r.len && r.s[r.pos] != '\n') {
        base_diag_error(diag, here(&r), "junk after the problem line");
        return NULL;
    }

    sat_qbf *q = sat_qbf_new();
    int_vec clause = { 0 };
    long nread = 0;
    bool in_matrix = false;
    while (skip_space(&r)) {
        char c = r.s[r.pos];
        if (c == 'a' || c == 'e') {
            base_srcloc at = here(&r);
            if (in_matrix) {
                base_diag_error(diag, at, "quantifier line after the first clause");
                goto fail;
            }
            r.pos++;
            if (r.pos < r.len && r.s[r.pos] > ' ') {
                base_diag_error(diag, at, "expected 'a' or 'e' and a space");
                goto fail;
            }
            sat_qbf_add_block(q, c == 'e' ? SAT_QBF_EXISTS : SAT_QBF_FORALL, NULL, 0);
            for (;;) {
                if (!skip_space(&r)) {
                    base_diag_error(diag, here(&r), "quantifier line not ended by 0");
                    goto fail;
                }
                base_srcloc vat = here(&r);
                long v;
                if (!read_int(&r, &v, SAT_QBF_IO_MAX_VARS))
                    goto fail;
                if (v == 0)
                    break;
                if (v < 0 || v > nv) {
                    base_diag_error(diag, vat, "quantified variable %ld is not in 1..%ld", v, nv);
                    goto fail;
                }
                if (!sat_qbf_add_var(q, (int)v)) {
                    base_diag_error(diag, vat, "variable %ld is quantified twice", v);
                    goto fail;
                }
            }
            continue;
        }
        in_matrix = true;
        base_srcloc at = here(&r);
        long l;
        if (!read_int(&r, &l, SAT_QBF_IO_MAX_VARS))
            goto fail;
        if (l == 0) {
            if (++nread > nc) {
                base_diag_error(diag, at, "more clauses than the %ld the problem line declares",
                                nc);
                goto fail;
            }
            sat_qbf_add_clause(q, clause.data, clause.len);
            base_vec_clear(&clause);
            continue;
        }
        if (labs(l) > nv) {
            base_diag_error(diag, at, "literal %ld: variable not in 1..%ld", l, nv);
            goto fail;
        }
        base_vec_push(&clause, (int)l);
    }
    if (clause.len) {
        base_diag_error(diag, here(&r), "last clause not ended by 0");
        goto fail;
    }
    if (nread != nc) {
        base_diag_error(diag, here(&r), "%ld clauses, but the problem line declares %ld", nread,
                        nc);
        goto fail;
    }
    base_vec_free(&clause);
    return q;
fail:
    base_vec_free(&clause);
    sat_qbf_free(q);
    return NULL;
}
