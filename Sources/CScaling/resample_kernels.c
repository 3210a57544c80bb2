// The resampler's loops (see fg_scaling.h), written once with the compiler's vector types and built
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
typedef float v16f __attribute__((vector_size(64)));
typedef uint8_t v16u8 __attribute__((vector_size(16)));

#define INLINE static inline __attribute__((always_inline))
// Unaligned loads and stores of vectors (memcpy compiles to one move), as macros: a function returning a
// vector wider than the base target's registers would have its own calling convention.
#define LOAD(type, p) ({ type v_; memcpy(&v_, (p), sizeof v_); v_; })
#define STORE(p, v) do { __typeof__(v) s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)

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

/// Four rows' pixel x side by side (see fg_scaling_interleave): one 16-float register holds it for the four,
/// one multiply and one add per tap for all of them.
INLINE void row_quad_body(const float *group, float *const *out, const long *first, const long *count,
                          const float *weights, long stride, long output_size, long n) {
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    for (long x = 0; x < output_size; x++) {
        const float *w = weights + x * stride;
        const float *p = group + first[x] * 16;
        v16f s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        long taps = count[x], k = 0;
        for (; k + 4 <= taps; k += 4) {
            s0 += LOAD(v16f, p + k * 16) * w[k];
            s1 += LOAD(v16f, p + k * 16 + 16) * w[k + 1];
            s2 += LOAD(v16f, p + k * 16 + 32) * w[k + 2];
            s3 += LOAD(v16f, p + k * 16 + 48) * w[k + 3];
        }
        for (; k < taps; k++) s0 += LOAD(v16f, p + k * 16) * w[k];
        v16f sum = (s0 + s1) + (s2 + s3);
        v4f r0 = __builtin_shufflevector(sum, sum, 0, 1, 2, 3), r1 = __builtin_shufflevector(sum, sum, 4, 5, 6, 7);
        v4f r2 = __builtin_shufflevector(sum, sum, 8, 9, 10, 11), r3 = __builtin_shufflevector(sum, sum, 12, 13, 14, 15);
        STORE(o0 + x * n, r0);
        STORE(o1 + x * n, r1);
        STORE(o2 + x * n, r2);
        STORE(o3 + x * n, r3);
    }
}

/// One 4-float load and store a pixel (for 3 channels the load's fourth float, the next pixel's first or the
/// row's padding, is set to 0). Not vectorised across pixels: the compiler would scatter.
INLINE void interleave_body(const float *row, float *group, long pixels, long n, long slot) {
    float *o = group + slot * 4;
#pragma clang loop vectorize(disable)
    for (long x = 0; x < pixels; x++) {
        v4f v = LOAD(v4f, row + x * n);
        if (n == 3) v[3] = 0;
        STORE(o + x * 16, v);
    }
}

/// Four pixels of RGB bytes from one 16-byte load, as four 4-float pixels (the fourth float 0).
#define SPREAD(p) __builtin_shufflevector(__builtin_convertvector(LOAD(v16u8, p), v16f), (v16f){0},                \
                                          0, 1, 2, 16, 3, 4, 5, 16, 6, 7, 8, 16, 9, 10, 11, 16)

/// Four rows of RGB bytes into a group (see fg_scaling_interleave), the fourth float of each pixel 0: four
/// pixels of each row from one 16-byte load while the loads stay within the rows, their 4-float pixels
/// exchanged into the group's order (a 4 x 4 transpose of them), so each pixel's 64 bytes are written whole.
INLINE void load_group_body(const uint8_t *const *lines, float *group, long pixels) {
    const uint8_t *l0 = lines[0], *l1 = lines[1], *l2 = lines[2], *l3 = lines[3];
    long x = 0;
    for (; x * 3 + 16 <= pixels * 3; x += 4) {
        v16f r0 = SPREAD(l0 + x * 3), r1 = SPREAD(l1 + x * 3), r2 = SPREAD(l2 + x * 3), r3 = SPREAD(l3 + x * 3);
        // t01 = pixels x, x+1 of rows 0 and 1; t23 the same of rows 2 and 3; u01, u23 for pixels x+2, x+3.
        v16f t01 = __builtin_shufflevector(r0, r1, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
        v16f t23 = __builtin_shufflevector(r2, r3, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
        v16f u01 = __builtin_shufflevector(r0, r1, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
        v16f u23 = __builtin_shufflevector(r2, r3, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
        float *o = group + x * 16;
        STORE(o, __builtin_shufflevector(t01, t23, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23));
        STORE(o + 16, __builtin_shufflevector(t01, t23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31));
        STORE(o + 32, __builtin_shufflevector(u01, u23, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23));
        STORE(o + 48, __builtin_shufflevector(u01, u23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31));
    }
#pragma clang loop vectorize(disable)
    for (; x < pixels; x++) {
        for (int j = 0; j < 4; j++) {
            const uint8_t *p = lines[j] + x * 3;
            v4f v = {(float)p[0], (float)p[1], (float)p[2], 0};
            STORE(group + x * 16 + j * 4, v);
        }
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
/// (fewer at the right edge) averaged into one pixel of `row`, `pixel_stride` floats apart.
INLINE void box_body(const uint8_t *base, long bytes_per_row, long y0, long y1, long source_width, long n,
                     long box_x, uint64_t *columns, float *row, long width, long pixel_stride) {
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
            row[bx * pixel_stride + c] = (float)sum * inverse;
        }
    }
}

/// The channel count as a constant in each body, so its multiplies fold and its loop over channels unrolls.
#define ROW_QUAD(g, out, first, count, weights, stride, size, n)                                                    \
    ((n) == 3 ? row_quad_body(g, out, first, count, weights, stride, size, 3)                                      \
              : row_quad_body(g, out, first, count, weights, stride, size, 4))
#define INTERLEAVE(row, group, pixels, n, slot)                                                                    \
    ((n) == 3 ? interleave_body(row, group, pixels, 3, slot) : interleave_body(row, group, pixels, 4, slot))

#define BOX(base, bpr, y0, y1, sw, n, bx, cols, row, width, ps)                                                    \
    ((n) == 3 && (ps) == 16 ? box_body(base, bpr, y0, y1, sw, 3, bx, cols, row, width, 16)                         \
     : (n) == 3             ? box_body(base, bpr, y0, y1, sw, 3, bx, cols, row, width, 3)                          \
                            : box_body(base, bpr, y0, y1, sw, n, bx, cols, row, width, ps))

/// The seven kernels of one width, each a function built with `attributes` (a target, or nothing for the base).
#define KERNELS(name, attributes)                                                                                  \
    attributes static void columns_##name(const float *const *rows, const float *w, long count, float *acc,      \
                                          long length) {                                                          \
        columns_body(rows, w, count, acc, length);                                                                 \
    }                                                                                                              \
    attributes static void row_quad_##name(const float *g, float *const *out, const long *first, const long *count, \
                                           const float *weights, long stride, long size, long n) {                \
        ROW_QUAD(g, out, first, count, weights, stride, size, n);                                                  \
    }                                                                                                              \
    attributes static void interleave_##name(const float *row, float *group, long pixels, long n, long slot) {   \
        INTERLEAVE(row, group, pixels, n, slot);                                                                   \
    }                                                                                                              \
    attributes static void load_##name(const uint8_t *line, float *row, long samples) {                           \
        load_body(line, row, samples);                                                                             \
    }                                                                                                              \
    attributes static void store_##name(const float *acc, uint8_t *dst, long samples) {                           \
        store_body(acc, dst, samples);                                                                             \
    }                                                                                                              \
    attributes static void box_##name(const uint8_t *base, long bpr, long y0, long y1, long sw, long n, long bx,  \
                                      uint64_t *cols, float *row, long width, long ps) {                          \
        BOX(base, bpr, y0, y1, sw, n, bx, cols, row, width, ps);                                                   \
    }                                                                                                              \
    attributes static void load_group_##name(const uint8_t *const *lines, float *group, long pixels) {           \
        load_group_body(lines, group, pixels);                                                                     \
    }

KERNELS(base, )

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
KERNELS(avx2, __attribute__((target("avx2"))))
KERNELS(avx512, __attribute__((target("avx512f,avx512bw"))))

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

void fg_scaling_interleave(const float *row, float *group, long pixels, long channels, long slot) {
    DISPATCH(interleave, row, group, pixels, channels, slot);
}

void fg_scaling_row_quad(const float *group, float *const *out, const long *first, const long *count,
                         const float *weights, long stride, long output_size, long channels) {
    DISPATCH(row_quad, group, out, first, count, weights, stride, output_size, channels);
}

void fg_scaling_load_row(const uint8_t *line, float *row, long samples) { DISPATCH(load, line, row, samples); }

void fg_scaling_store_row(const float *acc, uint8_t *dst, long samples) { DISPATCH(store, acc, dst, samples); }

void fg_scaling_box_row(const uint8_t *base, long bytes_per_row, long y0, long y1, long source_width, long channels,
                        long box_x, uint64_t *columns, float *row, long width, long pixel_stride) {
    DISPATCH(box, base, bytes_per_row, y0, y1, source_width, channels, box_x, columns, row, width, pixel_stride);
}

void fg_scaling_load_group(const uint8_t *const *lines, float *group, long pixels) {
    DISPATCH(load_group, lines, group, pixels);
}
