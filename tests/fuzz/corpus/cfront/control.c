/* Structured control flow becomes guarded gotos; for statements with
 * empty slots are told apart by their tokens. */
int n;
int main(void)
{
    int i = 0;
    if (n > 0)
        n = 1;
    else if (n < 0)
        n = -1;
    else
        n = 0;
    while (i < 10) {
        if (i == 5)
            break;
        i++;
    }
    do {
        i--;
        if (i == 2)
            continue;
    } while (i > 0);
    for (;; n++)
        if (n > 3)
            break;
    for (n++;;)
        break;
    for (; n < 8;)
        n++;
    for (int k = 0; k < 2; k++)
        n += k;
    switch (n) {
    case 0:
        n = 10;
    case 1:
        n = 11;
        break;
    case 2: {
        n = 12;
        break;
    }
    default:
        n = 13;
    }
    goto out;
    n = 99;
out:
    return n;
}
