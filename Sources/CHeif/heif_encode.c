// AVIF encoding through libheif's AV1 encoder (aom on Debian 12). libheif reports errors by return
// values; Swift sees an fg_status, a message and a malloc'ed buffer.
#include "cheif.h"
#include "heif_internal.h"

#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *bytes;
    size_t length;
    int failed;
} buffer;

static struct heif_error append(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    buffer *out = userdata;
    uint8_t *grown = realloc(out->bytes, out->length + size);
    if (!grown) {
        out->failed = 1;
        struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return error;
    }
    memcpy(grown + out->length, data, size);
    out->bytes = grown;
    out->length += size;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    return ok;
}

int fg_heif_can_encode_avif(void) {
    fg_heif_init_once();
    return heif_have_encoder_for_format(heif_compression_AV1);
}

void fg_heif_free(void *pointer) { free(pointer); }

static fg_status fail(char *message, size_t cap, fg_status status, const char *text) {
    if (message && cap) snprintf(message, cap, "%s", text);
    return status;
}

fg_status fg_heif_encode_avif(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                              int quality, int speed, uint8_t **out, size_t *out_len, char *message, size_t cap) {
    *out = NULL;
    *out_len = 0;
    fg_heif_init_once();
    if (!src || width == 0 || height == 0 || channels < 1 || channels > 4 || stride < (size_t)width * channels) {
        return fail(message, cap, FG_ERR_USAGE, "bad input bitmap for AVIF");
    }
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    buffer written = {NULL, 0, 0};
    struct heif_error error = heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder);
    int alpha = channels == 2 || channels == 4, out_channels = alpha ? 4 : 3;
    if (error.code == heif_error_Ok) {
        error = heif_image_create((int)width, (int)height, heif_colorspace_RGB,
                                  alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    }
    if (error.code == heif_error_Ok) error = heif_image_add_plane(image, heif_channel_interleaved, (int)width, (int)height, 8);
    if (error.code == heif_error_Ok) {
        int plane_stride = 0;
        uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *in = src + y * stride;
            uint8_t *out = plane + (size_t)y * plane_stride;
            if (channels >= 3) {
                memcpy(out, in, (size_t)width * channels);
            } else {  // grey (and alpha) stored as RGB(A)
                for (uint32_t x = 0; x < width; x++, in += channels, out += out_channels) {
                    out[0] = out[1] = out[2] = in[0];
                    if (alpha) out[3] = in[1];
                }
            }
        }
        error = heif_encoder_set_lossy_quality(encoder, quality);
    }
    if (error.code == heif_error_Ok) error = heif_encoder_set_parameter_integer(encoder, "speed", speed);
    if (error.code == heif_error_Ok) {
        // 4:2:0 like the JPEG thumbnails; one thread, as every thumbnail is made on one worker.
        heif_encoder_set_parameter_string(encoder, "chroma", "420");
        heif_encoder_set_parameter_integer(encoder, "threads", 1);
        struct heif_encoding_options *options = heif_encoding_options_alloc();
        error = heif_context_encode_image(context, image, encoder, options, NULL);
        heif_encoding_options_free(options);
    }
    if (error.code == heif_error_Ok) {
        struct heif_writer writer = {1, append};
        error = heif_context_write(context, &writer, &written);
    }
    fg_status status = FG_OK;
    if (error.code != heif_error_Ok) {
        status = fail(message, cap, error.code == heif_error_Memory_allocation_error ? FG_ERR_NO_MEMORY
                      : error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype
                      ? FG_ERR_UNSUPPORTED : FG_ERR_CORRUPT, error.message ? error.message : "AVIF encoding failed");
        free(written.bytes);
    } else {
        *out = written.bytes;
        *out_len = written.length;
    }
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return status;
}
