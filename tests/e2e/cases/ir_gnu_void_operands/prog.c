/* Void operands of ?: and comma, and void statement expressions. */
void f(void); void h(void);
int x;
void g(int c) {
    c ? f() : h();
    (f(), h());
    ({ f(); });
    (void)(c ? (void)0 : f());
    x = ({ int t = c; t + 1; });
}
