/* an error in the shared header: the PCH cannot be made, every unit is
 * parsed without it and reports the error as it would anyway */
#include <pthread.h>
#include <stdio.h>
struct s { int a; } /* the ';' is missing */
int broken_value(void);
