// Baseline JPEG encoding through libjpeg. Same rule as decoding: the setjmp lives here, all state
// that must survive a longjmp is on the heap.
#include "ccodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr err;
    jmp_buf jmp;
    char message[JMSG_LENGTH_MAX];
    unsigned char *buffer;     // grown by jpeg_mem_dest with malloc
    unsigned long size;
    uint8_t *flat_row;         // alpha flattened onto white
    int created;
} encoder;

static void on_error_exit(j_common_ptr c) {
    encoder *e = (encoder *)c->client_data;
    (*c->err->format_message)(c, e->message);
    longjmp(e->jmp, 1);
}

static void on_output_message(j_common_ptr c) { (void)c; }

// JPEG has no alpha: composite straight alpha over white, the usual page background.
static void flatten(const uint8_t *src, uint8_t *dst, uint32_t width, int channels) {
    int colour = channels - 1;
    for (uint32_t x = 0; x < width; x++, src += channels, dst += colour) {
        unsigned a = src[colour];
        for (int c = 0; c < colour; c++) dst[c] = (uint8_t)((src[c] * a + 255 * (255 - a) + 127) / 255);
    }
}

static fg_status finish(encoder *e, fg_status status, char *message, size_t cap) {
    if (status != FG_OK && message && cap) snprintf(message, cap, "%s", e->message);
    if (e->created) jpeg_destroy_compress(&e->cinfo);
    if (status != FG_OK) free(e->buffer);
    free(e->flat_row);
    free(e);
    return status;
}

fg_status fg_jpeg_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                         int quality, int optimize_coding, int progressive, uint8_t **out, size_t *out_len,
                         char *message, size_t message_cap) {
    *out = NULL;
    *out_len = 0;
    encoder *e = calloc(1, sizeof *e);
    if (!e) return FG_ERR_NO_MEMORY;
    if (channels < 1 || channels > 4 || width == 0 || height == 0) {
        snprintf(e->message, sizeof e->message, "bad image shape %ux%u, %d channels", width, height, channels);
        return finish(e, FG_ERR_USAGE, message, message_cap);
    }
    int has_alpha = channels == 2 || channels == 4;
    if (has_alpha) {
        e->flat_row = malloc((size_t)width * (channels - 1));
        if (!e->flat_row) return finish(e, FG_ERR_NO_MEMORY, message, message_cap);
    }
    e->cinfo.err = jpeg_std_error(&e->err);
    e->err.error_exit = on_error_exit;
    e->err.output_message = on_output_message;
    e->cinfo.client_data = e;
    if (setjmp(e->jmp)) return finish(e, FG_ERR_CORRUPT, message, message_cap);
    jpeg_create_compress(&e->cinfo);
    e->created = 1;
    jpeg_mem_dest(&e->cinfo, &e->buffer, &e->size);
    e->cinfo.image_width = width;
    e->cinfo.image_height = height;
    int colour = has_alpha ? channels - 1 : channels;
    e->cinfo.input_components = colour;
    e->cinfo.in_color_space = colour == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality, TRUE);
    e->cinfo.optimize_coding = optimize_coding ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&e->cinfo);
    jpeg_start_compress(&e->cinfo, TRUE);
    while (e->cinfo.next_scanline < height) {
        const uint8_t *row = src + (size_t)e->cinfo.next_scanline * stride;
        if (has_alpha) {
            flatten(row, e->flat_row, width, channels);
            row = e->flat_row;
        }
        JSAMPROW rows[1] = { (JSAMPROW)row };
        jpeg_write_scanlines(&e->cinfo, rows, 1);
    }
    jpeg_finish_compress(&e->cinfo);
    *out = e->buffer;
    *out_len = e->size;
    e->buffer = NULL;  // ownership moves to the caller
    return finish(e, FG_OK, message, message_cap);
}

void fg_free(void *p) { free(p); }
