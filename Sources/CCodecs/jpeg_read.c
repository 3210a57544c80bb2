// JPEG phase 2: scaling choice, the DC-only progressive fast path, pixel output and CMYK -> RGB.
#include "jpeg_internal.h"

#include <stdio.h>
#include <string.h>

// True once every coefficient the 1/8 output depends on has all its bits. coef_bits[c][k] (k in
// zigzag order) is -1 before any scan touched it and the scan's Al after; 0 means final.
// A component decoded with a 1x1 IDCT (jpeg_idct_1x1) reads only its DC coefficient. libjpeg-turbo
// gives subsampled chroma a larger IDCT instead of upsampling (4:2:0 chroma at 1/8 gets 2x2, which
// reads AC coefficients), so such components must wait for all their scans.
static int output_coefficients_complete(const struct jpeg_decompress_struct *ci) {
    if (!ci->coef_bits) return 0;
    for (int c = 0; c < ci->num_components; c++) {
        const int *bits = ci->coef_bits[c];
        int needed = ci->comp_info[c].DCT_scaled_size == 1 ? 1 : DCTSIZE2;
        for (int k = 0; k < needed; k++) {
            if (bits[k] != 0) return 0;
        }
    }
    return 1;
}

// Buffered-image mode: consume scans until every coefficient the 1/8 output reads is final, then
// output that scan. The pixels equal a full 1/8 decode, while the remaining scans (for greyscale
// and 4:4:4 files every AC scan, for 4:2:0 the luma AC scans) are never entropy-decoded.
static void consume_dc_scans(fg_jpeg *ctx) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    for (;;) {
        int rc = jpeg_consume_input(ci);
        if (rc == JPEG_SUSPENDED) fg_jpeg_fail(ctx, FG_ERR_TRUNCATED, "JPEG data ended inside a scan");
        if (rc == JPEG_REACHED_EOI) break;
        if (rc == JPEG_REACHED_SOS) fg_jpeg_check_scans(ctx);
        if (rc == JPEG_SCAN_COMPLETED && output_coefficients_complete(ci)) break;
    }
    jpeg_start_output(ci, ci->input_scan_number);
}

// Where the decoder stood when the data ran out decides between a missing EOI and a cut image.
// Any cut inside a scan's data already failed in on_emit_message: the entropy decoder needed bits
// that were not there. What is left: a sequential scan must have run out in its last iMCU row (every
// block codes at least an EOB, so earlier would have starved it), every component must have had a
// scan, and a progressive file must have every coefficient final, since a cut between two scans
// leaves later refinements unread. (A progressive AC scan may end in an EOB run over many rows, so
// its last bytes can come long before its last row: no row test there.) Arithmetic coding pads
// without telling, so a file using it that ran out counts as cut.
static int input_complete(const fg_jpeg *ctx) {
    const struct jpeg_decompress_struct *ci = &ctx->cinfo;
    if (ctx->starved || ci->arith_code) return 0;
    for (int c = 0; c < ci->num_components; c++) {
        if (!ci->comp_info[c].quant_table) return 0;  // latched by the component's first scan
    }
    if (!ci->progressive_mode) return ctx->eof_row >= (long)ci->total_iMCU_rows - 1;
    if (ctx->dc_planes) return fg_jpeg_dc_complete(ci);
    if (ctx->dc_only) return output_coefficients_complete(ci);
    for (int c = 0; c < ci->num_components; c++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (ci->coef_bits[c][k] != 0) return 0;
        }
    }
    return 1;
}

void fg_jpeg_check_complete(fg_jpeg *ctx) {
    if (!ctx->eof) return;
    int complete = input_complete(ctx);
    if (!complete && !ctx->limits.allow_truncated) {
        char text[128];
        snprintf(text, sizeof text, "JPEG data ends inside its scans (iMCU row %ld of %u)", ctx->eof_row,
                 ctx->cinfo.total_iMCU_rows);
        fg_jpeg_fail(ctx, FG_ERR_TRUNCATED, text);
    }
    ctx->missing_eoi = complete;
}

fg_status fg_jpeg_start(fg_jpeg *ctx, int scale_num, int scale_denom, int dc_only_ok, fg_jpeg_output *out) {
    memset(out, 0, sizeof *out);
    if (ctx->state != ST_HEADER) {
        snprintf(ctx->message, sizeof ctx->message, "start needs a parsed header");
        return FG_ERR_USAGE;
    }
    if (setjmp(ctx->jmp)) { ctx->state = ST_FAILED; return ctx->status; }
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    ci->scale_num = (unsigned)scale_num;
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
        ctx->cmyk = !ctx->keep_cmyk;
        ctx->cmyk_inverted = ci->saw_Adobe_marker ? 1 : 0;
        break;
    default:
        ci->out_color_space = JCS_RGB;
        break;
    }
    ctx->dc_only = dc_only_ok && scale_num == 1 && scale_denom == 8 && ci->progressive_mode;
    // Subsampled chroma would need its AC scans in libjpeg's 1/8 output: the DC planes instead.
    ctx->dc_planes = ctx->dc_only && fg_jpeg_dc_wanted(ci, scale_denom);
    ci->buffered_image = ctx->dc_only ? TRUE : FALSE;
    // Normal path: for a progressive file this reads every scan (the progress monitor enforces
    // max_scans meanwhile).
    jpeg_start_decompress(ci);
    if (ctx->dc_planes) fg_jpeg_dc_consume(ctx);
    else if (ctx->dc_only) consume_dc_scans(ctx);
    // Multi-scan files have read all their input by now: a cut one fails before any IDCT work.
    if (jpeg_input_complete(ci)) fg_jpeg_check_complete(ctx);
    if (ctx->cmyk) {
        ctx->cmyk_row = (*ci->mem->alloc_sarray)((j_common_ptr)ci, JPOOL_IMAGE,
                                                 ci->output_width * 4, 1);
    }
    out->width = ci->output_width;
    out->height = ci->output_height;
    out->channels = ctx->cmyk ? 3 : ci->output_components;
    out->dc_only = ctx->dc_only;
    out->cmyk_inverted = ci->out_color_space == JCS_CMYK && ci->saw_Adobe_marker ? 1 : 0;
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
    if (ctx->dc_planes) fg_jpeg_dc_render(ctx, dst, stride);
    while (!ctx->dc_planes && ci->output_scanline < ci->output_height) {
        uint8_t *row = dst + (size_t)ci->output_scanline * stride;
        if (ctx->cmyk) {
            jpeg_read_scanlines(ci, ctx->cmyk_row, 1);
            cmyk_to_rgb(ctx->cmyk_row[0], row, ci->output_width, ctx->cmyk_inverted);
        } else {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(ci, rows, 1);
        }
    }
    fg_jpeg_check_complete(ctx);
    // Abort rather than finish: we have every pixel, and bytes after the last scan (trailing
    // garbage, unread AC scans of the DC-only path) must not turn a good image into an error.
    ctx->scans = ci->input_scan_number;  // jpeg_abort resets the input state
    jpeg_abort_decompress(ci);
    ctx->state = ST_DONE;
    return FG_OK;
}
