#include <pthread.h>
void ab(void); void ba(void);
static void *t(void *x) { ba(); return x; }
int main(void) { pthread_t x; pthread_create(&x, 0, t, 0); ab(); pthread_join(x, 0); return 0; }
