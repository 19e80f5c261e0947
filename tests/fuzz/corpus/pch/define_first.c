#define A 1
#include <stdio.h>
