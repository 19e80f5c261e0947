/* Nested functions (GCC) are not C that clang reads: a clear error naming them. */
int f(int x) { int g(int y) { return x + y; } return g(1); }
