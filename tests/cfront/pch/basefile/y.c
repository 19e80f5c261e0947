#include "name.h"
const char *y_name(void) { pthread_mutex_lock(&lk); pthread_mutex_unlock(&lk); return unit_name; }
