/* The floor of a reshard that copies member bytes and records each new tar's md5 (as the wids index does): every
 * member of the input tars (ustar, headers as they are) copied into one output tar, its md5 taken on the way, on
 * one thread, nothing else (no metadata, no grouping). Two ways of moving the bytes:
 *   read: pread into a buffer, write it, md5 of the buffer          (what fetch-gallery does)
 *   cfr:  md5 of the input mapped, copy_file_range input -> output   (the kernel copies; no user-space copy)
 * Prints the output's md5 (the same for both). Time it with /usr/bin/time.
 * Usage: reshard-floor read|cfr OUT.tar IN.tar... */
#define _GNU_SOURCE
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what, const char *path) { perror(what); fprintf(stderr, "  (%s)\n", path); exit(1); }

static void put(int fd, const void *bytes, size_t count, const char *path) {
  const char *p = bytes;
  while (count > 0) {
    ssize_t n = write(fd, p, count);
    if (n <= 0) die("write", path);
    p += n; count -= (size_t)n;
  }
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[1], "read") && strcmp(argv[1], "cfr"))) {
    fprintf(stderr, "usage: reshard-floor read|cfr OUT.tar IN.tar...\n");
    return 2;
  }
  int cfr = !strcmp(argv[1], "cfr");
  const char *outPath = argv[2];
  int out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0) die("open", outPath);
  EVP_MD_CTX *md5 = EVP_MD_CTX_new();
  EVP_DigestInit_ex(md5, EVP_md5(), NULL);
  static char zeros[10240];
  size_t bufferSize = 1 << 20;
  char *buffer = malloc(bufferSize);
  for (int f = 3; f < argc; f++) {
    int in = open(argv[f], O_RDONLY);
    struct stat st;
    if (in < 0 || fstat(in, &st) < 0) die("open", argv[f]);
    unsigned char *map = NULL;
    if (cfr && (map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, in, 0)) == MAP_FAILED) die("mmap", argv[f]);
    off_t at = 0;
    while (at + 512 <= st.st_size) {
      char header[512];
      if (pread(in, header, 512, at) != 512) die("pread", argv[f]);
      if (header[0] == 0) break;
      char field[13];
      memcpy(field, header + 124, 12);
      field[12] = 0;
      long size = strtol(field, NULL, 8);
      off_t data = at + 512;
      if (data + size > st.st_size) { fprintf(stderr, "%s: cut short\n", argv[f]); return 1; }
      put(out, header, 512, outPath);
      EVP_DigestUpdate(md5, header, 512);
      if (cfr) {
        EVP_DigestUpdate(md5, map + data, size);
        loff_t from = data;
        for (long left = size; left > 0;) {
          ssize_t n = copy_file_range(in, &from, out, NULL, left, 0);
          if (n <= 0) die("copy_file_range", argv[f]);
          left -= n;
        }
      } else {
        if ((size_t)size > bufferSize) buffer = realloc(buffer, bufferSize = size);
        if (pread(in, buffer, size, data) != size) die("pread", argv[f]);
        put(out, buffer, size, outPath);
        EVP_DigestUpdate(md5, buffer, size);
      }
      long pad = (512 - size % 512) % 512;
      put(out, zeros, pad, outPath);
      EVP_DigestUpdate(md5, zeros, pad);
      at = data + size + pad;
    }
    if (map) munmap(map, st.st_size);
    close(in);
  }
  put(out, zeros, 1024, outPath);
  EVP_DigestUpdate(md5, zeros, 1024);
  unsigned char digest[16];
  unsigned int length;
  EVP_DigestFinal_ex(md5, digest, &length);
  for (unsigned int i = 0; i < length; i++) printf("%02x", digest[i]);
  printf("\n");
  if (close(out) < 0) die("close", outPath);
  return 0;
}
