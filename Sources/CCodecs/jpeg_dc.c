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

// MARK: a source that leaves out the AC scans

// Where `p` points at 0xFF: the marker code after any fill bytes, or -1 at the end of the data.
static int marker_at(const uint8_t *p, const uint8_t *end, const uint8_t **marker) {
    while (p + 1 < end && p[1] == 0xFF) p++;
    if (p + 1 >= end) return -1;
    *marker = p;
    return p[1];
}

// The next marker at or after `p` inside entropy-coded data (0xFF 0x00 is a stuffed byte, RSTn
// belongs to the scan), or `end`.
static const uint8_t *next_marker(const uint8_t *p, const uint8_t *end) {
    for (;;) {
        p = memchr(p, 0xFF, (size_t)(end - p));
        if (!p) return end;
        const uint8_t *q = p + 1;
        while (q < end && *q == 0xFF) q++;  // fill bytes
        if (q >= end) return end;
        if (*q != 0x00 && (*q < 0xD0 || *q > 0xD7)) return q - 1;
        p = q + 1;
        if (p >= end) return end;
    }
}

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

static boolean dc_fill(j_decompress_ptr ci) {
    fg_jpeg *ctx = (fg_jpeg *)ci->client_data;
    struct fg_jpeg_dc_source *s = &ctx->dc_source;
    static const JOCTET fake_eoi[2] = { 0xFF, JPEG_EOI };
    const uint8_t *start = s->pos, *p = s->pos, *end = s->end;
    // Gather the longest run of kept bytes from `start`; stop before an AC scan, which is skipped.
    while (p < end) {
        if (s->in_entropy) {
            p = next_marker(p, end);
            s->in_entropy = 0;
            continue;
        }
        if (*p != 0xFF) {  // garbage between segments: libjpeg warns and looks for the next marker
            p = next_marker(p, end);
            continue;
        }
        const uint8_t *m;
        int code = marker_at(p, end, &m);
        if (code < 0) { p = end; break; }
        if (code == 0xD9) { p = m + 2; break; }  // EOI: nothing after it matters
        if (code == 0xD8 || code == 0x01 || (code >= 0xD0 && code <= 0xD7)) { p = m + 2; continue; }
        size_t left = (size_t)(end - m);  // offsets, not pointers past the end
        if (left < 4) { p = end; break; }
        size_t length = 2 + (size_t)be16(m + 2);
        const uint8_t *after = length <= left ? m + length : end;
        if (code == 0xDA) {
            size_t ss = left > 4 ? 5 + 2 * (size_t)m[4] : left;  // Ss follows the component list
            int ac = ss < left && m[ss] != 0;
            if (ac && m > start) { p = m; break; }  // hand over what came before the AC scan first
            s->scans_seen++;
            if (ctx->limits.max_scans && (uint32_t)s->scans_seen > ctx->limits.max_scans) {
                char text[96];
                snprintf(text, sizeof text, "more than %u progressive scans", ctx->limits.max_scans);
                fg_jpeg_fail(ctx, FG_ERR_TOO_LARGE, text);
            }
            if (ac) {  // skipped: its header and entropy-coded data never reach libjpeg
                const uint8_t *next = next_marker(after, end);
                start = p = next;
                continue;
            }
            s->in_entropy = 1;
        }
        p = after;
    }
    s->pos = p;
    if (p > start) {
        ci->src->next_input_byte = start;
        ci->src->bytes_in_buffer = (size_t)(p - start);
        return TRUE;
    }
    // The end of the data without an EOI: warn as jpeg_mem_src does and end the stream.
    WARNMS(ci, JWRN_JPEG_EOF);
    ci->src->next_input_byte = fake_eoi;
    ci->src->bytes_in_buffer = 2;
    return TRUE;
}

static void dc_skip(j_decompress_ptr ci, long n) {
    if (n <= 0) return;
    while ((size_t)n > ci->src->bytes_in_buffer) {
        n -= (long)ci->src->bytes_in_buffer;
        ci->src->bytes_in_buffer = 0;
        dc_fill(ci);
    }
    ci->src->next_input_byte += n;
    ci->src->bytes_in_buffer -= (size_t)n;
}

static void dc_noop(j_decompress_ptr ci) { (void)ci; }

// Swaps jpeg_mem_src for the filtering source, at the start of the first scan's data (where
// jpeg_read_header left it).
static void install_source(fg_jpeg *ctx) {
    struct jpeg_decompress_struct *ci = &ctx->cinfo;
    struct fg_jpeg_dc_source *s = &ctx->dc_source;
    s->pos = ci->src->next_input_byte;
    s->end = s->pos + ci->src->bytes_in_buffer;
    s->in_entropy = 1;
    s->scans_seen = 1;  // the first scan, whose header libjpeg has read
    s->pub.init_source = dc_noop;
    s->pub.fill_input_buffer = dc_fill;
    s->pub.skip_input_data = dc_skip;
    s->pub.resync_to_restart = jpeg_resync_to_restart;
    s->pub.term_source = dc_noop;
    s->pub.next_input_byte = NULL;
    s->pub.bytes_in_buffer = 0;
    ci->src = &s->pub;
}

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
    install_source(ctx);
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
