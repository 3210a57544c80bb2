#ifndef FG_CHEIF_H
#define FG_CHEIF_H
// HEIC and AVIF through libheif. libheif reports errors by return values (struct heif_error), never
// longjmp; Swift sees only the fg_status codes of ccodecs.h, an opaque context and POD structs.
#include <stddef.h>
#include <stdint.h>
#include <ccodecs.h>

/// The container's compression of the primary image.
typedef enum { FG_HEIF_HEVC = 1, FG_HEIF_AV1 = 2, FG_HEIF_OTHER = 3 } fg_heif_compression;

/// How the primary image declares its colours.
typedef enum { FG_HEIF_PROFILE_NONE = 0, FG_HEIF_PROFILE_ICC = 1, FG_HEIF_PROFILE_NCLX = 2 } fg_heif_profile;

typedef struct {
    uint32_t width, height;     ///< the primary image as it shows: after irot, imir and clap
    int has_alpha;
    int bit_depth;              ///< luma bits per sample: 8, 10 or 12
    int compression;            ///< fg_heif_compression
    int thumbnails;             ///< thumbnail items of the primary image
    int profile;                ///< fg_heif_profile
    const uint8_t *icc;         ///< the 'colr' ICC profile (owned by the context), or NULL
    uint32_t icc_length;
    int nclx_primaries, nclx_transfer;  ///< CICP codes of an nclx 'colr' box (ITU-T H.273)
    float nclx_chromaticities[8];       ///< white x, y, red x, y, green x, y, blue x, y
    int repaired_brands;        ///< libheif refused the ftyp's brands; read from a copy listing the major brand
} fg_heif_header;

typedef struct fg_heif fg_heif;

fg_heif *fg_heif_create(void);
void fg_heif_destroy(fg_heif *ctx);
/// The last error's text (libheif's own message when it came from libheif). Never NULL.
const char *fg_heif_message(const fg_heif *ctx);

/// Parses the container (boxes only, no pixels) and checks limits->max_pixels against the primary
/// image's size. `data` must stay valid until fg_heif_destroy.
fg_status fg_heif_read_header(fg_heif *ctx, const uint8_t *data, size_t len, const fg_limits *limits,
                              fg_heif_header *out);

/// Chooses what fg_heif_decode decodes: the smallest thumbnail item at least min_w x min_h (as it
/// shows) when use_thumbnails is set and one is, else the primary image. Its size goes to out_w x out_h.
fg_status fg_heif_choose(fg_heif *ctx, uint32_t min_w, uint32_t min_h, int use_thumbnails,
                         uint32_t *out_w, uint32_t *out_h, int *is_thumbnail);

/// Decodes the chosen image, transformations applied, as 8-bit RGB (channels 3) or RGBA (4) into dst
/// (out_h rows of `stride` bytes). 10- and 12-bit samples are rounded to 8 bits (v * 255 / max).
fg_status fg_heif_decode(fg_heif *ctx, int channels, uint8_t *dst, size_t stride);

/// Whether libheif has a decoder for HEVC (HEIC) and for AV1 (AVIF): Debian 13 ships them as plugins.
int fg_heif_can_decode(int compression);
/// Whether libheif has an AV1 encoder (AVIF thumbnails).
int fg_heif_can_encode_avif(void);

/// Encodes 8-bit grey, grey+alpha, RGB or RGBA (channels 1...4; grey is stored as RGB) as an AVIF still
/// image, 4:2:0, one thread (quality 0...100; aom speed 0...9, faster when higher) into a malloc'ed
/// buffer the caller frees with fg_heif_free.
fg_status fg_heif_encode_avif(const uint8_t *src, uint32_t width, uint32_t height, size_t stride, int channels,
                              int quality, int speed, uint8_t **out, size_t *out_len, char *message, size_t cap);
void fg_heif_free(void *pointer);

#endif
