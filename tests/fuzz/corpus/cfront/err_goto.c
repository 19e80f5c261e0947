/* A computed goto (GNU) is not supported; the rest of the file still
 * lowers, and the error names the construct. */
int main(void)
{
    void *p = &&done;
    goto *p;
done:
    return 0;
}
