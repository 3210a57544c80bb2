// Debian's libzstd-dev: the one-shot ZSTD_compress and ZSTD_compressBound.
#include <zstd.h>
