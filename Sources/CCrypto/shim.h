#ifndef FG_CCRYPTO_SHIM_H
#define FG_CCRYPTO_SHIM_H
// SHA-256 from OpenSSL's libcrypto (already on the machine as libcurl's TLS library):
// its assembly uses the CPU's SHA extensions, several times faster than a Swift loop.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
