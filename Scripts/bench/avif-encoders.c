// The AV1 encoders Debian 12 has, against libjpeg-turbo, on the same thumbnails: CPU per encode (the
// least over REP runs of each file, summed) and bytes. Used by Scripts/bench-avif-encoders.
//   avif-encoders jpeg - FILE.png...               libjpeg-turbo q85 (4:2:0), as our JPEG thumbnails
//   avif-encoders heif "speed=9,realtime=true" ... libheif 1.15 + aom at quality 70, parameters as given
//   avif-encoders avif "aom 9 22" FILE.png...      libavif 0.11: codec, speed, quantizer (min = max)
#include <stdio.h>  // before jpeglib.h, which needs FILE
#include <avif/avif.h>
#include <jpeglib.h>
#include <libheif/heif.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static struct heif_error add(struct heif_context *c, const void *d, size_t n, void *u) {
  (void)c; (void)d; *(size_t *)u += n; struct heif_error e = {heif_error_Ok, heif_suberror_Unspecified, "ok"}; return e;
}

static size_t jpeg(const uint8_t *px, int w, int h) {
  struct jpeg_compress_struct c; struct jpeg_error_mgr e; c.err = jpeg_std_error(&e); jpeg_create_compress(&c);
  unsigned char *out = NULL; unsigned long n = 0; jpeg_mem_dest(&c, &out, &n);
  c.image_width = w; c.image_height = h; c.input_components = 3; c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c); jpeg_set_quality(&c, 85, TRUE); jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < (unsigned)h) { JSAMPROW row = (JSAMPROW)px + (size_t)c.next_scanline * w * 3; jpeg_write_scanlines(&c, &row, 1); }
  jpeg_finish_compress(&c); jpeg_destroy_compress(&c); free(out); return n;
}

static size_t heif(const uint8_t *px, int w, int h, const char *params) {
  struct heif_context *ctx = heif_context_alloc(); struct heif_encoder *enc = NULL; struct heif_image *img = NULL; size_t n = 0;
  heif_context_get_encoder_for_format(ctx, heif_compression_AV1, &enc);
  heif_image_create(w, h, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &img);
  heif_image_add_plane(img, heif_channel_interleaved, w, h, 8);
  int stride; uint8_t *p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
  for (int y = 0; y < h; y++) memcpy(p + (size_t)y * stride, px + (size_t)y * w * 3, (size_t)w * 3);
  heif_encoder_set_lossy_quality(enc, 70);
  heif_encoder_set_parameter_string(enc, "chroma", "420");
  heif_encoder_set_parameter_integer(enc, "threads", 1);
  char buf[256]; snprintf(buf, sizeof buf, "%s", params);
  for (char *kv = strtok(buf, ","); kv; kv = strtok(NULL, ",")) {
    char *eq = strchr(kv, '='); if (!eq) continue; *eq = 0;
    struct heif_error e = heif_encoder_set_parameter(enc, kv, eq + 1);
    if (e.code) { fprintf(stderr, "libheif parameter %s: %s\n", kv, e.message); exit(1); }
  }
  struct heif_error e = heif_context_encode_image(ctx, img, enc, NULL, NULL);
  if (e.code) { fprintf(stderr, "libheif: %s\n", e.message); exit(1); }
  struct heif_writer wr = {1, add}; heif_context_write(ctx, &wr, &n);
  heif_image_release(img); heif_encoder_release(enc); heif_context_free(ctx); return n;
}

static size_t avif(const uint8_t *px, int w, int h, const char *spec) {
  char codec[32]; int speed, q;
  if (sscanf(spec, "%31s %d %d", codec, &speed, &q) != 3) { fprintf(stderr, "bad spec %s\n", spec); exit(64); }
  avifImage *img = avifImageCreate(w, h, 8, AVIF_PIXEL_FORMAT_YUV420);
  avifRGBImage rgb; avifRGBImageSetDefaults(&rgb, img); rgb.format = AVIF_RGB_FORMAT_RGB; rgb.pixels = (uint8_t *)px; rgb.rowBytes = w * 3;
  avifImageRGBToYUV(img, &rgb);
  avifEncoder *enc = avifEncoderCreate(); enc->codecChoice = avifCodecChoiceFromName(codec);
  enc->speed = speed; enc->maxThreads = 1; enc->minQuantizer = enc->maxQuantizer = q;
  avifRWData out = AVIF_DATA_EMPTY; avifResult r = avifEncoderWrite(enc, img, &out);
  if (r != AVIF_RESULT_OK) { fprintf(stderr, "libavif %s: %s\n", codec, avifResultToString(r)); exit(1); }
  size_t n = out.size; avifRWDataFree(&out); avifEncoderDestroy(enc); avifImageDestroy(img); return n;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: %s jpeg|heif|avif PARAMS FILE.png...\n", argv[0]); return 64; }
  int rep = getenv("REP") ? atoi(getenv("REP")) : 5;
  double total = 0; size_t bytes = 0;
  heif_init(NULL);
  for (int i = 3; i < argc; i++) {
    png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, argv[i])) { fprintf(stderr, "%s: %s\n", argv[i], im.message); return 1; }
    im.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(im));
    png_image_finish_read(&im, NULL, px, 0, NULL);
    double best = 1e9;
    for (int r = 0; r < rep; r++) {
      double t0 = cpu(); size_t n;
      if (!strcmp(argv[1], "jpeg")) n = jpeg(px, im.width, im.height);
      else if (!strcmp(argv[1], "heif")) n = heif(px, im.width, im.height, argv[2]);
      else n = avif(px, im.width, im.height, argv[2]);
      double t = cpu() - t0; if (t < best) best = t; if (r == 0) bytes += n;
    }
    total += best; free(px); png_image_free(&im);
  }
  printf("%.3f %zu\n", total * 1000 / (argc - 3), bytes);
  return 0;
}
