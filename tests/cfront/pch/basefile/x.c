#include "name.h"
pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER;
const char *x_name(void) { return unit_name; }
