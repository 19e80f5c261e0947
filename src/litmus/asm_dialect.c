/* asm_dialect: the operand readers the assembly dialects share. */
#include "litmus/asm_dialect.h"

bool litmus_asm_comma(litmus_asm_ctx *c)
{
    return litmus_expect(litmus_asm_parser(c), LITMUS_T_COMMA, "','");
}

bool litmus_asm_need_reg(litmus_asm_ctx *c, int *num)
{
    litmus_parser *p = litmus_asm_parser(c);
    const litmus_asm_dialect *d = litmus_asm_dialect_of(c);
    *num = d->reg_number(&p->tok);
    if (*num < 0) {
        char buf[64];
        litmus_error_at(p, &p->tok, "expected %s, found %s", d->reg_what,
                        litmus_tok_desc(&p->tok, buf, sizeof buf));
        return false;
    }
    return true;
}

bool litmus_asm_src_reg(litmus_asm_ctx *c, int zero, litmus_operand *o)
{
    int n;
    if (!litmus_asm_need_reg(c, &n))
        return false;
    litmus_parser *p = litmus_asm_parser(c);
    *o = n == zero ? litmus_imm_operand(0) : litmus_reg_operand(litmus_asm_reg(c, &p->tok));
    litmus_next(p);
    return true;
}

bool litmus_asm_dst_reg(litmus_asm_ctx *c, int zero, const char *zero_temp, uint32_t *reg)
{
    int n;
    if (!litmus_asm_need_reg(c, &n))
        return false;
    litmus_parser *p = litmus_asm_parser(c);
    *reg = n == zero ? litmus_asm_temp(c, zero_temp) : litmus_asm_reg(c, &p->tok);
    litmus_next(p);
    return true;
}
