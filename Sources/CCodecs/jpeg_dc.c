// Progressive JPEG at 1/8 with subsampled chroma, from the DC scans alone.
//
// At 1/8 libjpeg-turbo gives each block one pixel (its DC), but it scales 4:2:0 or 4:2:2 chroma with
// a 2x2 or 2x1 IDCT instead of upsampling, and those read AC coefficients: the plain path must
// entropy-decode the chroma AC scans, which a progressive file sends near its end. Here libjpeg
// sees only the DC scans (a source manager that hands it the file without the AC scans' bytes),
// and the pixels are made from the dequantised DC coefficients: each component's DC plane as the
// 1x1 IDCT computes it (DC * Q0 / 8 + 128, rounded as jpeg_idct_1x1 does), chroma brought up to the
// luma grid keeping each block's mean (upsample_row), then YCbCr -> RGB with libjpeg's fixed-point
// constants.
#include "jpeg_internal.h"

#include <jerror.h>
#include <jpegint.h>
#include <string.h>


// MARK: when

// The upsampling factor of component c relative to the largest sampling, or 0 when this path does
// not handle it (only 1 or 2 per axis).
static int factor(int max, int samp) {
    if (samp <= 0 || max % samp) return 0;
    int f = max / samp;
    return f == 1 || f == 2 ? f : 0;
}

int fg_jpeg_dc_wanted(const struct jpeg_decompress_struct *ci, int scale_denom) {
    if (!ci->progressive_mode || scale_denom != 8 || ci->num_components != 3) return 0;
    if (ci->jpeg_color_space != JCS_YCbCr) return 0;
    int subsampled = 0;
    for (int c = 0; c < 3; c++) {
        const jpeg_component_info *comp = &ci->comp_info[c];
        int fh = factor(ci->max_h_samp_factor, comp->h_samp_factor);
        int fv = factor(ci->max_v_samp_factor, comp->v_samp_factor);
        if (!fh || !fv || (c == 0 && (fh != 1 || fv != 1))) return 0;
        subsampled |= fh > 1 || fv > 1;
    }
    return subsampled;  // 4:4:4 needs only the DC at 1/8 in libjpeg's own output
}

int fg_jpeg_dc_complete(const struct jpeg_decompress_struct *ci) {
    if (!ci->coef_bits) return 0;
    for (int c = 0; c < ci->num_components; c++) {
        if (ci->coef_bits[c][0] != 0) return 0;
    }
    return 1;
}

// MARK: a coefficient controller that keeps only the DC

// libjpeg's progressive coefficient controller writes every block into whole-image arrays (128 bytes
// a block, zeroed on first use: 48 MB for 16 MP 4:2:0), of which this path reads 2 bytes. Ours
// gives the entropy decoder one MCU of scratch blocks holding the DCs so far (a DC refinement scan
// ORs bits into them) and keeps the DCs alone. It follows jdcoefct.c's consume_data.

static void dc_start_imcu_row(j_decompress_ptr ci, struct fg_jpeg_dc_coefs *k) {
    if (ci->comps_in_scan > 1) {
        k->mcu_rows_per_imcu_row = 1;
    } else {
        const jpeg_component_info *comp = ci->cur_comp_info[0];
        k->mcu_rows_per_imcu_row = ci->input_iMCU_row < ci->total_iMCU_rows - 1 ? comp->v_samp_factor : comp->last_row_height;
    }
    k->mcu_ctr = 0;
    k->mcu_vert_offset = 0;
}

static void dc_start_input_pass(j_decompress_ptr ci) {
    fg_jpeg *ctx = (fg_jpeg *)ci->client_data;
    ci->input_iMCU_row = 0;
    dc_start_imcu_row(ci, &ctx->dc_coefs);
}

static int dc_consume_data(j_decompress_ptr ci) {
    fg_jpeg *ctx = (fg_jpeg *)ci->client_data;
    struct fg_jpeg_dc_coefs *k = &ctx->dc_coefs;
    JBLOCKROW mcu[D_MAX_BLOCKS_IN_MCU];
    JCOEF *where[D_MAX_BLOCKS_IN_MCU];
    for (int yoffset = k->mcu_vert_offset; yoffset < k->mcu_rows_per_imcu_row; yoffset++) {
        for (JDIMENSION col = k->mcu_ctr; col < ci->MCUs_per_row; col++) {
            int n = 0;
            for (int i = 0; i < ci->comps_in_scan; i++) {
                const jpeg_component_info *comp = ci->cur_comp_info[i];
                int c = comp->component_index;
                JDIMENSION row = ci->input_iMCU_row * (JDIMENSION)comp->v_samp_factor + (JDIMENSION)yoffset;
                for (int y = 0; y < comp->MCU_height; y++) {
                    JCOEF *at = k->dc[c] + (size_t)(row + (JDIMENSION)y) * k->stride[c] + col * (JDIMENSION)comp->MCU_width;
                    for (int x = 0; x < comp->MCU_width; x++, n++) {
                        where[n] = at + x;
                        k->blocks[n][0] = at[x];
                        mcu[n] = &k->blocks[n];
                    }
                }
            }
            if (!(*ci->entropy->decode_mcu)(ci, mcu)) {  // suspension: not with our source, kept for form
                k->mcu_vert_offset = yoffset;
                k->mcu_ctr = col;
                return JPEG_SUSPENDED;
            }
            for (int i = 0; i < n; i++) *where[i] = k->blocks[i][0];
        }
        k->mcu_ctr = 0;
    }
    if (++ci->input_iMCU_row < ci->total_iMCU_rows) {
        dc_start_imcu_row(ci, k);
        return JPEG_ROW_COMPLETED;
    }
    (*ci->inputctl->finish_input_pass)(ci);
    return JPEG_SCAN_COMPLETED;
}

// After jpeg_start_decompress, which has started the first scan with libjpeg's own controller
// (nothing decoded yet): our functions take over for it and every later scan.
static void install_coefficients(fg_jpeg *ctx) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    struct fg_jpeg_dc_coefs *k = &ctx->dc_coefs;
    for (int c = 0; c < ci->num_components; c++) {
        const jpeg_component_info *comp = &ci->comp_info[c];
        // Whole MCUs, as jdcoefct.c sizes its arrays: interleaved scans code the padding blocks.
        JDIMENSION h = (JDIMENSION)comp->h_samp_factor, v = (JDIMENSION)comp->v_samp_factor;
        k->stride[c] = (comp->width_in_blocks + h - 1) / h * h;
        k->rows[c] = (comp->height_in_blocks + v - 1) / v * v;
        size_t bytes = sizeof(JCOEF) * (size_t)k->stride[c] * k->rows[c];
        k->dc[c] = (*ci->mem->alloc_large)((j_common_ptr)ci, JPOOL_IMAGE, bytes);
        memset(k->dc[c], 0, bytes);
    }
    ci->coef->start_input_pass = dc_start_input_pass;
    ci->coef->consume_data = dc_consume_data;
    ci->inputctl->consume_input = dc_consume_data;
    dc_start_input_pass(ci);
}

void fg_jpeg_dc_consume(fg_jpeg *ctx) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    fg_jpeg_dc_install_source(ctx);
    install_coefficients(ctx);
    for (;;) {
        int rc = jpeg_consume_input(ci);
        if (rc == JPEG_SUSPENDED) fg_jpeg_fail(ctx, FG_ERR_TRUNCATED, "JPEG data ended inside a scan");
        if (rc == JPEG_REACHED_EOI) break;
        if (rc == JPEG_SCAN_COMPLETED && fg_jpeg_dc_complete(ci)) break;
    }
}

// MARK: pixels

// One component's DC plane (width_in_blocks x height_in_blocks), as jpeg_idct_1x1 would output it.
static JSAMPLE *dc_plane(fg_jpeg *ctx, int c) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    jpeg_component_info *comp = &ci->comp_info[c];
    JDIMENSION w = comp->width_in_blocks, h = comp->height_in_blocks;
    JSAMPLE *plane = (*ci->mem->alloc_large)((j_common_ptr)ci, JPOOL_IMAGE, (size_t)w * h);
    // A component that never had a scan (a cut file with truncation allowed, or a file that sends
    // none) is mid-grey, as libjpeg outputs it.
    int q = comp->quant_table ? comp->quant_table->quantval[0] : 0;
    for (JDIMENSION y = 0; y < h; y++) {
        const JCOEF *dc = ctx->dc_coefs.dc[c] + (size_t)y * ctx->dc_coefs.stride[c];
        JSAMPLE *out = plane + (size_t)y * w;
        for (JDIMENSION x = 0; x < w; x++) {
            int v = ((dc[x] * q + 4) >> 3) + CENTERJSAMPLE;  // DESCALE(dc * q, 3)
            out[x] = (JSAMPLE)(v < 0 ? 0 : v > MAXJSAMPLE ? MAXJSAMPLE : v);
        }
    }
    return plane;
}

// Row `y` of a plane brought to the output grid (factor fh, fv = 1 or 2 per axis). A DC is the mean
// of its block; the two half-blocks' means are estimated keeping that mean exactly, from a parabola
// through the three neighbouring block means (histopolation): C[j] -/+ (C[j+1] - C[j-1]) / 8 for the
// first/second half, vertically then horizontally. (Linear, "fancy" interpolation of the means
// instead blurs: 0.5 dB below libjpeg's 2x2 chroma IDCT on some photos; this is within 0.1 dB.)
static void upsample_row(const JSAMPLE *plane, int pw, int ph, int fh, int fv, int y, int ow, float *mid,
                         JSAMPLE *out) {
    if (fv == 2) {
        int j = y >> 1, up = j > 0 ? j - 1 : 0, down = j + 1 < ph ? j + 1 : ph - 1;
        const JSAMPLE *a = plane + (size_t)up * pw, *c = plane + (size_t)j * pw, *b = plane + (size_t)down * pw;
        float sign = y & 1 ? 0.125f : -0.125f;
        for (int x = 0; x < pw; x++) mid[x] = c[x] + sign * ((float)b[x] - a[x]);
    } else {
        const JSAMPLE *c = plane + (size_t)(y < ph ? y : ph - 1) * pw;
        for (int x = 0; x < pw; x++) mid[x] = c[x];
    }
    for (int x = 0; x < ow; x++) {
        float v = mid[x];
        if (fh == 2) {
            int j = x >> 1, l = j > 0 ? j - 1 : 0, r = j + 1 < pw ? j + 1 : pw - 1;
            v = mid[j] + (x & 1 ? 0.125f : -0.125f) * (mid[r] - mid[l]);
        }
        v += 0.5f;
        out[x] = (JSAMPLE)(v < 0 ? 0 : v >= MAXJSAMPLE ? MAXJSAMPLE : (int)v);
    }
}

#define SCALEBITS 16
#define ONE_HALF ((JLONG)1 << (SCALEBITS - 1))
#define FIX(x) ((JLONG)((x) * (1L << SCALEBITS) + 0.5))

static JSAMPLE clamp(int v) { return (JSAMPLE)(v < 0 ? 0 : v > MAXJSAMPLE ? MAXJSAMPLE : v); }

void fg_jpeg_dc_render(fg_jpeg *ctx, uint8_t *dst, size_t stride) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    int ow = (int)ci->output_width, oh = (int)ci->output_height;
    JSAMPLE *planes[3], *rows[3];
    int pw[3], ph[3], fh[3], fv[3], widest = 0;
    for (int c = 0; c < 3; c++) {
        jpeg_component_info *comp = &ci->comp_info[c];
        planes[c] = dc_plane(ctx, c);
        pw[c] = (int)comp->width_in_blocks;
        ph[c] = (int)comp->height_in_blocks;
        fh[c] = ci->max_h_samp_factor / comp->h_samp_factor;
        fv[c] = ci->max_v_samp_factor / comp->v_samp_factor;
        if (pw[c] > widest) widest = pw[c];
        rows[c] = (*ci->mem->alloc_small)((j_common_ptr)ci, JPOOL_IMAGE, (size_t)ow);
    }
    float *mid = (*ci->mem->alloc_small)((j_common_ptr)ci, JPOOL_IMAGE, sizeof(float) * (size_t)widest);
    for (int y = 0; y < oh; y++) {
        for (int c = 0; c < 3; c++) upsample_row(planes[c], pw[c], ph[c], fh[c], fv[c], y, ow, mid, rows[c]);
        uint8_t *out = dst + (size_t)y * stride;
        for (int x = 0; x < ow; x++, out += 3) {
            int yy = rows[0][x], cb = rows[1][x] - CENTERJSAMPLE, cr = rows[2][x] - CENTERJSAMPLE;
            out[0] = clamp(yy + (int)((FIX(1.40200) * cr + ONE_HALF) >> SCALEBITS));
            out[1] = clamp(yy + (int)((-FIX(0.34414) * cb - FIX(0.71414) * cr + ONE_HALF) >> SCALEBITS));
            out[2] = clamp(yy + (int)((FIX(1.77200) * cb + ONE_HALF) >> SCALEBITS));
        }
    }
}
