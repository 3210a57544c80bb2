// MD5 (RFC 1321) one stream at a time, the padding, and the driver that hands whole blocks of several streams
// to the sixteen-lane kernel (md5x16.c).
#include "fg_md5.h"
#include "md5_internal.h"
#include "md5_rounds.h"
#include <string.h>

const uint32_t fg_md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

static inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static inline uint32_t word(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define F(b, c, d) (((c ^ d) & b) ^ d)
#define G(b, c, d) (((b ^ c) & d) ^ c)
#define H(b, c, d) (b ^ c ^ d)
#define I(b, c, d) (c ^ (b | ~d))
#define STEP(f, a, b, c, d, w, s, i) a = b + rol(a + f(b, c, d) + m[w] + fg_md5_k[i], s)

void fg_md5_blocks(uint32_t h[4], const uint8_t *data, size_t blocks) {
    for (size_t n = 0; n < blocks; n++, data += 64) {
        uint32_t m[16];
        for (int w = 0; w < 16; w++) m[w] = word(data + 4 * w);
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        FG_MD5_ROUNDS(FG_MD5_ROUND);
        h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    }
}

void fg_md5_init(fg_md5 *state) {
    static const uint32_t iv[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    memcpy(state->h, iv, sizeof iv);
    state->length = 0;
    state->buffered = 0;
}

/// Completes a block begun by an earlier call from the front of `*data`, then hashes it.
static void fill(fg_md5 *state, const uint8_t **data, size_t *length) {
    if (state->buffered == 0) return;
    size_t take = 64 - state->buffered < *length ? 64 - state->buffered : *length;
    memcpy(state->buffer + state->buffered, *data, take);
    state->buffered += (uint32_t)take;
    *data += take;
    *length -= take;
    if (state->buffered == 64) {
        fg_md5_blocks(state->h, state->buffer, 1);
        state->buffered = 0;
    }
}

/// Keeps the last bytes, less than a block, for the next call.
static void keep(fg_md5 *state, const uint8_t *data, size_t length) {
    memcpy(state->buffer + state->buffered, data, length);
    state->buffered += (uint32_t)length;
}

void fg_md5_update_many(fg_md5 *const *states, const uint8_t *const *data, const size_t *lengths, int count,
                        int lanes) {
    if (lanes == 16 && fg_md5_lanes() != 16) lanes = 0;
    const uint8_t *at[count > 0 ? count : 1];
    size_t left[count > 0 ? count : 1];
    for (int i = 0; i < count; i++) {
        at[i] = data[i];
        left[i] = lengths[i];
        states[i]->length += left[i];
        fill(states[i], &at[i], &left[i]);
    }
    // Lanes while two or more streams have whole blocks left: sixteen when nine or more do, else eight (half the
    // work of sixteen). Each pass hashes as many blocks as the shortest of the streams it takes has (the tars'
    // chunks are mostly of one size, so mostly one pass).
    while (lanes == 16) {
        int taken[16], n = 0;
        size_t blocks = SIZE_MAX;
        for (int i = 0; i < count && n < 16; i++) {
            if (left[i] < 64) continue;
            taken[n++] = i;
            if (left[i] / 64 < blocks) blocks = left[i] / 64;
        }
        if (n < 2) break;
        if (n > 8) fg_md5_lane_blocks(states, at, taken, n, blocks);
        else fg_md5_lane_blocks8(states, at, taken, n, blocks);
        for (int j = 0; j < n; j++) {
            at[taken[j]] += blocks * 64;
            left[taken[j]] -= blocks * 64;
        }
    }
    for (int i = 0; i < count; i++) {
        fg_md5_blocks(states[i]->h, at[i], left[i] / 64);
        keep(states[i], at[i] + (left[i] & ~(size_t)63), left[i] & 63);
    }
}

void fg_md5_update(fg_md5 *state, const uint8_t *data, size_t length) {
    fg_md5_update_many(&state, &data, &length, 1, 0);
}

void fg_md5_final(fg_md5 *state, uint8_t digest[16]) {
    uint64_t bits = state->length * 8;
    uint8_t pad[72] = {0x80};
    size_t padding = (state->buffered < 56 ? 56 : 120) - state->buffered;
    for (int i = 0; i < 8; i++) pad[padding + i] = (uint8_t)(bits >> (8 * i));
    uint64_t length = state->length;
    fg_md5_update(state, pad, padding + 8);
    state->length = length;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) digest[4 * i + j] = (uint8_t)(state->h[i] >> (8 * j));
}
