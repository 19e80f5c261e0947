/* Inline assembly: outputs are written by an opaque __ravel_asm call; a memory clobber makes it __ravel_asm_memory; fences and compiler barriers are skips. */
static inline unsigned long rdtsc(void) { unsigned int lo, hi; __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)); return ((unsigned long)hi << 32) | lo; }
int g;
void barrier(void) { asm volatile("" ::: "memory"); g = 1; __asm__ __volatile__("mfence" ::: "memory"); }
int lockinc(int *p) { int v = 1; asm volatile("lock; xaddl %0, %1" : "+r"(v), "+m"(*p) :: "memory"); return v; }
