/* offsetof with an index that is not a constant cannot be lowered: an
 * error with its location, naming the construct in C's terms. */
#include <stddef.h>
struct s { int a; int b[8]; };
int f(int i)
{
    return (int)offsetof(struct s, b[i]);
}
int main(void) { return f(2); }
