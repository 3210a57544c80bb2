// JPEG decoding through libjpeg(-turbo). Each public entry point sets its own setjmp before touching
// libjpeg, and all state that must survive a longjmp lives in the heap context, not in locals.
#include "ccodecs.h"

#include "jpeg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jerror.h>

// MARK: error plumbing

static fg_jpeg *ctx_of(j_common_ptr c) { return (fg_jpeg *)c->client_data; }

_Noreturn void fg_jpeg_fail(fg_jpeg *ctx, fg_status status, const char *message) {
    ctx->status = status;
    snprintf(ctx->message, sizeof ctx->message, "%s", message);
    longjmp(ctx->jmp, 1);
}

static fg_status classify(int code) {
    switch (code) {
    case JERR_BAD_PRECISION: case JERR_SOF_UNSUPPORTED: case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED: case JERR_CONVERSION_NOTIMPL:
        return FG_ERR_UNSUPPORTED;
    case JERR_IMAGE_TOO_BIG: case JERR_WIDTH_OVERFLOW: case JERR_NO_BACKING_STORE:
        return FG_ERR_TOO_LARGE;  // NO_BACKING_STORE: coefficient buffers exceed max_memory_to_use
    case JERR_OUT_OF_MEMORY:
        return FG_ERR_NO_MEMORY;
    case JERR_INPUT_EMPTY: case JERR_INPUT_EOF:
        return FG_ERR_TRUNCATED;
    default:
        return FG_ERR_CORRUPT;
    }
}

static void on_error_exit(j_common_ptr c) {
    fg_jpeg *ctx = ctx_of(c);
    char text[JMSG_LENGTH_MAX];
    (*c->err->format_message)(c, text);
    fg_jpeg_fail(ctx, classify(c->err->msg_code), text);
}

// libjpeg only warns when the data ends early (it feeds a fake EOI and pads with zero bits). A
// thumbnail of half a photo is worse than an error, but a photo whose only defect is a missing EOI
// marker is whole: the warning alone cannot tell them apart. Inside the header it is always a cut.
// After it, the first end-of-data is recorded, and the image is cut once the entropy decoder needs
// bits that are not there (JWRN_HIT_MARKER after it); fg_jpeg_check_complete decides the rest once
// the scans are read. The other corrupt-data warnings decode as libjpeg intends.
static void on_emit_message(j_common_ptr c, int level) {
    if (level >= 0) return;  // trace messages
    fg_jpeg *ctx = ctx_of(c);
    ctx->warnings++;
    c->err->num_warnings++;  // as libjpeg's default emit_message does
    int code = c->err->msg_code, cut = 0;
    if (code == JWRN_JPEG_EOF) {
        if (ctx->state == ST_NEW) {
            cut = 1;
        } else if (!ctx->eof) {
            ctx->eof = 1;
            ctx->eof_row = (long)ctx->cinfo.input_iMCU_row;
        }
    } else if (code == JWRN_HIT_MARKER && ctx->eof) {
        ctx->starved = 1;
        cut = 1;
    }
    if (!cut || ctx->limits.allow_truncated) return;
    char text[JMSG_LENGTH_MAX];
    (*c->err->format_message)(c, text);
    fg_jpeg_fail(ctx, FG_ERR_TRUNCATED, text);
}

static void on_output_message(j_common_ptr c) { (void)c; }  // never print to stderr

void fg_jpeg_check_scans(fg_jpeg *ctx) {
    uint32_t limit = ctx->limits.max_scans;
    if (limit && ctx->cinfo.input_scan_number > 0 && (uint32_t)ctx->cinfo.input_scan_number > limit) {
        char text[96];
        snprintf(text, sizeof text, "more than %u progressive scans", limit);
        fg_jpeg_fail(ctx, FG_ERR_TOO_LARGE, text);
    }
}

// Called by libjpeg before each unit of input work, including inside jpeg_start_decompress, which
// reads every scan of a progressive file; this is where the scan limit bites on the normal path.
static void on_progress(j_common_ptr c) { fg_jpeg_check_scans(ctx_of(c)); }

// MARK: lifecycle

fg_jpeg *fg_jpeg_create(void) {
    fg_jpeg *ctx = calloc(1, sizeof *ctx);
    return ctx;
}

void fg_jpeg_destroy(fg_jpeg *ctx) {
    if (!ctx) return;
    if (ctx->created) {
        // jpeg_destroy only frees memory; it cannot call error_exit.
        jpeg_destroy_decompress(&ctx->cinfo);
    }
    free(ctx->icc);
    free(ctx);
}

const char *fg_jpeg_message(const fg_jpeg *ctx) { return ctx ? ctx->message : "no context"; }
int fg_jpeg_scans_read(const fg_jpeg *ctx) {
    if (ctx->state == ST_DONE) return ctx->scans;
    return ctx->state == ST_STARTED ? ctx->cinfo.input_scan_number : 0;
}
int fg_jpeg_warnings(const fg_jpeg *ctx) { return ctx->warnings; }
int fg_jpeg_missing_eoi(const fg_jpeg *ctx) { return ctx->state == ST_DONE && ctx->missing_eoi; }
void fg_jpeg_keep_cmyk(fg_jpeg *ctx) { ctx->keep_cmyk = 1; }

static int map_colorspace(J_COLOR_SPACE cs) {
    switch (cs) {
    case JCS_GRAYSCALE: return FG_JCS_GRAY;
    case JCS_RGB: return FG_JCS_RGB;
    case JCS_YCbCr: return FG_JCS_YCBCR;
    case JCS_CMYK: return FG_JCS_CMYK;
    case JCS_YCCK: return FG_JCS_YCCK;
    default: return FG_JCS_UNKNOWN;
    }
}

static void fill_header(const fg_jpeg *ctx, fg_jpeg_header *out) {
    const struct jpeg_decompress_struct *ci = &ctx->cinfo;
    out->width = ci->image_width;
    out->height = ci->image_height;
    out->components = ci->num_components;
    out->colorspace = map_colorspace(ci->jpeg_color_space);
    out->adobe_transform = ci->saw_Adobe_marker ? ci->Adobe_transform : -1;
    out->progressive = ci->progressive_mode ? 1 : 0;
    out->arithmetic = ci->arith_code ? 1 : 0;
    out->precision = ci->data_precision;
}

// MARK: phase 1, header

fg_status fg_jpeg_read_header(fg_jpeg *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                              fg_jpeg_header *out) {
    memset(out, 0, sizeof *out);
    out->adobe_transform = -1;
    if (ctx->state != ST_NEW) {
        snprintf(ctx->message, sizeof ctx->message, "read_header called twice");
        return FG_ERR_USAGE;
    }
    ctx->limits = *limits;
    ctx->cinfo.err = jpeg_std_error(&ctx->err);
    ctx->err.error_exit = on_error_exit;
    ctx->err.emit_message = on_emit_message;
    ctx->err.output_message = on_output_message;
    ctx->cinfo.client_data = ctx;
    if (setjmp(ctx->jmp)) {
        ctx->state = ST_FAILED;
        if (ctx->created) fill_header(ctx, out);
        return ctx->status;
    }
    jpeg_create_decompress(&ctx->cinfo);
    ctx->created = 1;
    // Caps libjpeg's own working memory (mostly the whole-image coefficient buffers of progressive
    // files); past it libjpeg wants a backing store, which this build refuses with an error.
    if (limits->max_memory) ctx->cinfo.mem->max_memory_to_use = (long)limits->max_memory;
    ctx->progress.progress_monitor = on_progress;
    ctx->cinfo.progress = &ctx->progress;
    jpeg_mem_src(&ctx->cinfo, data, (unsigned long)len);
    // Kept only for the ICC profile, which may span several APP2 segments.
    jpeg_save_markers(&ctx->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&ctx->cinfo, TRUE);
    fill_header(ctx, out);
    // A malformed profile (bad sequence numbers, missing segments) only warns: the photo decodes
    // without it.
    if (jpeg_read_icc_profile(&ctx->cinfo, &ctx->icc, &ctx->icc_length) && ctx->icc) {
        out->icc = ctx->icc;
        out->icc_length = ctx->icc_length;
    }

    uint64_t pixels = (uint64_t)out->width * out->height;
    if (limits->max_pixels && pixels > limits->max_pixels) {
        char text[128];
        snprintf(text, sizeof text, "%ux%u is over the limit of %llu pixels", out->width, out->height,
                 (unsigned long long)limits->max_pixels);
        fg_jpeg_fail(ctx, FG_ERR_TOO_LARGE, text);
    }
    if (out->colorspace == FG_JCS_UNKNOWN) {
        char text[96];
        snprintf(text, sizeof text, "unsupported JPEG colour space (%d components)", out->components);
        fg_jpeg_fail(ctx, FG_ERR_UNSUPPORTED, text);
    }
    ctx->state = ST_HEADER;
    return FG_OK;
}

fg_status fg_jpeg_output_size(fg_jpeg *ctx, int scale_num, int scale_denom, uint32_t *width, uint32_t *height) {
    if (ctx->state != ST_HEADER) {
        snprintf(ctx->message, sizeof ctx->message, "output_size needs a parsed header");
        return FG_ERR_USAGE;
    }
    if (setjmp(ctx->jmp)) { ctx->state = ST_FAILED; return ctx->status; }
    ctx->cinfo.scale_num = (unsigned)scale_num;
    ctx->cinfo.scale_denom = (unsigned)scale_denom;
    jpeg_calc_output_dimensions(&ctx->cinfo);
    *width = ctx->cinfo.output_width;
    *height = ctx->cinfo.output_height;
    return FG_OK;
}
