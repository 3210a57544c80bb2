#ifndef FG_PNG_INTERNAL_H
#define FG_PNG_INTERNAL_H
// The PNG decode context, shared by png_decode.c (header, full and Adam7-pass reads) and
// png_reduce.c (the box-reduced read). Not part of the module's public header.
#include "ccodecs.h"

#include <png.h>
#include <stdio.h>

enum { PS_NEW, PS_HEADER, PS_DONE, PS_FAILED };

struct fg_png {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t len, pos;
    fg_status status;          // set before png_error when we know better than "corrupt"
    char message[256];
    char last_warning[128];    // libpng explains a bad IHDR in warnings, then errors generically
    int state;
    uint32_t width, height;
    int channels;
    png_bytep *rows;           // row pointers of the full decode
    png_bytep pass_row;        // one reduced-width row of an Adam7 pass, or one source row
    uint32_t *sums;            // the reduced read's sums: 32-bit block sums with alpha, 16-bit column sums without (png_reduce.c)
    int file_depth, file_color, file_interlace;  // IHDR as in the file (png_read_update_info rewrites info's)
    uint64_t max_memory;       // fg_limits.max_memory: also bounds the whole-stream path's buffer

    // The whole-stream path (png_whole.c): the inflated, filtered image and what expanding it needs.
    int allow_whole;           // 1 unless fg_png_set_whole_stream(ctx, 0)
    int used_whole;            // the last read went through it
    uint8_t *whole;            // height x (1 + rowbytes): each row's filter byte, then its data (mmap'd)
    size_t whole_size;         // the bytes mapped at `whole`
    size_t whole_released;     // the leading bytes of `whole` already given back (rows read; not Adam7)
    uint64_t whole_budget;     // the bytes of `whole` taken from the process-wide budget (0: none)
    uint8_t *whole_zero;       // rowbytes zero bytes: the row "above" the first
    size_t whole_rowbytes;
    int whole_bpp, whole_depth, whole_color, whole_has_trns;
    png_color_16 whole_trans;  // tRNS of grey and RGB images
    uint8_t whole_lut[256 * 4];  // palette images: RGBA per index (zero past PLTE, alpha from tRNS)
    // Adam7 on the whole-stream path (png_adam7.c): each pass's place in `whole`, its size and how
    // many of its rows are unfiltered; one full-width row put together from the passes.
    size_t a7_offset[7], a7_rowbytes[7];
    uint32_t a7_cols[7], a7_rows[7], a7_done[7];
    uint8_t *whole_line;
    uint8_t *full;             // the reduced read of an Adam7 image through libpng: the full-size image
};

/// Samples per pixel of a PNG colour type as stored in the file (palette: one index).
static inline int fg_png_samples(int color_type) {
    return color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_PALETTE ? 1
         : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : color_type == PNG_COLOR_TYPE_RGB ? 3 : 4;
}

/// Records a failure (status and message), marks the context failed and returns the status.
fg_status fg_png_fail(fg_png *ctx, fg_status status, const char *text);
/// After png_read_update_info: the row layout must be width * channels bytes of 8 bits (png_error if not).
void fg_png_check_layout(fg_png *ctx);

/// The whole filtered image above this many bytes (height x (1 + rowbytes)) is read through libpng's
/// streaming rows (zlib inflating a band at a time) instead of inflated in one piece: 64 MiB holds a
/// 21 MP 8-bit RGB image (a 24 MP one is 69 MB) or a 16 MP RGBA one. Above it the whole stream cost its
/// size twice at the peak, the filtered image and the mapped original together (a 16-bit 20 MP PNG:
/// 117 + 31 MB, the job's peak); libpng's rows hold the original and the decoded bitmap only.
/// fg_limits.max_memory lowers it.
#define FG_PNG_WHOLE_MAX_BYTES (64ull << 20)
/// An Adam7 image is box-reduced row by row (fg_png_deinterlace_fits) when its filtered passes and its
/// full-size 8-bit image each fit 128 MiB (and max_memory); over it, it is read from its early passes.
/// Its own bound, not the whole stream's: it decides the pixels, the whole stream only the speed.
#define FG_PNG_DEINTERLACE_MAX_BYTES (128ull << 20)
/// What the whole-stream buffers of every decode in the process may hold together. A decode whose
/// buffer does not fit beside the others waits for them to finish (its thread blocks; decodes run on
/// worker threads). The same 64 MiB as one image's bound: two workers never hold two large images'
/// filtered data at once (which put a PNG-heavy job's peak at 255-390 MB); each waits a fraction of a
/// second for the other instead, and the inflate stays libdeflate's.
#define FG_PNG_WHOLE_BUDGET_BYTES (64ull << 20)
/// Inflates all of IDAT at once and checks it; 1 when the rows can then be read with
/// fg_png_whole_row, 0 when the caller must read through libpng (nothing was written anywhere).
int fg_png_whole_begin(fg_png *ctx);
/// Keeps the palette and tRNS for it; called by fg_png_read_header after png_read_info.
void fg_png_whole_prepare(fg_png *ctx);
/// Row y (in order, each once) in the output layout: `out` (width * channels bytes) or the row itself.
const uint8_t *fg_png_whole_row(fg_png *ctx, uint32_t y, uint8_t *out);
void fg_png_whole_end(fg_png *ctx);
/// Adam7: sets out where each pass lies in the filtered data and returns its total size.
uint64_t fg_png_adam7_layout(fg_png *ctx, uint32_t w, uint32_t h, int bits_per_pixel);
/// Adam7: 1 when every row of every pass has a known filter type (0-4).
int fg_png_adam7_filters_ok(const fg_png *ctx);
/// Adam7: writes row y (in order, each once) in the file's layout (rowbytes) into `line`.
void fg_png_adam7_row(fg_png *ctx, uint32_t y, uint8_t *line);
/// Undoes PNG filter `filter` (0-4) on one row in place; `prev` is the row above (zeros for the first).
void fg_png_unfilter(int filter, uint8_t *row, const uint8_t *prev, size_t rb, int bpp);
/// Expands one unfiltered row to 8-bit samples in the output layout.
void fg_png_expand_row(const fg_png *ctx, const uint8_t *src, uint8_t *out);

#endif
