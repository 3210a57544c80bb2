// PNG encoding through libpng's simplified write API, which reports errors by return code (it
// keeps its own setjmp inside libpng), so no longjmp can reach our callers.
#include "ccodecs.h"

#include <png.h>
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
