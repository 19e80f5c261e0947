/* Statements that touch only locals get no scheduling point; calls are
 * followed by `if (raise) return`. */
int g;
int sq(int x) { int y = x * x; return y; }
int main(void)
{
    int a = 3, b;
    b = sq(a);
    g = b;
    return 0;
}
