// The whole-stream PNG path: the concatenated IDAT data inflated in one call by libdeflate (2-3x
// zlib's inflate, which was ~70% of a PNG thumbnail's time), the rows unfiltered in place and
// expanded to 8 bits exactly as libpng's transforms do (palette, tRNS, low-bit grey, 16 -> 8 by
// png_set_scale_16's rounding); Adam7 images are put back together row by row (png_adam7.c). It
// is an optimisation only: whenever it cannot be sure to give libpng's pixels (a bad CRC, a short
// or overlong stream, an unknown filter byte, a filtered image over the memory bound) it declines,
// before any pixel is written, and the caller reads the image through libpng, which then decodes
// it or reports the error.
#include "png_internal.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

// Memory: the filtered image is mapped on its own (not malloc'd), so the rows already read go back to
// the system as the read goes (every WHOLE_RELEASE_STEP bytes): a 24 MP image's rows and its decoded
// bitmap, which fills as they empty, are not both held whole (a 16-bit 20 MP photo held 117 MB of one
// and 58 of the other at once). The compressed stream, once inflated, is only a hint away from being
// dropped too: MADV_PAGEOUT takes back the clean pages of a mapped original (they are read again
// from the file if anything looks at them) and leaves memory that has no file behind it as it is.
#define WHOLE_RELEASE_STEP (4u << 20)

static size_t page_size(void) {
    static size_t size;
    if (!size) { long s = sysconf(_SC_PAGESIZE); size = s > 0 ? (size_t)s : 4096; }
    return size;
}

// Hints that the whole pages inside [p, p + n) are not needed any more (see above).
static void page_out(const uint8_t *p, size_t n) {
    if (n < WHOLE_RELEASE_STEP) return;
    const uintptr_t ps = page_size(), lo = ((uintptr_t)p + ps - 1) & ~(ps - 1), hi = ((uintptr_t)p + n) & ~(ps - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_PAGEOUT);
}

// The process-wide budget of the whole-stream buffers (FG_PNG_WHOLE_BUDGET_BYTES): bytes held now,
// under a pthread mutex with a condition variable (which ThreadSanitizer models).
static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t budget_freed = PTHREAD_COND_INITIALIZER;
static uint64_t budget_held;

// Takes `bytes`, waiting while other decodes hold so much that they would not fit beside them.
static void budget_take(uint64_t bytes) {
    pthread_mutex_lock(&budget_lock);
    while (budget_held && budget_held + bytes > FG_PNG_WHOLE_BUDGET_BYTES) pthread_cond_wait(&budget_freed, &budget_lock);
    budget_held += bytes;
    pthread_mutex_unlock(&budget_lock);
}

static void budget_give(uint64_t bytes) {
    pthread_mutex_lock(&budget_lock);
    budget_held -= bytes;
    pthread_cond_broadcast(&budget_freed);
    pthread_mutex_unlock(&budget_lock);
}

uint64_t fg_png_whole_budget_held(void) {
    pthread_mutex_lock(&budget_lock);
    uint64_t held = budget_held;
    pthread_mutex_unlock(&budget_lock);
    return held;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// Collects the data of the IDAT chunks (consecutive, as the format requires) into one buffer,
// checking every chunk's CRC as libpng does. Returns NULL (declined) on any doubt.
static uint8_t *gather_idat(const uint8_t *data, size_t len, size_t *out_len, uint8_t **owned) {
    size_t pos = 8, first = 0, total = 0, chunks = 0;
    while (pos + 12 <= len) {
        uint32_t n = be32(data + pos);
        int idat = memcmp(data + pos + 4, "IDAT", 4) == 0;
        if (!idat && chunks) break;  // what follows the image data is never read (libpng stops too)
        if ((uint64_t)n + 12 > len - pos) return NULL;
        if (idat) {
            if (libdeflate_crc32(0, data + pos + 4, (size_t)n + 4) != be32(data + pos + 8 + n)) return NULL;
            if (!chunks) first = pos;
            chunks++;
            total += n;
        }
        pos += (size_t)n + 12;
    }
    if (!chunks || total < 2) return NULL;
    *out_len = total;
    *owned = NULL;
    if (chunks == 1) return (uint8_t *)data + first + 8;
    uint8_t *buf = malloc(total);
    if (!buf) return NULL;
    size_t at = 0;
    for (pos = first; at < total; pos += be32(data + pos) + 12u) {
        uint32_t n = be32(data + pos);
        memcpy(buf + at, data + pos + 8, n);
        at += n;
    }
    *owned = buf;
    return buf;
}

// After png_read_info, before png_read_update_info (which clears info's tRNS count once it plans
// the expansion): the tRNS key and the palette as RGBA.
void fg_png_whole_prepare(fg_png *ctx) {
    png_color_16p trans = NULL;
    int num_trans = 0;
    png_bytep trans_alpha = NULL;
    ctx->whole_has_trns = png_get_valid(ctx->png, ctx->info, PNG_INFO_tRNS) != 0 &&
                          png_get_tRNS(ctx->png, ctx->info, &trans_alpha, &num_trans, &trans) != 0;
    memset(&ctx->whole_trans, 0, sizeof ctx->whole_trans);
    if (ctx->whole_has_trns && trans) ctx->whole_trans = *trans;
    memset(ctx->whole_lut, 0, sizeof ctx->whole_lut);
    png_colorp palette = NULL;
    int entries = 0;
    if (ctx->file_color == PNG_COLOR_TYPE_PALETTE && png_get_PLTE(ctx->png, ctx->info, &palette, &entries) && palette) {
        for (int i = 0; i < entries && i < 256; i++) {
            ctx->whole_lut[i * 4] = palette[i].red;
            ctx->whole_lut[i * 4 + 1] = palette[i].green;
            ctx->whole_lut[i * 4 + 2] = palette[i].blue;
        }
    }
    for (int i = 0; i < 256; i++) {
        ctx->whole_lut[i * 4 + 3] = ctx->whole_has_trns && trans_alpha && i < num_trans ? trans_alpha[i] : 255;
    }
}

int fg_png_whole_begin(fg_png *ctx) {
    if (!ctx->allow_whole) return 0;
    // The file's IHDR: after png_read_update_info, libpng's info describes the transformed rows.
    const uint32_t w = ctx->width, h = ctx->height;
    const int depth = ctx->file_depth, color = ctx->file_color;
    const int adam7 = ctx->file_interlace == PNG_INTERLACE_ADAM7;
    if (!adam7 && ctx->file_interlace != PNG_INTERLACE_NONE) return 0;
    int samples = fg_png_samples(color);
    uint64_t rowbytes = ((uint64_t)w * samples * depth + 7) / 8;
    uint64_t filtered = adam7 ? fg_png_adam7_layout(ctx, w, h, samples * depth) : (uint64_t)h * (rowbytes + 1);
    uint64_t bound = FG_PNG_WHOLE_MAX_BYTES;
    if (ctx->max_memory && ctx->max_memory < bound) bound = ctx->max_memory;
    if (filtered > bound) return 0;

    size_t zlen = 0;
    uint8_t *owned = NULL;
    const uint8_t *z = gather_idat(ctx->data, ctx->len, &zlen, &owned);
    if (!z) return 0;
    // The zlib header (libpng checks the same): deflate, a window of at most 32 KB, no preset
    // dictionary, a valid check. The Adler-32 trailer is not checked (libpng is told to ignore it too),
    // but it must be there: libpng inflates until the stream's end, trailer included, and reads on
    // into the next chunk's header when the IDATs stop short of it, which then fails the image.
    int ok = (z[0] & 0x0f) == 8 && (z[0] >> 4) <= 7 && !(z[1] & 0x20) && ((unsigned)z[0] << 8 | z[1]) % 31 == 0;
    if (ok) {
        budget_take(filtered);
        ctx->whole_budget = filtered;
    }
    uint8_t *buf = NULL;
    if (ok) {
        void *m = mmap(NULL, filtered ? filtered : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        buf = m == MAP_FAILED ? NULL : m;
    }
    ctx->whole = buf;
    ctx->whole_size = buf ? (filtered ? filtered : 1) : 0;
    ctx->whole_released = 0;
    struct libdeflate_decompressor *d = buf ? libdeflate_alloc_decompressor() : NULL;
    size_t used = 0, got = 0;
    ok = d && libdeflate_deflate_decompress_ex(d, z + 2, zlen - 2, buf, filtered, &used, &got) == LIBDEFLATE_SUCCESS &&
         got == filtered && zlen - 2 - used >= 4;
    if (d) libdeflate_free_decompressor(d);
    free(owned);
    if (ok) page_out(ctx->data, ctx->len);  // the compressed stream is not read again
    // libpng stops at the first unknown filter type; checked here so no row fails half-way.
    if (ok && adam7) ok = fg_png_adam7_filters_ok(ctx);
    for (uint64_t y = 0; ok && !adam7 && y < h; y++) ok = buf[y * (rowbytes + 1)] <= 4;
    ctx->whole_rowbytes = (size_t)rowbytes;
    ctx->whole_bpp = (samples * depth + 7) / 8;
    ctx->whole_depth = depth;
    ctx->whole_color = color;
    ctx->whole_zero = ok ? calloc(rowbytes ? rowbytes : 1, 1) : NULL;
    ctx->whole_line = ok && adam7 ? calloc(rowbytes ? rowbytes : 1, 1) : NULL;
    if (!ctx->whole_zero || (adam7 && !ctx->whole_line)) { fg_png_whole_end(ctx); return 0; }
    return 1;
}

// Writes row `y` of the image, unfiltered and expanded to the output layout, into `out` (width *
// channels bytes), or returns the unfiltered row itself when it already has that layout (8-bit, no
// tRNS, not palette). Rows must be asked for in order, each once.
const uint8_t *fg_png_whole_row(fg_png *ctx, uint32_t y, uint8_t *out) {
    const size_t rb = ctx->whole_rowbytes;
    const uint8_t *cur = ctx->whole_line;
    if (cur) {
        fg_png_adam7_row(ctx, y, ctx->whole_line);
    } else {
        uint8_t *row = ctx->whole + (size_t)y * (rb + 1);
        const uint8_t *prev = y ? row - rb : ctx->whole_zero;  // the previous row's data (after its filter byte)
        fg_png_unfilter(row[0], row + 1, prev, rb, ctx->whole_bpp);
        cur = row + 1;
        // Rows above y - 1 are read: theirs go back to the system, a few megabytes at a time.
        const size_t done = y ? (size_t)(y - 1) * (rb + 1) : 0;
        if (done - ctx->whole_released >= WHOLE_RELEASE_STEP) {
            const size_t end = done & ~(page_size() - 1);
            (void)madvise(ctx->whole + ctx->whole_released, end - ctx->whole_released, MADV_DONTNEED);
            ctx->whole_released = end;
        }
    }
    int identity = ctx->whole_depth == 8 && ctx->whole_color != PNG_COLOR_TYPE_PALETTE && !ctx->whole_has_trns;
    if (identity) return cur;
    fg_png_expand_row(ctx, cur, out);
    return out;
}

void fg_png_whole_end(fg_png *ctx) {
    if (ctx->whole) munmap(ctx->whole, ctx->whole_size);
    free(ctx->whole_zero);
    free(ctx->whole_line);
    ctx->whole = NULL;
    ctx->whole_size = ctx->whole_released = 0;
    ctx->whole_zero = NULL;
    ctx->whole_line = NULL;
    if (ctx->whole_budget) budget_give(ctx->whole_budget);
    ctx->whole_budget = 0;
}

int fg_png_used_whole_stream(const fg_png *ctx) { return ctx ? ctx->used_whole : 0; }

void fg_png_set_whole_stream(fg_png *ctx, int allow) {
    if (ctx) ctx->allow_whole = allow;
}
