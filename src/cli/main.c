/* main: the ravel binary; all work happens in cli_main (cli/cli.h). */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
