// libjpeg's large allocations, advised for huge pages like our own large bitmaps.
//
// libjpeg-turbo gets its large blocks (a progressive JPEG's whole-image coefficient arrays: about 2 bytes a
// sample, 48 MB for the luma of a 24 MP photo) from jpeg_get_large, which its memory manager calls through
// the PLT, so this definition in the program takes the place of libjpeg's own (jmemnobs.c: malloc and free,
// nothing else). It does the same, and when the process asked for huge pages (fg_jpeg_advise_large_buffers,
// called by GalleryImaging's ImageMemory with HugePages' threshold) a block at or above it is a mapping of its
// own, as malloc makes one at that mmap threshold, advised MADV_HUGEPAGE before libjpeg zeroes it, so it is
// faulted in by 2 MiB pages and given back whole when freed.
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <jpeglib.h>
#include "ccodecs.h"

static _Atomic size_t large_advice_threshold = 0;
static _Atomic unsigned long large_blocks = 0;

void fg_jpeg_advise_large_buffers(size_t threshold) {
    atomic_store_explicit(&large_advice_threshold, threshold, memory_order_relaxed);
}

unsigned long fg_jpeg_large_blocks(void) { return atomic_load_explicit(&large_blocks, memory_order_relaxed); }

// The prototypes are libjpeg's (jmemsys.h, not installed).
void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject);
void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject);

// Each block starts with this header (64 bytes, so the block keeps malloc's and the page's alignment; libjpeg
// aligns within it itself): how it was made, so that freeing it never depends on the threshold of the moment.
enum { HEADER = 64, FROM_MALLOC = 0x6d616c6c, FROM_MMAP = 0x6d6d6170 };
typedef struct { uint32_t kind; size_t length; } block_header;

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    (void)cinfo;
    atomic_fetch_add_explicit(&large_blocks, 1, memory_order_relaxed);
    if (sizeofobject > SIZE_MAX - HEADER) return NULL;
    size_t length = sizeofobject + HEADER;
    size_t threshold = atomic_load_explicit(&large_advice_threshold, memory_order_relaxed);
    uint8_t *base;
    uint32_t kind;
    if (threshold > 0 && sizeofobject >= threshold) {
        // A mapping of its own (never a stretch of malloc's heap, whose later tenants the advice would
        // change), advised before libjpeg writes it.
        void *mapped = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) return NULL;
        (void)madvise(mapped, length, MADV_HUGEPAGE);
        base = mapped;
        kind = FROM_MMAP;
    } else {
        base = malloc(length);
        if (!base) return NULL;
        kind = FROM_MALLOC;
    }
    block_header header = { kind, length };
    memcpy(base, &header, sizeof header);
    return base + HEADER;
}

void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject) {
    (void)cinfo;
    (void)sizeofobject;
    if (!object) return;
    uint8_t *base = (uint8_t *)object - HEADER;
    block_header header;
    memcpy(&header, base, sizeof header);
    if (header.kind == FROM_MMAP) {
        munmap(base, header.length);
    } else {
        free(base);
    }
}
