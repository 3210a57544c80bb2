#ifndef FG_HEIF_INTERNAL_H
#define FG_HEIF_INTERNAL_H
// libheif's global state (its plugin registry) is set up by heif_init, which is not thread-safe:
// every entry point calls this first, and pthread_once runs heif_init exactly once.
void fg_heif_init_once(void);
#endif
