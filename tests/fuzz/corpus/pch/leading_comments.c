/* a comment */
// another
#include "x.h"
int a;
