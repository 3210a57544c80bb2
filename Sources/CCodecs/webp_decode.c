// WebP decoding through libwebp (still images, scaled in the codec) and libwebpdemux (the container's
// chunks, and the first frame of an animation composited on its canvas). libwebp reports errors by
// status codes, never longjmp; Swift still sees only fg_status and a message.
#include "ccodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

static fg_status fail(char *message, size_t cap, fg_status status, const char *text) {
    if (message && cap) snprintf(message, cap, "%s", text);
    return status;
}

static fg_status from_vp8(VP8StatusCode code, char *message, size_t cap) {
    switch (code) {
    case VP8_STATUS_OK: return FG_OK;
    case VP8_STATUS_NOT_ENOUGH_DATA: return fail(message, cap, FG_ERR_TRUNCATED, "WebP data ends early");
    case VP8_STATUS_OUT_OF_MEMORY: return fail(message, cap, FG_ERR_NO_MEMORY, "libwebp ran out of memory");
    case VP8_STATUS_UNSUPPORTED_FEATURE: return fail(message, cap, FG_ERR_UNSUPPORTED, "a WebP feature libwebp does not decode");
    case VP8_STATUS_INVALID_PARAM: return fail(message, cap, FG_ERR_USAGE, "invalid parameter to libwebp");
    case VP8_STATUS_BITSTREAM_ERROR: return fail(message, cap, FG_ERR_CORRUPT, "WebP bitstream error");
    default: return fail(message, cap, FG_ERR_CORRUPT, "WebP decoding failed");
    }
}

// The EXIF and ICCP chunks and the frame count, read by the demuxer (which also accepts a file cut
// short after its header: then the chunks it has not seen are simply absent).
static void read_chunks(const uint8_t *data, size_t len, fg_webp_header *out) {
    WebPData whole = {data, len};
    WebPDemuxState state;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (!demux) return;
    out->frames = (int)WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
        out->exif_offset = (uint32_t)(chunk.chunk.bytes - data);
        out->exif_length = (uint32_t)chunk.chunk.size;
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        out->icc_offset = (uint32_t)(chunk.chunk.bytes - data);
        out->icc_length = (uint32_t)chunk.chunk.size;
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
}

fg_status fg_webp_read_header(const uint8_t *data, size_t len, const fg_limits *limits, fg_webp_header *out,
                              char *message, size_t cap) {
    memset(out, 0, sizeof *out);
    if (len < 12) return fail(message, cap, FG_ERR_TRUNCATED, "WebP data ends early");
    WebPBitstreamFeatures features;
    fg_status status = from_vp8(WebPGetFeatures(data, len, &features), message, cap);
    if (status != FG_OK) return status;
    if (features.width <= 0 || features.height <= 0) return fail(message, cap, FG_ERR_CORRUPT, "WebP size is zero");
    out->width = (uint32_t)features.width;
    out->height = (uint32_t)features.height;
    out->has_alpha = features.has_alpha;
    out->animated = features.has_animation;
    out->lossless = features.format == 2;
    read_chunks(data, len, out);
    if (limits && limits->max_pixels && (uint64_t)out->width * out->height > limits->max_pixels) {
        if (message && cap) {
            snprintf(message, cap, "%u x %u pixels is over the limit of %llu", out->width, out->height,
                     (unsigned long long)limits->max_pixels);
        }
        return FG_ERR_TOO_LARGE;
    }
    return FG_OK;
}

// A still image, scaled by libwebp's own rescaler to out_w x out_h (the full size when equal).
static fg_status decode_still(const uint8_t *data, size_t len, const fg_webp_header *header, uint32_t out_w,
                              uint32_t out_h, int channels, uint8_t *dst, size_t stride, char *message, size_t cap) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return fail(message, cap, FG_ERR_USAGE, "libwebp version mismatch");
    if (out_w != header->width || out_h != header->height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)out_w;
        config.options.scaled_height = (int)out_h;
    }
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = dst;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * out_h;
    fg_status status = from_vp8(WebPDecode(data, len, &config), message, cap);
    WebPFreeDecBuffer(&config.output);
    return status;
}

// The first frame of an animation as it shows on the canvas (offset, blended on a transparent
// canvas), at full canvas size.
static fg_status decode_first_frame(const uint8_t *data, size_t len, const fg_webp_header *header, int channels,
                                    uint8_t *dst, size_t stride, char *message, size_t cap) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return fail(message, cap, FG_ERR_USAGE, "libwebp version mismatch");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {data, len};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (!decoder) {
        WebPDemuxState state;
        WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
        int partial = demux && state != WEBP_DEMUX_DONE;
        if (demux) WebPDemuxDelete(demux);
        return partial ? fail(message, cap, FG_ERR_TRUNCATED, "animated WebP data ends early")
                       : fail(message, cap, FG_ERR_CORRUPT, "animated WebP container is malformed");
    }
    WebPAnimInfo info;
    fg_status status = FG_OK;
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetInfo(decoder, &info) || info.canvas_width != header->width ||
        info.canvas_height != header->height) {
        status = fail(message, cap, FG_ERR_CORRUPT, "animated WebP canvas disagrees with its header");
    } else if (!WebPAnimDecoderGetNext(decoder, &frame, &timestamp) || !frame) {
        status = fail(message, cap, FG_ERR_CORRUPT, "the first frame of the animated WebP does not decode");
    } else {
        for (uint32_t y = 0; y < header->height; y++) {
            const uint8_t *in = frame + (size_t)y * header->width * 4;
            uint8_t *out = dst + y * stride;
            if (channels == 4) {
                memcpy(out, in, (size_t)header->width * 4);
            } else {  // a file without alpha: drop the (opaque) alpha channel
                for (uint32_t x = 0; x < header->width; x++) memcpy(out + x * 3, in + x * 4, 3);
            }
        }
    }
    WebPAnimDecoderDelete(decoder);
    return status;
}

fg_status fg_webp_decode(const uint8_t *data, size_t len, const fg_webp_header *header, uint32_t out_w,
                         uint32_t out_h, int channels, uint8_t *dst, size_t stride, char *message, size_t cap) {
    if (!dst || out_w == 0 || out_h == 0 || (channels != 3 && channels != 4) || stride < (size_t)out_w * channels) {
        return fail(message, cap, FG_ERR_USAGE, "bad output buffer for WebP");
    }
    if (header->animated) {
        if (out_w != header->width || out_h != header->height) {
            return fail(message, cap, FG_ERR_USAGE, "an animated WebP decodes at canvas size");
        }
        return decode_first_frame(data, len, header, channels, dst, stride, message, cap);
    }
    return decode_still(data, len, header, out_w, out_h, channels, dst, stride, message, cap);
}
