#ifndef FG_MD5_ROUNDS_H
#define FG_MD5_ROUNDS_H
// MD5's sixty-four steps as sixteen ROUNDs of four, for the one-stream code and both lane kernels: the step
// function (F, G, H, I), the four message words, the four shifts and the index of the first step's constant.
// ROUND(f, w0, w1, w2, w3, s0, s1, s2, s3, i) is each file's own.
#define FG_MD5_ROUNDS(ROUND)                                                                                      \
    ROUND(F, 0, 1, 2, 3, 7, 12, 17, 22, 0);    ROUND(F, 4, 5, 6, 7, 7, 12, 17, 22, 4);                            \
    ROUND(F, 8, 9, 10, 11, 7, 12, 17, 22, 8);  ROUND(F, 12, 13, 14, 15, 7, 12, 17, 22, 12);                       \
    ROUND(G, 1, 6, 11, 0, 5, 9, 14, 20, 16);   ROUND(G, 5, 10, 15, 4, 5, 9, 14, 20, 20);                          \
    ROUND(G, 9, 14, 3, 8, 5, 9, 14, 20, 24);   ROUND(G, 13, 2, 7, 12, 5, 9, 14, 20, 28);                          \
    ROUND(H, 5, 8, 11, 14, 4, 11, 16, 23, 32); ROUND(H, 1, 4, 7, 10, 4, 11, 16, 23, 36);                          \
    ROUND(H, 13, 0, 3, 6, 4, 11, 16, 23, 40);  ROUND(H, 9, 12, 15, 2, 4, 11, 16, 23, 44);                         \
    ROUND(I, 0, 7, 14, 5, 6, 10, 15, 21, 48);  ROUND(I, 12, 3, 10, 1, 6, 10, 15, 21, 52);                         \
    ROUND(I, 8, 15, 6, 13, 6, 10, 15, 21, 56); ROUND(I, 4, 11, 2, 9, 6, 10, 15, 21, 60)

// Four steps, the registers turning as RFC 1321 turns them; STEP(f, a, b, c, d, w, s, i) is each file's own.
#define FG_MD5_ROUND(f, w0, w1, w2, w3, s0, s1, s2, s3, i)                                                         \
    STEP(f, a, b, c, d, w0, s0, i); STEP(f, d, a, b, c, w1, s1, i + 1);                                           \
    STEP(f, c, d, a, b, w2, s2, i + 2); STEP(f, b, c, d, a, w3, s3, i + 3)

#endif
