#include <pthread.h>
extern pthread_mutex_t lock_a, lock_b;
void take_a_then_b(void);
void take_b_then_a(void);
