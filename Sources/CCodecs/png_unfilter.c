// Row unfiltering and 8-bit expansion for the whole-stream path (png_whole.c), byte for byte what
// libpng 1.6 computes: its filters (the SSE2 forms for 3- and 4-byte pixels follow libpng's own
// filter_sse2_intrinsics.c), palette expansion with an all-zero palette past PLTE's entries, tRNS
// to alpha compared on the raw samples, 1/2/4-bit grey scaled by 255/85/17, and png_set_scale_16's
// rounding of 16-bit samples.
#include "png_internal.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
// One pixel of n (3 to 8) bytes in the low bytes of a register; n is a constant at every call
// (the callers are always inlined per pixel size), so the copies compile to plain moves.
#define ALWAYS_INLINE static inline __attribute__((always_inline))
ALWAYS_INLINE __m128i load_px(const void *p, int n) { uint64_t t = 0; memcpy(&t, p, (size_t)n); return _mm_cvtsi64_si128((long long)t); }
ALWAYS_INLINE void store_px(void *p, __m128i v, int n) { uint64_t t = (uint64_t)_mm_cvtsi128_si64(v); memcpy(p, &t, (size_t)n); }
static inline __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }
static inline __m128i pick(__m128i c, __m128i t, __m128i e) { return _mm_or_si128(_mm_and_si128(c, t), _mm_andnot_si128(c, e)); }

// One pixel at a time: each depends on the one before it. Paeth works on 16-bit lanes (up to 8 bytes).
ALWAYS_INLINE void sub_simd(uint8_t *row, size_t rb, int bpp) {
    __m128i d = _mm_setzero_si128();
    for (size_t i = 0; i + (size_t)bpp <= rb; i += (size_t)bpp) {
        d = _mm_add_epi8(load_px(row + i, bpp), d);
        store_px(row + i, d, bpp);
    }
}

ALWAYS_INLINE void avg_simd(uint8_t *row, const uint8_t *prev, size_t rb, int bpp) {
    __m128i d = _mm_setzero_si128();
    const __m128i one = _mm_set1_epi8(1);
    for (size_t i = 0; i + (size_t)bpp <= rb; i += (size_t)bpp) {
        __m128i a = d, b = load_px(prev + i, bpp);
        // _mm_avg_epu8 rounds up; the filter rounds down.
        __m128i avg = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        d = _mm_add_epi8(load_px(row + i, bpp), avg);
        store_px(row + i, d, bpp);
    }
}

ALWAYS_INLINE void paeth_simd(uint8_t *row, const uint8_t *prev, size_t rb, int bpp) {
    const __m128i zero = _mm_setzero_si128();
    __m128i b = zero, d = zero;
    for (size_t i = 0; i + (size_t)bpp <= rb; i += (size_t)bpp) {
        __m128i c = b, a = d;
        b = _mm_unpacklo_epi8(load_px(prev + i, bpp), zero);
        d = _mm_unpacklo_epi8(load_px(row + i, bpp), zero);
        __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
        __m128i pc = abs16(_mm_add_epi16(pa, pb));
        pa = abs16(pa);
        pb = abs16(pb);
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        // Ties favour a, then b, then c.
        __m128i nearest = pick(_mm_cmpeq_epi16(smallest, pa), a, pick(_mm_cmpeq_epi16(smallest, pb), b, c));
        d = _mm_add_epi8(d, nearest);
        store_px(row + i, _mm_packus_epi16(d, d), bpp);
    }
}
#endif

static inline uint8_t paeth(int a, int b, int c) {
    int p = b - c, pc = a - c;
    int pa = p < 0 ? -p : p, pb = pc < 0 ? -pc : pc;
    pc = (p + pc) < 0 ? -(p + pc) : p + pc;
    if (pb < pa) { pa = pb; a = b; }
    if (pc < pa) a = c;
    return (uint8_t)a;
}

void fg_png_unfilter(int filter, uint8_t *restrict row, const uint8_t *restrict prev, size_t rb, int bpp) {
    const size_t n = (size_t)bpp;
    switch (filter) {
    case 1:
#if defined(__SSE2__)
        switch (bpp) {
        case 3: sub_simd(row, rb, 3); return;
        case 4: sub_simd(row, rb, 4); return;
        case 6: sub_simd(row, rb, 6); return;
        case 8: sub_simd(row, rb, 8); return;
        default: break;
        }
#endif
        for (size_t i = n; i < rb; i++) row[i] = (uint8_t)(row[i] + row[i - n]);
        return;
    case 2:
        for (size_t i = 0; i < rb; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return;
    case 3:
#if defined(__SSE2__)
        switch (bpp) {
        case 3: avg_simd(row, prev, rb, 3); return;
        case 4: avg_simd(row, prev, rb, 4); return;
        case 6: avg_simd(row, prev, rb, 6); return;
        case 8: avg_simd(row, prev, rb, 8); return;
        default: break;
        }
#endif
        for (size_t i = 0; i < n && i < rb; i++) row[i] = (uint8_t)(row[i] + (prev[i] >> 1));
        for (size_t i = n; i < rb; i++) row[i] = (uint8_t)(row[i] + ((row[i - n] + prev[i]) >> 1));
        return;
    case 4:
#if defined(__SSE2__)
        switch (bpp) {
        case 3: paeth_simd(row, prev, rb, 3); return;
        case 4: paeth_simd(row, prev, rb, 4); return;
        case 6: paeth_simd(row, prev, rb, 6); return;
        case 8: paeth_simd(row, prev, rb, 8); return;
        default: break;
        }
#endif
        for (size_t i = 0; i < n && i < rb; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        for (size_t i = n; i < rb; i++) row[i] = (uint8_t)(row[i] + paeth(row[i - n], prev[i], prev[i - n]));
        return;
    default:
        return;
    }
}

// png_set_scale_16: the high byte corrected by the low one, rounding as libpng does.
static inline uint8_t scale16(const uint8_t *s) {
    int32_t t = s[0];
    t += (((int32_t)s[1] - t + 128) * 65535) >> 24;
    return (uint8_t)t;
}

// The unfiltered row `src` in the output layout (8-bit samples, channels after our transforms).
void fg_png_expand_row(const fg_png *ctx, const uint8_t *restrict src, uint8_t *restrict out) {
    const uint32_t w = ctx->width;
    const int depth = ctx->whole_depth, trns = ctx->whole_has_trns;
    const png_color_16 t = ctx->whole_trans;
    switch (ctx->whole_color) {
    case PNG_COLOR_TYPE_PALETTE: {
        const uint8_t *lut = ctx->whole_lut;  // 256 x RGBA
        const int ch = trns ? 4 : 3, per_byte = 8 / depth, mask = (1 << depth) - 1;
        for (uint32_t x = 0; x < w; x++) {
            unsigned i = depth == 8 ? src[x]
                : (unsigned)(src[x / (uint32_t)per_byte] >> (8 - depth - (int)(x % (uint32_t)per_byte) * depth)) & (unsigned)mask;
            memcpy(out + (size_t)x * ch, lut + i * 4, (size_t)ch);
        }
        return;
    }
    case PNG_COLOR_TYPE_GRAY:
        if (depth < 8) {
            const int per_byte = 8 / depth, mask = (1 << depth) - 1, scale = depth == 1 ? 0xff : depth == 2 ? 0x55 : 0x11;
            const unsigned key = (unsigned)(t.gray & mask) * (unsigned)scale;
            for (uint32_t x = 0; x < w; x++) {
                unsigned v = (unsigned)((src[x / (uint32_t)per_byte] >> (8 - depth - (int)(x % (uint32_t)per_byte) * depth)) & mask) * (unsigned)scale;
                if (trns) { out[2 * x] = (uint8_t)v; out[2 * x + 1] = v == key ? 0 : 255; }
                else out[x] = (uint8_t)v;
            }
        } else if (depth == 8) {  // only with tRNS (otherwise the row is used as it is)
            const uint8_t key = (uint8_t)(t.gray & 0xff);
            for (uint32_t x = 0; x < w; x++) { out[2 * x] = src[x]; out[2 * x + 1] = src[x] == key ? 0 : 255; }
        } else {
            for (uint32_t x = 0; x < w; x++) {
                const uint8_t *s = src + 2 * (size_t)x;
                if (trns) {
                    out[2 * x] = scale16(s);
                    out[2 * x + 1] = (s[0] == (t.gray >> 8 & 0xff) && s[1] == (t.gray & 0xff)) ? 0 : 255;
                } else {
                    out[x] = scale16(s);
                }
            }
        }
        return;
    case PNG_COLOR_TYPE_RGB:
        if (depth == 8) {  // only with tRNS
            const uint8_t r = (uint8_t)t.red, g = (uint8_t)t.green, b = (uint8_t)t.blue;
            for (uint32_t x = 0; x < w; x++) {
                const uint8_t *s = src + 3 * (size_t)x;
                uint8_t *o = out + 4 * (size_t)x;
                o[0] = s[0]; o[1] = s[1]; o[2] = s[2];
                o[3] = (s[0] == r && s[1] == g && s[2] == b) ? 0 : 255;
            }
        } else {
            const int ch = trns ? 4 : 3;
            for (uint32_t x = 0; x < w; x++) {
                const uint8_t *s = src + 6 * (size_t)x;
                uint8_t *o = out + (size_t)ch * x;
                o[0] = scale16(s); o[1] = scale16(s + 2); o[2] = scale16(s + 4);
                if (trns) {
                    o[3] = (s[0] == (t.red >> 8 & 0xff) && s[1] == (t.red & 0xff) && s[2] == (t.green >> 8 & 0xff) &&
                            s[3] == (t.green & 0xff) && s[4] == (t.blue >> 8 & 0xff) && s[5] == (t.blue & 0xff)) ? 0 : 255;
                }
            }
        }
        return;
    default: {  // grey+alpha or RGBA, 16-bit (8-bit ones are used as they are)
        const size_t samples = (size_t)w * (ctx->whole_color == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 4);
        for (size_t i = 0; i < samples; i++) out[i] = scale16(src + 2 * i);
        return;
    }
    }
}
