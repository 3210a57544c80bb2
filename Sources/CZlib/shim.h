#ifndef FG_CZLIB_SHIM_H
#define FG_CZLIB_SHIM_H
// zlib's gzFile reader: reads .gz input lists as a stream (and plain files unchanged: gzread passes
// bytes without a gzip header through), so a URL list is never held whole in memory.
#include <zlib.h>
#endif
