#include_next <z.h>
