// JPEG phase 2: scaling choice, the DC-only progressive fast path, pixel output and CMYK -> RGB.
#include "jpeg_internal.h"

#include <string.h>

// True once every component's DC coefficient has all its bits (no successive-approximation
// refinement pending). coef_bits[c][0] is -1 before any DC scan and Al after one.
static int dc_complete(const struct jpeg_decompress_struct *ci) {
    if (!ci->coef_bits) return 0;
    for (int c = 0; c < ci->num_components; c++) {
        if (ci->coef_bits[c][0] != 0) return 0;
    }
    return 1;
}

// Buffered-image mode: consume scans until the DC of every component is final, then show that
// scan. At 1/8 scale libjpeg's IDCT (jpeg_idct_1x1) reads only the DC coefficient, so the pixels
// equal a full 1/8 decode while the AC scans (most of the file) are never entropy-decoded.
static void consume_dc_scans(fg_jpeg *ctx) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    for (;;) {
        int rc = jpeg_consume_input(ci);
        if (rc == JPEG_SUSPENDED) fg_jpeg_fail(ctx, FG_ERR_TRUNCATED, "JPEG data ended inside a scan");
        if (rc == JPEG_REACHED_EOI) break;
        if (rc == JPEG_REACHED_SOS) fg_jpeg_check_scans(ctx);
        if (rc == JPEG_SCAN_COMPLETED && dc_complete(ci)) break;
    }
    jpeg_start_output(ci, ci->input_scan_number);
}

fg_status fg_jpeg_start(fg_jpeg *ctx, int scale_denom, int dc_only_ok, fg_jpeg_output *out) {
    memset(out, 0, sizeof *out);
    if (ctx->state != ST_HEADER) {
        snprintf(ctx->message, sizeof ctx->message, "start needs a parsed header");
        return FG_ERR_USAGE;
    }
    if (setjmp(ctx->jmp)) { ctx->state = ST_FAILED; return ctx->status; }
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    ci->scale_num = 1;
    ci->scale_denom = (unsigned)scale_denom;
    // Block smoothing would make early progressive output depend on which AC scans were read;
    // off in both paths so the DC-only path is pixel-identical to the normal one.
    ci->do_block_smoothing = FALSE;
    switch (ci->jpeg_color_space) {
    case JCS_GRAYSCALE:
        ci->out_color_space = JCS_GRAYSCALE;
        break;
    case JCS_CMYK: case JCS_YCCK:
        // libjpeg converts YCCK to CMYK; CMYK -> RGB is ours (libjpeg has no such conversion).
        ci->out_color_space = JCS_CMYK;
        ctx->cmyk = 1;
        ctx->cmyk_inverted = ci->saw_Adobe_marker ? 1 : 0;
        break;
    default:
        ci->out_color_space = JCS_RGB;
        break;
    }
    ctx->dc_only = dc_only_ok && scale_denom == 8 && ci->progressive_mode;
    ci->buffered_image = ctx->dc_only ? TRUE : FALSE;
    // Normal path: for a progressive file this reads every scan (the progress monitor enforces
    // max_scans meanwhile).
    jpeg_start_decompress(ci);
    if (ctx->dc_only) consume_dc_scans(ctx);
    if (ctx->cmyk) {
        ctx->cmyk_row = (*ci->mem->alloc_sarray)((j_common_ptr)ci, JPOOL_IMAGE,
                                                 ci->output_width * 4, 1);
    }
    out->width = ci->output_width;
    out->height = ci->output_height;
    out->channels = ctx->cmyk ? 3 : ci->output_components;
    out->dc_only = ctx->dc_only;
    ctx->state = ST_STARTED;
    return FG_OK;
}

static void cmyk_to_rgb(const JSAMPLE *src, uint8_t *dst, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++, src += 4, dst += 3) {
        unsigned c = src[0], m = src[1], y = src[2], k = src[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        // Inverted values are "amount of paper left": R = (1 - C)(1 - K).
        dst[0] = (uint8_t)((c * k + 127) / 255);
        dst[1] = (uint8_t)((m * k + 127) / 255);
        dst[2] = (uint8_t)((y * k + 127) / 255);
    }
}

fg_status fg_jpeg_read(fg_jpeg *ctx, uint8_t *dst, size_t stride) {
    if (ctx->state != ST_STARTED) {
        snprintf(ctx->message, sizeof ctx->message, "read needs a started decode");
        return FG_ERR_USAGE;
    }
    if (setjmp(ctx->jmp)) { ctx->state = ST_FAILED; return ctx->status; }
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    while (ci->output_scanline < ci->output_height) {
        uint8_t *row = dst + (size_t)ci->output_scanline * stride;
        if (ctx->cmyk) {
            jpeg_read_scanlines(ci, ctx->cmyk_row, 1);
            cmyk_to_rgb(ctx->cmyk_row[0], row, ci->output_width, ctx->cmyk_inverted);
        } else {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(ci, rows, 1);
        }
    }
    // Abort rather than finish: we have every pixel, and bytes after the last scan (trailing
    // garbage, unread AC scans of the DC-only path) must not turn a good image into an error.
    ctx->scans = ci->input_scan_number;  // jpeg_abort resets the input state
    jpeg_abort_decompress(ci);
    ctx->state = ST_DONE;
    return FG_OK;
}
