// PNG encoding through libpng's simplified write API, which reports errors by return code (it
// keeps its own setjmp inside libpng), so no longjmp can reach our callers; and, where the caller
// picks zlib's level, through the full API, whose setjmp is in this file too.
#include "ccodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const png_uint_32 formats[5] = { 0, PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB, PNG_FORMAT_RGBA };

fg_status fg_png_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                        uint8_t **out, size_t *out_len, char *message, size_t message_cap) {
    *out = NULL;
    *out_len = 0;
    if (channels < 1 || channels > 4 || width == 0 || height == 0 || stride > 0x7fffffff) {
        if (message && message_cap) snprintf(message, message_cap, "bad image shape %ux%u, %d channels", width, height, channels);
        return FG_ERR_USAGE;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = formats[channels];
    // An upper bound for the encoded size, so one compression pass suffices.
    size_t cap = PNG_IMAGE_PNG_SIZE_MAX(image);
    uint8_t *buffer = malloc(cap);
    if (!buffer) {
        if (message && message_cap) snprintf(message, message_cap, "no memory for %zu bytes", cap);
        return FG_ERR_NO_MEMORY;
    }
    png_alloc_size_t size = cap;
    // row_stride counts components; with 8-bit components that equals bytes.
    if (!png_image_write_to_memory(&image, buffer, &size, 0, src, (png_int_32)stride, NULL)) {
        if (message && message_cap) snprintf(message, message_cap, "%s", image.message);
        png_image_free(&image);
        free(buffer);
        return FG_ERR_CORRUPT;
    }
    uint8_t *shrunk = realloc(buffer, size ? size : 1);
    *out = shrunk ? shrunk : buffer;
    *out_len = size;
    return FG_OK;
}

/// The growing output and the first error of one full-API encode (libpng's write and error callbacks).
typedef struct {
    uint8_t *bytes;
    size_t count, capacity;
    char *message;
    size_t message_cap;
} png_sink;

static void sink_write(png_structp png, png_bytep data, size_t length) {
    png_sink *sink = png_get_io_ptr(png);
    if (sink->count + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 64 << 10;
        while (capacity < sink->count + length) capacity *= 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (!grown) png_error(png, "no memory for the encoded image");
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->count, data, length);
    sink->count += length;
}

static void sink_flush(png_structp png) { (void)png; }

static void sink_error(png_structp png, png_const_charp text) {
    png_sink *sink = png_get_error_ptr(png);
    if (sink->message && sink->message_cap) snprintf(sink->message, sink->message_cap, "%s", text);
    png_longjmp(png, 1);
}

static void sink_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static const int color_types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                    PNG_COLOR_TYPE_RGB_ALPHA };

fg_status fg_png_encode_level(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                              int level, uint8_t **out, size_t *out_len, char *message, size_t message_cap) {
    *out = NULL;
    *out_len = 0;
    if (channels < 1 || channels > 4 || width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) {
        if (message && message_cap) snprintf(message, message_cap, "bad image shape %ux%u, %d channels", width, height, channels);
        return FG_ERR_USAGE;
    }
    if (level < 0 || level > 9) {
        if (message && message_cap) snprintf(message, message_cap, "zlib level %d is outside 0...9", level);
        return FG_ERR_USAGE;
    }
    // On the heap, and these pointers set before the setjmp and never after: what the longjmp back into
    // this frame reads is then defined.
    png_sink *const sink = calloc(1, sizeof *sink);
    png_structp const png = sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, sink_error, sink_warning) : NULL;
    png_infop const info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_structp p = png;
        if (p) png_destroy_write_struct(&p, NULL);
        free(sink);
        if (message && message_cap) snprintf(message, message_cap, "no memory for libpng");
        return FG_ERR_NO_MEMORY;
    }
    sink->message = message;
    sink->message_cap = message_cap;
    if (setjmp(png_jmpbuf(png))) {
        png_structp p = png;
        png_infop i = info;
        png_destroy_write_struct(&p, &i);
        free(sink->bytes);
        free(sink);
        return FG_ERR_CORRUPT;
    }
    png_set_write_fn(png, sink, sink_write, sink_flush);
    png_set_IHDR(png, info, width, height, 8, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    // The chunks the simplified writer puts before the pixels: 8-bit sRGB values, perceptual intent.
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(src + (size_t)y * stride));
    png_write_end(png, info);
    png_structp p = png;
    png_infop i = info;
    png_destroy_write_struct(&p, &i);
    uint8_t *shrunk = realloc(sink->bytes, sink->count ? sink->count : 1);
    *out = shrunk ? shrunk : sink->bytes;
    *out_len = sink->count;
    free(sink);
    return FG_OK;
}
