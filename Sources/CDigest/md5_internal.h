#ifndef FG_MD5_INTERNAL_H
#define FG_MD5_INTERNAL_H
#include "fg_md5.h"

/// MD5's sixty-four constants.
extern const uint32_t fg_md5_k[64];

/// `blocks` 64-byte blocks of one stream into its chaining value.
void fg_md5_blocks(uint32_t h[4], const uint8_t *data, size_t blocks);

/// `blocks` 64-byte blocks of each of `n` streams (8 < n <= 16), `states[taken[j]]` fed from `at[taken[j]]`, in
/// the lanes of AVX-512 registers; only called when fg_md5_lanes() is 16.
void fg_md5_lane_blocks(fg_md5 *const *states, const uint8_t *const *at, const int *taken, int n, size_t blocks);

/// The same in eight lanes of 256-bit registers (AVX-512VL), for 1 < n <= 8 streams.
void fg_md5_lane_blocks8(fg_md5 *const *states, const uint8_t *const *at, const int *taken, int n, size_t blocks);

#endif
