/* The assertion fails after five iterations only. */
#include <assert.h>
int main(void)
{
    int i = 0;
    while (i < 5)
        i++;
    assert(i != 5);
    return 0;
}
