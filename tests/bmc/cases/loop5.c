/* Five iterations: unwind 6 is enough (five bodies and the sixth test). */
#include <assert.h>
int main(void)
{
    int i = 0;
    while (i < 5)
        i++;
    assert(i == 5);
    return 0;
}
