/* A while loop with continue has two back edges; one iteration is counted
 * once whichever it takes. Four iterations: unwind 5. */
#include <assert.h>
int main(void)
{
    int i = 0, odd = 0;
    while (i < 4) {
        i++;
        if (i % 2 == 0)
            continue;
        odd++;
    }
    assert(odd == 2);
    return 0;
}
