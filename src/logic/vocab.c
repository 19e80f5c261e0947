#include "logic/vocab.h"

void logic_vocab_add(logic_structure *s, logic_vocab *v)
{
    v->R = logic_structure_add(s, LOGIC_V_READ, 1);
    v->W = logic_structure_add(s, LOGIC_V_WRITE, 1);
    v->F = logic_structure_add(s, LOGIC_V_FENCE, 1);
    v->M = logic_structure_add(s, LOGIC_V_MEM, 1);
    v->IW = logic_structure_add(s, LOGIC_V_INIT, 1);
    v->RMWEV = logic_structure_add(s, LOGIC_V_RMWEV, 1);
    v->po = logic_structure_add(s, LOGIC_V_PO, 2);
    v->conflict = logic_structure_add(s, LOGIC_V_CONFLICT, 2);
    v->loc = logic_structure_add(s, LOGIC_V_LOC, 2);
    v->in = logic_structure_add(s, LOGIC_V_INT, 2);
    v->ext = logic_structure_add(s, LOGIC_V_EXT, 2);
    v->rf_cand = logic_structure_add(s, LOGIC_V_RF_CAND, 2);
    v->co_cand = logic_structure_add(s, LOGIC_V_CO_CAND, 2);
    v->jf_cand = logic_structure_add(s, LOGIC_V_JF_CAND, 2);
    v->addr = logic_structure_add(s, LOGIC_V_ADDR, 2);
    v->data = logic_structure_add(s, LOGIC_V_DATA, 2);
    v->ctrl = logic_structure_add(s, LOGIC_V_CTRL, 2);
    v->rmw = logic_structure_add(s, LOGIC_V_RMW, 2);
}
