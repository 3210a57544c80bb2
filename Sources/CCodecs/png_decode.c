// PNG decoding through libpng's full API (the simplified API cannot stop after early Adam7 passes).
// Every entry point sets setjmp(png_jmpbuf(...)) before calling libpng; all state is in the context.
#include "png_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_error(png_structp png, png_const_charp msg) {
    fg_png *ctx = png_get_error_ptr(png);
    if (ctx->status == FG_OK) {
        int over_limit = strstr(ctx->last_warning, "exceeds user limit") != NULL ||
                         strstr(ctx->last_warning, "too large") != NULL;
        ctx->status = over_limit ? FG_ERR_TOO_LARGE : FG_ERR_CORRUPT;
    }
    if (ctx->last_warning[0] && strcmp(msg, "Invalid IHDR data") == 0) {
        snprintf(ctx->message, sizeof ctx->message, "%s (%s)", msg, ctx->last_warning);
    } else {
        snprintf(ctx->message, sizeof ctx->message, "%s", msg);
    }
    png_longjmp(png, 1);
}

// Damaged ancillary chunks (bad CRC, duplicate iCCP, ...) only warn: libpng drops them and decodes.
static void on_warning(png_structp png, png_const_charp msg) {
    fg_png *ctx = png_get_error_ptr(png);
    snprintf(ctx->last_warning, sizeof ctx->last_warning, "%s", msg);
}

static void read_data(png_structp png, png_bytep out, size_t n) {
    fg_png *ctx = png_get_io_ptr(png);
    if (ctx->len - ctx->pos < n) {
        ctx->status = FG_ERR_TRUNCATED;
        png_error(png, "PNG data ends early");
    }
    memcpy(out, ctx->data + ctx->pos, n);
    ctx->pos += n;
}

fg_png *fg_png_create(void) {
    fg_png *ctx = calloc(1, sizeof(fg_png));
    if (ctx) ctx->allow_whole = 1;
    return ctx;
}

void fg_png_destroy(fg_png *ctx) {
    if (!ctx) return;
    if (ctx->png) png_destroy_read_struct(&ctx->png, ctx->info ? &ctx->info : NULL, NULL);
    free(ctx->rows);
    free(ctx->pass_row);
    free(ctx->sums);
    free(ctx->full);
    fg_png_whole_end(ctx);
    free(ctx);
}

const char *fg_png_message(const fg_png *ctx) { return ctx ? ctx->message : "no context"; }

fg_status fg_png_fail(fg_png *ctx, fg_status status, const char *text) {
    ctx->status = status;
    ctx->state = PS_FAILED;
    snprintf(ctx->message, sizeof ctx->message, "%s", text);
    return status;
}

// Channels after our transforms: palette -> RGB, tRNS -> alpha, 16 -> 8 bits, low-bit grey -> 8.
static int output_channels(int color_type, int has_trns) {
    int base;
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY: base = 1; break;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    default: base = 3; break;  // RGB and palette
    }
    return has_trns ? base + 1 : base;
}

// Walks the chunk headers before the first IDAT (the ones png_read_info reads) and refuses a chunk
// whose declared length runs past the end of the data. libpng allocates an ancillary chunk's
// declared length before reading it (found by fuzzing: a 687-byte PNG whose zTXt claims 828 MB made
// libpng 1.6.39 malloc 828 MB, and a length up to 2 GB is accepted), so the check must come first.
// Such a file is truncated at best; IDAT itself is streamed and checked as it is read.
static int chunks_fit(const uint8_t *data, size_t len) {
    size_t pos = 8;  // after the signature (checked by libpng)
    while (pos + 8 <= len) {
        uint32_t n = (uint32_t)data[pos] << 24 | (uint32_t)data[pos + 1] << 16 |
                     (uint32_t)data[pos + 2] << 8 | data[pos + 3];
        if (memcmp(data + pos + 4, "IDAT", 4) == 0) return 1;
        if ((uint64_t)n + 12 > len - pos) return 0;  // data + CRC beyond the end
        pos += (size_t)n + 12;
    }
    return 1;  // ends before any IDAT: libpng reports it as truncated without allocating
}

// The colour chunks libpng kept (it drops, with a warning, profiles that do not fit the colour type).
// libpng 1.6 fills gAMA and cHRM from an sRGB chunk too, so the order of the checks matters.
static void read_color(fg_png *ctx, fg_png_header *out) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    int intent = 0;
    if (png_get_iCCP(ctx->png, ctx->info, &name, &compression, &profile, &length) && profile && length) {
        out->icc = profile;
        out->icc_length = length;
    } else if (png_get_sRGB(ctx->png, ctx->info, &intent)) {
        out->srgb = 1;
    } else if (png_get_gAMA(ctx->png, ctx->info, &out->gamma)) {
        double *c = out->chrm;
        out->has_chrm = png_get_cHRM(ctx->png, ctx->info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) != 0;
    }
}

fg_status fg_png_read_header(fg_png *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                             fg_png_header *out) {
    memset(out, 0, sizeof *out);
    if (ctx->state != PS_NEW) return fg_png_fail(ctx, FG_ERR_USAGE, "read_header called twice");
    ctx->data = data;
    ctx->len = len;
    ctx->max_memory = limits->max_memory;
    ctx->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, on_error, on_warning);
    if (!ctx->png) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "png_create_read_struct failed");
    ctx->info = png_create_info_struct(ctx->png);
    if (!ctx->info) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "png_create_info_struct failed");
    if (setjmp(png_jmpbuf(ctx->png))) { ctx->state = PS_FAILED; return ctx->status; }

    // libpng refuses IHDR dimensions over these before allocating anything; our pixel guard below
    // then bounds the product.
    uint64_t cap = limits->max_pixels && limits->max_pixels < 0x7fffffffu ? limits->max_pixels : 0x7fffffffu;
    png_set_user_limits(ctx->png, (png_uint_32)cap, (png_uint_32)cap);
    png_set_read_fn(ctx->png, ctx, read_data);
#if defined(PNG_SET_OPTION_SUPPORTED) && defined(PNG_IGNORE_ADLER32)
    // The zlib stream's Adler-32 over the inflated rows is not checked (libvips does not check it by
    // default either; it was ~5% of a PNG thumbnail's time). Every chunk's CRC-32, which covers the
    // same compressed bytes, still is: a damaged IDAT is still an error, and a stream whose data
    // inflates wrongly still fails in zlib or comes out short.
    png_set_option(ctx->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    if (!chunks_fit(data, len)) return fg_png_fail(ctx, FG_ERR_TRUNCATED, "a PNG chunk runs past the end of the data");
    // Explicit, not left to the build's default: the most one ancillary chunk (or its decompressed
    // text or ICC profile) may take.
    png_set_chunk_malloc_max(ctx->png, 8u << 20);
    png_read_info(ctx->png, ctx->info);

    png_uint_32 w, h;
    int depth, color, interlace;
    png_get_IHDR(ctx->png, ctx->info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    out->width = w;
    out->height = h;
    out->bit_depth = depth;
    out->color_type = color;
    out->interlaced = interlace == PNG_INTERLACE_ADAM7;
    ctx->file_depth = depth;
    ctx->file_color = color;
    ctx->file_interlace = interlace;
    fg_png_whole_prepare(ctx);
    uint64_t pixels = (uint64_t)w * h;
    if (limits->max_pixels && pixels > limits->max_pixels) {
        char text[128];
        snprintf(text, sizeof text, "%ux%u is over the limit of %llu pixels", w, h,
                 (unsigned long long)limits->max_pixels);
        return fg_png_fail(ctx, FG_ERR_TOO_LARGE, text);
    }
    int has_trns = png_get_valid(ctx->png, ctx->info, PNG_INFO_tRNS) != 0;
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(ctx->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(ctx->png);
    if (has_trns) png_set_tRNS_to_alpha(ctx->png);
    if (depth == 16) png_set_scale_16(ctx->png);
    out->channels = output_channels(color, has_trns);

    png_uint_32 exif_len = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(ctx->png, ctx->info, &exif_len, &exif) && exif) {
        out->exif = exif;
        out->exif_length = exif_len;
    }
    read_color(ctx, out);
    ctx->width = w;
    ctx->height = h;
    ctx->channels = out->channels;
    ctx->state = PS_HEADER;
    return FG_OK;
}

// After png_read_update_info the row layout must be exactly what Swift allocated for.
void fg_png_check_layout(fg_png *ctx) {
    size_t expected = (size_t)ctx->width * ctx->channels;
    if (png_get_rowbytes(ctx->png, ctx->info) != expected || png_get_bit_depth(ctx->png, ctx->info) != 8) {
        ctx->status = FG_ERR_UNSUPPORTED;
        png_error(ctx->png, "unexpected row layout after expansion");
    }
}

fg_status fg_png_read(fg_png *ctx, uint8_t *dst, size_t stride) {
    if (ctx->state != PS_HEADER) return fg_png_fail(ctx, FG_ERR_USAGE, "read needs a parsed header");
    if (setjmp(png_jmpbuf(ctx->png))) { ctx->state = PS_FAILED; return ctx->status; }
    png_set_interlace_handling(ctx->png);
    png_read_update_info(ctx->png, ctx->info);
    fg_png_check_layout(ctx);
    if (fg_png_whole_begin(ctx)) {
        for (uint32_t y = 0; y < ctx->height; y++) {
            uint8_t *line = dst + (size_t)y * stride;
            const uint8_t *row = fg_png_whole_row(ctx, y, line);
            if (row != line) memcpy(line, row, (size_t)ctx->width * ctx->channels);
        }
        fg_png_whole_end(ctx);
        ctx->used_whole = 1;
        ctx->state = PS_DONE;
        return FG_OK;
    }
    ctx->rows = malloc(sizeof(png_bytep) * ctx->height);
    if (!ctx->rows) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "no memory for row pointers");
    for (uint32_t y = 0; y < ctx->height; y++) ctx->rows[y] = dst + (size_t)y * stride;
    png_read_image(ctx->png, ctx->rows);
    // No png_read_end: chunks after the image data cannot change the pixels.
    ctx->state = PS_DONE;
    return FG_OK;
}

fg_status fg_png_read_subsampled(fg_png *ctx, int stride_px, uint8_t *dst, size_t stride) {
    if (ctx->state != PS_HEADER) return fg_png_fail(ctx, FG_ERR_USAGE, "read needs a parsed header");
    int passes = stride_px == 8 ? 1 : stride_px == 4 ? 3 : stride_px == 2 ? 5 : 0;
    if (!passes || !png_get_interlace_type(ctx->png, ctx->info)) {
        return fg_png_fail(ctx, FG_ERR_USAGE, "subsampled read needs an Adam7 image and stride 2, 4 or 8");
    }
    if (setjmp(png_jmpbuf(ctx->png))) { ctx->state = PS_FAILED; return ctx->status; }
    // No png_set_interlace_handling: png_read_row then hands out each pass's rows at the pass's
    // reduced width, in file order, skipping empty passes just as the loop below does.
    png_read_update_info(ctx->png, ctx->info);
    fg_png_check_layout(ctx);
    ctx->pass_row = malloc((size_t)ctx->width * ctx->channels);
    if (!ctx->pass_row) return fg_png_fail(ctx, FG_ERR_NO_MEMORY, "no memory for a pass row");
    const int ch = ctx->channels;
    for (int pass = 0; pass < passes; pass++) {
        png_uint_32 cols = PNG_PASS_COLS(ctx->width, pass), rows = PNG_PASS_ROWS(ctx->height, pass);
        if (cols == 0 || rows == 0) continue;
        for (png_uint_32 r = 0; r < rows; r++) {
            png_read_row(ctx->png, ctx->pass_row, NULL);
            // Every row and column of passes 1..passes lies on the stride grid.
            size_t gy = PNG_ROW_FROM_PASS_ROW(r, pass) / (png_uint_32)stride_px;
            uint8_t *line = dst + gy * stride;
            for (png_uint_32 i = 0; i < cols; i++) {
                size_t gx = PNG_COL_FROM_PASS_COL(i, pass) / (png_uint_32)stride_px;
                memcpy(line + gx * ch, ctx->pass_row + (size_t)i * ch, (size_t)ch);
            }
        }
    }
    ctx->state = PS_DONE;
    return FG_OK;
}
