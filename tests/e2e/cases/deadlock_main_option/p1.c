#include <pthread.h>
void ab(void);
static void *t(void *x) { ab(); return x; }
int main(void) { pthread_t x; pthread_create(&x, 0, t, 0); ab(); pthread_join(x, 0); return 0; }
