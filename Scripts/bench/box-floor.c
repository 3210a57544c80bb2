// The box-filter floor for Scripts/bench-cost: the plain C thumbnailer a user would write in an
// afternoon, the cheapest honest way to make the same 256 px JPEG thumbnails. For each JPEG:
// libjpeg-turbo decode with the largest DCT reduction (1/2, 1/4, 1/8) that keeps at least the
// thumbnail's size, libjpeg's default settings otherwise; a box filter to the exact size (each
// output pixel the plain average of the input pixels of its rectangle, integer arithmetic); libjpeg
// Q85 encode with default settings; written to DIR/NAME.jpg with fopen/fwrite/fclose. No SIMD of
// its own, no threads. Files that are not JPEG count as failures.
// With -d, only the decode, at libjpeg-turbo's fastest settings (the fast integer IDCT, no fancy
// upsampling) and the same DCT reduction: no resize, no encode, nothing written. That is what any
// service built on libjpeg-turbo pays at least for each JPEG it thumbnails.
//
// Usage: box-floor -o DIR [-s SIZE] [-d] FILE...   (SIZE: the longest edge, 256 unless given)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

static const char *outdir;
static int decode_only;

// Box filter of 8-bit pixels with n channels, w x h -> tw x th (tw <= w, th <= h): output pixel
// (x, y) averages input columns [x*w/tw, (x+1)*w/tw) and rows [y*h/th, (y+1)*h/th).
static unsigned char *box(const unsigned char *src, int w, int h, int n, int tw, int th) {
  unsigned char *dst = malloc((size_t)tw * th * n);
  unsigned *sum = malloc(sizeof(unsigned) * (size_t)tw * n);
  int *x0 = malloc(sizeof(int) * (tw + 1));
  for (int x = 0; x <= tw; x++) x0[x] = (int)((long)x * w / tw);
  for (int y = 0; y < th; y++) {
    int y0 = (int)((long)y * h / th), y1 = (int)((long)(y + 1) * h / th);
    memset(sum, 0, sizeof(unsigned) * (size_t)tw * n);
    for (int r = y0; r < y1; r++) {
      const unsigned char *row = src + (size_t)r * w * n;
      for (int x = 0; x < tw; x++)
        for (int i = x0[x] * n; i < x0[x + 1] * n; i += n)
          for (int c = 0; c < n; c++) sum[x * n + c] += row[i + c];
    }
    for (int x = 0; x < tw; x++) {
      unsigned count = (unsigned)(x0[x + 1] - x0[x]) * (unsigned)(y1 - y0);
      for (int c = 0; c < n; c++) dst[((size_t)y * tw + x) * n + c] = (unsigned char)((sum[x * n + c] + count / 2) / count);
    }
  }
  free(sum); free(x0);
  return dst;
}

static int write_jpeg(const char *name, const unsigned char *px, int w, int h, int n) {
  const char *base = strrchr(name, '/'); base = base ? base + 1 : name;
  char path[4096]; snprintf(path, sizeof path, "%s/%.*s.jpg", outdir, (int)strcspn(base, "."), base);
  FILE *f = fopen(path, "wb"); if (!f) return 1;
  struct jpeg_compress_struct ci; struct jpeg_error_mgr je;
  ci.err = jpeg_std_error(&je); jpeg_create_compress(&ci); jpeg_stdio_dest(&ci, f);
  ci.image_width = w; ci.image_height = h; ci.input_components = n; ci.in_color_space = n == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&ci); jpeg_set_quality(&ci, 85, TRUE); jpeg_start_compress(&ci, TRUE);
  while (ci.next_scanline < ci.image_height) { JSAMPROW r = (JSAMPROW)(px + (size_t)ci.next_scanline * w * n); jpeg_write_scanlines(&ci, &r, 1); }
  jpeg_finish_compress(&ci); jpeg_destroy_compress(&ci);
  return fclose(f) != 0;
}

struct jerr { struct jpeg_error_mgr pub; jmp_buf jb; };
static void jexit(j_common_ptr c) { longjmp(((struct jerr *)c->err)->jb, 1); }

static int thumbnail(const unsigned char *d, size_t n, int target, const char *name) {
  struct jpeg_decompress_struct ci; struct jerr je;
  ci.err = jpeg_std_error(&je.pub); je.pub.error_exit = jexit;
  unsigned char *img = NULL;
  if (setjmp(je.jb)) { jpeg_destroy_decompress(&ci); free(img); return 1; }
  jpeg_create_decompress(&ci); jpeg_mem_src(&ci, d, n); jpeg_read_header(&ci, TRUE);
  int w = ci.image_width, h = ci.image_height, lng = w > h ? w : h;
  int tw = w, th = h;  // the thumbnail: longest edge `target`, never enlarged
  if (lng > target) {
    tw = w >= h ? target : (int)(((long)w * target * 2 + lng) / (lng * 2));
    th = w >= h ? (int)(((long)h * target * 2 + lng) / (lng * 2)) : target;
  }
  if (tw < 1) tw = 1;
  if (th < 1) th = 1;
  ci.scale_num = 1; ci.scale_denom = 1;
  for (int dn = 8; dn >= 2; dn /= 2)
    if ((w + dn - 1) / dn >= tw && (h + dn - 1) / dn >= th) { ci.scale_denom = dn; break; }
  if (ci.num_components != 1 && ci.num_components != 3) { jpeg_destroy_decompress(&ci); return 1; }
  ci.out_color_space = ci.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  if (decode_only) { ci.dct_method = JDCT_IFAST; ci.do_fancy_upsampling = FALSE; }
  jpeg_start_decompress(&ci);
  size_t stride = (size_t)ci.output_width * ci.output_components;
  img = malloc(stride * ci.output_height);
  while (ci.output_scanline < ci.output_height) { JSAMPROW r = img + stride * ci.output_scanline; jpeg_read_scanlines(&ci, &r, 1); }
  jpeg_finish_decompress(&ci);
  int ow = ci.output_width, oh = ci.output_height, ch = ci.output_components;
  jpeg_destroy_decompress(&ci);
  if (decode_only) { free(img); return 0; }
  if (tw > ow) tw = ow;
  if (th > oh) th = oh;
  unsigned char *t = box(img, ow, oh, ch, tw, th);
  int fails = write_jpeg(name, t, tw, th, ch);
  free(t); free(img);
  return fails;
}

int main(int argc, char **argv) {
  if (argc < 3 || strcmp(argv[1], "-o") != 0) { fprintf(stderr, "usage: box-floor -o DIR [-s SIZE] [-d] FILE...\n"); return 2; }
  outdir = argv[2];
  int first = 3, size = 256;
  if (argc > 4 && strcmp(argv[3], "-s") == 0) { size = atoi(argv[4]); first = 5; }
  if (size < 1) { fprintf(stderr, "box-floor: -s needs a positive size\n"); return 2; }
  if (argc > first && strcmp(argv[first], "-d") == 0) { decode_only = 1; first++; }
  int fails = 0;
  for (int i = first; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb"); if (!f) { fails++; continue; }
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(len > 0 ? len : 1); size_t got = fread(d, 1, len > 0 ? len : 0, f); fclose(f);
    fails += got > 3 && d[0] == 0xFF && d[1] == 0xD8 ? thumbnail(d, got, size, argv[i]) : 1;
    free(d);
  }
  fprintf(stderr, "box-floor: %d files, %d failed\n", argc - first, fails);
  return fails ? 1 : 0;
}
