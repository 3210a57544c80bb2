// Writes the test ICC profiles with LittleCMS 2 from the published primaries, white points and
// tone curves (facts from the specifications, no profile file copied): see make.sh.
#include <lcms2.h>
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

    // Grey with a gamma of 1.8 (as old Mac greyscale profiles), D50.
    cmsToneCurve *gamma18 = cmsBuildGamma(NULL, 1.8);
    failed |= save(cmsCreateGrayProfile(cmsD50_xyY(), gamma18), "Grey gamma 1.8 (test)", "gray-gamma18.icc");

    // sRGB itself, for tools that need an explicit source profile (ImageMagick's -profile).
    failed |= save(cmsCreate_sRGBProfile(), "sRGB (LittleCMS built-in)", "srgb.icc");

    cmsFreeToneCurve(gamma22);
    cmsFreeToneCurve(srgbCurve);
    cmsFreeToneCurve(gamma18);
    return failed;
}
