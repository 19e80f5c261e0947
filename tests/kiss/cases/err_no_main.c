/* A library without main cannot be checked from main. */
int f(int x) { return x + 1; }
