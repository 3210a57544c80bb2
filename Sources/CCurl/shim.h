#ifndef FG_CCURL_SHIM_H
#define FG_CCURL_SHIM_H
// libcurl's setopt/getinfo functions are variadic, which Swift cannot call.
// These typed wrappers are the whole of our C for libcurl.
#include <curl/curl.h>

static inline CURLcode fg_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fg_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fg_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fg_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fg_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode fg_easy_setopt_share(CURL *h, CURLSH *v) { return curl_easy_setopt(h, CURLOPT_SHARE, v); }
static inline CURLcode fg_easy_setopt_write(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode fg_easy_setopt_header(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
static inline CURLcode fg_easy_setopt_xferinfo(CURL *h, curl_xferinfo_callback f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode fg_easy_setopt_opensocket(CURL *h, curl_opensocket_callback f) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline CURLcode fg_easy_setopt_sockopt(CURL *h, curl_sockopt_callback f) { return curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, f); }
#if LIBCURL_VERSION_NUM >= 0x075000
static inline CURLcode fg_easy_setopt_prereq(CURL *h, curl_prereq_callback f) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f); }
#endif

static inline CURLcode fg_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fg_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fg_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fg_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode fg_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }

static inline CURLMcode fg_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLSHcode fg_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

// The opensocket callback receives a struct curl_sockaddr whose `addr` member is declared as a 16-byte
// struct sockaddr but really holds `addrlen` bytes (a sockaddr_in6 is 28): Swift must read it through a
// pointer, never by copying the member. CURL_SOCKET_BAD is a macro.
static inline const struct sockaddr *fg_curl_sockaddr_addr(const struct curl_sockaddr *a) { return &a->addr; }
static inline curl_socket_t fg_curl_socket_bad(void) { return CURL_SOCKET_BAD; }

// CURL_WRITEFUNC_PAUSE / CURL_READFUNC_ABORT etc. are macros Swift may not import.
static inline size_t fg_curl_writefunc_error(void) { return 0xFFFFFFFF; }
#endif
