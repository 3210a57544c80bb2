#ifndef FG_SCALING_H
#define FG_SCALING_H
#include <stdint.h>
// The loops of GalleryImaging's resampler (the two filter passes, the box shrink, bytes to floats and back), in
// registers as wide as the processor has: 128-bit everywhere, 256-bit with AVX2, 512-bit with AVX-512 (asked
// when the process runs; the file is built for any x86-64 or other target). Every width does the same float
// operations in the same order, multiplies and adds apart (never fused), so the pixels are the same whichever
// runs.

/// Which width runs: 0 the portable one (128-bit), 1 AVX2, 2 AVX-512; at most what the processor has.
int fg_scaling_level(void);

/// Runs `level` from now on, capped at what the processor has (for tests); -1 goes back to the best.
/// Returns the level that runs.
int fg_scaling_set_level(int level);

/// The vertical filter of one output row: `acc[i] = rows[0][i] * w[0] + rows[1][i] * w[1] + ...` over
/// `count` rows, for `i` in 0 ..< `length`, each sum started at 0 and taken in row order.
void fg_scaling_columns(const float *const *rows, const float *w, long count, float *acc, long length);

/// One row of 3- or 4-float pixels (`channels`) into slot `slot` (0 ..< 4) of a group of four rows laid out
/// pixel by pixel: pixel x of the row becomes the 4 floats at `group + (x * 4 + slot) * 4` (for 3 channels
/// the fourth is 0). `group` holds 16 floats a pixel; for 3 channels `row` needs one float of padding past its
/// last pixel (read, not used).
void fg_scaling_interleave(const float *row, float *group, long pixels, long channels, long slot);

/// The horizontal filter of the four rows of `group` (fg_scaling_interleave) into `out[0]` ... `out[3]`: output
/// pixel `x` of each is the sum of `count[x]` pixels from pixel `first[x]` weighted by `weights[x * stride ...]`,
/// in four partial sums (tap k into sum k % 4, the taps past the last whole four into the first), added as
/// (s0 + s1) + (s2 + s3). Each output pixel is stored as 4 floats at `out[j] + x * channels`: for 3 channels
/// the fourth lands on the next pixel (written next) or, past the last pixel, on one float of padding.
void fg_scaling_row_quad(const float *group, float *const *out, const long *first, const long *count,
                         const float *weights, long stride, long output_size, long channels);

/// Byte samples to floats: `row[i] = line[i]` for `i` in 0 ..< `samples`.
void fg_scaling_load_row(const uint8_t *line, float *row, long samples);

/// Floats to bytes, rounded to nearest (ties to even) and clamped to 0...255.
void fg_scaling_store_row(const float *acc, uint8_t *dst, long samples);

/// One row of the box shrink of an image of bytes without alpha, `channels` a pixel: rows `y0 ..< y1` from
/// `base` (`bytes_per_row` apart), `source_width` pixels each, averaged in blocks of `box_x` pixels (fewer at
/// the right edge) into `width` pixels of floats in `row`, `pixel_stride` floats apart (`channels` for a row of
/// its own, 16 for a slot of a group: see fg_scaling_interleave). `columns` holds `source_width * channels`
/// sums.
void fg_scaling_box_row(const uint8_t *base, long bytes_per_row, long y0, long y1, long source_width, long channels,
                        long box_x, uint64_t *columns, float *row, long width, long pixel_stride);

/// Four rows of RGB bytes, `pixels` each, as floats into the four slots of a group (fg_scaling_interleave),
/// `lines[j]` into slot j (the same line twice for a group of fewer rows).
void fg_scaling_load_group(const uint8_t *const *lines, float *group, long pixels);

#endif
