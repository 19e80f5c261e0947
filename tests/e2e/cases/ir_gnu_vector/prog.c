/* Vector types: stored, copied, passed and indexed; arithmetic gives any value. */
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((__vector_size__(16)));
v4si add(v4si a, v4si b) { return a + b; }
int g(void) { v4si x = {1,2,3,4}; x = add(x, x); return x[0]; }
