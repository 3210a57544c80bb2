// A PNG decoded straight to a box-reduced bitmap: each row libpng hands out is added into column
// sums of `factor`-wide blocks, and every `factor` rows the block averages become one output row.
// The full-size image is never held (one source row and one row of sums), so a wallpaper's
// thumbnail costs about its decode. Averages are alpha-weighted (premultiplied) when there is alpha,
// as the resampler's own box shrink does, then stored straight.
#include "png_internal.h"

#include <stdlib.h>
#include <string.h>

// Adds one source row into the block sums (colour weighted by alpha when `alpha`).
static inline void accumulate(const uint8_t *row, uint32_t width, int ch, int alpha, int factor, uint32_t *sums) {
    uint32_t x = 0;
    for (uint32_t *s = sums; x < width; s += ch) {
        uint32_t end = x + (uint32_t)factor < width ? x + (uint32_t)factor : width;
        for (; x < end; x++) {
            const uint8_t *p = row + (size_t)x * ch;
            if (!alpha) {
                for (int c = 0; c < ch; c++) s[c] += p[c];
            } else {
                uint32_t a = p[ch - 1];
                for (int c = 0; c < ch - 1; c++) s[c] += p[c] * a;
                s[ch - 1] += a;
            }
        }
    }
}

// Writes the averages of `rows` accumulated rows as one output row and clears the sums.
static inline void emit(uint32_t *sums, uint32_t width, uint32_t out_width, int ch, int alpha, int factor,
                        uint32_t rows, uint8_t *out) {
    for (uint32_t bx = 0; bx < out_width; bx++) {
        uint32_t cols = width - bx * (uint32_t)factor < (uint32_t)factor ? width - bx * (uint32_t)factor : (uint32_t)factor;
        uint32_t n = cols * rows;
        uint32_t *s = sums + (size_t)bx * ch;
        uint8_t *o = out + (size_t)bx * ch;
        if (!alpha) {
            for (int c = 0; c < ch; c++) o[c] = (uint8_t)((s[c] + n / 2) / n);
        } else {
            uint32_t a = s[ch - 1];
            for (int c = 0; c < ch - 1; c++) o[c] = a ? (uint8_t)((s[c] + a / 2) / a) : 0;
            o[ch - 1] = (uint8_t)((a + n / 2) / n);
        }
        memset(s, 0, sizeof(uint32_t) * (size_t)ch);
    }
}

fg_status fg_png_read_reduced(fg_png *ctx, int factor, uint8_t *dst, size_t stride) {
    if (ctx->state != PS_HEADER) return fg_png_fail(ctx, FG_ERR_USAGE, "read needs a parsed header");
    if (factor < 2 || factor > 64 || png_get_interlace_type(ctx->png, ctx->info) != PNG_INTERLACE_NONE) {
        return fg_png_fail(ctx, FG_ERR_USAGE, "reduced read needs a non-interlaced image and a factor of 2 to 64");
    }
    if (setjmp(png_jmpbuf(ctx->png))) { ctx->state = PS_FAILED; return ctx->status; }
    png_read_update_info(ctx->png, ctx->info);
    fg_png_check_layout(ctx);
    const int ch = ctx->channels, alpha = ch == 2 || ch == 4;
    const uint32_t width = ctx->width, height = ctx->height;
    const uint32_t out_width = (width + (uint32_t)factor - 1) / (uint32_t)factor;
    // Sums stay below 2^32: 64 x 64 pixels of 255 x 255 is 266 million.
    ctx->pass_row = malloc((size_t)width * ch);
    ctx->sums = calloc((size_t)out_width * ch, sizeof(uint32_t));
    if (!ctx->pass_row || !ctx->sums) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "no memory for a reduced PNG row");
    uint32_t rows = 0;
    for (uint32_t y = 0; y < height; y++) {
        png_read_row(ctx->png, ctx->pass_row, NULL);
        // The channel count is fixed per image: a constant per call lets the compiler unroll.
        switch (ch * 2 + alpha) {
        case 2: accumulate(ctx->pass_row, width, 1, 0, factor, ctx->sums); break;
        case 5: accumulate(ctx->pass_row, width, 2, 1, factor, ctx->sums); break;
        case 6: accumulate(ctx->pass_row, width, 3, 0, factor, ctx->sums); break;
        default: accumulate(ctx->pass_row, width, 4, 1, factor, ctx->sums); break;
        }
        rows++;
        if (rows == (uint32_t)factor || y == height - 1) {
            emit(ctx->sums, width, out_width, ch, alpha, factor, rows, dst + (size_t)(y / (uint32_t)factor) * stride);
            rows = 0;
        }
    }
    ctx->state = PS_DONE;
    return FG_OK;
}
