/* A unit with C errors: left out, said in the summary. */
int f(void) { return x + y; }
int g(void) { return z; }
