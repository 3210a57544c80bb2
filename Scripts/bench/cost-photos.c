// Makes the photo set of Scripts/bench-cost: N real photographs of about 45 KB, derived deterministically
// from the repository's bundled photographs (Sources/GalleryDemo/Resources/demo-photos).
//
// Photo k comes from source k mod S (the sources in the order given). A fixed generator seeded with k picks
// a crop of 35-100% of the source's width with the source's aspect ratio, at any position, and a long edge
// of 620-820 px; the crop is area-averaged down to that size and encoded with libjpeg-turbo at quality
// 72-88 (4:2:0, baseline). Same inputs, same libjpeg-turbo: byte-identical files.
//
// Usage: cost-photos OUTDIR N SOURCE.jpg...   writes OUTDIR/pNNNNN.jpg
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

struct jerr { struct jpeg_error_mgr pub; jmp_buf jb; };
static void jexit(j_common_ptr c) { longjmp(((struct jerr *)c->err)->jb, 1); }

typedef struct { int w, h; unsigned char *rgb; } image;

static int load(const char *path, image *im) {
  FILE *f = fopen(path, "rb"); if (!f) return 1;
  struct jpeg_decompress_struct ci; struct jerr je;
  ci.err = jpeg_std_error(&je.pub); je.pub.error_exit = jexit;
  if (setjmp(je.jb)) { jpeg_destroy_decompress(&ci); fclose(f); return 1; }
  jpeg_create_decompress(&ci); jpeg_stdio_src(&ci, f); jpeg_read_header(&ci, TRUE);
  ci.out_color_space = JCS_RGB;
  jpeg_start_decompress(&ci);
  im->w = ci.output_width; im->h = ci.output_height;
  im->rgb = malloc((size_t)im->w * im->h * 3);
  while (ci.output_scanline < ci.output_height) {
    JSAMPROW r = im->rgb + (size_t)ci.output_scanline * im->w * 3; jpeg_read_scanlines(&ci, &r, 1);
  }
  jpeg_finish_decompress(&ci); jpeg_destroy_decompress(&ci); fclose(f); return 0;
}

static unsigned long long state;
static unsigned next(void) { state = state * 6364136223846793005ULL + 1442695040888963407ULL; return (unsigned)(state >> 33); }
static double uniform(void) { return next() / (double)(1u << 31); }

// Area average of the crop (x0, y0, cw, ch) of src into w x h (integer source rows and columns per cell).
static void shrink(const image *src, int x0, int y0, int cw, int ch, int w, int h, unsigned char *out) {
  for (int y = 0; y < h; y++) {
    int sy0 = y0 + (int)((long)y * ch / h), sy1 = y0 + (int)((long)(y + 1) * ch / h);
    if (sy1 <= sy0) sy1 = sy0 + 1;
    for (int x = 0; x < w; x++) {
      int sx0 = x0 + (int)((long)x * cw / w), sx1 = x0 + (int)((long)(x + 1) * cw / w);
      if (sx1 <= sx0) sx1 = sx0 + 1;
      unsigned long s[3] = {0, 0, 0};
      for (int yy = sy0; yy < sy1; yy++) {
        const unsigned char *p = src->rgb + ((size_t)yy * src->w + sx0) * 3;
        for (int xx = sx0; xx < sx1; xx++, p += 3) { s[0] += p[0]; s[1] += p[1]; s[2] += p[2]; }
      }
      unsigned long n = (unsigned long)(sy1 - sy0) * (sx1 - sx0);
      for (int c = 0; c < 3; c++) out[((size_t)y * w + x) * 3 + c] = (unsigned char)((s[c] + n / 2) / n);
    }
  }
}

static int save(const char *path, const unsigned char *rgb, int w, int h, int quality) {
  FILE *f = fopen(path, "wb"); if (!f) return 1;
  struct jpeg_compress_struct ci; struct jpeg_error_mgr je;
  ci.err = jpeg_std_error(&je); jpeg_create_compress(&ci); jpeg_stdio_dest(&ci, f);
  ci.image_width = w; ci.image_height = h; ci.input_components = 3; ci.in_color_space = JCS_RGB;
  jpeg_set_defaults(&ci); jpeg_set_quality(&ci, quality, TRUE);
  jpeg_start_compress(&ci, TRUE);
  while (ci.next_scanline < ci.image_height) {
    JSAMPROW r = (JSAMPROW)(rgb + (size_t)ci.next_scanline * w * 3); jpeg_write_scanlines(&ci, &r, 1);
  }
  jpeg_finish_compress(&ci); jpeg_destroy_compress(&ci); return fclose(f) != 0;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: cost-photos OUTDIR N SOURCE.jpg...\n"); return 2; }
  const char *dir = argv[1]; int n = atoi(argv[2]), sources = argc - 3;
  image *src = calloc(sources, sizeof *src);
  for (int i = 0; i < sources; i++) if (load(argv[3 + i], &src[i])) { fprintf(stderr, "cannot read %s\n", argv[3 + i]); return 1; }
  unsigned char *out = malloc(820 * 820 * 3);
  char path[4096];
  for (int k = 0; k < n; k++) {
    const image *s = &src[k % sources];
    state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)k; next(); next();
    double fraction = 0.35 + 0.65 * uniform();
    int cw = (int)(s->w * fraction), ch = (int)(s->h * fraction);
    int x0 = (int)((s->w - cw) * uniform()), y0 = (int)((s->h - ch) * uniform());
    int edge = 620 + (int)(200 * uniform());
    int w = cw >= ch ? edge : (int)((long)edge * cw / ch), h = cw >= ch ? (int)((long)edge * ch / cw) : edge;
    int quality = 72 + (int)(17 * uniform());
    shrink(s, x0, y0, cw, ch, w, h, out);
    snprintf(path, sizeof path, "%s/p%05d.jpg", dir, k);
    if (save(path, out, w, h, quality)) { fprintf(stderr, "cannot write %s\n", path); return 1; }
  }
  return 0;
}
