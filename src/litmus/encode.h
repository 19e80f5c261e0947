/* encode: an event structure as a logic structure over the vocabulary of
 * logic/vocab.h (events are the universe, in evstruct order). */
#ifndef RAVEL_LITMUS_ENCODE_H
#define RAVEL_LITMUS_ENCODE_H

#include "litmus/evstruct.h"
#include "litmus/test.h"
#include "logic/structure.h"

void litmus_encode_structure(const litmus_test *t, const litmus_evstruct *es, logic_structure *st);

#endif
