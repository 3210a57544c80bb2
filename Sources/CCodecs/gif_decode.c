// GIF decoding through giflib's record-level API: the records are read only up to the first image,
// which is decoded and composited on a transparent canvas the size of the logical screen. Never
// DGifSlurp: it would decode every frame. giflib reports errors by return codes, never longjmp.
#include "ccodecs.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fg_gif {
    GifFileType *gif;
    const uint8_t *data;
    size_t len, pos;
    fg_gif_header header;
    int transparent_index;      // -1 when the graphic control extension names none
    int allow_truncated;
    int state;                  // 0 new, 1 header read, 2 done or failed
    char message[256];
};

static int read_bytes(GifFileType *gif, GifByteType *out, int n) {
    fg_gif *ctx = gif->UserData;
    size_t left = ctx->len - ctx->pos;
    size_t take = n < 0 ? 0 : ((size_t)n < left ? (size_t)n : left);
    memcpy(out, ctx->data + ctx->pos, take);
    ctx->pos += take;
    return (int)take;
}

static fg_status fail(fg_gif *ctx, fg_status status, const char *text) {
    snprintf(ctx->message, sizeof ctx->message, "%s", text);
    ctx->state = 2;
    return status;
}

static fg_status fail_gif(fg_gif *ctx, int code) {
    const char *text = GifErrorString(code);
    snprintf(ctx->message, sizeof ctx->message, "%s", text ? text : "GIF decoding failed");
    ctx->state = 2;
    switch (code) {
    case D_GIF_ERR_READ_FAILED: case D_GIF_ERR_EOF_TOO_SOON: return FG_ERR_TRUNCATED;
    case D_GIF_ERR_NOT_ENOUGH_MEM: return FG_ERR_NO_MEMORY;
    default: return FG_ERR_CORRUPT;
    }
}

fg_gif *fg_gif_create(void) { return calloc(1, sizeof(fg_gif)); }

void fg_gif_destroy(fg_gif *ctx) {
    if (!ctx) return;
    if (ctx->gif) { int error = 0; DGifCloseFile(ctx->gif, &error); }
    free(ctx);
}

const char *fg_gif_message(const fg_gif *ctx) { return ctx ? ctx->message : "no GIF context"; }

// Skips (or, for a graphic control extension before the first image, reads) one extension record.
static fg_status read_extension(fg_gif *ctx) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(ctx->gif, &code, &block) == GIF_ERROR) return fail_gif(ctx, ctx->gif->Error);
    if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
        GraphicsControlBlock gcb;
        if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) ctx->transparent_index = gcb.TransparentColor;
    }
    while (block) {
        if (DGifGetExtensionNext(ctx->gif, &block) == GIF_ERROR) return fail_gif(ctx, ctx->gif->Error);
    }
    return FG_OK;
}

fg_status fg_gif_read_header(fg_gif *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                             fg_gif_header *out) {
    if (!ctx || ctx->state != 0) return FG_ERR_USAGE;
    ctx->data = data; ctx->len = len; ctx->pos = 0;
    ctx->transparent_index = NO_TRANSPARENT_COLOR;
    ctx->allow_truncated = limits && limits->allow_truncated;
    int error = 0;
    ctx->gif = DGifOpen(ctx, read_bytes, &error);
    if (!ctx->gif) return fail_gif(ctx, error);
    GifFileType *gif = ctx->gif;
    fg_gif_header *h = &ctx->header;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return fail_gif(ctx, gif->Error);
        if (type == TERMINATE_RECORD_TYPE) return fail(ctx, FG_ERR_CORRUPT, "GIF holds no image");
        if (type == EXTENSION_RECORD_TYPE) {
            fg_status status = read_extension(ctx);
            if (status != FG_OK) return status;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) return fail(ctx, FG_ERR_CORRUPT, "unexpected GIF record");
        if (DGifGetImageDesc(gif) == GIF_ERROR) return fail_gif(ctx, gif->Error);
        break;
    }
    GifImageDesc *frame = &gif->Image;
    if (frame->Width <= 0 || frame->Height <= 0) return fail(ctx, FG_ERR_CORRUPT, "GIF frame size is zero");
    // The canvas is the logical screen; a screen of 0 in either direction takes the frame's extent.
    uint64_t right = (uint64_t)frame->Left + frame->Width, bottom = (uint64_t)frame->Top + frame->Height;
    h->width = gif->SWidth > 0 ? (uint32_t)gif->SWidth : (uint32_t)right;
    h->height = gif->SHeight > 0 ? (uint32_t)gif->SHeight : (uint32_t)bottom;
    h->frame_left = (uint32_t)frame->Left; h->frame_top = (uint32_t)frame->Top;
    h->frame_width = (uint32_t)frame->Width; h->frame_height = (uint32_t)frame->Height;
    h->interlaced = frame->Interlace ? 1 : 0;
    uint64_t frame_pixels = (uint64_t)frame->Width * (uint64_t)frame->Height;
    uint64_t canvas_pixels = (uint64_t)h->width * h->height;
    if (limits && limits->max_pixels && (canvas_pixels > limits->max_pixels || frame_pixels > limits->max_pixels)) {
        snprintf(ctx->message, sizeof ctx->message, "GIF screen %ux%u or frame %ux%u is over the limit of %llu pixels",
                 h->width, h->height, h->frame_width, h->frame_height, (unsigned long long)limits->max_pixels);
        ctx->state = 2;
        *out = *h;
        return FG_ERR_TOO_LARGE;
    }
    ColorMapObject *map = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
    if (!map || map->ColorCount <= 0) return fail(ctx, FG_ERR_CORRUPT, "GIF frame has no colour table");
    int covers = frame->Left == 0 && frame->Top == 0 && right >= h->width && bottom >= h->height;
    h->has_alpha = ctx->transparent_index != NO_TRANSPARENT_COLOR || !covers;
    h->channels = h->has_alpha ? 4 : 3;
    ctx->state = 1;
    *out = *h;
    return FG_OK;
}

fg_status fg_gif_read(fg_gif *ctx, uint8_t *dst, size_t stride) {
    if (!ctx || ctx->state != 1 || !dst) return FG_ERR_USAGE;
    fg_gif_header *h = &ctx->header;
    int channels = h->channels;
    if (stride < (size_t)h->width * channels) return FG_ERR_USAGE;
    GifFileType *gif = ctx->gif;
    ColorMapObject *map = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
    GifPixelType *line = malloc(h->frame_width);
    if (!line) return fail(ctx, FG_ERR_NO_MEMORY, "no memory for a GIF row");
    for (uint32_t y = 0; y < h->height; y++) memset(dst + y * stride, 0, (size_t)h->width * channels);

    // Rows arrive in storage order; an interlaced frame stores rows 0, 8, 16... then 4, 12... then 2,
    // 6... then 1, 3...
    static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    uint32_t pass = 0, row = 0;
    fg_status status = FG_OK;
    for (uint32_t n = 0; n < h->frame_height; n++) {
        if (h->interlaced) {
            while (row >= h->frame_height) { pass++; row = start[pass]; }
        } else {
            row = n;
        }
        if (DGifGetLine(gif, line, (int)h->frame_width) == GIF_ERROR) {
            status = fail_gif(ctx, gif->Error);
            if (status == FG_ERR_TRUNCATED && ctx->allow_truncated) status = FG_OK;
            break;
        }
        uint64_t cy = (uint64_t)h->frame_top + row;
        if (cy < h->height) {
            uint8_t *out = dst + cy * stride;
            for (uint32_t x = 0; x < h->frame_width; x++) {
                uint64_t cx = (uint64_t)h->frame_left + x;
                if (cx >= h->width) break;
                int index = line[x];
                // The transparent index stays transparent; an index past the table is shown black.
                if (index == ctx->transparent_index) continue;
                GifColorType c = index < map->ColorCount ? map->Colors[index] : (GifColorType){0, 0, 0};
                uint8_t *p = out + cx * channels;
                p[0] = c.Red; p[1] = c.Green; p[2] = c.Blue;
                if (channels == 4) p[3] = 255;
            }
        }
        if (h->interlaced) row += step[pass];
    }
    free(line);
    ctx->state = 2;
    return status;
}
