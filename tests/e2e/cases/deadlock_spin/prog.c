/* Spinlocks are locks: ABBA on two pthread spinlocks. */
#include <pthread.h>
pthread_spinlock_t s1, s2;
void *f1(void *p) { pthread_spin_lock(&s1); pthread_spin_lock(&s2); pthread_spin_unlock(&s2); pthread_spin_unlock(&s1); return p; }
void *f2(void *p) { pthread_spin_lock(&s2); pthread_spin_lock(&s1); pthread_spin_unlock(&s1); pthread_spin_unlock(&s2); return p; }
int main(void) { pthread_t a, b; pthread_spin_init(&s1, 0); pthread_spin_init(&s2, 0); pthread_create(&a, 0, f1, 0); pthread_create(&b, 0, f2, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }
