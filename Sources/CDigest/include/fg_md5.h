#ifndef FG_MD5_H
#define FG_MD5_H
// MD5 of many byte streams at once: each stream's state is its own (fg_md5), and fg_md5_update_many hashes
// the next bytes of several streams together, up to sixteen 64-byte blocks at a time in the lanes of AVX-512
// registers where the processor has them (checked when the process runs; the file is built for any x86-64
// or other target), one stream after another otherwise. MD5 is serial within a stream, so lanes only help
// when several streams have bytes waiting: the tars of the shards a dataset run writes at once.
#include <stddef.h>
#include <stdint.h>

/// One stream's MD5 state: the chaining value, the bytes hashed so far and the part of a block not yet hashed.
typedef struct {
    uint32_t h[4];
    uint64_t length;
    uint8_t buffer[64];
    uint32_t buffered;
} fg_md5;

/// A fresh state.
void fg_md5_init(fg_md5 *state);

/// Hashes `length` more bytes of one stream (one block after another).
void fg_md5_update(fg_md5 *state, const uint8_t *data, size_t length);

/// Hashes the next bytes of `count` different streams: `data[i]`, `lengths[i]` bytes, go to `states[i]`.
/// With `lanes` 16, the streams' whole blocks are hashed in lanes, up to sixteen streams at a time, while two or
/// more have blocks left (where fg_md5_lanes() says this processor can; else as with 0); with 0, each stream
/// on its own.
/// The digests are the same either way.
void fg_md5_update_many(fg_md5 *const *states, const uint8_t *const *data, const size_t *lengths, int count,
                        int lanes);

/// Pads the stream, writes its 16-byte digest to `digest`; the state is spent.
void fg_md5_final(fg_md5 *state, uint8_t digest[16]);

/// 16 when this processor runs the AVX-512 lanes, else 0.
int fg_md5_lanes(void);

#endif
