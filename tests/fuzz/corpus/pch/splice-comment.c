// see also \
#include "debug.h"
#include "real.h"
int x;
