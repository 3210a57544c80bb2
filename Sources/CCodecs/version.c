#include "ccodecs.h"
int fg_codecs_version(void) { return 1; }
