// Writes the test ICC profiles with LittleCMS 2 from the published primaries, white points and
// tone curves (facts from the specifications, no profile file copied): see make.sh.
#include <lcms2.h>
#include <math.h>
#include <stdio.h>

static int save(cmsHPROFILE p, const char *description, const char *path) {
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(mlu, "en", "US", description);
    cmsWriteTag(p, cmsSigProfileDescriptionTag, mlu);
    cmsMLUfree(mlu);
    int ok = cmsSaveProfileToFile(p, path);
    cmsCloseProfile(p);
    if (!ok) fprintf(stderr, "cannot write %s\n", path);
    return ok ? 0 : 1;
}

// A CMYK printer-like profile for the CMYK tests: A2B0 only (CMYK -> Lab), sampled from the naive
// conversion R = (1 - C)(1 - K) made darker and warmer (a gamma of 1.4 and less blue), so a
// decoder that ignores it is visibly off.
static int sample_cmyk(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    cmsHTRANSFORM toLab = cargo;
    double c = in[0] / 65535.0, m = in[1] / 65535.0, y = in[2] / 65535.0, k = in[3] / 65535.0;
    double rgb[3] = { (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k) };
    for (int i = 0; i < 3; i++) rgb[i] = pow(rgb[i], 1.4);
    rgb[2] *= 0.85;
    cmsCIELab lab;
    cmsDoTransform(toLab, rgb, &lab, 1);
    cmsFloat2LabEncodedV2(out, &lab);
    return 1;
}

static cmsHPROFILE cmyk_profile(void) {
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), labProfile = cmsCreateLab4Profile(NULL);
    cmsHTRANSFORM toLab = cmsCreateTransform(srgb, TYPE_RGB_DBL, labProfile, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsHPROFILE p = cmsCreateProfilePlaceholder(NULL);
    cmsSetProfileVersion(p, 2.1);  // lut16 (mft2) holds a bare CLUT; mAB would want curves around it
    cmsSetDeviceClass(p, cmsSigOutputClass);
    cmsSetColorSpace(p, cmsSigCmykData);
    cmsSetPCS(p, cmsSigLabData);
    cmsPipeline *pipe = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *clut = cmsStageAllocCLut16bit(NULL, 9, 4, 3, NULL);
    cmsStageSampleCLut16bit(clut, sample_cmyk, toLab, 0);
    cmsPipelineInsertStage(pipe, cmsAT_END, clut);
    cmsWriteTag(p, cmsSigAToB0Tag, pipe);
    cmsWriteTag(p, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    cmsPipelineFree(pipe);
    cmsDeleteTransform(toLab);
    cmsCloseProfile(srgb);
    cmsCloseProfile(labProfile);
    return p;
}

int main(void) {
    cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    int failed = 0;

    // Adobe RGB (1998): its primaries, D65, a pure gamma of 563/256 (2.19921875).
    cmsCIExyYTRIPLE adobe = { { 0.64, 0.33, 1.0 }, { 0.21, 0.71, 1.0 }, { 0.15, 0.06, 1.0 } };
    cmsToneCurve *gamma22 = cmsBuildGamma(NULL, 563.0 / 256.0);
    cmsToneCurve *adobeCurves[3] = { gamma22, gamma22, gamma22 };
    failed |= save(cmsCreateRGBProfile(&d65, &adobe, adobeCurves), "Adobe RGB (1998) compatible (test)",
                   "adobe-rgb-compatible.icc");

    // Display P3: DCI-P3 primaries, D65, sRGB's tone curve.
    cmsCIExyYTRIPLE p3 = { { 0.680, 0.320, 1.0 }, { 0.265, 0.690, 1.0 }, { 0.150, 0.060, 1.0 } };
    const cmsFloat64Number srgb[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
    cmsToneCurve *srgbCurve = cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *p3Curves[3] = { srgbCurve, srgbCurve, srgbCurve };
    failed |= save(cmsCreateRGBProfile(&d65, &p3, p3Curves), "Display P3 compatible (test)",
                   "display-p3-compatible.icc");

    // L*-RGB (as eciRGB v2): its primaries, D50, the CIE L* tone curve (ICC parametric type 4:
    // Y = ((100 X + 16) / 116)^3 above X = 0.08, X / 9.033 below), whose shadows are far from sRGB's.
    cmsCIExyYTRIPLE eci = { { 0.67, 0.33, 1.0 }, { 0.21, 0.71, 1.0 }, { 0.14, 0.08, 1.0 } };
    const cmsFloat64Number lstar[5] = { 3.0, 100.0 / 116.0, 16.0 / 116.0, 100.0 / 903.2962963, 0.08 };
    cmsToneCurve *lstarCurve = cmsBuildParametricToneCurve(NULL, 4, lstar);
    cmsToneCurve *lstarCurves[3] = { lstarCurve, lstarCurve, lstarCurve };
    failed |= save(cmsCreateRGBProfile(cmsD50_xyY(), &eci, lstarCurves), "L*-RGB compatible (test)", "lstar-rgb.icc");

    // Grey with a gamma of 1.8 (as old Mac greyscale profiles), D50.
    cmsToneCurve *gamma18 = cmsBuildGamma(NULL, 1.8);
    failed |= save(cmsCreateGrayProfile(cmsD50_xyY(), gamma18), "Grey gamma 1.8 (test)", "gray-gamma18.icc");

    // sRGB itself, for tools that need an explicit source profile (ImageMagick's -profile).
    failed |= save(cmsCreate_sRGBProfile(), "sRGB (LittleCMS built-in)", "srgb.icc");

    failed |= save(cmyk_profile(), "CMYK darker and warmer than naive (test)", "cmyk-warm.icc");

    cmsFreeToneCurve(gamma22);
    cmsFreeToneCurve(srgbCurve);
    cmsFreeToneCurve(gamma18);
    cmsFreeToneCurve(lstarCurve);
    return failed;
}
