/* A unit of a real build: its entry has gcc-only flags and -Werror. */
int f();
int f(void) { return 1; }
int main(void) { return f(); }
