// The body of a lane kernel, included by md5_lanes.c once for each register width: lane l of each register
// holds stream l's word, so one instruction does a step of MD5 for LANES streams. The includer defines LANES,
// VEC (the register type), V(op) (the intrinsic `op` for that width: V(add_epi32)), LOAD and STORE (a register
// from / to LANES words), BLOCK(m, data, block, step) (message word w of every lane into m[w]) and KERNEL (the
// function's name).
#define F(b, c, d) V(ternarylogic_epi32)(b, c, d, 0xCA)
#define G(b, c, d) V(ternarylogic_epi32)(b, c, d, 0xE4)
#define H(b, c, d) V(ternarylogic_epi32)(b, c, d, 0x96)
#define I(b, c, d) V(ternarylogic_epi32)(b, c, d, 0x39)
#define STEP(f, a, b, c, d, w, s, i)                                                                              \
    a = V(add_epi32)(a, V(add_epi32)(f(b, c, d), V(add_epi32)(m[w], V(set1_epi32)((int)fg_md5_k[i]))));           \
    a = V(add_epi32)(V(rol_epi32)(a, s), b)

FG_LANES_TARGET void KERNEL(fg_md5 *const *states, const uint8_t *const *at, const int *taken, int n, size_t blocks) {
    static const uint8_t idle[64];  // what an unused lane reads, again and again
    uint32_t h[4][LANES] = {{0}};
    const uint8_t *data[LANES];
    size_t step[LANES];
    for (int l = 0; l < LANES; l++) {
        data[l] = l < n ? at[taken[l]] : idle;
        step[l] = l < n ? 64 : 0;
        for (int k = 0; k < 4 && l < n; k++) h[k][l] = states[taken[l]]->h[k];
    }
    VEC A = LOAD(h[0]), B = LOAD(h[1]), C = LOAD(h[2]), D = LOAD(h[3]);
    for (size_t block = 0; block < blocks; block++) {
        VEC m[16];
        BLOCK(m, data, block, step);
        VEC a = A, b = B, c = C, d = D;
        FG_MD5_ROUNDS(FG_MD5_ROUND);
        A = V(add_epi32)(A, a); B = V(add_epi32)(B, b);
        C = V(add_epi32)(C, c); D = V(add_epi32)(D, d);
    }
    STORE(h[0], A); STORE(h[1], B); STORE(h[2], C); STORE(h[3], D);
    for (int l = 0; l < n; l++)
        for (int k = 0; k < 4; k++) states[taken[l]]->h[k] = h[k][l];
}

#undef F
#undef G
#undef H
#undef I
#undef STEP
