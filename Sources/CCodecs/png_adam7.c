// Adam7 (interlaced) images on the whole-stream path (png_whole.c): the inflated data holds seven
// reduced images, one per pass, each filtered on its own (its first row against zeros, an empty
// pass holding nothing). Row y of the image is put back together from the passes whose rows fall
// on y, so the rows come out in order, each once, as for a non-interlaced image, and the box
// reduction (png_reduce.c) reads them without the full-size image ever being held: the bound is
// the filtered data, as for a non-interlaced image. Each pass row is unfiltered when first needed.
#include "png_internal.h"

#include <string.h>

static const uint32_t x0[7] = {0, 4, 0, 2, 0, 1, 0}, dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint32_t y0[7] = {0, 0, 4, 0, 2, 0, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};

static uint32_t span(uint32_t size, uint32_t start, uint32_t step) {
    return size > start ? (size - start + step - 1) / step : 0;
}

// The size of the filtered passes; with a context, also where each pass lies in it.
static uint64_t layout(fg_png *ctx, uint32_t w, uint32_t h, int bits_per_pixel) {
    uint64_t total = 0;
    for (int p = 0; p < 7; p++) {
        uint32_t cols = span(w, x0[p], dx[p]), rows = span(h, y0[p], dy[p]);
        if (!cols || !rows) cols = rows = 0;  // an empty pass has no rows, not even filter bytes
        uint64_t rowbytes = ((uint64_t)cols * (uint64_t)bits_per_pixel + 7) / 8;
        if (ctx) {
            ctx->a7_cols[p] = cols;
            ctx->a7_rows[p] = rows;
            ctx->a7_rowbytes[p] = (size_t)rowbytes;
            ctx->a7_offset[p] = (size_t)total;
            ctx->a7_done[p] = 0;
        }
        total += (uint64_t)rows * (rowbytes + 1);
    }
    return total;
}

uint64_t fg_png_adam7_layout(fg_png *ctx, uint32_t w, uint32_t h, int bits_per_pixel) {
    return layout(ctx, w, h, bits_per_pixel);
}

int fg_png_adam7_filters_ok(const fg_png *ctx) {
    for (int p = 0; p < 7; p++) {
        const uint8_t *row = ctx->whole + ctx->a7_offset[p];
        for (uint32_t r = 0; r < ctx->a7_rows[p]; r++, row += ctx->a7_rowbytes[p] + 1) {
            if (*row > 4) return 0;
        }
    }
    return 1;
}

// Pass p's row r (after its filter byte), unfiltered: rows of a pass are asked for in order.
static const uint8_t *pass_row(fg_png *ctx, int p, uint32_t r) {
    const size_t rb = ctx->a7_rowbytes[p];
    uint8_t *row = ctx->whole + ctx->a7_offset[p] + (size_t)r * (rb + 1);
    if (r >= ctx->a7_done[p]) {
        const uint8_t *prev = r ? row - rb : ctx->whole_zero;
        fg_png_unfilter(row[0], row + 1, prev, rb, ctx->whole_bpp);
        ctx->a7_done[p] = r + 1;
    }
    return row + 1;
}

// Copies `cols` pixels of n bytes to every `step`-th pixel of `line` from `start`; n is a constant
// at each call below, so the copies compile to plain moves.
static inline __attribute__((always_inline)) void scatter(uint8_t *restrict line, const uint8_t *restrict src,
                                                          uint32_t cols, uint32_t start, uint32_t step, size_t n) {
    uint8_t *out = line + (size_t)start * n;
    for (uint32_t i = 0; i < cols; i++, out += (size_t)step * n, src += n) memcpy(out, src, n);
}

static void scatter_bits(uint8_t *line, const uint8_t *src, uint32_t cols, uint32_t start, uint32_t step, int depth) {
    const unsigned mask = (1u << depth) - 1;
    for (uint32_t i = 0; i < cols; i++) {
        size_t from = (size_t)i * (size_t)depth, to = (size_t)(start + i * step) * (size_t)depth;
        unsigned v = (unsigned)(src[from / 8] >> (8 - depth - (int)(from % 8))) & mask;
        int shift = 8 - depth - (int)(to % 8);
        line[to / 8] = (uint8_t)((line[to / 8] & ~(mask << shift)) | (v << shift));
    }
}

void fg_png_adam7_row(fg_png *ctx, uint32_t y, uint8_t *line) {
    const int depth = ctx->whole_depth, bpp = ctx->whole_bpp;
    const int bits = depth < 8 ? depth : 0;  // sub-byte pixels: grey or palette, one sample
    for (int p = 0; p < 7; p++) {
        if (!ctx->a7_rows[p] || y < y0[p] || (y - y0[p]) % dy[p]) continue;
        const uint8_t *src = pass_row(ctx, p, (y - y0[p]) / dy[p]);
        const uint32_t cols = ctx->a7_cols[p];
        if (bits) { scatter_bits(line, src, cols, x0[p], dx[p], bits); continue; }
        if (dx[p] == 1) { memcpy(line, src, ctx->a7_rowbytes[p]); continue; }
        switch (bpp) {
        case 1: scatter(line, src, cols, x0[p], dx[p], 1); break;
        case 2: scatter(line, src, cols, x0[p], dx[p], 2); break;
        case 3: scatter(line, src, cols, x0[p], dx[p], 3); break;
        case 4: scatter(line, src, cols, x0[p], dx[p], 4); break;
        case 6: scatter(line, src, cols, x0[p], dx[p], 6); break;
        default: scatter(line, src, cols, x0[p], dx[p], 8); break;
        }
    }
}

int fg_png_deinterlace_fits(const fg_png *ctx) {
    if (!ctx || ctx->file_interlace != PNG_INTERLACE_ADAM7) return 0;
    uint64_t bound = FG_PNG_DEINTERLACE_MAX_BYTES;
    if (ctx->max_memory && ctx->max_memory < bound) bound = ctx->max_memory;
    // The filtered passes, and the full-size image libpng's rows need when the whole stream is declined.
    uint64_t filtered = layout(NULL, ctx->width, ctx->height, fg_png_samples(ctx->file_color) * ctx->file_depth);
    uint64_t full = (uint64_t)ctx->width * ctx->height * (uint64_t)ctx->channels;
    return filtered <= bound && full <= bound;
}
