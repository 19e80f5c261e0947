/* As longs, -1 < 1 holds: the error is reached. */
extern void reach_error(void);
int main(void)
{
    int a = -1;
    unsigned b = 1;
    if ((long)a < (long)b)
        reach_error();
    return 0;
}
