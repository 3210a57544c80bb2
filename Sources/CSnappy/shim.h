// Debian's libsnappy-dev: the C interface (snappy_compress, snappy_max_compressed_length).
#include <snappy-c.h>
