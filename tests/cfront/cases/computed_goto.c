/* GNU computed goto: &&label is a constant per label, and goto *p
 * dispatches on it (a value that names no label is undefined). */
int main(void)
{
    void *p = &&done;
    goto *p;
done:
    return 0;
}
