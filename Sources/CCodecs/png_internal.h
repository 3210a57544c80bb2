#ifndef FG_PNG_INTERNAL_H
#define FG_PNG_INTERNAL_H
// The PNG decode context, shared by png_decode.c (header, full and Adam7-pass reads) and
// png_reduce.c (the box-reduced read). Not part of the module's public header.
#include "ccodecs.h"

#include <png.h>
#include <stdio.h>

enum { PS_NEW, PS_HEADER, PS_DONE, PS_FAILED };

struct fg_png {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t len, pos;
    fg_status status;          // set before png_error when we know better than "corrupt"
    char message[256];
    char last_warning[128];    // libpng explains a bad IHDR in warnings, then errors generically
    int state;
    uint32_t width, height;
    int channels;
    png_bytep *rows;           // row pointers of the full decode
    png_bytep pass_row;        // one reduced-width row of an Adam7 pass, or one source row
    uint32_t *sums;            // the reduced read's sums: 32-bit block sums with alpha, 16-bit column sums without (png_reduce.c)
};

/// Records a failure (status and message), marks the context failed and returns the status.
fg_status fg_png_fail(fg_png *ctx, fg_status status, const char *text);
/// After png_read_update_info: the row layout must be width * channels bytes of 8 bits (png_error if not).
void fg_png_check_layout(fg_png *ctx);

#endif
