#include "broken.h"
int p(void) { return broken_value(); }
