#ifndef FG_CCOLOR_H
#define FG_CCOLOR_H
// The C side of colour management: LittleCMS 2 transforms from a photo's profile to sRGB.
// LittleCMS reports errors by return value (never longjmp); each transform has its own LittleCMS
// context, whose error handler keeps the last message for the caller.
#include <stddef.h>
#include <stdint.h>

/// How the pixels handed to a transform are laid out (8 bits per channel, alpha always last).
typedef enum {
    FG_LAYOUT_GRAY = 1,      ///< grey
    FG_LAYOUT_GRAYA = 2,     ///< grey + alpha (copied unchanged)
    FG_LAYOUT_RGB = 3,       ///< red, green, blue
    FG_LAYOUT_RGBA = 4,      ///< red, green, blue + alpha (copied unchanged)
    FG_LAYOUT_CMYK = 5,      ///< cyan, magenta, yellow, black (0 = no ink)
    FG_LAYOUT_CMYK_INV = 6   ///< inverted CMYK as Adobe writes it (255 = no ink)
} fg_color_layout;

typedef struct fg_color_transform fg_color_transform;

/// A transform from the ICC profile `icc` to sRGB for pixels laid out as `layout`. Grey and
/// grey+alpha go to grey on sRGB's tone curve; RGB(A) and CMYK to sRGB (RGBA keeps its alpha).
/// Returns NULL with the reason in `message` when the profile cannot be read or does not fit the
/// layout. `*identity` is set to 1 when the transform changes no 8-bit value by more than 1 (a
/// profile equivalent to sRGB), so callers can skip it.
fg_color_transform *fg_color_transform_from_icc(const uint8_t *icc, size_t len, int layout, int *identity,
                                                char *message, size_t message_cap);

/// The same from PNG's gAMA (file gamma, e.g. 0.45455) and, when `chrm` is not NULL, cHRM
/// (white x, y, red x, y, green x, y, blue x, y); without cHRM the primaries are sRGB's.
fg_color_transform *fg_color_transform_from_png(double gamma, const double *chrm, int layout, int *identity,
                                                char *message, size_t message_cap);

/// The same from an nclx (ITU-T H.273) declaration of a HEIF or AVIF file: its primaries' `chrm` (as for
/// cHRM, never NULL) and its transfer characteristics code: 1, 6, 13, 14, 15 (sRGB's curve), 4 (gamma
/// 2.2), 5 (gamma 2.8) or 8 (linear). Others (PQ, HLG) return NULL with the reason.
fg_color_transform *fg_color_transform_from_cicp(const double *chrm, int transfer, int layout, int *identity,
                                                 char *message, size_t message_cap);

/// Converts `height` rows of `width` pixels; `src` and `dst` may be the same buffer when the
/// layouts have the same size per pixel. Safe to call from several threads at once.
void fg_color_transform_apply(const fg_color_transform *t, const uint8_t *src, size_t src_stride,
                              uint8_t *dst, size_t dst_stride, uint32_t width, uint32_t height);

/// Channels per output pixel: 1 or 2 for grey input, 3 or 4 otherwise.
int fg_color_transform_output_channels(const fg_color_transform *t);

void fg_color_transform_destroy(fg_color_transform *t);

/// The profile's description tag (ASCII) into `out`, "" when it has none or cannot be read.
void fg_color_profile_description(const uint8_t *icc, size_t len, char *out, size_t cap);

#endif
