// A PNG decoded straight to a box-reduced bitmap: each row libpng hands out is added into column
// sums, and every `factor` rows the `factor`-wide blocks of those sums become one output row.
// Without alpha the column sums are 16-bit per sample and the per-row work is a plain vector add
// (64 rows of 255 is 16,320); with alpha each pixel is weighted by its alpha into 32-bit block sums.
// The full-size image is never held (one source row and one row of sums), so a wallpaper's
// thumbnail costs about its decode. An Adam7 image is read the same way when the whole-stream path
// takes it (png_adam7.c hands out its rows in order); otherwise libpng decodes it into a full-size
// buffer first (fg_png_deinterlace_fits bounds that buffer as the whole stream's). Alpha-weighted (premultiplied) averages, as the resampler's own
// box shrink makes, are stored straight.
#include "png_internal.h"

#include <stdlib.h>
#include <string.h>

// Adds one source row into the block sums, colour weighted by alpha (the last of `ch` channels).
static inline void accumulate(const uint8_t *row, uint32_t width, int ch, int factor, uint32_t *sums) {
    uint32_t x = 0;
    for (uint32_t *s = sums; x < width; s += ch) {
        uint32_t end = x + (uint32_t)factor < width ? x + (uint32_t)factor : width;
        for (; x < end; x++) {
            const uint8_t *p = row + (size_t)x * ch;
            uint32_t a = p[ch - 1];
            for (int c = 0; c < ch - 1; c++) s[c] += p[c] * a;
            s[ch - 1] += a;
        }
    }
}

// Adds one source row of `n` samples into 16-bit column sums (no alpha): the compiler vectorises it.
static inline void accumulate_columns(const uint8_t *restrict row, size_t n, uint16_t *restrict cols) {
    for (size_t i = 0; i < n; i++) cols[i] = (uint16_t)(cols[i] + row[i]);
}

// Writes the averages of `rows` rows of column sums, `factor` columns a block, and clears the sums.
static inline void emit_columns(uint16_t *cols, uint32_t width, uint32_t out_width, int ch, int factor,
                                uint32_t rows, uint8_t *out) {
    for (uint32_t bx = 0; bx < out_width; bx++) {
        const uint32_t x0 = bx * (uint32_t)factor;
        const uint32_t n_cols = width - x0 < (uint32_t)factor ? width - x0 : (uint32_t)factor;
        const uint32_t n = n_cols * rows;
        const uint16_t *block = cols + (size_t)x0 * ch;
        for (int c = 0; c < ch; c++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < n_cols; k++) sum += block[(size_t)k * ch + c];
            out[(size_t)bx * ch + c] = (uint8_t)((sum + n / 2) / n);
        }
    }
    memset(cols, 0, sizeof(uint16_t) * (size_t)width * ch);
}

// Writes the alpha-weighted averages of `rows` accumulated rows as one output row and clears the sums.
static inline void emit(uint32_t *sums, uint32_t width, uint32_t out_width, int ch, int factor, uint32_t rows,
                        uint8_t *out) {
    for (uint32_t bx = 0; bx < out_width; bx++) {
        uint32_t cols = width - bx * (uint32_t)factor < (uint32_t)factor ? width - bx * (uint32_t)factor : (uint32_t)factor;
        uint32_t n = cols * rows;
        uint32_t *s = sums + (size_t)bx * ch;
        uint8_t *o = out + (size_t)bx * ch;
        uint32_t a = s[ch - 1];
        for (int c = 0; c < ch - 1; c++) o[c] = a ? (uint8_t)((s[c] + a / 2) / a) : 0;
        o[ch - 1] = (uint8_t)((a + n / 2) / n);
        memset(s, 0, sizeof(uint32_t) * (size_t)ch);
    }
}

fg_status fg_png_read_reduced(fg_png *ctx, int factor, uint8_t *dst, size_t stride) {
    if (ctx->state != PS_HEADER) return fg_png_fail(ctx, FG_ERR_USAGE, "read needs a parsed header");
    const int adam7 = ctx->file_interlace == PNG_INTERLACE_ADAM7;
    if (factor < 2 || factor > 64) return fg_png_fail(ctx, FG_ERR_USAGE, "reduced read needs a factor of 2 to 64");
    if (adam7 && !fg_png_deinterlace_fits(ctx)) {
        return fg_png_fail(ctx, FG_ERR_TOO_LARGE, "interlaced PNG too large to reduce within the memory bound");
    }
    if (setjmp(png_jmpbuf(ctx->png))) { ctx->state = PS_FAILED; return ctx->status; }
    if (adam7) png_set_interlace_handling(ctx->png);  // for libpng's rows, if the whole stream declines
    png_read_update_info(ctx->png, ctx->info);
    fg_png_check_layout(ctx);
    const int ch = ctx->channels, alpha = ch == 2 || ch == 4;
    const uint32_t width = ctx->width, height = ctx->height;
    const uint32_t out_width = (width + (uint32_t)factor - 1) / (uint32_t)factor;
    // Sums stay below 2^32: 64 x 64 pixels of 255 x 255 is 266 million.
    ctx->pass_row = malloc((size_t)width * ch);
    // Block sums with alpha, column sums (16-bit, one per sample) without.
    ctx->sums = alpha ? calloc((size_t)out_width * ch, sizeof(uint32_t)) : calloc((size_t)width * ch, sizeof(uint16_t));
    if (!ctx->pass_row || !ctx->sums) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "no memory for a reduced PNG row");
    // The whole IDAT stream inflated at once when it fits (png_whole.c), else libpng's rows.
    const int whole = fg_png_whole_begin(ctx);
    const size_t line = (size_t)width * ch;
    if (!whole && adam7) {
        ctx->full = malloc(line * height);
        ctx->rows = malloc(sizeof(png_bytep) * height);
        if (!ctx->full || !ctx->rows) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "no memory for an interlaced PNG");
        for (uint32_t y = 0; y < height; y++) ctx->rows[y] = ctx->full + (size_t)y * line;
        png_read_image(ctx->png, ctx->rows);
    }
    uint32_t rows = 0;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = ctx->pass_row;
        if (whole) {
            row = fg_png_whole_row(ctx, y, ctx->pass_row);
        } else if (ctx->full) {
            row = ctx->full + (size_t)y * line;
        } else {
            png_read_row(ctx->png, ctx->pass_row, NULL);
        }
        // The channel count is fixed per image: a constant per call lets the compiler unroll.
        if (!alpha) {
            accumulate_columns(row, (size_t)width * ch, (uint16_t *)ctx->sums);
        } else if (ch == 2) {
            accumulate(row, width, 2, factor, ctx->sums);
        } else {
            accumulate(row, width, 4, factor, ctx->sums);
        }
        rows++;
        if (rows == (uint32_t)factor || y == height - 1) {
            uint8_t *out = dst + (size_t)(y / (uint32_t)factor) * stride;
            if (!alpha) {
                emit_columns((uint16_t *)ctx->sums, width, out_width, ch, factor, rows, out);
            } else {
                emit(ctx->sums, width, out_width, ch, factor, rows, out);
            }
            rows = 0;
        }
    }
    fg_png_whole_end(ctx);
    ctx->used_whole = whole;
    ctx->state = PS_DONE;
    return FG_OK;
}
