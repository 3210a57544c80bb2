#ifndef FG_CCODECS_H
#define FG_CCODECS_H
// The C side of the imaging codecs. libjpeg and libpng report fatal errors by longjmp; every entry
// point below owns its own setjmp, so a longjmp never crosses a Swift frame. Swift sees only plain
// status codes, opaque contexts and POD structs.
#include <stddef.h>
#include <stdint.h>

/// Outcome of a codec call. Anything but FG_OK comes with a message (fg_*_message).
typedef enum {
    FG_OK = 0,
    FG_ERR_TRUNCATED = 1,    ///< the data ends before the image does
    FG_ERR_CORRUPT = 2,      ///< malformed data
    FG_ERR_UNSUPPORTED = 3,  ///< valid but a feature we do not decode (12-bit, lossless, ...)
    FG_ERR_TOO_LARGE = 4,    ///< over a limit (pixels, scans, memory, libjpeg's 65500)
    FG_ERR_NO_MEMORY = 5,    ///< an allocation failed
    FG_ERR_USAGE = 6         ///< entry points called out of order (a bug on our side)
} fg_status;

/// Guards checked from the header before any pixel buffer exists. 0 means "no limit".
typedef struct {
    uint64_t max_pixels;      ///< source width * height
    uint32_t max_scans;       ///< progressive JPEG scans
    uint64_t max_memory;      ///< libjpeg's own working memory (cinfo->mem->max_memory_to_use)
    int allow_truncated;      ///< decode JPEG data cut inside its scans (libjpeg pads it) instead of failing
} fg_limits;

// MARK: JPEG decode

/// JPEG colour space as stored in the file.
typedef enum {
    FG_JCS_UNKNOWN = 0, FG_JCS_GRAY = 1, FG_JCS_RGB = 2, FG_JCS_YCBCR = 3, FG_JCS_CMYK = 4, FG_JCS_YCCK = 5
} fg_jpeg_colorspace;

typedef struct {
    uint32_t width, height;     ///< as in SOF (also filled on FG_ERR_TOO_LARGE when known)
    int components;             ///< components in the frame
    int colorspace;             ///< fg_jpeg_colorspace
    int adobe_transform;        ///< APP14 transform flag, -1 when there is no Adobe marker
    int progressive;            ///< SOF2/SOF10
    int arithmetic;             ///< SOF9/SOF10
    int precision;              ///< sample precision in bits
    const uint8_t *icc;         ///< the ICC profile from the APP2 ICC_PROFILE segments, or NULL (owned by ctx)
    uint32_t icc_length;
} fg_jpeg_header;

typedef struct {
    uint32_t width, height;     ///< decoded size at the chosen scale
    int channels;               ///< 1 (grey), 3 (RGB; CMYK is converted) or 4 (CMYK kept, see fg_jpeg_keep_cmyk)
    int dc_only;                ///< 1 when the DC-only progressive fast path will be used
    int cmyk_inverted;          ///< kept CMYK is stored inverted (Adobe APP14: 255 = no ink)
} fg_jpeg_output;

typedef struct fg_jpeg fg_jpeg;

fg_jpeg *fg_jpeg_create(void);
void fg_jpeg_destroy(fg_jpeg *ctx);
/// The last error's text (libjpeg's own message when it came from libjpeg). Never NULL.
const char *fg_jpeg_message(const fg_jpeg *ctx);
/// Parses the markers up to the first SOS. `data` must stay valid until fg_jpeg_destroy.
fg_status fg_jpeg_read_header(fg_jpeg *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                              fg_jpeg_header *out);
/// The output size at scale_num/scale_denom (1/1, 1/2, 1/4, 1/8, or M/8), computed by jpeg_calc_output_dimensions.
fg_status fg_jpeg_output_size(fg_jpeg *ctx, int scale_num, int scale_denom, uint32_t *width, uint32_t *height);
/// Fixes the scale and starts decompression. With dc_only_ok, a progressive file at 1/8 uses the
/// DC-only path: it stops reading scans as soon as every coefficient the 1/8 output reads is final
/// (only the DC for components with a 1x1 IDCT; all of them for chroma libjpeg-turbo scales 2x2).
fg_status fg_jpeg_start(fg_jpeg *ctx, int scale_num, int scale_denom, int dc_only_ok, fg_jpeg_output *out);
/// Before fg_jpeg_start: a CMYK or YCCK file decodes to its 4 CMYK channels (for a colour profile to
/// convert) instead of our naive RGB. No effect on other colour spaces.
void fg_jpeg_keep_cmyk(fg_jpeg *ctx);
/// Writes all output rows into dst, `stride` bytes apart (at least width * channels).
fg_status fg_jpeg_read(fg_jpeg *ctx, uint8_t *dst, size_t stride);
/// Scans the decoder consumed so far (0 before fg_jpeg_start).
int fg_jpeg_scans_read(const fg_jpeg *ctx);
/// Warnings libjpeg emitted (corrupt-data warnings that were tolerated).
int fg_jpeg_warnings(const fg_jpeg *ctx);
/// 1 after a successful fg_jpeg_read when the data ended without an EOI marker but every scan the
/// image needs was complete (a missing end marker, not a truncated image).
int fg_jpeg_missing_eoi(const fg_jpeg *ctx);

// MARK: PNG decode

typedef struct {
    uint32_t width, height;     ///< from IHDR
    int bit_depth;              ///< IHDR bit depth
    int color_type;             ///< IHDR colour type (PNG_COLOR_TYPE_*)
    int interlaced;             ///< Adam7
    int channels;               ///< output channels after expansion: 1, 2, 3 or 4 (8 bits each)
    const uint8_t *exif;        ///< eXIf chunk payload seen before IDAT, or NULL (owned by ctx)
    uint32_t exif_length;
    // Colour: an iCCP profile wins over sRGB, which wins over gAMA (+ cHRM), as the PNG spec says.
    const uint8_t *icc;         ///< the iCCP profile, decompressed, or NULL (owned by ctx)
    uint32_t icc_length;
    int srgb;                   ///< an sRGB chunk (and no iCCP)
    double gamma;               ///< gAMA (file gamma, e.g. 0.45455) when there is no iCCP or sRGB; 0 when none
    int has_chrm;               ///< chrm holds cHRM (with gamma only)
    double chrm[8];             ///< white x, y, red x, y, green x, y, blue x, y
} fg_png_header;

typedef struct fg_png fg_png;

fg_png *fg_png_create(void);
void fg_png_destroy(fg_png *ctx);
const char *fg_png_message(const fg_png *ctx);
/// Reads the signature and chunks up to the first IDAT and sets up 8-bit expansion.
fg_status fg_png_read_header(fg_png *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                             fg_png_header *out);
/// Decodes the full image into dst (height rows, `stride` bytes apart).
fg_status fg_png_read(fg_png *ctx, uint8_t *dst, size_t stride);
/// For an Adam7 image: reads only passes 1 (stride 8), 1-3 (stride 4) or 1-5 (stride 2) and writes the
/// reduced grid, ceil(width/stride) x ceil(height/stride) pixels, into dst. Pixel (i, j) of the grid
/// is source pixel (i*stride, j*stride).
fg_status fg_png_read_subsampled(fg_png *ctx, int stride_px, uint8_t *dst, size_t stride);
/// Decodes row by row into factor x factor block averages (2...64; alpha-weighted when there is
/// alpha), ceil(width/factor) x ceil(height/factor) pixels into dst, never holding the full-size
/// image when the whole-stream path takes it. An Adam7 image must pass fg_png_deinterlace_fits.
fg_status fg_png_read_reduced(fg_png *ctx, int factor, uint8_t *dst, size_t stride);
/// After the header: 1 for an Adam7 image that fg_png_read_reduced can take within the memory
/// bound (its filtered passes and its full-size 8-bit image both fit 128 MiB and max_memory), 0 else.
int fg_png_deinterlace_fits(const fg_png *ctx);
/// Images whose filtered data fits the bound in png_internal.h are read by inflating
/// the whole IDAT stream at once (libdeflate) instead of through libpng's rows, with the same
/// pixels; `allow` 0 turns that off (the tests compare both). Call before reading.
void fg_png_set_whole_stream(fg_png *ctx, int allow);
/// 1 when the last read went through the whole-stream path.
int fg_png_used_whole_stream(const fg_png *ctx);
/// Bytes the whole-stream path's buffers hold now across the process (every decode's, taken from a
/// shared budget and given back when the decode ends, whether it succeeded or not).
uint64_t fg_png_whole_budget_held(void);

// MARK: WebP decode (libwebp reports errors by status codes; no longjmp)

typedef struct {
    uint32_t width, height;     ///< the image, or an animation's canvas
    int has_alpha;
    int animated;               ///< only the first frame is decoded
    int frames;                 ///< frames the container lists (0 when unknown)
    int lossless;               ///< VP8L
    uint32_t exif_offset, exif_length;  ///< the EXIF chunk's payload within the data (length 0: none)
    uint32_t icc_offset, icc_length;    ///< the ICCP chunk's payload within the data (length 0: none)
} fg_webp_header;

/// Reads the features and chunks; refuses more than limits->max_pixels before anything is allocated.
fg_status fg_webp_read_header(const uint8_t *data, size_t len, const fg_limits *limits, fg_webp_header *out,
                              char *message, size_t message_cap);
/// Decodes into dst (out_h rows, `stride` bytes apart), 3 (RGB) or 4 (RGBA) channels. A still image is
/// scaled by libwebp to out_w x out_h; an animation's first frame decodes at canvas size.
fg_status fg_webp_decode(const uint8_t *data, size_t len, const fg_webp_header *header, uint32_t out_w,
                         uint32_t out_h, int channels, uint8_t *dst, size_t stride, char *message,
                         size_t message_cap);

// MARK: GIF decode (giflib reports errors by return codes; no longjmp)

typedef struct {
    uint32_t width, height;     ///< the canvas: the logical screen (the frame's extent when that is 0)
    uint32_t frame_left, frame_top, frame_width, frame_height;  ///< the first image on the canvas
    int interlaced;
    int has_alpha;              ///< a transparent index, or a frame that leaves part of the canvas empty
    int channels;               ///< 3 (RGB) or 4 (RGBA, when has_alpha)
} fg_gif_header;

typedef struct fg_gif fg_gif;

fg_gif *fg_gif_create(void);
void fg_gif_destroy(fg_gif *ctx);
const char *fg_gif_message(const fg_gif *ctx);
/// Reads the screen descriptor and the records up to the first image descriptor; refuses a screen or
/// frame over limits->max_pixels before anything is decoded. `data` must stay valid until destroy.
fg_status fg_gif_read_header(fg_gif *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                             fg_gif_header *out);
/// Decodes the first image onto the transparent canvas in dst (height rows, `stride` bytes apart).
fg_status fg_gif_read(fg_gif *ctx, uint8_t *dst, size_t stride);

// MARK: Encoders

/// Frees a buffer returned by an encoder.
void fg_free(void *p);

/// libjpeg's large blocks (jpeg_memory.c): from now on, a block of `threshold` bytes or more is advised for
/// huge pages (0: never; set it only where malloc maps such blocks on their own, as HugePages does).
void fg_jpeg_advise_large_buffers(size_t threshold);
/// Large blocks libjpeg has taken through our jpeg_get_large so far (for tests).
unsigned long fg_jpeg_large_blocks(void);

/// Encodes 8-bit pixels with `channels` 1 (grey), 2 (grey+alpha), 3 (RGB) or 4 (RGBA) as a baseline
/// JPEG (progressive when asked). Alpha is flattened onto white. On success *out is malloc'd (free
/// with fg_free).
fg_status fg_jpeg_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                         int quality, int optimize_coding, int progressive, uint8_t **out, size_t *out_len,
                         char *message, size_t message_cap);

/// Encodes 8-bit pixels (1 to 4 channels) as PNG. On success *out is malloc'd (free with fg_free).
fg_status fg_png_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                        uint8_t **out, size_t *out_len, char *message, size_t message_cap);

/// The same PNG as fg_png_encode (adaptive filters, an sRGB chunk) at zlib `level` 0...9 instead of
/// libpng's default (6): lower levels compress faster into larger files. On success *out is malloc'd.
fg_status fg_png_encode_level(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                              int level, uint8_t **out, size_t *out_len, char *message, size_t message_cap);

/// Encodes 8-bit pixels (1 to 4 channels; grey is widened to RGB) as lossy WebP at `quality`
/// (0...100), keeping alpha when there is some. On success *out is malloc'd (free with fg_free).
fg_status fg_webp_encode(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                         int quality, uint8_t **out, size_t *out_len, char *message, size_t message_cap);

#endif
