/* A syntax error is clang's, reported with its location. */
int main(void)
{
    int x = ;
    return x;
}
