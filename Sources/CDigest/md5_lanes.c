// MD5 in the lanes of AVX-512 registers: sixteen streams in 512-bit registers, or two to eight in 256-bit ones
// (AVX-512VL gives those the same rotate and ternary logic; eight lanes cost about half of sixteen, and two
// streams in them still about half of hashing them one after the other, whose steps wait on each other). Built
// for AVX-512 by function attributes, and called only after the processor has been asked (fg_md5_lanes), so the
// library still runs on a processor without it.
#include "md5_internal.h"
#include "md5_rounds.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define FG_LANES_TARGET __attribute__((target("avx512f,avx512vl")))
#define CAT(a, b) a##b

/// The first two stages of a transpose of N rows of 32-bit words held in registers of prefix P (`_mm512_`):
/// each pair of rows interleaved word by word into t, then each pair of those two words at a time back into r.
#define INTERLEAVE(P, r, t, N)                                                                                    \
    for (int i = 0; i < N; i += 2) {                                                                              \
        t[i] = P##unpacklo_epi32(r[i], r[i + 1]);                                                                  \
        t[i + 1] = P##unpackhi_epi32(r[i], r[i + 1]);                                                              \
    }                                                                                                              \
    for (int i = 0; i < N; i += 4) {                                                                              \
        r[i] = P##unpacklo_epi64(t[i], t[i + 2]);                                                                  \
        r[i + 1] = P##unpackhi_epi64(t[i], t[i + 2]);                                                              \
        r[i + 2] = P##unpacklo_epi64(t[i + 1], t[i + 3]);                                                          \
        r[i + 3] = P##unpackhi_epi64(t[i + 1], t[i + 3]);                                                          \
    }

/// Sixteen lanes' 64-byte blocks become sixteen registers, register w holding word w of every lane: a 16 x 16
/// transpose of 32-bit words.
FG_LANES_TARGET static inline void block16(__m512i m[16], const uint8_t *const data[16], size_t block, const size_t step[16]) {
    __m512i t[16];
    for (int l = 0; l < 16; l++) m[l] = _mm512_loadu_si512(data[l] + block * step[l]);
    INTERLEAVE(_mm512_, m, t, 16)
    for (int i = 0; i < 4; i++) {
        __m512i ab0 = _mm512_shuffle_i32x4(m[i], m[i + 4], 0x88), ab1 = _mm512_shuffle_i32x4(m[i], m[i + 4], 0xdd);
        __m512i cd0 = _mm512_shuffle_i32x4(m[i + 8], m[i + 12], 0x88), cd1 = _mm512_shuffle_i32x4(m[i + 8], m[i + 12], 0xdd);
        t[i] = _mm512_shuffle_i32x4(ab0, cd0, 0x88);
        t[i + 8] = _mm512_shuffle_i32x4(ab0, cd0, 0xdd);
        t[i + 4] = _mm512_shuffle_i32x4(ab1, cd1, 0x88);
        t[i + 12] = _mm512_shuffle_i32x4(ab1, cd1, 0xdd);
    }
    for (int i = 0; i < 16; i++) m[i] = t[i];
}

/// Eight lanes' blocks become sixteen registers: two 8 x 8 transposes, one per half block.
FG_LANES_TARGET static inline void block8(__m256i m[16], const uint8_t *const data[8], size_t block, const size_t step[8]) {
    __m256i t[16];
    for (int l = 0; l < 8; l++) {
        t[l] = _mm256_loadu_si256((const __m256i *)(data[l] + block * step[l]));
        t[l + 8] = _mm256_loadu_si256((const __m256i *)(data[l] + block * step[l] + 32));
    }
    for (int half = 0; half < 16; half += 8) {
        __m256i *r = t + half, u[8];
        INTERLEAVE(_mm256_, r, u, 8)
        for (int i = 0; i < 4; i++) {
            m[half + i] = _mm256_permute2x128_si256(r[i], r[i + 4], 0x20);
            m[half + i + 4] = _mm256_permute2x128_si256(r[i], r[i + 4], 0x31);
        }
    }
}

#define LANES 16
#define VEC __m512i
#define V(op) CAT(_mm512_, op)
#define LOAD(p) _mm512_loadu_si512(p)
#define STORE(p, v) _mm512_storeu_si512(p, v)
#define BLOCK block16
#define KERNEL fg_md5_lane_blocks
#include "md5_lanes_kernel.h"
#undef LANES
#undef VEC
#undef V
#undef LOAD
#undef STORE
#undef BLOCK
#undef KERNEL

#define LANES 8
#define VEC __m256i
#define V(op) CAT(_mm256_, op)
#define LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define STORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define BLOCK block8
#define KERNEL fg_md5_lane_blocks8
#include "md5_lanes_kernel.h"

int fg_md5_lanes(void) {
    static int lanes = -1;
    if (lanes < 0) lanes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? 16 : 0;
    return lanes;
}

#else

void fg_md5_lane_blocks(fg_md5 *const *states, const uint8_t *const *at, const int *taken, int n, size_t blocks) {
    for (int j = 0; j < n; j++) fg_md5_blocks(states[taken[j]]->h, at[taken[j]], blocks);
}

void fg_md5_lane_blocks8(fg_md5 *const *states, const uint8_t *const *at, const int *taken, int n, size_t blocks) {
    fg_md5_lane_blocks(states, at, taken, n, blocks);
}

int fg_md5_lanes(void) { return 0; }

#endif
