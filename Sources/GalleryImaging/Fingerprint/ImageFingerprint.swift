/// The perceptual hash, the grey reduction and the ThumbHash of one image, from one 32x32 reduction of
/// it: what a gallery keeps of every photo to find its copies, check them, and draw its placeholder.
public struct ImageFingerprint: Sendable, Hashable {
    /// The 64-bit pHash.
    public var phash: PerceptualHash
    /// The 24 x 24 grey frame that checks a pHash match (``CopyCheck``).
    public var grey: GreyReduction
    /// The ThumbHash.
    public var thumbhash: ThumbHash

    /// Both hashes of `bitmap`. The 32x32 reduction ignores the aspect ratio, as the pHash wants; the
    /// ThumbHash's cosines run over the image whatever its grid, so it is taken from the same pixels
    /// with the bitmap's true shape.
    public init(of bitmap: Bitmap) {
        let small = PerceptualHash.reduce(bitmap)
        let grey32 = PerceptualHash.grey(small)
        phash = PerceptualHash(bits: PerceptualHash.hash(grey32))
        grey = GreyReduction(grey32: grey32)
        thumbhash = ThumbHash(rgba: ThumbHash.rgba(small), width: small.width, height: small.height,
                              aspect: (bitmap.width, bitmap.height))
    }
}
