#include "broken.h"
int q(void) { return broken_value() + 1; }
