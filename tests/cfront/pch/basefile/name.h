/* __BASE_FILE__ names the unit; in a PCH it would name the PCH's header,
 * so no PCH is made of a header that says it. */
#ifndef NAME_H
#define NAME_H
#include <pthread.h>
#include <stdio.h>
static const char unit_name[] = __BASE_FILE__;
extern pthread_mutex_t lk;
#endif
