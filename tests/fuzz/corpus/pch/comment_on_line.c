  #  include <a.h> /* c */
#include "b.h"
