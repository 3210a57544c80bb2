// The codec floor for Scripts/bench-thumbnails: a plain C program that decodes each file the
// cheapest way the codecs allow for a 256 px thumbnail (libjpeg-turbo with the largest DCT
// reduction that keeps the size, libpng full decode with 8-bit expansion) and does nothing else.
// It is what "the codecs' own decode time" means in the benchmark.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <png.h>

struct jerr { struct jpeg_error_mgr pub; jmp_buf jb; };
static void jexit(j_common_ptr c) { longjmp(((struct jerr *)c->err)->jb, 1); }

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb"); if (!f) return NULL;
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(len); *n = fread(b, 1, len, f); fclose(f); return b;
}

static int jpeg(const unsigned char *d, size_t n, int target) {
  struct jpeg_decompress_struct ci; struct jerr je;
  ci.err = jpeg_std_error(&je.pub); je.pub.error_exit = jexit;
  unsigned char *row = NULL;
  if (setjmp(je.jb)) { jpeg_destroy_decompress(&ci); free(row); return 1; }
  jpeg_create_decompress(&ci); jpeg_mem_src(&ci, d, n); jpeg_read_header(&ci, TRUE);
  int w = ci.image_width, h = ci.image_height, lng = w > h ? w : h;
  int tw = (int)((double)w * target / lng + 0.5), th = (int)((double)h * target / lng + 0.5);
  if (tw < 1) tw = 1; if (th < 1) th = 1;
  ci.scale_num = 1; ci.scale_denom = 1;
  for (int dn = 8; dn >= 2; dn /= 2) { if ((w + dn - 1) / dn >= tw && (h + dn - 1) / dn >= th) { ci.scale_denom = dn; break; } }
  if (ci.jpeg_color_space == JCS_CMYK || ci.jpeg_color_space == JCS_YCCK) ci.out_color_space = JCS_CMYK;
  jpeg_start_decompress(&ci);
  size_t stride = (size_t)ci.output_width * ci.output_components;
  unsigned char *img = malloc(stride * ci.output_height);
  while (ci.output_scanline < ci.output_height) { JSAMPROW r = img + stride * ci.output_scanline; jpeg_read_scanlines(&ci, &r, 1); }
  jpeg_finish_decompress(&ci); jpeg_destroy_decompress(&ci); free(img); return 0;
}

static int png(const unsigned char *d, size_t n) {
  png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&im, d, n)) return 1;
  im.format = (im.format & PNG_FORMAT_FLAG_ALPHA) ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  unsigned char *buf = malloc(PNG_IMAGE_SIZE(im));
  int ok = png_image_finish_read(&im, NULL, buf, 0, NULL);
  free(buf); png_image_free(&im); return !ok;
}

int main(int argc, char **argv) {
  int fails = 0;
  for (int i = 1; i < argc; i++) {
    size_t n; unsigned char *d = slurp(argv[i], &n); if (!d) { fails++; continue; }
    if (n > 3 && d[0] == 0xFF && d[1] == 0xD8) fails += jpeg(d, n, 256);
    else if (n > 8 && d[0] == 0x89 && d[1] == 'P') fails += png(d, n);
    else fails++;
    free(d);
  }
  fprintf(stderr, "codec-floor: %d files, %d failed\n", argc - 1, fails);
  return fails ? 1 : 0;
}
