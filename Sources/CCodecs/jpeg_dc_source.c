// jpeg_dc.c's source manager: the file's bytes as libjpeg reads them, with the AC scans left out
// (their bytes are only searched for the next marker, never decoded; the scan limit still counts them).
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
void fg_jpeg_dc_install_source(fg_jpeg *ctx) {
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
