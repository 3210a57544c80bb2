// The codec floor for Scripts/bench-thumbnails: a plain C program that decodes each file the
// cheapest way the codecs allow for a 256 px thumbnail (libjpeg-turbo with the largest DCT
// reduction that keeps the size, libpng full decode with 8-bit expansion) and does nothing else.
// It is what "the codecs' own decode time" means in the benchmark.
//
// With `-o DIR` (Scripts/bench-cost) it is a whole plain C thumbnailer instead: after the same decode it
// resizes to the exact 256 px size with a separable Lanczos3 filter (float, weights computed per image,
// the plain way), encodes the thumbnail (libjpeg-turbo Q85, or PNG for PNG input) and writes it to
// DIR/NAME with fopen/fwrite/fclose, one file per photo.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <png.h>
#include <math.h>

static const char *outdir;  // -o DIR: write thumbnails there

// Lanczos3 taps of one axis, in -> out (support widened by the reduction factor).
typedef struct { int *first, *count, stride; float *w; } taps;
static taps make_taps(int in, int out) {
  double scale = (double)in / out, fs = scale > 1 ? scale : 1, support = 3 * fs;
  taps t; t.stride = (int)ceil(support * 2) + 2;
  t.first = malloc(sizeof(int) * out); t.count = malloc(sizeof(int) * out); t.w = calloc((size_t)out * t.stride, sizeof(float));
  for (int i = 0; i < out; i++) {
    double c = (i + 0.5) * scale, sum = 0;
    int lo = (int)floor(c - support), hi = (int)ceil(c + support);
    if (lo < 0) lo = 0;
    if (hi > in) hi = in;
    if (hi <= lo) { lo = lo < in - 1 ? lo : in - 1; hi = lo + 1; }
    t.first[i] = lo; t.count[i] = hi - lo;
    for (int x = lo; x < hi; x++) {
      double d = (x + 0.5 - c) / fs, v = d == 0 ? 1 : (fabs(d) >= 3 ? 0 : 3 * sin(M_PI * d) * sin(M_PI * d / 3) / (M_PI * M_PI * d * d));
      t.w[i * t.stride + x - lo] = (float)v; sum += v;
    }
    for (int k = 0; k < hi - lo; k++) t.w[i * t.stride + k] /= (float)(sum == 0 ? 1 : sum);
  }
  return t;
}
static void free_taps(taps t) { free(t.first); free(t.count); free(t.w); }

// Separable resize of 8-bit pixels with n channels, w x h -> tw x th.
static unsigned char *resize(const unsigned char *src, int w, int h, int n, int tw, int th) {
  taps hx = make_taps(w, tw), vy = make_taps(h, th);
  float *mid = malloc(sizeof(float) * (size_t)tw * n * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < tw; x++)
      for (int c = 0; c < n; c++) {
        float s = 0; const unsigned char *p = src + ((size_t)y * w + hx.first[x]) * n + c;
        for (int k = 0; k < hx.count[x]; k++) s += p[k * n] * hx.w[x * hx.stride + k];
        mid[((size_t)y * tw + x) * n + c] = s;
      }
  unsigned char *dst = malloc((size_t)tw * th * n);
  for (int y = 0; y < th; y++)
    for (int i = 0; i < tw * n; i++) {
      float s = 0;
      for (int k = 0; k < vy.count[y]; k++) s += mid[(size_t)(vy.first[y] + k) * tw * n + i] * vy.w[y * vy.stride + k];
      s += 0.5f; dst[(size_t)y * tw * n + i] = s < 0 ? 0 : s > 255 ? 255 : (unsigned char)s;
    }
  free(mid); free_taps(hx); free_taps(vy); return dst;
}

static FILE *create(const char *name, const char *ext) {
  const char *base = strrchr(name, '/'); base = base ? base + 1 : name;
  char path[4096]; snprintf(path, sizeof path, "%s/%.*s.%s", outdir, (int)(strcspn(base, ".")), base, ext);
  return fopen(path, "wb");
}

static int write_jpeg(const char *name, const unsigned char *px, int w, int h, int n) {
  FILE *f = create(name, "jpg"); if (!f) return 1;
  struct jpeg_compress_struct ci; struct jpeg_error_mgr je;
  ci.err = jpeg_std_error(&je); jpeg_create_compress(&ci); jpeg_stdio_dest(&ci, f);
  ci.image_width = w; ci.image_height = h; ci.input_components = n; ci.in_color_space = n == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&ci); jpeg_set_quality(&ci, 85, TRUE); jpeg_start_compress(&ci, TRUE);
  while (ci.next_scanline < ci.image_height) { JSAMPROW r = (JSAMPROW)(px + (size_t)ci.next_scanline * w * n); jpeg_write_scanlines(&ci, &r, 1); }
  jpeg_finish_compress(&ci); jpeg_destroy_compress(&ci); return fclose(f) != 0;
}

static void fit(int w, int h, int target, int *tw, int *th) {
  int lng = w > h ? w : h;
  if (lng <= target) { *tw = w; *th = h; return; }
  *tw = w >= h ? target : (int)(((long)w * target * 2 + lng) / (lng * 2));
  *th = w >= h ? (int)(((long)h * target * 2 + lng) / (lng * 2)) : target;
  if (*tw < 1) *tw = 1;
  if (*th < 1) *th = 1;
}

struct jerr { struct jpeg_error_mgr pub; jmp_buf jb; };
static void jexit(j_common_ptr c) { longjmp(((struct jerr *)c->err)->jb, 1); }

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb"); if (!f) return NULL;
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(len); *n = fread(b, 1, len, f); fclose(f); return b;
}

static int jpeg(const unsigned char *d, size_t n, int target, const char *name) {
  struct jpeg_decompress_struct ci; struct jerr je;
  ci.err = jpeg_std_error(&je.pub); je.pub.error_exit = jexit;
  unsigned char *row = NULL;
  if (setjmp(je.jb)) { jpeg_destroy_decompress(&ci); free(row); return 1; }
  jpeg_create_decompress(&ci); jpeg_mem_src(&ci, d, n); jpeg_read_header(&ci, TRUE);
  int w = ci.image_width, h = ci.image_height, lng = w > h ? w : h;
  int tw = (int)((double)w * target / lng + 0.5), th = (int)((double)h * target / lng + 0.5);
  if (tw < 1) tw = 1;
  if (th < 1) th = 1;
  ci.scale_num = 1; ci.scale_denom = 1;
  for (int dn = 8; dn >= 2; dn /= 2) { if ((w + dn - 1) / dn >= tw && (h + dn - 1) / dn >= th) { ci.scale_denom = dn; break; } }
  if (ci.jpeg_color_space == JCS_CMYK || ci.jpeg_color_space == JCS_YCCK) ci.out_color_space = JCS_CMYK;
  if (outdir && ci.num_components == 3) ci.out_color_space = JCS_RGB;
  jpeg_start_decompress(&ci);
  size_t stride = (size_t)ci.output_width * ci.output_components;
  unsigned char *img = malloc(stride * ci.output_height);
  while (ci.output_scanline < ci.output_height) { JSAMPROW r = img + stride * ci.output_scanline; jpeg_read_scanlines(&ci, &r, 1); }
  jpeg_finish_decompress(&ci); jpeg_destroy_decompress(&ci);
  int fails = 0;
  if (outdir && (ci.output_components == 1 || ci.output_components == 3)) {
    int fw, fh; fit(w, h, target, &fw, &fh);
    unsigned char *t = resize(img, ci.output_width, ci.output_height, ci.output_components, fw, fh);
    fails = write_jpeg(name, t, fw, fh, ci.output_components); free(t);
  }
  free(img); return fails;
}

static int png(const unsigned char *d, size_t n, int target, const char *name) {
  png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&im, d, n)) return 1;
  im.format = (im.format & PNG_FORMAT_FLAG_ALPHA) ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  unsigned char *buf = malloc(PNG_IMAGE_SIZE(im));
  int ok = png_image_finish_read(&im, NULL, buf, 0, NULL);
  if (ok && outdir) {
    int ch = PNG_IMAGE_SAMPLE_CHANNELS(im.format), fw, fh; fit(im.width, im.height, target, &fw, &fh);
    unsigned char *t = resize(buf, im.width, im.height, ch, fw, fh);
    FILE *f = create(name, "png");
    png_image out; memset(&out, 0, sizeof out); out.version = PNG_IMAGE_VERSION;
    out.width = fw; out.height = fh; out.format = im.format;
    ok = f && png_image_write_to_stdio(&out, f, 0, t, 0, NULL);
    if (f && fclose(f) != 0) ok = 0;
    free(t);
  }
  free(buf); png_image_free(&im); return !ok;
}

int main(int argc, char **argv) {
  int fails = 0, first = 1;
  if (argc > 2 && strcmp(argv[1], "-o") == 0) { outdir = argv[2]; first = 3; }
  for (int i = first; i < argc; i++) {
    size_t n; unsigned char *d = slurp(argv[i], &n); if (!d) { fails++; continue; }
    if (n > 3 && d[0] == 0xFF && d[1] == 0xD8) fails += jpeg(d, n, 256, argv[i]);
    else if (n > 8 && d[0] == 0x89 && d[1] == 'P') fails += png(d, n, 256, argv[i]);
    else fails++;
    free(d);
  }
  fprintf(stderr, "codec-floor: %d files, %d failed\n", argc - first, fails);
  return fails ? 1 : 0;
}
