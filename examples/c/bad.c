int main(void)
{
    return undeclared_variable;
}
