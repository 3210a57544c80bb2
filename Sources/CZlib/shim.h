// Debian's zlib1g-dev: inflate for Parquet's GZIP pages.
#include <zlib.h>
