#ifndef FG_CZLIB_SHIM_H
#define FG_CZLIB_SHIM_H
// Debian's zlib1g-dev: zlib's gzFile reader for .gz input lists (read as a stream; plain files pass
// through gzread unchanged), and inflate for Parquet's GZIP pages.
#include <zlib.h>
#endif
