// HEIC and AVIF decoding through libheif: the container's boxes, the primary image or one of its
// thumbnail items, its colour declaration, and the pixels reduced to 8 bits. libheif applies the
// container's transformations (irot, imir, clap) itself while decoding; the EXIF orientation of a
// HEIF file is therefore never applied again (HEIF says the transformations are authoritative).
#include "cheif.h"
#include "heif_internal.h"

#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fg_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
    struct heif_image_handle *chosen;   // the primary image or a thumbnail (its own reference)
    uint8_t *icc;
    uint8_t *repaired;                  // a copy of the data with a brand libheif accepts (see read_header)
    char message[256];
};

static fg_status fail(fg_heif *ctx, fg_status status, const char *text) {
    snprintf(ctx->message, sizeof ctx->message, "%s", text);
    return status;
}

// libheif's error classes onto ours; its message is kept as the reason.
static fg_status from_heif(fg_heif *ctx, struct heif_error error) {
    fg_status status;
    switch (error.code) {
    case heif_error_Ok: return FG_OK;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
    case heif_error_Plugin_loading_error: status = FG_ERR_UNSUPPORTED; break;
    case heif_error_Memory_allocation_error:
        status = error.subcode == heif_suberror_Security_limit_exceeded ? FG_ERR_TOO_LARGE : FG_ERR_NO_MEMORY;
        break;
    case heif_error_Usage_error: status = FG_ERR_USAGE; break;
    default: status = error.subcode == heif_suberror_End_of_data ? FG_ERR_TRUNCATED : FG_ERR_CORRUPT; break;
    }
    if (error.subcode == heif_suberror_Security_limit_exceeded) status = FG_ERR_TOO_LARGE;
    return fail(ctx, status, error.message ? error.message : "libheif failed");
}

static pthread_once_t initialised = PTHREAD_ONCE_INIT;
static void initialise(void) { heif_init(NULL); }
void fg_heif_init_once(void) { pthread_once(&initialised, initialise); }

fg_heif *fg_heif_create(void) {
    fg_heif_init_once();
    return calloc(1, sizeof(fg_heif));
}

void fg_heif_destroy(fg_heif *ctx) {
    if (!ctx) return;
    if (ctx->chosen) heif_image_handle_release(ctx->chosen);
    if (ctx->primary) heif_image_handle_release(ctx->primary);
    if (ctx->context) heif_context_free(ctx->context);
    free(ctx->icc);
    free(ctx->repaired);
    free(ctx);
}

const char *fg_heif_message(const fg_heif *ctx) { return ctx && ctx->message[0] ? ctx->message : "unknown error"; }

// The brands of the 'ftyp' box say the codec: AVIF ('avif', 'avis') or HEVC ('heic', 'heix', ...).
static int compression_from_brands(const uint8_t *data, size_t len) {
    if (len < 16) return FG_HEIF_OTHER;
    size_t box = (size_t)data[0] << 24 | (size_t)data[1] << 16 | (size_t)data[2] << 8 | data[3];
    if (box > len || box < 16) box = len < 64 ? len : 64;
    int hevc = 0;
    for (size_t at = 8; at + 4 <= box; at += 4) {
        if (at == 12) continue;  // the minor version
        const char *brand = (const char *)data + at;
        if (!memcmp(brand, "avif", 4) || !memcmp(brand, "avis", 4)) return FG_HEIF_AV1;
        if (!memcmp(brand, "heic", 4) || !memcmp(brand, "heix", 4) || !memcmp(brand, "hevc", 4) ||
            !memcmp(brand, "hevx", 4) || !memcmp(brand, "heim", 4) || !memcmp(brand, "heis", 4)) hevc = 1;
    }
    return hevc ? FG_HEIF_HEVC : FG_HEIF_OTHER;
}

// Whether a top-level box claims more bytes than `len` holds: a file cut short, which libheif may
// report as a missing box ("No 'meta' box") rather than as the end of the data.
static int boxes_run_past_end(const uint8_t *data, size_t len) {
    size_t at = 0;
    while (at + 8 <= len) {
        uint64_t size = (uint64_t)data[at] << 24 | (uint64_t)data[at + 1] << 16 | (uint64_t)data[at + 2] << 8 | data[at + 3];
        size_t header = 8;
        if (size == 1) {
            if (at + 16 > len) return 1;
            size = 0;
            for (int i = 8; i < 16; i++) size = size << 8 | data[at + i];
            header = 16;
        } else if (size == 0) {
            return 0;  // to the end of the file
        }
        if (size < header) return 0;  // malformed, not short
        if (size > len - at) return 1;
        at += (size_t)size;
    }
    return at < len;  // a box header cut in the middle
}

int fg_heif_can_decode(int compression) {
    fg_heif_init_once();
    return heif_have_decoder_for_format(compression == FG_HEIF_AV1 ? heif_compression_AV1 : heif_compression_HEVC);
}

static void read_profile(fg_heif *ctx, fg_heif_header *out) {
    size_t size = heif_image_handle_get_raw_color_profile_size(ctx->primary);
    if (size > 0 && size < (64u << 20) && (ctx->icc = malloc(size)) &&
        heif_image_handle_get_raw_color_profile(ctx->primary, ctx->icc).code == heif_error_Ok) {
        out->profile = FG_HEIF_PROFILE_ICC;
        out->icc = ctx->icc;
        out->icc_length = (uint32_t)size;
        return;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    // libheif 1.15 may hand out an allocated profile with an error (unknown primaries): freed either way.
    if (heif_image_handle_get_nclx_color_profile(ctx->primary, &nclx).code == heif_error_Ok && nclx) {
        out->profile = FG_HEIF_PROFILE_NCLX;
        out->nclx_primaries = nclx->color_primaries;
        out->nclx_transfer = nclx->transfer_characteristics;
        float c[8] = {nclx->color_primary_white_x, nclx->color_primary_white_y, nclx->color_primary_red_x,
                      nclx->color_primary_red_y, nclx->color_primary_green_x, nclx->color_primary_green_y,
                      nclx->color_primary_blue_x, nclx->color_primary_blue_y};
        memcpy(out->nclx_chromaticities, c, sizeof c);
    }
    if (nclx) heif_nclx_color_profile_free(nclx);
}

fg_status fg_heif_read_header(fg_heif *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                              fg_heif_header *out) {
    memset(out, 0, sizeof *out);
    if (!ctx || ctx->context) return FG_ERR_USAGE;
    if (len < 16) return fail(ctx, FG_ERR_TRUNCATED, "HEIF data ends early");
    out->compression = compression_from_brands(data, len);
    if (!(ctx->context = heif_context_alloc())) return fail(ctx, FG_ERR_NO_MEMORY, "libheif context");
    struct heif_error error = heif_context_read_from_memory_without_copy(ctx->context, data, len, NULL);
    if (error.code == heif_error_Unsupported_filetype && out->compression != FG_HEIF_OTHER) {
        // libheif wants 'avif', 'heic', 'mif1', ... among the ftyp's compatible brands; some writers list
        // the codec's brand only as the major brand. libavif reads such files; so do we, from a copy
        // whose first compatible brand is replaced by the major one (same length, no offset moves).
        size_t ftyp = (size_t)data[0] << 24 | (size_t)data[1] << 16 | (size_t)data[2] << 8 | data[3];
        if (ftyp >= 20 && ftyp <= len && (ctx->repaired = malloc(len))) {
            memcpy(ctx->repaired, data, len);
            memcpy(ctx->repaired + 16, data + 8, 4);
            heif_context_free(ctx->context);
            if (!(ctx->context = heif_context_alloc())) return fail(ctx, FG_ERR_NO_MEMORY, "libheif context");
            error = heif_context_read_from_memory_without_copy(ctx->context, ctx->repaired, len, NULL);
            out->repaired_brands = error.code == heif_error_Ok;
        }
    }
    fg_status status = from_heif(ctx, error);
    if (status == FG_ERR_CORRUPT && boxes_run_past_end(data, len)) status = FG_ERR_TRUNCATED;
    if (status == FG_OK) status = from_heif(ctx, heif_context_get_primary_image_handle(ctx->context, &ctx->primary));
    if (status != FG_OK) return status;
    int w = heif_image_handle_get_width(ctx->primary), h = heif_image_handle_get_height(ctx->primary);
    if (w <= 0 || h <= 0) return fail(ctx, FG_ERR_CORRUPT, "HEIF image size is zero");
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    out->has_alpha = heif_image_handle_has_alpha_channel(ctx->primary);
    out->bit_depth = heif_image_handle_get_luma_bits_per_pixel(ctx->primary);
    out->thumbnails = heif_image_handle_get_number_of_thumbnails(ctx->primary);
    read_profile(ctx, out);
    if (limits && limits->max_pixels && (uint64_t)out->width * out->height > limits->max_pixels) {
        snprintf(ctx->message, sizeof ctx->message, "%u x %u pixels is over the limit of %llu", out->width,
                 out->height, (unsigned long long)limits->max_pixels);
        return FG_ERR_TOO_LARGE;
    }
    if (out->bit_depth > 12) return fail(ctx, FG_ERR_UNSUPPORTED, "HEIF samples over 12 bits");
    if (out->compression != FG_HEIF_OTHER && !fg_heif_can_decode(out->compression)) {
        return fail(ctx, FG_ERR_UNSUPPORTED, out->compression == FG_HEIF_AV1
                    ? "libheif has no AV1 decoder (install libheif-plugin-dav1d or -aomdec)"
                    : "libheif has no HEVC decoder (install libheif-plugin-libde265)");
    }
    return FG_OK;
}

fg_status fg_heif_choose(fg_heif *ctx, uint32_t min_w, uint32_t min_h, int use_thumbnails,
                         uint32_t *out_w, uint32_t *out_h, int *is_thumbnail) {
    if (!ctx || !ctx->primary) return FG_ERR_USAGE;
    if (ctx->chosen) heif_image_handle_release(ctx->chosen);
    ctx->chosen = NULL;
    *is_thumbnail = 0;
    int count = use_thumbnails ? heif_image_handle_get_number_of_thumbnails(ctx->primary) : 0;
    int pw = heif_image_handle_get_width(ctx->primary), ph = heif_image_handle_get_height(ctx->primary);
    if (count > 0 && count < 64) {
        heif_item_id ids[64];
        count = heif_image_handle_get_list_of_thumbnail_IDs(ctx->primary, ids, count);
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *thumb = NULL;
            if (heif_image_handle_get_thumbnail(ctx->primary, ids[i], &thumb).code != heif_error_Ok) continue;
            int w = heif_image_handle_get_width(thumb), h = heif_image_handle_get_height(thumb);
            // Usable: covers the target, no larger than the primary image, its aspect within 2% of the
            // primary's (a thumbnail of another shape would be stretched), the same alpha.
            int64_t across = (int64_t)w * ph, down = (int64_t)h * pw;
            int covers = w > 0 && h > 0 && (uint32_t)w >= min_w && (uint32_t)h >= min_h && w <= pw && h <= ph &&
                         (across > down ? across - down : down - across) * 50 <= across &&
                         heif_image_handle_has_alpha_channel(thumb) == heif_image_handle_has_alpha_channel(ctx->primary);
            int smaller = !ctx->chosen ||
                          (int64_t)w * h < (int64_t)heif_image_handle_get_width(ctx->chosen) *
                                               heif_image_handle_get_height(ctx->chosen);
            if (covers && smaller) {
                if (ctx->chosen) heif_image_handle_release(ctx->chosen);
                ctx->chosen = thumb;
            } else {
                heif_image_handle_release(thumb);
            }
        }
    }
    if (ctx->chosen) {
        *is_thumbnail = 1;
    } else {
        fg_status status = from_heif(ctx, heif_context_get_primary_image_handle(ctx->context, &ctx->chosen));
        if (status != FG_OK) return status;
    }
    *out_w = (uint32_t)heif_image_handle_get_width(ctx->chosen);
    *out_h = (uint32_t)heif_image_handle_get_height(ctx->chosen);
    return FG_OK;
}

fg_status fg_heif_decode(fg_heif *ctx, int channels, uint8_t *dst, size_t stride) {
    if (!ctx || !ctx->chosen || !dst || (channels != 3 && channels != 4)) return FG_ERR_USAGE;
    uint32_t w = (uint32_t)heif_image_handle_get_width(ctx->chosen);
    uint32_t h = (uint32_t)heif_image_handle_get_height(ctx->chosen);
    if (stride < (size_t)w * channels) return fail(ctx, FG_ERR_USAGE, "bad output buffer for HEIF");
    int bits = heif_image_handle_get_luma_bits_per_pixel(ctx->chosen);
    int deep = bits > 8;
    enum heif_chroma chroma = deep ? (channels == 4 ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                                   : (channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    // Strict: a bitstream the decoder only warns about (libde265 conceals damage) is refused as corrupt.
    options->strict_decoding = 1;
    struct heif_image *image = NULL;
    fg_status status = from_heif(ctx, heif_decode_image(ctx->chosen, &image, heif_colorspace_RGB, chroma, options));
    heif_decoding_options_free(options);
    if (status != FG_OK) return status;
    int plane_stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &plane_stride);
    int plane_bits = heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved);
    if (deep && (plane_bits <= 8 || plane_bits > 16)) plane = NULL;
    if (!plane || (uint32_t)heif_image_get_width(image, heif_channel_interleaved) != w ||
        (uint32_t)heif_image_get_height(image, heif_channel_interleaved) != h) {
        status = fail(ctx, FG_ERR_CORRUPT, "HEIF image decodes to a size other than its header's");
    } else if (!deep) {
        for (uint32_t y = 0; y < h; y++) memcpy(dst + y * stride, plane + (size_t)y * plane_stride, (size_t)w * channels);
    } else {
        // Rounded, not shifted: v * 255 / max to the nearest integer, so the mean is kept.
        uint32_t max = (1u << plane_bits) - 1, half = max / 2;
        for (uint32_t y = 0; y < h; y++) {
            const uint16_t *in = (const uint16_t *)(plane + (size_t)y * plane_stride);
            uint8_t *out = dst + y * stride;
            for (size_t i = 0; i < (size_t)w * channels; i++) {
                uint32_t v = in[i] > max ? max : in[i];
                out[i] = (uint8_t)((v * 255 + half) / max);
            }
        }
    }
    heif_image_release(image);
    return status;
}
