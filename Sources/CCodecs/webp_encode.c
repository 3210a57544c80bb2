// WebP encoding through libwebp's advanced API: lossy (the photo preset, method 4) at a quality, with
// the alpha plane kept when the input has one. Grey inputs are widened to RGB first (WebP stores YUV).
#include "ccodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

static fg_status fail(char *message, size_t cap, fg_status status, const char *text) {
    if (message && cap) snprintf(message, cap, "%s", text);
    return status;
}

// Grey (1) or grey + alpha (2) rows widened to RGB or RGBA, tightly packed; NULL on no memory.
static uint8_t *widen(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels) {
    int out_channels = channels == 1 ? 3 : 4;
    uint8_t *out = malloc((size_t)width * height * out_channels);
    if (!out) return NULL;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *in = src + y * stride;
        uint8_t *o = out + (size_t)y * width * out_channels;
        for (uint32_t x = 0; x < width; x++, o += out_channels) {
            o[0] = o[1] = o[2] = in[x * channels];
            if (channels == 2) o[3] = in[x * 2 + 1];
        }
    }
    return out;
}

fg_status fg_webp_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                         int quality, uint8_t **out, size_t *out_len, char *message, size_t message_cap) {
    if (!src || !out || !out_len || width == 0 || height == 0 || channels < 1 || channels > 4 ||
        quality < 0 || quality > 100) {
        return fail(message, message_cap, FG_ERR_USAGE, "bad arguments to the WebP encoder");
    }
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        return fail(message, message_cap, FG_ERR_TOO_LARGE, "over WebP's 16383-pixel side");
    }
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_PHOTO, (float)quality) || !WebPValidateConfig(&config)) {
        return fail(message, message_cap, FG_ERR_USAGE, "libwebp refused the configuration");
    }
    config.method = 4;
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) return fail(message, message_cap, FG_ERR_USAGE, "libwebp version mismatch");
    picture.width = (int)width;
    picture.height = (int)height;
    picture.use_argb = 0;

    uint8_t *wide = NULL;
    const uint8_t *pixels = src;
    size_t row = stride;
    int rgb_channels = channels;
    if (channels <= 2) {
        wide = widen(src, width, height, stride, channels);
        if (!wide) return fail(message, message_cap, FG_ERR_NO_MEMORY, "no memory to widen grey pixels");
        rgb_channels = channels == 1 ? 3 : 4;
        pixels = wide;
        row = (size_t)width * rgb_channels;
    }
    int imported = rgb_channels == 4 ? WebPPictureImportRGBA(&picture, pixels, (int)row)
                                     : WebPPictureImportRGB(&picture, pixels, (int)row);
    free(wide);
    if (!imported) {
        WebPPictureFree(&picture);
        return fail(message, message_cap, FG_ERR_NO_MEMORY, "libwebp could not import the pixels");
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int ok = WebPEncode(&config, &picture);
    fg_status status = FG_OK;
    if (!ok) {
        status = picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? FG_ERR_NO_MEMORY : FG_ERR_CORRUPT;
        if (message && message_cap) snprintf(message, message_cap, "libwebp encoding failed (error %d)", picture.error_code);
        WebPMemoryWriterClear(&writer);
    } else {
        // Copied into our own malloc'd buffer, which fg_free releases (libwebp's has its own allocator).
        *out = malloc(writer.size);
        if (*out) {
            memcpy(*out, writer.mem, writer.size);
            *out_len = writer.size;
        } else {
            status = fail(message, message_cap, FG_ERR_NO_MEMORY, "no memory for the WebP output");
        }
        WebPMemoryWriterClear(&writer);
    }
    WebPPictureFree(&picture);
    return status;
}
