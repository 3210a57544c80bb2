// The resampler's two filter loops (see fg_scaling.h), written once with the compiler's vector types and built
// three times: for any x86-64 (128-bit registers), for AVX2 and for AVX-512 by function attributes. The wider
// builds are called only after the processor has been asked, so the library still runs without them.
//
// Multiplies and adds stay apart: a fused multiply-add rounds once where the two round twice, and the pixels
// would then differ by the processor that made them.
#ifdef __clang__
#pragma clang fp contract(off)
#endif
#include "fg_scaling.h"
#include <stdint.h>
#include <string.h>

typedef float v4f __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));

#define INLINE static inline __attribute__((always_inline))
// Unaligned loads and stores of vectors (memcpy compiles to one move), as macros: a function returning a
// vector wider than the base target's registers would have its own calling convention.
#define LOAD(type, p) ({ type v_; memcpy(&v_, (p), sizeof v_); v_; })
#define STORE(p, v) do { __typeof__(v) s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)
/// Two rows' pixels in one 8-float register: row a's 4 floats in the low half, b's in the high.
#define PAIR(a, b) __builtin_shufflevector(LOAD(v4f, a), LOAD(v4f, b), 0, 1, 2, 3, 4, 5, 6, 7)

/// Sixteen lanes at a time, four blocks of them per pass over the rows where the row is long enough (each
/// weight and row pointer read once for 64 lanes), then the lanes left one by one.
INLINE void columns_body(const float *const *rows, const float *w, long count, float *acc, long length) {
    long i = 0;
    for (; i + 64 <= length; i += 64) {
        v16f s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        for (long k = 0; k < count; k++) {
            const float *r = rows[k] + i;
            float weight = w[k];
            s0 += LOAD(v16f, r) * weight;
            s1 += LOAD(v16f, r + 16) * weight;
            s2 += LOAD(v16f, r + 32) * weight;
            s3 += LOAD(v16f, r + 48) * weight;
        }
        STORE(acc + i, s0);
        STORE(acc + i + 16, s1);
        STORE(acc + i + 32, s2);
        STORE(acc + i + 48, s3);
    }
    for (; i + 16 <= length; i += 16) {
        v16f s = {0};
        for (long k = 0; k < count; k++) s += LOAD(v16f, rows[k] + i) * w[k];
        STORE(acc + i, s);
    }
    for (; i < length; i++) {
        float s = 0;
        for (long k = 0; k < count; k++) s += rows[k][i] * w[k];
        acc[i] = s;
    }
}

INLINE void row_pair_body(const float *a, const float *b, float *out_a, float *out_b, const long *first,
                          const long *count, const float *weights, long stride, long output_size, long n) {
    for (long x = 0; x < output_size; x++) {
        const float *w = weights + x * stride;
        const float *pa = a + first[x] * n, *pb = b + first[x] * n;
        v8f s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        long taps = count[x], k = 0;
        for (; k + 4 <= taps; k += 4) {
            long at = k * n;
            s0 += PAIR(pa + at, pb + at) * w[k];
            s1 += PAIR(pa + at + n, pb + at + n) * w[k + 1];
            s2 += PAIR(pa + at + 2 * n, pb + at + 2 * n) * w[k + 2];
            s3 += PAIR(pa + at + 3 * n, pb + at + 3 * n) * w[k + 3];
        }
        for (; k < taps; k++) s0 += PAIR(pa + k * n, pb + k * n) * w[k];
        v8f sum = (s0 + s1) + (s2 + s3);
        v4f low = __builtin_shufflevector(sum, sum, 0, 1, 2, 3), high = __builtin_shufflevector(sum, sum, 4, 5, 6, 7);
        STORE(out_a + x * n, low);
        STORE(out_b + x * n, high);
    }
}

/// Byte samples to floats.
INLINE void load_body(const uint8_t *line, float *row, long samples) {
    for (long i = 0; i < samples; i++) row[i] = (float)line[i];
}

/// Rounds to nearest (ties to even) and clamps to 0...255: 2^23 added to a float in 0...255 leaves its rounded
/// integer in the low bits of the float's pattern.
INLINE void store_body(const float *acc, uint8_t *dst, long samples) {
    for (long i = 0; i < samples; i++) {
        float v = acc[i];
        v = 0 >= v ? 0 : v;
        v = 255 < v ? 255 : v;
        v += 8388608.0f;
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        dst[i] = (uint8_t)bits;
    }
}

/// Rows y0 ..< y1 of bytes summed sample by sample into `columns` (exact), then each block of `box_x` pixels
/// (fewer at the right edge) averaged into one pixel of `row`.
INLINE void box_body(const uint8_t *base, long bytes_per_row, long y0, long y1, long source_width, long n,
                     long box_x, uint64_t *columns, float *row, long width) {
    long samples = source_width * n;
    for (long i = 0; i < samples; i++) columns[i] = 0;
    for (long y = y0; y < y1; y++) {
        const uint8_t *line = base + y * bytes_per_row;
        for (long i = 0; i < samples; i++) columns[i] += line[i];
    }
    float rows = (float)(y1 - y0);
    for (long bx = 0; bx < width; bx++) {
        long x0 = bx * box_x, x1 = x0 + box_x < source_width ? x0 + box_x : source_width;
        float inverse = 1 / (rows * (float)(x1 - x0));
        for (long c = 0; c < n; c++) {
            uint64_t sum = 0;
            for (long x = x0; x < x1; x++) sum += columns[x * n + c];
            row[bx * n + c] = (float)sum * inverse;
        }
    }
}

/// The channel count as a constant in each body, so its multiplies fold and its loop over channels unrolls.
#define ROW_PAIR(a, b, oa, ob, first, count, weights, stride, size, n)                                           \
    ((n) == 3 ? row_pair_body(a, b, oa, ob, first, count, weights, stride, size, 3)                              \
              : row_pair_body(a, b, oa, ob, first, count, weights, stride, size, 4))

#define BOX(base, bpr, y0, y1, sw, n, bx, cols, row, width)                                                        \
    ((n) == 3 ? box_body(base, bpr, y0, y1, sw, 3, bx, cols, row, width)                                           \
              : box_body(base, bpr, y0, y1, sw, n, bx, cols, row, width))

static void load_base(const uint8_t *line, float *row, long samples) { load_body(line, row, samples); }
static void store_base(const float *acc, uint8_t *dst, long samples) { store_body(acc, dst, samples); }
static void box_base(const uint8_t *base, long bpr, long y0, long y1, long sw, long n, long bx, uint64_t *cols,
                     float *row, long width) {
    BOX(base, bpr, y0, y1, sw, n, bx, cols, row, width);
}
static void columns_base(const float *const *rows, const float *w, long count, float *acc, long length) {
    columns_body(rows, w, count, acc, length);
}
static void row_pair_base(const float *a, const float *b, float *oa, float *ob, const long *first, const long *count,
                          const float *weights, long stride, long size, long n) {
    ROW_PAIR(a, b, oa, ob, first, count, weights, stride, size, n);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define WIDE(name, features)                                                                                         \
    __attribute__((target(features))) static void columns_##name(const float *const *rows, const float *w,          \
                                                               long count, float *acc, long length) {             \
        columns_body(rows, w, count, acc, length);                                                                 \
    }                                                                                                              \
    __attribute__((target(features))) static void row_pair_##name(const float *a, const float *b, float *oa,        \
                                                                float *ob, const long *first, const long *count,  \
                                                                const float *weights, long stride, long size,     \
                                                                long n) {                                         \
        ROW_PAIR(a, b, oa, ob, first, count, weights, stride, size, n);                                            \
    }                                                                                                              \
    __attribute__((target(features))) static void load_##name(const uint8_t *line, float *row, long samples) {   \
        load_body(line, row, samples);                                                                             \
    }                                                                                                              \
    __attribute__((target(features))) static void store_##name(const float *acc, uint8_t *dst, long samples) {   \
        store_body(acc, dst, samples);                                                                             \
    }                                                                                                              \
    __attribute__((target(features))) static void box_##name(const uint8_t *base, long bpr, long y0, long y1,    \
                                                             long sw, long n, long bx, uint64_t *cols,           \
                                                             float *row, long width) {                           \
        BOX(base, bpr, y0, y1, sw, n, bx, cols, row, width);                                                       \
    }
WIDE(avx2, "avx2")
WIDE(avx512, "avx512f,avx512bw")

static int best_level(void) {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return 2;
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
#else
static int best_level(void) { return 0; }
#endif


/// The level that runs; -1 until first asked. Atomic: any thread may ask first.
static int current = -1;

int fg_scaling_set_level(int level) {
    int best = best_level();
    int chosen = level < 0 || level > best ? best : level;
    __atomic_store_n(&current, chosen, __ATOMIC_RELAXED);
    return chosen;
}

int fg_scaling_level(void) {
    int level = __atomic_load_n(&current, __ATOMIC_RELAXED);
    return level >= 0 ? level : fg_scaling_set_level(-1);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define DISPATCH(name, ...)                                                                                        \
    switch (fg_scaling_level()) {                                                                                  \
    case 2: name##_avx512(__VA_ARGS__); return;                                                                    \
    case 1: name##_avx2(__VA_ARGS__); return;                                                                      \
    default: name##_base(__VA_ARGS__);                                                                             \
    }
#else
#define DISPATCH(name, ...) name##_base(__VA_ARGS__)
#endif

void fg_scaling_columns(const float *const *rows, const float *w, long count, float *acc, long length) {
    DISPATCH(columns, rows, w, count, acc, length);
}

void fg_scaling_row_pair(const float *a, const float *b, float *out_a, float *out_b, const long *first,
                         const long *count, const float *weights, long stride, long output_size, long channels) {
    DISPATCH(row_pair, a, b, out_a, out_b, first, count, weights, stride, output_size, channels);
}

void fg_scaling_load_row(const uint8_t *line, float *row, long samples) { DISPATCH(load, line, row, samples); }

void fg_scaling_store_row(const float *acc, uint8_t *dst, long samples) { DISPATCH(store, acc, dst, samples); }

void fg_scaling_box_row(const uint8_t *base, long bytes_per_row, long y0, long y1, long source_width, long channels,
                        long box_x, uint64_t *columns, float *row, long width) {
    DISPATCH(box, base, bytes_per_row, y0, y1, source_width, channels, box_x, columns, row, width);
}
