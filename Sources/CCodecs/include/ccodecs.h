#ifndef FG_CCODECS_H
#define FG_CCODECS_H
#include <stddef.h>
#include <stdint.h>
// Placeholder; the imaging work defines the decode/encode entry points here.
int fg_codecs_version(void);
#endif
