/* Global initialisers run in __ravel_init; zero ones are omitted (globals
 * start zero); static locals are globals named after their function. */
struct cfg { int a, b; int *p; };
int x = 3;
int zero = 0;
int arr[4] = { [2] = 7, 1 };
struct cfg c = { .b = 2, .p = &x };
static int hidden = -1;
int counter(void)
{
    static int calls = 10;
    return ++calls + hidden;
}
int main(void) { return counter() + arr[3] + c.b; }
