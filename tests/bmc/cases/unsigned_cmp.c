/* -1 < 1u is false in C: -1 converts to UINT_MAX. */
extern void reach_error(void);
int main(void)
{
    int a = -1;
    unsigned b = 1;
    if (a < b)
        reach_error();
    return 0;
}
