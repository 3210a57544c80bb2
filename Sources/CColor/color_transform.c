// LittleCMS 2 transforms to sRGB. Every transform is built with cmsFLAGS_NOCACHE: the one-pixel
// cache is the only state cmsDoTransform writes, so without it one transform serves every worker
// thread at once (the cache in Swift shares one per profile).
#include "ccolor.h"

#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fg_color_transform {
    cmsContext context;
    cmsHTRANSFORM transform;
    int output_channels;
    char message[256];
};

static void on_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    struct fg_color_transform *t = cmsGetContextUserData(context);
    if (t && !t->message[0]) snprintf(t->message, sizeof t->message, "%s", text);
}

static cmsUInt32Number format_of(int layout) {
    switch (layout) {
    case FG_LAYOUT_GRAY: return TYPE_GRAY_8;
    case FG_LAYOUT_GRAYA: return TYPE_GRAYA_8;
    case FG_LAYOUT_RGB: return TYPE_RGB_8;
    case FG_LAYOUT_RGBA: return TYPE_RGBA_8;
    case FG_LAYOUT_CMYK: return TYPE_CMYK_8;
    case FG_LAYOUT_CMYK_INV: return TYPE_CMYK_8_REV;
    default: return 0;
    }
}

// sRGB's tone curve as an ICC parametric curve (type 4), for the grey output profile.
static cmsToneCurve *srgb_curve(cmsContext c) {
    const cmsFloat64Number p[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
    return cmsBuildParametricToneCurve(c, 4, p);
}

static cmsHPROFILE output_profile(cmsContext c, int layout) {
    if (layout == FG_LAYOUT_GRAY || layout == FG_LAYOUT_GRAYA) {
        cmsToneCurve *curve = srgb_curve(c);
        if (!curve) return NULL;
        cmsHPROFILE p = cmsCreateGrayProfileTHR(c, cmsD50_xyY(), curve);
        cmsFreeToneCurve(curve);
        return p;
    }
    return cmsCreate_sRGBProfileTHR(c);
}

// Whether the transform moves any value of a sample grid by more than one level (grey: every
// level; colour: a 17^3 grid), i.e. whether it is worth applying at all.
static int is_identity(const fg_color_transform *t, int layout) {
    if (layout == FG_LAYOUT_CMYK || layout == FG_LAYOUT_CMYK_INV) return 0;
    int grey = layout == FG_LAYOUT_GRAY || layout == FG_LAYOUT_GRAYA;
    int in_ch = layout == FG_LAYOUT_GRAY ? 1 : layout == FG_LAYOUT_GRAYA ? 2 : layout == FG_LAYOUT_RGB ? 3 : 4;
    enum { STEPS = 17, N = STEPS * STEPS * STEPS };
    static const int levels[STEPS] = { 0, 16, 32, 48, 64, 80, 96, 112, 128, 143, 159, 175, 191, 207, 223, 239, 255 };
    int count = grey ? 256 : N;
    uint8_t *src = malloc((size_t)count * 4), *dst = malloc((size_t)count * 4);
    int same = src && dst;
    if (same) {
        for (int i = 0; i < count; i++) {
            uint8_t *px = src + (size_t)i * in_ch;
            if (grey) {
                px[0] = (uint8_t)i;
            } else {
                px[0] = (uint8_t)levels[i / (STEPS * STEPS)];
                px[1] = (uint8_t)levels[i / STEPS % STEPS];
                px[2] = (uint8_t)levels[i % STEPS];
            }
            if (in_ch == 2 || in_ch == 4) px[in_ch - 1] = 255;
        }
        cmsDoTransform(t->transform, src, dst, (cmsUInt32Number)count);
        for (int i = 0; i < count * in_ch && same; i++) {
            int d = (int)src[i] - (int)dst[i];
            if (d > 1 || d < -1) same = 0;
        }
    }
    free(src);
    free(dst);
    return same;
}

// Takes ownership of `input`; NULL (with the reason in `message`) when no transform could be made.
static fg_color_transform *make(fg_color_transform *t, cmsHPROFILE input, int layout, int *identity,
                                char *message, size_t cap) {
    *identity = 0;
    cmsUInt32Number in_format = format_of(layout);
    cmsHPROFILE output = NULL;
    if (!input) {
        snprintf(message, cap, "unreadable profile: %s", t->message[0] ? t->message : "LittleCMS could not open it");
        goto fail;
    }
    if (!in_format) {
        snprintf(message, cap, "unknown pixel layout %d", layout);
        goto fail;
    }
    output = output_profile(t->context, layout);
    int grey = layout == FG_LAYOUT_GRAY || layout == FG_LAYOUT_GRAYA;
    int alpha = layout == FG_LAYOUT_GRAYA || layout == FG_LAYOUT_RGBA;
    cmsUInt32Number out_format = grey ? (alpha ? TYPE_GRAYA_8 : TYPE_GRAY_8) : (alpha ? TYPE_RGBA_8 : TYPE_RGB_8);
    t->output_channels = (grey ? 1 : 3) + alpha;
    if (output) {
        cmsUInt32Number flags = cmsFLAGS_NOCACHE | (alpha ? cmsFLAGS_COPY_ALPHA : 0);
        t->transform = cmsCreateTransformTHR(t->context, input, in_format, output, out_format,
                                             INTENT_PERCEPTUAL, flags);
    }
    if (!t->transform) {
        snprintf(message, cap, "no transform to sRGB: %s", t->message[0] ? t->message : "LittleCMS refused the profile");
        goto fail;
    }
    cmsCloseProfile(input);
    cmsCloseProfile(output);
    *identity = is_identity(t, layout);
    return t;
fail:
    if (input) cmsCloseProfile(input);
    if (output) cmsCloseProfile(output);
    fg_color_transform_destroy(t);
    return NULL;
}

static fg_color_transform *new_transform(char *message, size_t cap) {
    fg_color_transform *t = calloc(1, sizeof *t);
    if (t) t->context = cmsCreateContext(NULL, t);
    if (!t || !t->context) {
        snprintf(message, cap, "out of memory for a colour transform");
        free(t);
        return NULL;
    }
    cmsSetLogErrorHandlerTHR(t->context, on_error);
    return t;
}

fg_color_transform *fg_color_transform_from_icc(const uint8_t *icc, size_t len, int layout, int *identity,
                                                char *message, size_t cap) {
    *identity = 0;
    if (message && cap) message[0] = 0;
    fg_color_transform *t = new_transform(message, cap);
    if (!t) return NULL;
    cmsHPROFILE input = icc && len ? cmsOpenProfileFromMemTHR(t->context, icc, (cmsUInt32Number)len) : NULL;
    return make(t, input, layout, identity, message, cap);
}

fg_color_transform *fg_color_transform_from_png(double gamma, const double *chrm, int layout, int *identity,
                                                char *message, size_t cap) {
    *identity = 0;
    if (message && cap) message[0] = 0;
    fg_color_transform *t = new_transform(message, cap);
    if (!t) return NULL;
    cmsHPROFILE input = NULL;
    // gAMA is the encoding exponent (0.45455 for 1/2.2); the decoding curve is its inverse.
    cmsToneCurve *curve = gamma > 0.01 && gamma < 100 ? cmsBuildGamma(t->context, 1.0 / gamma) : NULL;
    if (curve) {
        cmsCIExyY white = { 0.3127, 0.3290, 1.0 };
        cmsCIExyYTRIPLE primaries = { { 0.64, 0.33, 1.0 }, { 0.30, 0.60, 1.0 }, { 0.15, 0.06, 1.0 } };
        if (chrm) {
            white = (cmsCIExyY){ chrm[0], chrm[1], 1.0 };
            primaries = (cmsCIExyYTRIPLE){ { chrm[2], chrm[3], 1.0 }, { chrm[4], chrm[5], 1.0 }, { chrm[6], chrm[7], 1.0 } };
        }
        if (layout == FG_LAYOUT_GRAY || layout == FG_LAYOUT_GRAYA) {
            input = cmsCreateGrayProfileTHR(t->context, cmsD50_xyY(), curve);
        } else {
            cmsToneCurve *curves[3] = { curve, curve, curve };
            input = cmsCreateRGBProfileTHR(t->context, &white, &primaries, curves);
        }
        cmsFreeToneCurve(curve);
    } else {
        snprintf(t->message, sizeof t->message, "gAMA %.5f is out of range", gamma);
    }
    return make(t, input, layout, identity, message, cap);
}

fg_color_transform *fg_color_transform_from_cicp(const double *chrm, int transfer, int layout, int *identity,
                                                 char *message, size_t cap) {
    *identity = 0;
    if (message && cap) message[0] = 0;
    fg_color_transform *t = new_transform(message, cap);
    if (!t) return NULL;
    cmsHPROFILE input = NULL;
    cmsToneCurve *curve = NULL;
    if (transfer == 1 || transfer == 6 || transfer == 13 || transfer == 14 || transfer == 15) {
        // sRGB's piecewise curve (IEC 61966-2-1), LittleCMS parametric type 4; BT.709's family is shown so too.
        const cmsFloat64Number srgb[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
        curve = cmsBuildParametricToneCurve(t->context, 4, srgb);
    } else if (transfer == 4 || transfer == 5 || transfer == 8) {
        curve = cmsBuildGamma(t->context, transfer == 4 ? 2.2 : transfer == 5 ? 2.8 : 1.0);
    } else {
        snprintf(t->message, sizeof t->message, "nclx transfer characteristics %d are not converted", transfer);
    }
    if (curve && chrm) {
        cmsCIExyY white = { chrm[0], chrm[1], 1.0 };
        cmsCIExyYTRIPLE primaries = { { chrm[2], chrm[3], 1.0 }, { chrm[4], chrm[5], 1.0 }, { chrm[6], chrm[7], 1.0 } };
        if (layout == FG_LAYOUT_GRAY || layout == FG_LAYOUT_GRAYA) {
            input = cmsCreateGrayProfileTHR(t->context, cmsD50_xyY(), curve);
        } else {
            cmsToneCurve *curves[3] = { curve, curve, curve };
            input = cmsCreateRGBProfileTHR(t->context, &white, &primaries, curves);
        }
    }
    if (curve) cmsFreeToneCurve(curve);
    return make(t, input, layout, identity, message, cap);
}

void fg_color_transform_apply(const fg_color_transform *t, const uint8_t *src, size_t src_stride,
                              uint8_t *dst, size_t dst_stride, uint32_t width, uint32_t height) {
    cmsDoTransformLineStride(t->transform, src, dst, width, height, (cmsUInt32Number)src_stride,
                             (cmsUInt32Number)dst_stride, 0, 0);
}

int fg_color_transform_output_channels(const fg_color_transform *t) { return t->output_channels; }

void fg_color_transform_destroy(fg_color_transform *t) {
    if (!t) return;
    if (t->transform) cmsDeleteTransform(t->transform);
    if (t->context) cmsDeleteContext(t->context);
    free(t);
}

void fg_color_profile_description(const uint8_t *icc, size_t len, char *out, size_t cap) {
    if (!cap) return;
    out[0] = 0;
    cmsContext c = cmsCreateContext(NULL, NULL);  // its own context: the default one logs nothing either
    if (!c) return;
    cmsHPROFILE p = icc && len ? cmsOpenProfileFromMemTHR(c, icc, (cmsUInt32Number)len) : NULL;
    if (p) {
        cmsGetProfileInfoASCII(p, cmsInfoDescription, "en", "US", out, (cmsUInt32Number)cap);
        cmsCloseProfile(p);
    }
    cmsDeleteContext(c);
}
